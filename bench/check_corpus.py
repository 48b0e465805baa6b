"""Check every hand of the benchmark corpus against the exhaustive reference of the tests.

    python bench/check_corpus.py [--sample N] [--jobs N]

Each hand is read by the production analysis and by the reference (``tests/reference.py``);
options, penalty (points, rule, uncapped) and value points must agree, and every arrangement
production returns is checked group by group by the reference — the same comparison as
``tests/test_crosscheck.py``, which runs it in CI on 2,000 generated hands of the same kinds.
Exits 1 and prints the hands if any disagree.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from bench_solver import load  # noqa: E402
from test_crosscheck import disagreements  # noqa: E402

from rummy21.cards import Card, format_cards  # noqa: E402
from rummy21.ruleset import RuleSet  # noqa: E402

RULES = RuleSet()


def _check(item: tuple[str, int, Card, list[Card]]) -> tuple[str, int, list[str]]:
    name, number, cut, hand = item
    return name, number, disagreements(cut, hand, RULES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="only the first N hands of each half")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core)")
    args = parser.parse_args()
    items = []
    for name in ("random", "near"):
        hands = load(name)
        if args.sample:
            hands = hands[: args.sample]
        items += [(name, number, cut, hand) for number, (cut, hand) in enumerate(hands, 1)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs or None) as pool:
        results = pool.map(_check, items, chunksize=16)
    failures = [
        (item, problems) for item, (_, _, problems) in zip(items, results, strict=True) if problems
    ]
    for (name, number, cut, hand), problems in failures:
        print(f"corpus_{name}.txt hand {number}: cut {cut} {format_cards(sorted(hand))}")
        for problem in problems:
            print(f"    {problem}")
    print(
        f"{len(items)} hands checked against the reference in {time.perf_counter() - start:.0f} s: "
        f"{len(failures)} disagree"
    )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
