"""What the server sends a seat: its view of the deal, group verdicts, arrangements, results.

Everything about a deal in progress is built from :meth:`Table.view` for that seat only, so
no other hand and no stock order can reach a browser; a deal's result (every hand laid out)
is sent once the deal is over, with the cards of dropped players kept private.

>>> from rummy21.game import Table
>>> table = Table(players=2, seed=3)
>>> state = deal_view(table, 0)
>>> len(state["hand"]), state["stock_size"], state["can_take_open"], state["drop_cost"]
(21, 116, True, 30)
>>> "stock" in state or "shoe" in state
False
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

from rummy21.analysis import analyze, analyze_counts, check_layout
from rummy21.cards import Card, CardError, counts_of
from rummy21.game.actions import Source
from rummy21.game.events import Declared
from rummy21.game.settlement import Settlement, Standing
from rummy21.game.table import Table
from rummy21.game.view import PublicEvent
from rummy21.groups import GroupKind, classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

#: How many of the latest public events and open-pile cards a state message carries.
HISTORY_TAIL = 40
OPEN_TAIL = 10

KIND_LABELS = {
    GroupKind.PURE_SEQUENCE: "pure sequence",
    GroupKind.IMPURE_SEQUENCE: "impure sequence",
    GroupKind.SET: "set",
    GroupKind.TUNNELA: "tunnela",
    GroupKind.DUBLEE: "dublee",
    GroupKind.JOKER_GROUP: "joker group",
}


def cards_text(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def jokers_dict(jokers: Jokers) -> dict[str, Any]:
    """The cut card and what it makes wild, as the page needs it to mark cards."""
    return {**jokers.to_dict(), "cut_role": str(jokers.cut_role),
            "value_cards": cards_text(jokers.value_cards)}


def rules_dict(rules: RuleSet) -> dict[str, Any]:
    """The numbers of the rule set a player sees on the page."""
    return {"name": rules.name, "first_drop": rules.first_drop, "middle_drop": rules.middle_drop,
            "wrong_declaration": rules.wrong_declaration, "full_count_cap": rules.full_count_cap,
            "timeouts_to_drop": rules.timeouts_to_drop, "joker_pickup": rules.joker_pickup,
            "total_loss_cap": rules.total_loss_cap}


def _event(event: PublicEvent) -> dict[str, Any]:
    return event.to_dict()


def deal_view(table: Table, seat: int) -> dict[str, Any]:
    """``seat``'s view of the deal in progress (or just ended), from ``table.view(seat)``."""
    view = table.view(seat)
    rules = view.rules
    me = view.seats[seat]
    blocked = view.drawn if view.drawn_from is Source.OPEN and not rules.discard_taken_card \
        else None
    top = view.top
    can_take_open = view.my_turn and view.phase.value == "draw" and top is not None and (
        top.discarded_by is None or rules.joker_pickup or not view.jokers.is_joker(top.card))
    return {
        "seat": seat, "players": view.players, "dealer": view.dealer,
        "turn": view.turn, "phase": view.phase.value, "my_turn": view.my_turn,
        "hand": cards_text(view.hand),
        "drawn": None if view.drawn is None else str(view.drawn),
        "drawn_from": None if view.drawn_from is None else view.drawn_from.value,
        "blocked": None if blocked is None else str(blocked),
        "stock_size": view.stock_size,
        "open_count": len(view.open_pile),
        "open_pile": [{"card": str(o.card), "by": o.discarded_by}
                      for o in view.open_pile[-OPEN_TAIL:]],
        "can_take_open": bool(can_take_open),
        "jokers": jokers_dict(view.jokers),
        "rules": rules_dict(rules),
        "seats": [{"seat": s.seat, "cards": s.cards, "standing": s.standing.value,
                   "drop": s.drop.value if s.drop else None, "played": s.played,
                   "timeouts": s.timeouts} for s in view.seats],
        "history": [_event(e) for e in view.history[-HISTORY_TAIL:]],
        "events": len(view.history),
        "turns": view.turns,
        "scores": None if view.scores is None else list(view.scores),
        "drop_cost": rules.first_drop if me.played == 0 else rules.middle_drop,
    }


def finish_card(table: Table) -> Card | None:
    """The card a valid declarer put on the finish slot."""
    for event in reversed(table.log):
        if isinstance(event, Declared) and event.valid:
            return event.finish
    return None


def result_view(table: Table, number: int, seat: int | None, point_value: Decimal,
                names: Sequence[str]) -> dict[str, Any]:
    """The result of a finished deal as ``seat`` may see it (``None``: a spectator/history)."""
    settlement = table.result
    assert settlement is not None
    return settlement_dict(settlement, table.jokers, table.rules, number, seat, point_value,
                           names, finish_card(table))


