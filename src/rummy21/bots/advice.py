"""The coach: what one seat is told about its own hand, from its :class:`View` alone.

Every hint a player sees — where to draw, the best discard, "you can declare: finish with X",
the arrangement shown and auto-selected — comes from :func:`advise`, and only ever names a
move the table would accept: the cards it may release come from the view (``view.blocked``
is never one of them), and "take the open card" is offered only when ``view.can_take_open``.
The browser table and the terminal game both ask it; neither works advice out itself.

How it ranks a card to let go of the 22 (discard, or finish a declaration with):

* a card whose 21 others are a valid declaration first, keeping the most value points;
* else the lowest penalty the 21 others would pay (RULES §7), then the fewest points they
  leave loose as laid out by :mod:`rummy21.suggest` (early in a deal every penalty is the
  capped full count, and this is what tells a loose King from a King in a set), then a
  non-joker, then the higher-point card, then the earliest in canonical order.

Taking the open card is advised when the best hand after it ranks better in the same terms
than the hand now.

>>> from rummy21.game import Table
>>> table = Table(players=2, seed=2)
>>> advice = advise(table.view(0))
>>> advice.draw.value, advice.release is None, len(advice.layout.groups) > 0
('open', True, True)
>>> advice.then.release != table.open_pile[-1].card      # what to let go once it is taken
True
>>> _ = table.draw("open")
>>> advice = advise(table.view(0))
>>> advice.release != table.view(0).blocked and table.can_discard(advice.release)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rummy21.analysis import Analysis, PenaltyRule, analyze
from rummy21.cards import Card, Hand
from rummy21.game.actions import Source
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import Phase, View
from rummy21.groups import Group
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.suggest import Route, Suggestion, suggest

_Rank = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Advice:
    """What the coach says to one seat now."""

    analysis: Analysis
    """The reading of the 21 cards the layout shows: validity, penalty and its rule, value."""
    layout: Suggestion
    """The cards arranged to be shown: the arrangement proving a valid hand, else the best
    groups (:func:`rummy21.suggest.suggest`). After drawing: the 21 cards kept."""
    release: Card | None = None
    """After drawing: the card to discard, or to finish with when ``declare``."""
    declare: bool = False
    """Whether finishing with ``release`` is a valid declaration."""
    draw: Source | None = None
    """Before drawing, in the seat's turn: where to draw from."""
    gain: int = 0
    """Before drawing: how much taking the open card lowers the penalty (0 if it does not)."""
    then: Advice | None = None
    """When ``draw`` is the open pile: the advice once it is taken (what to let go, the
    layout of the 21 cards kept)."""


def advise(view: View) -> Advice:
    """The advice for ``view.seat`` (see the module docstring); :class:`ValueError` if the
    seat holds no hand (it dropped, or the deal is over for it)."""
    jokers, rules = view.jokers, view.rules
    if len(view.hand) not in (rules.hand_size, rules.hand_size + 1):
        raise ValueError("there is no hand to advise on")
    hand = view.hand
    if view.my_turn and view.phase is Phase.DISCARD:
        card, rank = _best_release(hand, view.blocked, jokers, rules)
        kept = hand.minus([card])
        return Advice(
            _analysis(kept, jokers, rules), layout_of(kept, jokers, rules), card, rank[0] == 0
        )
    analysis = _analysis(hand, jokers, rules)
    layout = layout_of(hand, jokers, rules)
    if not (view.my_turn and view.phase is Phase.DRAW):
        return Advice(analysis, layout)
    top = view.top
    if top is not None and view.can_take_open:
        taken = hand.plus(top.card)
        card, after = _best_release(taken, kept_after_taking(top.card, rules), jokers, rules)
        if after < _rank_kept(hand, jokers, rules):
            kept = taken.minus([card])
            then = Advice(
                _analysis(kept, jokers, rules), layout_of(kept, jokers, rules), card, after[0] == 0
            )
            return Advice(
                analysis,
                layout,
                draw=Source.OPEN,
                gain=max(0, analysis.penalty.points - then.analysis.penalty.points),
                then=then,
            )
    return Advice(analysis, layout, draw=Source.STOCK)


