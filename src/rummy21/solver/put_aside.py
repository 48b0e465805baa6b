"""The 22-card variant: the least pure save once any one card is put aside."""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.cards import check_counts
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import max_pure_groups
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

    >>> from rummy21.cards import counts_of, parse_cards
    >>> hand = parse_cards("QS KS AS 2S 3S 4S 10D JD QD 5H 5D 5C 7H 7H 9C 9C 8S 6D KH JC 2C 9H")
    >>> least_after_put_aside(counts_of(hand), Jokers.from_cut("QC"), RuleSet(), 120)
    39
    """
    check_counts(counts, rules.printed_jokers)
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need or bound < 0:
        return None
    known = quick_put_aside(counts, jokers, rules)
    if known is not None and known <= bound:
        if known == 0:
            return 0
        bound = known - 1
    else:
        known = None
    run = sweep(SweepSpec(counts, jokers.joker_mask, rules, bound, variant=Variant.PUT_ASIDE))
    found = min((f.cost for f in run.finals() if f.bought == 1 and f.balance <= 0), default=None)
    return known if found is None else found


def quick_put_aside(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> int | None:
    """The points the quick arrangement of ``counts`` leaves loose once its dearest loose
    card is put aside (its groups stay, enough of them pure): a pure save of one of the hands
    left. ``None`` without a quick arrangement, or one with nothing loose (no card put aside
    would leave its groups whole).

    >>> from rummy21.cards import counts_of, parse_cards
    >>> hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    >>> quick_put_aside(counts_of(hand), Jokers.from_cut("7D"), RuleSet())  # 4C stays loose
    4
    """
    quick = quick_arrangement(counts, jokers, rules)
    if quick is None or not quick.arrangement.loose:
        return None
    mask = jokers.joker_mask
    return quick.points - max(0 if mask[c.index] else c.points for c in quick.arrangement.loose)
