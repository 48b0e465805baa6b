"""Benchmark the hand analysis on the fixed corpus (see make_corpus.py).

    python bench/bench_solver.py [--sample N] [--reference N] [--skip-cli] [--helpers N]

Prints, per corpus, median / p90 / p99 / max time of the full 21-card analysis and of the
22-card analysis (each hand plus one seeded extra card), the throughput of
``rummy21 analyze --json --batch`` end to end (start-up included; one process, then the
default, one worker per core; on each half of the corpus and on the whole), the speed-up over the exhaustive reference of the tests, timed on a sample
of the same hands in the same run, and the bot helpers on the first ``--helpers`` hands:
the distance to a valid declaration and the outs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rummy21.analysis import analyze_counts, analyze, outs
from rummy21.distance import distance
from rummy21.cards import Card, counts_of, parse_cards
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))


def load(name: str) -> list[tuple[Card, list[Card]]]:
    hands = []
    for line in (HERE / f"corpus_{name}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            cut, _, cards = line.partition(":")
            hands.append((Card.parse(cut), parse_cards(cards)))
    return hands


def quantiles(times: list[float]) -> str:
    ordered = sorted(times)
    at = lambda f: ordered[min(len(ordered) - 1, int(f * len(ordered)))]  # noqa: E731
    return (f"median {at(0.5) * 1e3:8.3f} ms  p90 {at(0.9) * 1e3:8.3f} ms  "
            f"p99 {at(0.99) * 1e3:8.3f} ms  max {ordered[-1] * 1e3:8.1f} ms  (n={len(ordered)})")


def timed(items: list[tuple[Card, list[Card]]], run: Callable[[Card, list[Card]], object]) -> list[float]:
    times = []
    for cut, hand in items:
        start = time.perf_counter()
        run(cut, hand)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="only the first N hands of each corpus")
    parser.add_argument("--reference", type=int, default=100,
                        help="hands per corpus timed with the reference too")
    parser.add_argument("--skip-cli", action="store_true")
    parser.add_argument("--helpers", type=int, default=100,
                        help="hands per corpus timed with distance and outs")
    args = parser.parse_args()
    rules = RuleSet()
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, one core")
    whole: dict[str, list[float]] = {"21": [], "22": []}     # both halves of the corpus
    for name in ("random", "near"):
        hands = load(name)
        if args.sample:
            hands = hands[:args.sample]
        print(f"\n== corpus_{name}.txt ({len(hands)} hands)")
        solve21 = lambda cut, hand: analyze_counts(counts_of(hand), Jokers.from_cut(cut), rules)  # noqa: E731
        timed(hands[:50], solve21)                     # warm the memo tables
        ours = timed(hands, solve21)
        whole["21"] += ours
        print(f"21-card analysis   {quantiles(ours)}")
        rng = random.Random(22)
        plus = []
        for cut, hand in hands:
            counts = counts_of(hand)
            extra = rng.choice([c for c in map(Card, range(53))
                                if counts[c.index] < (rules.printed_jokers if c.is_printed_joker else 3)])
            plus.append((cut, hand + [extra]))
        with_extra = timed(plus, lambda cut, hand: analyze(hand, cut, rules))
        whole["22"] += with_extra
        print(f"22-card analysis   {quantiles(with_extra)}")
        if args.reference:
            from reference import analyse as reference  # the oracle kept in tests/
            sample = hands[:args.reference]
            ref = timed(sample, lambda cut, hand: reference(hand, cut, rules))
            mine = ours[:len(sample)]
            print(f"reference (tests)  {quantiles(ref)}")
            print(f"speed-up on those {len(sample)} hands: median {sorted(ref)[len(ref) // 2] / sorted(mine)[len(mine) // 2]:.1f}x, "
                  f"total {sum(ref) / sum(mine):.1f}x")
        if args.helpers:
            sample = hands[:args.helpers]
            if name == "near":      # exact; far hands (random deals) take seconds: see limit
                print(f"distance           {quantiles(timed(sample, lambda cut, hand: distance(hand, cut, rules)))}")
            print(f"distance, limit 3  {quantiles(timed(sample, lambda cut, hand: distance(hand, cut, rules, 3)))}")
            print(f"outs               {quantiles(timed(sample, lambda cut, hand: outs(hand, cut, rules)))}")
    print(f"\n== the whole corpus ({len(whole['21'])} hands)")
    print(f"21-card analysis   {quantiles(whole['21'])}")
    print(f"22-card analysis   {quantiles(whole['22'])}")
    if not args.skip_cli:
        batch_throughput()


def rummy21_command() -> list[str]:
    """The console script installed beside this Python (a shim on PATH, as pyenv's, adds
    its own start-up); else whatever ``rummy21`` is on PATH."""
    beside = Path(sys.executable).parent / "rummy21"
    return [str(beside)] if beside.exists() else ["rummy21"]


def batch_throughput(runs: int = 3) -> None:
    """``rummy21 analyze --json --batch`` end to end, start-up included, on each half of
    the corpus and on the whole of it (2,000 hands): one process, then the default (one
    worker per core). The fastest and the median of ``runs`` runs (the machine drifts)."""
    import tempfile
    command = rummy21_command()
    print(f"\n== {' '.join(command)} analyze --json --batch FILE (start-up included; "
          f"fastest / median of {runs} runs)")
    with tempfile.TemporaryDirectory() as tmp:
        whole = Path(tmp) / "corpus_whole.txt"
        whole.write_text("".join((HERE / f"corpus_{n}.txt").read_text() for n in ("random", "near")))
        for label, path in (("random", HERE / "corpus_random.txt"),
                            ("near", HERE / "corpus_near.txt"), ("whole corpus", whole)):
            for jobs, workers in ((["--jobs", "1"], "one process"),
                                  ([], f"default: one worker per core ({os.cpu_count()})")):
                rates = []
                for _ in range(runs):
                    start = time.perf_counter()
                    done = subprocess.run(command + ["analyze", "--json", "--batch", str(path)]
                                          + jobs, capture_output=True, text=True, check=False)
                    elapsed = time.perf_counter() - start
                    lines = done.stdout.count("\n")
                    rates.append(lines / elapsed)
                rates.sort(reverse=True)
                print(f"{label:13} {workers:34} {lines} hands: {rates[0]:6.0f} / "
                      f"{rates[len(rates) // 2]:6.0f} hands/s (exit {done.returncode})")

if __name__ == "__main__":
    main()
