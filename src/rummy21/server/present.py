"""What the server sends a seat: its view of the deal, group verdicts, arrangements, results,
and the state message that carries them with the room's facts (:func:`state_message`).

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

import time
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from rummy21.analysis import check_layout
from rummy21.bots import level_of
from rummy21.bots.advice import advise, layout_of
from rummy21.cards import ALL_CARDS, Card, CardError, Hand, MissingCard, without
from rummy21.game.events import Declared
from rummy21.game.match import DealSummary
from rummy21.game.narration import charge_reason, narrate, plain
from rummy21.game.seat import seat_words
from rummy21.game.settlement import Settlement, hand_shown
from rummy21.game.table import Table
from rummy21.game.view import Phase, PublicEvent, View
from rummy21.groups import Group, classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.server.model import SeatKind
from rummy21.server.snapshot import RoomSnapshot
from rummy21.solver import max_pure_groups
from rummy21.suggest import suggest

#: How many of the latest public events and open-pile cards a state message carries.
HISTORY_TAIL = 40
OPEN_TAIL = 10


def cards_text(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def jokers_dict(jokers: Jokers) -> dict[str, Any]:
    """The cut card and what it makes wild, as the page needs it to mark cards: the page asks
    these lists, it never works out a joker or a value card itself."""
    return {
        **jokers.to_dict(),
        "cut_role": str(jokers.cut_role),
        "value_cards": cards_text(jokers.value_cards),
        "joker_cards": [str(ALL_CARDS[i]) for i, wild in enumerate(jokers.joker_mask) if wild],
    }


def rules_dict(rules: RuleSet) -> dict[str, Any]:
    """The numbers of the rule set a player sees on the page."""
    return {
        "name": rules.name,
        "first_drop": rules.first_drop,
        "middle_drop": rules.middle_drop,
        "wrong_declaration": rules.wrong_declaration,
        "full_count_cap": rules.full_count_cap,
        "timeouts_to_drop": rules.timeouts_to_drop,
        "joker_pickup": rules.joker_pickup,
        "total_loss_cap": rules.total_loss_cap,
    }


def event_dict(
    event: PublicEvent, rules: RuleSet, viewer: int | None, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """A public event for a page: its fields, and ``text``, the narrator's sentence as
    ``viewer`` hears it (its own seat is "You"; ``None``: a spectator).

    >>> from rummy21.game import Table
    >>> table = Table(players=2, seed=3)
    >>> _ = table.draw("open")
    >>> event_dict(table.view(0).history[-1], table.rules, 0, ["Asha", "Ravi"])["text"]
    'You take A♠ from the open pile.'
    """

    def name(seat: int | None) -> str:
        if seat is None:
            return ""
        if seat == viewer:
            return "You"
        return names[seat] if names is not None and seat < len(names) else seat_words(seat)

    return {**event.to_dict(), "text": plain(narrate(event, name, rules), Card.pretty)}


def deal_view(table: Table, seat: int, names: Sequence[str] | None = None) -> dict[str, Any]:
    """``seat``'s view of the deal in progress (or just ended): ``table.view(seat)`` as
    :meth:`~rummy21.game.view.View.to_dict` says it (the one serializer of a View, which the
    bot protocol sends whole), with what a page needs besides: the open pile's and history's
    last entries only (``open_count`` and ``events`` count them all), the history narrated
    with ``names``, the jokers and rules spelt out, and ``my_turn``.
    """
    view = table.view(seat)
    data = view.to_dict()
    data.update(
        my_turn=view.my_turn,
        open_count=len(view.open_pile),
        open_pile=data["open_pile"][-OPEN_TAIL:],
        jokers=jokers_dict(view.jokers),
        rules=rules_dict(view.rules),
        history=[event_dict(e, view.rules, seat, names) for e in view.history[-HISTORY_TAIL:]],
        events=len(view.history),
    )
    return data


def bot_view(table: Table, seat: int, number: int) -> dict[str, Any]:
    """``seat``'s view of deal ``number`` (from 0) as the bot protocol gives it, for a program
    playing the seat (:mod:`rummy21.bots.live`): ``view`` (:meth:`View.to_dict`), ``legal``
    (the actions it may take now, in their text form; empty when it is not in turn) and, once
    the deal is over, ``result`` (:meth:`~rummy21.game.settlement.Settlement.public_dict`).

    >>> from rummy21.game import Table
    >>> table = Table(players=2, seed=3)
    >>> answer = bot_view(table, table.turn, 0)
    >>> answer["legal"], answer["result"], answer["view"] == table.view(table.turn).to_dict()
    (['draw stock', 'draw open', 'drop'], None, True)
    >>> bot_view(table, 1 - table.turn, 0)["legal"]
    []
    """
    result = table.result
    return {
        "type": "view",
        "deal": number,
        "view": table.view(seat).to_dict(),
        "legal": [str(a) for a in table.legal_actions()] if table.turn == seat else [],
        "result": None if result is None else result.public_dict(seat),
    }


def finish_card(table: Table) -> Card | None:
    """The card a valid declarer put on the finish slot."""
    for event in reversed(table.log):
        if isinstance(event, Declared) and event.valid:
            return event.finish
    return None


def result_view(
    table: Table, number: int, seat: int | None, point_value: Decimal, names: Sequence[str]
) -> dict[str, Any]:
    """The result of a finished deal as ``seat`` may see it (``None``: a spectator/history)."""
    settlement = table.result
    assert settlement is not None
    return settlement_dict(
        settlement, table.jokers, table.rules, number, seat, point_value, names, finish_card(table)
    )


def settlement_dict(
    settlement: Settlement,
    jokers: Jokers,
    rules: RuleSet,
    number: int,
    seat: int | None,
    point_value: Decimal,
    names: Sequence[str],
    finish: Card | None,
) -> dict[str, Any]:
    seats = []
    for s in settlement.seats:
        row = s.to_dict()
        row["name"] = names[s.seat] if s.seat < len(names) else seat_words(s.seat)
        row["money"] = str(s.score * point_value)
        row["groups"] = [group_dict(g) for g in s.groups]
        row["rule_label"] = None if s.rule is None else s.rule.label
        if s.seat == settlement.winner and not s.groups and len(s.cards) == rules.hand_size:
            # The last player left never declared: lay its hand out as the solver would.
            row["groups"], row["loose"] = hand_layout(s.cards, jokers, rules)
        if not hand_shown(s.standing, s.seat, seat):
            row["cards"], row["loose"], row["groups"] = [], [], []
            row["hidden"] = True
        seats.append(row)
    return {
        "deal": number,
        "reason": settlement.reason.value,
        "winner": settlement.winner,
        "option": settlement.option,
        "scores": list(settlement.scores),
        "finish": None if finish is None else str(finish),
        "jokers": jokers_dict(jokers),
        "seats": seats,
    }


# ------------------------------------------------------------------ reading a hand
def label_groups(
    groups: Sequence[Sequence[Card]], jokers: Jokers, rules: RuleSet
) -> list[dict[str, Any]]:
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
            out.append(
                {
                    "valid": False,
                    "kind": None,
                    "label": "not valid",
                    "pure": False,
                    "reason": reason,
                    "points": points,
                }
            )
            continue
        group = classify(list(cards), jokers, rules)
        out.append(
            {
                "valid": True,
                "kind": group.kind.value,
                "label": group.kind.label,
                "pure": group.is_pure,
                "reason": None,
                "points": points,
            }
        )
    return out


def group_dict(group: Group) -> dict[str, Any]:
    return {
        "kind": group.kind.value,
        "label": group.kind.label,
        "pure": group.is_pure,
        "cards": cards_text(group.cards),
    }


def reading(view: View) -> dict[str, Any]:
    """What the page shows beside the hand, from the coach (:func:`rummy21.bots.advice.advise`):
    the hand laid out, the real penalty and why, value cards, and the advised move — which is
    never one the table would refuse. :class:`ValueError` if the seat holds no hand.

    ``penalty``/``rule``/``uncapped`` are what the 21 cards shown would pay if another player
    declared now (the seat's charge, :meth:`~rummy21.game.view.View.charge`: the first-turn cap
    too), ``reason`` and ``why`` the narration's words for it
    (:func:`~rummy21.game.narration.charge_reason`), which the page shows as they are;
    ``pure_groups`` (of ``pure_needed``) and ``dublees`` (of
    ``dublee_save_min``) say why a save does or does not apply. After drawing, ``discard`` is
    the card to let go (``declare``: finishing with it is valid); before drawing in turn,
    ``draw`` is where to draw from and ``gain`` how much the open card lowers the penalty.

    >>> from rummy21.game import Table
    >>> r = reading(Table(players=2, seed=2).view(0))
    >>> r["cards"], r["draw"], r["rule"], r["pure_needed"], len(r["groups"]) > 0
    (21, 'open', 'full_count', 3, True)
    """
    rules = view.rules
    advice = advise(view)
    analysis = advice.analysis
    counts = analysis.cards.counts
    layout = advice.layout
    charged = view.charge(analysis.penalty)
    reason, why = charge_reason(charged, analysis, advice.layout, rules)
    return {
        "cards": len(view.hand),
        "valid": analysis.valid,
        "options": list(analysis.options),
        "penalty": charged.points,
        "rule": charged.rule,
        "uncapped": charged.count,
        "cap": rules.full_count_cap,
        "reason": reason,
        "why": why,
        "pure_groups": min(max_pure_groups(counts), rules.pure_groups_needed),
        "pure_needed": rules.pure_groups_needed,
        "dublees": sum(n // 2 for n in counts),
        "dublee_save_min": rules.dublee_save_min,
        "value": analysis.value.to_dict(),
        "discard": None if advice.release is None else str(advice.release),
        "declare": advice.declare,
        "draw": None if advice.draw is None else advice.draw.value,
        "gain": advice.gain,
        "groups": [group_dict(g) for g in layout.groups],
        "loose": cards_text(layout.loose),
        "loose_points": layout.loose_points,
        "route": layout.route,
    }


def arrangement(view: View, keep: Sequence[Sequence[Card]] = ()) -> dict[str, Any]:
    """The layout to put the seat's cards in: the whole hand as :func:`reading` shows it, or,
    with ``keep`` (groups the player built and keeps), only the other cards. After drawing,
    ``discard`` is the advised card to let go when it is among those cards. ``reading`` is
    the whole hand's :func:`reading`.

    Raises :class:`CardError` if ``keep`` shows cards the seat does not hold.
    """
    read = reading(view)
    if not keep:
        return {
            "groups": read["groups"],
            "loose": read["loose"],
            "discard": read["discard"],
            "keep": [],
            "reading": read,
        }
    rest = cards_outside(list(view.hand), keep, "your groups")
    discard = None
    if view.my_turn and view.phase is Phase.DISCARD:
        advised = read["discard"]
        if advised is not None and Card.parse(advised) in rest:
            rest.remove(Card.parse(advised))
            discard = advised
    layout = suggest(rest, view.jokers, view.rules) if rest else None
    return {
        "groups": [] if layout is None else [group_dict(g) for g in layout.groups],
        "loose": [] if layout is None else cards_text(layout.loose),
        "discard": discard,
        "keep": [cards_text(g) for g in keep],
        "reading": read,
    }


def cards_outside(hand: Sequence[Card], groups: Sequence[Sequence[Card]], what: str) -> list[Card]:
    """The cards of ``hand`` not in ``groups``; :class:`CardError` naming a card of
    ``groups`` that the hand does not hold (``what`` names the groups in the message).

    >>> from rummy21.cards import parse_cards
    >>> cards_outside(parse_cards("2S 3S 4S 9H"), [parse_cards("2S 3S 4S")], "the layout")
    [Card('9H')]
    """
    try:
        return without(hand, (card for group in groups for card in group))
    except MissingCard as error:
        raise CardError(f"{what} shows {error.card}, which is not in your hand") from None


def hand_layout(
    cards: Sequence[Card], jokers: Jokers, rules: RuleSet
) -> tuple[list[dict[str, Any]], list[str]]:
    """A hand laid out as the coach shows it: (groups, loose cards)."""
    layout = layout_of(Hand.of(cards), jokers, rules)
    return [group_dict(g) for g in layout.groups], cards_text(layout.loose)


def check_declaration(
    hand: Sequence[Card],
    finish: Card,
    groups: Sequence[Sequence[Card]],
    jokers: Jokers,
    rules: RuleSet,
) -> dict[str, Any]:
    """What declaring with ``finish`` and this layout would be (``check_layout``, explained).

    Raises :class:`ValueError` if the cards are not the player's (besides ``finish``).
    """
    if finish not in hand:
        raise CardError(f"you hold no {finish}")
    others = list(hand)
    others.remove(finish)
    rest = cards_outside(others, groups, "the layout (besides the finish card)")
    check = check_layout([list(g) for g in groups], jokers.cut, rules, rest)
    out = check.to_dict()
    # When the cards are valid but the layout does not show it, the arrangement that does.
    proof = check.analysis if check.valid and not check.options_as_shown else None
    out["proof"] = (
        None
        if proof is None
        else {"groups": [group_dict(g) for g in proof.groups], "loose": cards_text(proof.loose)}
    )
    out["finish"] = str(finish)
    out["labels"] = label_groups(groups, jokers, rules)
    out["cost_if_wrong"] = rules.wrong_declaration
    return out


# ------------------------------------------------------------------ a room's messages
def state_message(room: RoomSnapshot, seat: int) -> dict[str, Any]:
    """Everything ``seat``'s browser shows, sent after every change: the room, the match,
    ``seat``'s view of the deal (:func:`deal_view`), the result once the deal is over, the
    clocks (epoch ms), who is ready for the next deal, and ``trouble``: what the server says
    while it cannot save the table's changes (``None``: all is well)."""
    table = room.table
    deal = None if table is None else deal_view(table, seat, room.names)
    result = None
    if table is not None and table.over and table.result is not None:
        result = result_view(table, room.number, seat, room.point_value, room.names)
    clocks, trouble = room.clocks, room.trouble
    return {
        "type": "state",
        "version": room.version,
        "you": seat,
        "room": room_info(room),
        "match": match_info(room),
        "deal": deal,
        "result": result,
        "deadline": _epoch_ms(clocks.deadline),
        "deadline_kind": clocks.deadline_kind,
        "next_deal_at": _epoch_ms(clocks.next_deal),
        "ready": sorted(room.ready),
        "trouble": None
        if trouble is None
        else {"text": trouble.text, "retry_at": _epoch_ms(trouble.retry_at)},
        "server_now": int(time.time() * 1000),
    }


