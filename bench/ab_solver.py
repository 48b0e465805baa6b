"""Compare two versions of the solver on the benchmark corpus, interleaved hand by hand.

    python bench/ab_solver.py OLD NEW [--runs 5] [--what solve,aside,replace] [--collector on]
    python bench/ab_solver.py HEAD~1 src/rummy21/solver          # a revision against the tree
    python bench/ab_solver.py /tmp/old_solver.py src/rummy21/solver

Each version is a git revision, a package directory or a module file (see
``bench_solver.solver_from``); both are imported into this one process. This machine's speed
drifts by up to 2x over minutes, so two benchmark runs one after the other do not compare;
here each hand is solved by both versions in turn, several times, and the fastest time of
each counts (memo tables warmed first). Prints the sum, p99 and max, and NEW / OLD.

``--what`` picks the calls: ``solve`` (the 21-card hands), ``aside``
(``least_after_put_aside`` on each hand plus one seeded card, as bench_solver.py's 22-card
hands, bounded by the 21-card hand's pure save as ``analysis.outs`` does) and ``replace``
(``replacements`` up to 3, the distance of ``analyze --distance``).
Each call runs inside the version's opt-in pause of the cycle collector when it has one
(older versions paused it themselves); ``--collector on`` leaves it running for versions
that let the caller choose.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from types import ModuleType

from bench_solver import load, pause_of, solver_from

from rummy21.cards import Card, counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

RULES = RuleSet()
Hand = tuple[list[int], Jokers, int]
"""Count vector, jokers, bound (for ``aside``)."""
Call = Callable[[ModuleType, Sequence[int], Jokers, int], object]
CALLS: dict[str, Call] = {
    "solve": lambda solver, counts, jokers, _: solver.solve(counts, jokers, RULES),
    "aside": lambda solver, counts, jokers, bound: solver.least_after_put_aside(
        counts, jokers, RULES, bound
    ),
    "replace": lambda solver, counts, jokers, _: solver.replacements(counts, jokers, RULES, 3),
}


def hands_for(corpus: str, what: str, solver: ModuleType) -> list[Hand]:
    """The corpus as count vectors; for ``aside``, each hand plus one seeded card, and the
    pure save of the hand without it (or the cap) as the bound (``solver`` finds it)."""
    hands = [(counts_of(hand), Jokers.from_cut(cut), 0) for cut, hand in load(corpus)]
    if what != "aside":
        return hands
    rng = random.Random(22)
    plus = []
    for counts, jokers, _ in hands:
        extra = rng.choice(
            [
                c
                for c in map(Card, range(53))
                if counts[c.index] < (RULES.printed_jokers if c.is_printed_joker else 3)
            ]
        )
        more = list(counts)
        more[extra.index] += 1
        save = solver.solve(counts, jokers, RULES).pure_save
        plus.append((more, jokers, RULES.full_count_cap if save is None else save))
    return plus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="git revision, package directory or module file")
    parser.add_argument("new", help="git revision, package directory or module file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--what", default="solve", help="comma-separated: " + ", ".join(CALLS) + " (default: solve)"
    )
    parser.add_argument("--corpus", default="random,near", help="random, near or both")
    parser.add_argument("--collector", choices=("paused", "on"), default="paused")
    args = parser.parse_args()
    labels = (args.old, args.new)
    versions = [solver_from(source) for source in labels]
    pauses = [pause_of(version, args.collector) for version in versions]
    width = max(map(len, labels))
    for what in args.what.split(","):
        call = CALLS[what]
        for corpus in args.corpus.split(","):
            hands = hands_for(corpus, what, versions[0])
            for version, pause in zip(versions, pauses, strict=True):
                for counts, jokers, bound in hands:
                    with pause():
                        call(version, counts, jokers, bound)
            best = [[float("inf")] * len(hands) for _ in versions]
            for _ in range(args.runs):
                for i, (counts, jokers, bound) in enumerate(hands):
                    for v, (version, pause) in enumerate(zip(versions, pauses, strict=True)):
                        start = time.perf_counter()
                        with pause():
                            call(version, counts, jokers, bound)
                        best[v][i] = min(best[v][i], time.perf_counter() - start)
            for label, times in zip(labels, best, strict=True):
                ordered = sorted(times)
                print(
                    f"{what:7} {corpus:6} {label:{width}}  sum {sum(times):7.3f} s  "
                    f"p99 {ordered[int(0.99 * len(ordered))] * 1e3:7.1f} ms  "
                    f"max {ordered[-1] * 1e3:7.1f} ms"
                )
            ratio = sum(best[1]) / sum(best[0])
            print(f"{what:7} {corpus:6} {'new / old':{width}}  sum {ratio:.3f}")


if __name__ == "__main__":
    main()
