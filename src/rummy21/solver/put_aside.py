"""The 22-card variant: the least pure save once any one card is put aside."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rummy21.cards import check_counts
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.backend import max_pure_groups
from rummy21.solver.quick import quick_arrangement
from rummy21.solver.sweep import SweepSpec, Variant, sweep


def least_after_put_aside(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, bound: int
) -> int | None:
    """The least pure save (points outside groups, enough pure groups) of the hands left by
    putting any one card of ``counts`` aside, if at most ``bound``; else ``None``.

    One sweep instead of one per card: the sweep of :func:`~rummy21.solver.solve`, where one
    card (a loose one, or a joker card) may be put aside at no cost, and exactly one must be.
    The quick arrangement of all the cards, its dearest loose card put aside, is a pure save
    some hand left has (:func:`quick_put_aside`): the sweep need not look at or beyond it.

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("QS KS AS 2S 3S 4S 10D JD QD 5H 5D 5C 7H 7H 9C 9C 8S 6D KH JC 2C 9H")
    >>> least_after_put_aside(hand.counts, Jokers.from_cut("QC"), RuleSet(), 120)
    39
    """
    check_counts(counts, rules.printed_jokers)
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need or bound < 0:
        return None
    quick = quick_put_aside(counts, jokers, rules)
    known = None
    if quick is not None and quick.points <= bound:
        known = quick.points
        if known == 0:
            return 0
        bound = known - 1
    run = sweep(SweepSpec(counts, jokers.joker_mask, rules, bound, variant=Variant.PUT_ASIDE))
    found = min((f.cost for f in run.finals() if f.bought == 1 and f.balance <= 0), default=None)
    return known if found is None else found


class QuickAside(NamedTuple):
    """A card put aside from the quick arrangement, and what is then left loose."""

    points: int
    kind: int
    """The card put aside (:attr:`~rummy21.cards.Card.index`)."""


def quick_put_aside(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> QuickAside | None:
    """The quick arrangement of ``counts`` with its dearest loose card put aside (its groups
    stay, enough of them pure), and the points it then leaves loose: a pure save of one of the
    hands left. ``None`` without a quick arrangement, or one with nothing loose (no card put
    aside would leave its groups whole).

    >>> from rummy21.cards import Card, Hand
    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    >>> points, kind = quick_put_aside(hand.counts, Jokers.from_cut("7D"), RuleSet())
    >>> points, Card(kind)  # loose: AD and 4C; AD put aside
    (4, Card('AD'))
    """
    quick = quick_arrangement(counts, jokers, rules)
    if quick is None or not quick.arrangement.loose:
        return None
    mask = jokers.joker_mask
    card = max(quick.arrangement.loose, key=lambda c: 0 if mask[c.index] else c.points)
    return QuickAside(quick.points - (0 if mask[card.index] else card.points), card.index)