def _epoch_ms(wall: float | None) -> int | None:
    return None if wall is None else int(wall * 1000)


def room_info(room: RoomSnapshot) -> dict[str, Any]:
    """The public facts of a room (the lobby's view, and ``room`` in the state message)."""
    config = room.config
    return {
        "code": room.code,
        "status": room.status.value,
        "players": config.players,
        "rules": config.rules,
        "point_value": config.point_value,
        "turn_seconds": config.turn_seconds,
        "deals": config.deals,
        "deal": room.number,
        "deals_done": len(room.deals),
        "host": config.host,
        "public_history": config.public_history,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind.value,
                "bot": s.bot if s.kind is SeatKind.BOT else None,
                "name": s.display,
                "taken": s.taken,
                "connected": room.is_connected(s.seat),
                "autoplay": s.autoplay,
                "level": level_of(s.bot) if s.bot else None,
            }
            for s in room.slots
        ],
    }


def match_info(room: RoomSnapshot) -> dict[str, Any]:
    """The match so far: running totals (points and money) and every finished deal."""
    return {
        "deal": room.number,
        "deals": room.config.deals,
        "point_value": room.config.point_value,
        "totals": list(room.totals),
        "money": [str(room.money(seat)) for seat in range(room.config.players)],
        "history": [summary_dict(s) for s in room.deals],
    }


