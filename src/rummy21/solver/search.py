"""The 21-card solve: the quick first pass, then which sweeps to run (:func:`solve`)."""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.cards import check_counts
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.backend import max_pure_groups
from rummy21.solver.quick import place_spare, quick_arrangement
from rummy21.solver.rebuild import rebuild
from rummy21.solver.results import Solution
from rummy21.solver.sweep import Final, Sweep, SweepSpec, sweep

FIT_LOOSE = 2
"""The most loose cards of the quick arrangement worth trying to fit into its groups."""
FEW_LOOSE = 1
"""When the quick arrangement leaves more natural cards loose than this, a solution with
nothing loose is rare, so the sweep for one alone is skipped. On the benchmark corpora, with
two or three natural cards loose the solution has nothing loose in 8 hands of 113, with one
in 19 of 40 (a loose joker card often only shows a poor quick arrangement)."""


def solve(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, bound: int | None = None
) -> Solution:
    """Solve a hand given as a count vector (:attr:`rummy21.cards.Hand.counts`): the least
    points outside groups with enough pure groups (the pure save) and an arrangement with it,
    and an arrangement proving Option A if there is one.

    A quick greedy arrangement comes first: often it proves Option A outright (at once, or
    once its one or two loose cards fit into its groups), else its loose points bound the
    search. When it leaves few cards loose, a sweep keeping only
    arrangements with nothing loose then decides Option A and finds a pure save of 0.
    Otherwise one sweep bounded by the quick arrangement's points finds the least (and, if
    that is 0, settles Option A the same way). With ``bound``, a pure save above it is not
    looked for (reported as ``None``): callers pass the full count or dublee save that beats
    it.

    >>> from rummy21.cards import Card, Hand
    >>> hand = Hand.parse("QS KS AS 2S 3S 4S 10D JD QD 5H 5D 5C 7H 7H 9C 9C 8S 6D KH JC 2C")
    >>> found = solve(hand.counts, Jokers.from_cut(Card.parse("QC")), RuleSet())
    >>> found.pure_save, found.option_a is None
    (58, True)
    >>> sorted({meld.kind.value for meld in found.pure_arrangement.groups})
    ['pure_sequence', 'set']
    """
    check_counts(counts, rules.printed_jokers)
    return solve_unchecked(counts, jokers, rules, bound)


def solve_unchecked(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, bound: int | None = None
) -> Solution:
    """:func:`solve` for a count vector the caller has already checked
    (:func:`rummy21.cards.check_counts`): the analysis reads one hand many times."""
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need:
        return Solution(None, None, None)
    quick = quick_arrangement(counts, jokers, rules)
    if quick is not None and not quick.arrangement.loose:
        return Solution(0, quick.arrangement, quick.arrangement)
    if quick is not None and len(quick.arrangement.loose) <= FIT_LOOSE:
        placed = place_spare(quick.arrangement, jokers, rules)
        if placed is not None:
            return Solution(0, placed, placed)
    mask = jokers.joker_mask
    limit = (1 << 30) if bound is None else bound
    if quick is not None and quick.points < limit:
        limit = quick.points  # the sweep need not look beyond the quick arrangement
    if quick is None or sum(not mask[c.index] for c in quick.arrangement.loose) <= FEW_LOOSE:
        # Nothing loose is likely: a sweep keeping only such arrangements is quick.
        zero = sweep(SweepSpec(counts, mask, rules, 0))
        found = _complete(zero)
        if found:
            return _nothing_loose(zero, found, jokers, rules)
    # The bounded sweep also finds every arrangement with nothing loose (the zero sweep's),
    # when that sweep was skipped.
    bounded = sweep(SweepSpec(counts, mask, rules, limit))
    complete = _complete(bounded)
    found = [f for f in complete if f.cost == 0]
    if found:
        return _nothing_loose(bounded, found, jokers, rules)
    best = min(complete, default=None, key=lambda f: f.cost)
    if best is None:
        return Solution(None, None, None)
    return Solution(best.cost, lambda: rebuild(bounded, best).arrangement, None)


def _complete(run: Sweep) -> list[Final]:
    """The complete arrangements a sweep found (no joker owed)."""
    return [final for final in run.finals() if final.balance <= 0]


def _nothing_loose(run: Sweep, found: list[Final], jokers: Jokers, rules: RuleSet) -> Solution:
    """The solution when arrangements with nothing loose exist (``found``: cost 0 finals).

    Option A also needs every spare joker placed; a sweep that keeps the most spare jokers
    usually settles it, else an exact sweep tracks each balance.
    """
    first = found[0]
    pure_arrangement = rebuild(run, first).arrangement
    proof = next((f for f in found if f.places_jokers(rules)), None)
    if proof is not None:
        same = (proof.balance, proof.key) == (first.balance, first.key)
        return Solution(
            0, pure_arrangement, pure_arrangement if same else rebuild(run, proof).arrangement
        )
    for final in found[:4]:  # one or two spare jokers: try to fit them in
        placed = place_spare(rebuild(run, final).arrangement, jokers, rules)
        if placed is not None:
            return Solution(0, pure_arrangement, placed)
    exact = sweep(SweepSpec(run.spec.counts, jokers.joker_mask, rules, 0, exact=True))
    proof = next((f for f in exact.finals() if f.places_jokers(rules)), None)
    return Solution(
        0, pure_arrangement, rebuild(exact, proof).arrangement if proof is not None else None
    )