def settlement_dict(settlement: Settlement, jokers: Jokers, rules: RuleSet, number: int,
                    seat: int | None, point_value: Decimal, names: Sequence[str],
                    finish: Card | None) -> dict[str, Any]:
    seats = []
    for s in settlement.seats:
        row = s.to_dict()
        row["name"] = names[s.seat] if s.seat < len(names) else f"Seat {s.seat + 1}"
        row["money"] = str(s.score * point_value)
        row["groups"] = [{"kind": g.kind.value, "label": KIND_LABELS[g.kind],
                          "cards": cards_text(g.cards)} for g in s.groups]
        if s.seat == settlement.winner and not s.groups and len(s.cards) == rules.hand_size:
            # The last player left never declared: lay its hand out as the solver would.
            shown = read_hand(s.cards, jokers, rules)
            row["groups"], row["loose"] = shown["groups"], shown["loose"]
        if s.standing is Standing.DROPPED and s.seat != seat:
            # A dropped hand is folded face down: nobody else sees it.
            row["cards"], row["loose"], row["groups"] = [], [], []
            row["hidden"] = True
        seats.append(row)
    return {"deal": number, "reason": settlement.reason.value, "winner": settlement.winner,
            "option": settlement.option, "scores": list(settlement.scores),
            "finish": None if finish is None else str(finish),
            "jokers": jokers_dict(jokers), "seats": seats}


# ------------------------------------------------------------------ reading a hand
def label_groups(groups: Sequence[Sequence[Card]], jokers: Jokers,
                 rules: RuleSet) -> list[dict[str, Any]]:
    """Each group of a player's layout: its kind (with a label), or why it is no group.

    >>> from rummy21.cards import parse_cards
    >>> j = Jokers.from_cut(Card.parse("5H"))
    >>> [g["label"] for g in label_groups([parse_cards("2H 3H 4H"), parse_cards("8S 8S 8H")],
    ...                                   j, RuleSet())]
    ['pure sequence', 'not valid']
    """
    out = []
    for cards in groups:
        points = sum(jokers.points(c) for c in cards)
        reason = explain(list(cards), jokers, rules)
        if reason is not None:
            out.append({"valid": False, "kind": None, "label": "not valid", "pure": False,
                        "reason": reason, "points": points})
            continue
        group = classify(list(cards), jokers, rules)
        out.append({"valid": True, "kind": group.kind.value, "label": KIND_LABELS[group.kind],
                    "pure": group.is_pure, "reason": None, "points": points})
    return out


@lru_cache(maxsize=4096)
def _reading(counts: tuple[int, ...], cut: Card, rules: RuleSet) -> dict[str, Any]:
    cards = [Card(i) for i, n in enumerate(counts) for _ in range(n)]
    jokers = Jokers.from_cut(cut)
    if len(cards) == rules.hand_size:
        analysis = analyze_counts(counts, jokers, rules)
        discard = None
    else:
        analysis = analyze(cards, cut, rules)
        discard = analysis.discard
    penalty = analysis.penalty
    if analysis.valid and analysis.options[0] == "A":
        groups, loose = analysis.groups, analysis.loose
    else:
        groups, loose = penalty.groups, penalty.loose
    return {
        "cards": len(cards), "penalty": penalty.points, "rule": penalty.rule,
        "valid": analysis.valid, "options": list(analysis.options),
        "value": analysis.value.to_dict(),
        "discard": None if discard is None else str(discard),
        "groups": [{"kind": g.kind.value, "label": KIND_LABELS[g.kind],
                    "cards": cards_text(g.cards)} for g in groups],
        "loose": cards_text(loose),
    }


def read_hand(cards: Sequence[Card], jokers: Jokers, rules: RuleSet) -> dict[str, Any]:
    """Penalty, validity, value points and the solver's arrangement of 21 or 22 cards.

    With 22 cards (after drawing) it reads the 21 left after the best card to put aside
    (RULES §8), which it names as ``discard`` and leaves out of the groups.

    >>> from rummy21.cards import parse_cards
    >>> hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
    >>> r = read_hand(hand, Jokers.from_cut(Card.parse("7D")), RuleSet())
    >>> r["valid"], r["penalty"], r["rule"], len(r["groups"]), r["loose"]
    (True, 0, 'pure_save', 7, [])
    """
    return _reading(tuple(counts_of(cards)), jokers.cut, rules)


def check_declaration(hand: Sequence[Card], finish: Card, groups: Sequence[Sequence[Card]],
                      jokers: Jokers, rules: RuleSet) -> dict[str, Any]:
    """What declaring with ``finish`` and this layout would be (``check_layout``, explained).

    Raises :class:`ValueError` if the cards are not the player's (besides ``finish``).
    """
    rest = list(hand)
    if finish not in rest:
        raise CardError(f"you hold no {finish}")
    rest.remove(finish)
    for group in groups:
        for card in group:
            if card not in rest:
                raise CardError(f"the layout shows {card}, which is not in your hand "
                                "(besides the finish card)")
            rest.remove(card)
    check = check_layout([list(g) for g in groups], jokers.cut, rules, rest)
    out = check.to_dict()
    out["finish"] = str(finish)
    out["labels"] = label_groups(groups, jokers, rules)
    out["cost_if_wrong"] = rules.wrong_declaration
    return out
