"""The 22-card variant: the least pure save once any one card is put aside."""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.cards import check_counts
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import max_pure_groups
from rummy21.solver.sweep import SweepSpec, Variant, sweep


def least_after_put_aside(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, bound: int
) -> int | None:
    """The least pure save (points outside groups, enough pure groups) of the hands left by
    putting any one card of ``counts`` aside, if at most ``bound``; else ``None``.

    One sweep instead of one per card: the sweep of :func:`~rummy21.solver.solve`, where one
    card (a loose one, or a joker card) may be put aside at no cost, and exactly one must be.

    >>> from rummy21.cards import counts_of, parse_cards
    >>> hand = parse_cards("QS KS AS 2S 3S 4S 10D JD QD 5H 5D 5C 7H 7H 9C 9C 8S 6D KH JC 2C 9H")
    >>> least_after_put_aside(counts_of(hand), Jokers.from_cut("QC"), RuleSet(), 120)
    39
    """
    check_counts(counts, rules.printed_jokers)
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need or bound < 0:
        return None
    run = sweep(SweepSpec(counts, jokers.joker_mask, rules, bound, variant=Variant.PUT_ASIDE))
    return min((f.cost for f in run.finals() if f.bought == 1 and f.balance <= 0), default=None)
