"""The 21-card solve: the quick pass, then which sweeps to run."""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import max_pure_groups
from rummy21.solver.packing import _Struct
from rummy21.solver.quick import _greedy, _place_spare
from rummy21.solver.results import Solution
from rummy21.solver.sweep import _Table


def solve(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
          bound: int | None = None) -> Solution:
    """Solve a hand given as a count vector (see :func:`rummy21.cards.counts_of`).

    A quick greedy arrangement comes first: often it proves Option A outright (at once, or
    once its one or two loose cards fit into its groups), else its loose points bound the
    search. When it leaves few cards loose, a sweep keeping only
    arrangements with nothing loose then decides Option A and finds a pure save of 0.
    Otherwise one sweep bounded by the quick arrangement's points finds the least (and, if
    that is 0, settles Option A the same way). With ``bound``, a pure save above it is not looked
    for (reported as ``None``): callers pass the full count or dublee save that beats it.
    """
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need:
        return Solution(None, None, None)
    return _solve(counts, jokers, rules, bound)


def _solve(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
           bound: int | None) -> Solution:
    need = rules.pure_groups_needed

    def finals(table: _Table) -> list[tuple[int, int, _Struct]]:
        """(loose points, joker balance, state) of the complete arrangements found."""
        return [(cost, balance, key) for key, entries in table.run().items() if key[4] >= need
                for balance, cost, _ in entries if balance <= 0]

    quick = _greedy(counts, jokers, rules)
    if quick is not None and not quick[1].loose:
        return Solution(0, quick[1], quick[1])
    if quick is not None and len(quick[1].loose) <= _FIT_LOOSE:
        placed = _place_spare(quick[1], jokers, rules)
        if placed is not None:
            return Solution(0, placed, placed)
    mask = jokers.joker_mask
    limit = (1 << 30) if bound is None else bound
    if quick is not None and quick[0] < limit:
        limit = quick[0]        # the sweep need not look beyond the quick arrangement
    if quick is None or sum(not mask[c.index] for c in quick[1].loose) <= _FEW_LOOSE:
        # Nothing loose is likely: a sweep keeping only such arrangements is quick.
        zero = _Table(counts, mask, rules, 0, False)
        found = finals(zero)
        if found:
            return _nothing_loose(zero, found, counts, jokers, rules)
    # The bounded sweep also finds every arrangement with nothing loose (the zero sweep's),
    # when that sweep was skipped.
    table = _Table(counts, mask, rules, limit, False)
    complete = finals(table)
    found = [f for f in complete if f[0] == 0]
    if found:
        return _nothing_loose(table, found, counts, jokers, rules)
    best = min(complete, default=None, key=lambda f: f[0])
    if best is None:
        return Solution(None, None, None)
    return Solution(best[0], table.rebuild(best[2], best[1]), None)


_FIT_LOOSE = 2
"""The most loose cards of the quick arrangement worth trying to fit into its groups."""
_FEW_LOOSE = 1
"""When the quick arrangement leaves more natural cards loose than this, a solution with
nothing loose is rare, so the sweep for one alone is skipped. On the benchmark corpora, with
two or three natural cards loose the solution has nothing loose in 8 hands of 113, with one
in 19 of 40 (a loose joker card often only shows a poor quick arrangement)."""


def _places_jokers(balance: int, rules: RuleSet) -> bool:
    """Whether an arrangement with this joker balance has every joker in a group."""
    return balance == 0 or (balance <= -3 and rules.joker_groups)


def _nothing_loose(table: _Table, found: list[tuple[int, int, _Struct]], counts: Sequence[int],
                   jokers: Jokers, rules: RuleSet) -> Solution:
    """The solution when arrangements with nothing loose exist (``found``: cost 0 finals).

    Option A also needs every spare joker placed; a sweep that keeps the most spare jokers
    usually settles it, else an exact sweep tracks each balance.
    """
    _, balance, key = found[0]
    pure_arrangement = table.rebuild(key, balance)
    proof = next(((b, k) for _, b, k in found if _places_jokers(b, rules)), None)
    if proof is not None:
        same = proof == (balance, key)
        return Solution(0, pure_arrangement,
                        pure_arrangement if same else table.rebuild(proof[1], proof[0]))
    for _, b, k in found[:4]:       # one or two spare jokers: try to fit them in
        placed = _place_spare(table.rebuild(k, b), jokers, rules)
        if placed is not None:
            return Solution(0, pure_arrangement, placed)
    exact = _Table(counts, jokers.joker_mask, rules, 0, True)
    need = rules.pure_groups_needed
    proof = next(((b, k) for k, entries in exact.run().items() if k[4] >= need
                  for b, _, _ in entries if _places_jokers(b, rules)), None)
    return Solution(0, pure_arrangement,
                    exact.rebuild(proof[1], proof[0]) if proof is not None else None)
