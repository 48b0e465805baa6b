"""Time the quick first pass alone (``quick_arrangement``) on the corpora, per core.

    python bench/bench_quick.py [--rounds N] [--before REVISION]

Each round times every hand of a corpus once on each contender, in turn (the order rotates
between rounds, so drift on a shared machine falls on all alike), the memo tables cleared
first: the native core, its pure-Python twin (``rummy21.solver.backend``), and with
``--before`` the quick pass of another version of the solver (a git revision, as
``bench_solver.py --solver`` takes it). Prints median / p90 / p99 / mean µs per hand.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from typing import Any

from bench_solver import _at, load, solver_from

from rummy21.cards import counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend, greedy, quick

Contender = tuple[str, Callable[..., Any], Callable[[], None]]


def _clear_twin() -> None:
    greedy.suit_cores.cache_clear()
    greedy._line_cores.cache_clear()


def contenders(before: str | None) -> list[Contender]:
    """(name, quick_arrangement, how to clear its memo) for each version and core timed."""

    def on(core: str) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            with backend.using(core):
                return quick.quick_arrangement(*args)

        return run

    found: list[Contender] = [(core, on(core), _clear_twin) for core in backend.available()]
    if before:
        old = solver_from(before).quick

        def clear_old() -> None:
            for name in ("_suit_cores", "_line_cores"):
                cached = getattr(old, name, None)
                if cached is not None:
                    cached.cache_clear()

        found.append((f"before ({before})", old.quick_arrangement, clear_old))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", help="also time the quick pass of this git revision")
    args = parser.parse_args()
    rules = RuleSet()
    every = contenders(args.before)
    for name in ("random", "near"):
        work = [(counts_of(hand), Jokers.from_cut(cut), rules) for cut, hand in load(name)]
        times: dict[str, list[float]] = {label: [] for label, _, _ in every}
        for r in range(args.rounds):
            for label, run, clear in every[r % len(every) :] + every[: r % len(every)]:
                clear()
                gc.disable()
                try:
                    for hand in work:
                        start = time.perf_counter()
                        run(*hand)
                        times[label].append(time.perf_counter() - start)
                finally:
                    gc.enable()
        print(f"== corpus_{name}.txt ({len(work)} hands, {args.rounds} rounds): µs per hand")
        for label, found in times.items():
            mean = sum(found) / len(found)
            print(
                f"  {label:>22}: median {_at(found, 0.5) * 1e6:6.1f}  p90 "
                f"{_at(found, 0.9) * 1e6:6.1f}  p99 {_at(found, 0.99) * 1e6:6.1f}  "
                f"mean {mean * 1e6:6.1f}"
            )


if __name__ == "__main__":
    main()
