"""The 22-card variant: the least pure save once any one card is put aside."""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import max_pure_groups
from rummy21.solver.sweep import _Table


def least_after_put_aside(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
                          bound: int) -> int | None:
    """The least pure save (points outside groups, enough pure groups) of the hands left by
    putting any one card of ``counts`` aside, if at most ``bound``; else ``None``.

    One sweep instead of one per card: the sweep above, where one card (a loose one, or a
    joker card) may be put aside at no cost, and exactly one must be.
    """
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need or bound < 0:
        return None
    table = _Table(counts, jokers.joker_mask, rules, bound, False, aside=True)
    return min((cost for key, entries in table.run().items()
                if key[4] >= need and key[5] == 1
                for balance, cost, _ in entries if balance <= 0), default=None)
