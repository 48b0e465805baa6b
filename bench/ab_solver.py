"""Compare two versions of the solver on the benchmark corpus, interleaved hand by hand.

    git show HEAD~1:src/rummy21/solver.py > /tmp/old_solver.py
    python bench/ab_solver.py /tmp/old_solver.py src/rummy21/solver.py [--runs 5]

This machine's speed drifts by up to 2x over minutes, so two benchmark runs one after the
other do not compare; here each hand is solved by both versions in turn, several times, and
the fastest time of each counts (memo tables warmed first). Prints the sum, p99 and max.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

from bench_solver import load
from rummy21.cards import counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


def module_from(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rules = RuleSet()
    versions = [module_from(args.old, "solver_old"), module_from(args.new, "solver_new")]
    for corpus in ("random", "near"):
        hands = [(counts_of(hand), Jokers.from_cut(cut)) for cut, hand in load(corpus)]
        for version in versions:
            for counts, jokers in hands:
                version.solve(counts, jokers, rules)
        best = [[float("inf")] * len(hands) for _ in versions]
        for _ in range(args.runs):
            for i, (counts, jokers) in enumerate(hands):
                for v, version in enumerate(versions):
                    start = time.perf_counter()
                    version.solve(counts, jokers, rules)
                    best[v][i] = min(best[v][i], time.perf_counter() - start)
        for label, times in zip((args.old, args.new), best):
            ordered = sorted(times)
            print(f"{corpus:6} {Path(label).name:24} sum {sum(times):.3f} s  "
                  f"p99 {ordered[int(0.99 * len(ordered))] * 1e3:.1f} ms  "
                  f"max {ordered[-1] * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
