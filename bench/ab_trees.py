"""Compare two source trees (the native core each built in place) on the corpus, hand by hand.

    python bench/ab_trees.py OLD_SRC NEW_SRC [--what outs,distance] [--corpus random,near]
                             [--hands 100] [--runs 1] [--clock cpu|wall]
    # e.g. a revision against the work tree:
    #   git archive REV src setup.py pyproject.toml README.md | tar -x -C /tmp/old
    #   (cd /tmp/old && python setup.py build_ext --inplace -q)
    #   python bench/ab_trees.py /tmp/old/src src --what outs

``ab_solver.py`` swaps the solver's Python package in one process; a change to the C core or
to the analysis needs the whole tree. Here each tree runs in a worker process of its own
(``PYTHONPATH`` set to it), and the two are asked in turn for each hand (the order swapped
from hand to hand), so that the machine's drift and the other processes on it weigh on both
alike. Each call runs in the cycle collector's pause, as bench_solver.py times it; the
fastest of ``--runs`` counts. ``--clock cpu`` times the worker's CPU time (a busy machine
then delays, but does not count against, either). The answers are compared too: any that
differ are named. Measures: ``a21``, ``a22`` (as bench_solver.py's 21- and 22-card
analyses), ``outs``, ``distance`` (limit 3) and ``exact`` (the distance without a limit).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from bench_solver import load

HERE = Path(__file__).resolve().parent
MEASURES = ("a21", "a22", "outs", "distance", "exact")


def worker(clock_name: str) -> None:
    """Answer ``measure corpus index`` lines with the seconds taken and a digest of the
    answer."""
    from rummy21.analysis import analyze, analyze_counts, outs
    from rummy21.cards import Card, counts_of
    from rummy21.distance import distance
    from rummy21.jokers import Jokers
    from rummy21.ruleset import RuleSet
    from rummy21.solver import paused_collection

    rules = RuleSet()
    hands = {name: load(name) for name in ("random", "near")}
    plus: dict[str, list[tuple[Card, list[Card]]]] = {}
    for name, items in hands.items():  # the 22-card hands of bench_solver.py
        rng = random.Random(22)
        plus[name] = []
        for cut, hand in items:
            counts = counts_of(hand)
            room = [
                c
                for c in map(Card, range(53))
                if counts[c.index] < (rules.printed_jokers if c.is_printed_joker else 3)
            ]
            plus[name].append((cut, hand + [rng.choice(room)]))

    def answer(measure: str, name: str, i: int) -> object:
        cut, hand = (plus if measure == "a22" else hands)[name][i]
        if measure == "a22":
            found = analyze(hand, cut, rules)
            return found.discard, found.penalty.points, found.options
        if measure == "a21":
            read = analyze_counts(counts_of(hand), Jokers.from_cut(cut), rules)
            return read.penalty.points, read.options
        if measure == "outs":
            return sorted((str(card), points) for card, points in outs(hand, cut, rules).items())
        far = distance(hand, cut, rules, 3 if measure == "distance" else None)
        return far.cards, far.option

    clock = time.process_time if clock_name == "cpu" else time.perf_counter
    for line in sys.stdin:
        measure, name, number = line.split()
        start = clock()
        with paused_collection():
            found = answer(measure, name, int(number))
        took = clock() - start
        digest = hashlib.md5(repr(found).encode()).hexdigest()[:12]
        print(took, digest, flush=True)


def ask(proc: subprocess.Popen[str], measure: str, name: str, i: int) -> tuple[float, str]:
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None and stdout is not None
    stdin.write(f"{measure} {name} {i}\n")
    stdin.flush()
    took, digest = stdout.readline().split()
    return float(took), digest


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    at = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"median {ordered[len(ordered) // 2] * 1e3:8.3f} ms  p99 {at * 1e3:8.3f} ms  "
        f"max {ordered[-1] * 1e3:7.1f} ms  sum {sum(ordered):7.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="?", help="the first tree's src directory")
    parser.add_argument("new", nargs="?", help="the second tree's src directory")
    parser.add_argument("--what", default="a21,a22,outs,distance", help=", ".join(MEASURES))
    parser.add_argument("--corpus", default="random,near")
    parser.add_argument("--hands", type=int, default=100, help="the first N hands of each")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.clock)
        return
    if not args.old or not args.new:
        parser.error("two src directories are needed")
    trees = (args.old, args.new)
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", "--clock", args.clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{HERE}"},
        )
        for tree in trees
    ]
    width = max(map(len, trees))
    for measure in args.what.split(","):
        for name in args.corpus.split(","):
            count = min(args.hands, len(load(name)))
            for i in range(min(20, count)):  # (memo tables warmed alike)
                for proc in procs:
                    ask(proc, measure, name, i)
            best = [[float("inf")] * count for _ in procs]
            differ = []
            for run in range(args.runs):
                for i in range(count):
                    digests = ["", ""]
                    for v in (0, 1) if (i + run) % 2 == 0 else (1, 0):
                        took, digests[v] = ask(procs[v], measure, name, i)
                        best[v][i] = min(best[v][i], took)
                    if digests[0] != digests[1] and i not in differ:
                        differ.append(i)
            for tree, times in zip(trees, best, strict=True):
                print(f"{measure:8} {name:6} {tree:{width}}  {summary(times)}")
            ratio = sum(best[1]) / sum(best[0])
            print(f"{measure:8} {name:6} {'new / old':{width}}  sum {ratio:.3f}", end="")
            print(f"  answers differ on hands {differ}" if differ else "  same answers")
    for proc in procs:
        stream: IO[str] | None = proc.stdin
        if stream is not None:
            stream.close()
        proc.wait()


if __name__ == "__main__":
    main()