def _best_release(
    hand: Hand, blocked: Card | None, jokers: Jokers, rules: RuleSet
) -> tuple[Card, _Rank]:
    """The card to let go of ``hand`` (22 cards) and the rank of the 21 it keeps."""
    candidates = sorted({c for c in hand if c != blocked}, key=lambda c: c.index)
    readings = {c: _analysis(hand.minus([c]), jokers, rules) for c in candidates}
    first = min((not a.valid, a.penalty.points) for a in readings.values())
    best: tuple[_Rank, Card] | None = None
    for card, reading in readings.items():
        if (not reading.valid, reading.penalty.points) != first:
            continue
        if reading.valid:
            rank: _Rank = (0, 0, -reading.value.points, card.index)
        else:
            loose = layout_of(hand.minus([card]), jokers, rules).loose_points
            rank = (
                1,
                reading.penalty.points,
                loose,
                jokers.is_joker(card),
                -card.points,
                card.index,
            )
        if best is None or rank < best[0]:
            best = (rank, card)
    assert best is not None
    return best[1], best[0]


def _rank_kept(hand: Hand, jokers: Jokers, rules: RuleSet) -> _Rank:
    """The rank of a 21-card hand kept as it is (comparable with :func:`_best_release`'s)."""
    reading = _analysis(hand, jokers, rules)
    if reading.valid:
        return (0, 0, -reading.value.points)
    return (1, reading.penalty.points, layout_of(hand, jokers, rules).loose_points)


@lru_cache(maxsize=8192)
def _analysis(hand: Hand, jokers: Jokers, rules: RuleSet) -> Analysis:
    return analyze(hand, jokers, rules)


def layout_of(hand: Hand, jokers: Jokers, rules: RuleSet) -> Suggestion:
    """How to show the cards of ``hand``: the arrangement its reading counts — a valid hand
    as the arrangement proving it, a hand that pays by the pure or the dublee save as the
    groups that save counts (so the layout shown is the one the penalty is read from) — and
    any other as its best groups (:func:`rummy21.suggest.suggest`: the full count counts no
    groups, and these are the ones to build on).

    >>> from rummy21.ruleset import CLASSIC
    >>> hand = Hand.parse("6S 7S 8S 9S 10H JH QH 10C JC QC QD JD 3S 3S 3H 5H 4D 7D 7C 7C QS")
    >>> jokers = Jokers.from_cut(Card.parse("10D"))
    >>> shown, reading = layout_of(hand, jokers, CLASSIC), analyze(hand, jokers, CLASSIC)
    >>> reading.penalty.rule, shown.pure_groups, shown.loose == reading.penalty.loose
    ('pure_save', 3, True)
    """
    if len(hand) == rules.hand_size:
        reading = _analysis(hand, jokers, rules)
        groups: tuple[Group, ...]
        if reading.valid:
            groups, loose = reading.groups, reading.loose
            route = Route.DUBLEES if reading.options[0] == "C" else Route.GROUPS
        elif reading.penalty.groups and reading.penalty.rule in _SAVES:
            groups, loose = reading.penalty.groups, reading.penalty.loose
            route = _SAVES[reading.penalty.rule]
        else:
            return suggest(hand, jokers, rules)
        return Suggestion(
            groups,
            loose,
            sum(jokers.points(c) for c in loose),
            sum(g.is_pure for g in groups),
            route,
        )
    return suggest(hand, jokers, rules)


_SAVES = {PenaltyRule.PURE_SAVE: Route.GROUPS, PenaltyRule.DUBLEE_SAVE: Route.DUBLEES}
"""The penalty rules that count groups, and the way each lays the cards out."""