def history_info(room: RoomSnapshot, viewer: int | None) -> dict[str, Any]:
    """A table's finished deals, for its history page (``viewer``: the asking seat)."""
    return {
        "code": room.code,
        "names": room.names,
        "rules": room.config.rules,
        "point_value": room.config.point_value,
        "deals": room.config.deals,
        "finished": [summary_dict(s) for s in room.deals],
        "totals": list(room.totals),
        "viewer": viewer,
        "public_history": room.config.public_history,
    }


def summary_dict(summary: DealSummary) -> dict[str, Any]:
    """One finished deal in the match's history (the state message, the history page)."""
    return {
        "deal": summary.number,
        "dealer": summary.dealer,
        "winner": summary.winner,
        "reason": summary.reason.value,
        "option": None if summary.option is None else str(summary.option),
        "turns": summary.turns,
        "scores": list(summary.scores),
    }


def away_notice(bot: str, turns: int | None) -> str:
    """What a player who comes back is told about the bot that played for it, named by its
    level as the lobby names it (``turns``: how many turns it played, ``None`` if not known:
    the server restarted meanwhile).

    >>> away_notice("greedy", 3)
    'The Medium bot played for you while you were away (3 turns).'
    >>> away_notice("random", 1)
    'The Easy bot played for you while you were away (1 turn).'
    >>> away_notice("greedy", 0)
    'The Medium bot was playing for you while you were away; it has not had a turn yet.'
    >>> away_notice("random", None)
    'The Easy bot played for you while you were away.'
    >>> away_notice("expert", 2)
    'The Hard bot played for you while you were away (2 turns).'
    """
    who = f"The {level_of(bot)} bot"
    if turns is None:
        return f"{who} played for you while you were away."
    if turns == 0:
        return f"{who} was playing for you while you were away; it has not had a turn yet."
    return f"{who} played for you while you were away ({turns} turn{'s' * (turns != 1)})."
