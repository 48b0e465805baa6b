"""Benchmark the hand analysis on the fixed corpus (see make_corpus.py).

    python bench/bench_solver.py [--sample N] [--reference N] [--skip-cli] [--helpers N]
                                 [--twin N] [--solver SOURCE] [--collector paused|on]

Prints, per corpus, median / p90 / p99 / max time of the full 21-card analysis and of the
22-card analysis (each hand plus one seeded extra card), the throughput of
``rummy21 analyze --json --batch`` end to end (start-up included; one process, then the
default, one worker per core; on each half of the corpus and on the whole), the speed-up over
the exhaustive reference of the tests, timed on a sample of the same hands in the same run,
and the bot helpers on the first ``--helpers`` hands: the distance to a valid declaration and
the outs. With the native core in use, the first ``--twin`` hands of each corpus are timed
again on its pure-Python twin (``rummy21.solver.backend``), and the speed-ups printed.

``--solver`` runs it all with another version of the solver (a git revision, a package
directory or a module file: see :func:`solver_from`), for figures before and after a change
taken the same way. Each reading runs with the cycle collector paused, as callers that read
many hands do (``rummy21.solver.paused_collection``); ``--collector on`` leaves it running.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from rummy21.cards import Card, counts_of, parse_cards
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
SOLVER = "rummy21.solver"
_TREES: list[tempfile.TemporaryDirectory[str]] = []  # revisions checked out, kept to the end


def solver_from(source: str) -> ModuleType:
    """A version of the solver, imported beside the installed one: ``source`` is a module
    file (``/tmp/solver.py``), a package directory (``src/rummy21/solver``) or a git revision
    (``HEAD~3``: its ``src/rummy21/solver.py`` or ``src/rummy21/solver/``).

    The version is imported as ``rummy21.solver`` (its modules import each other by that
    name), then taken out of ``sys.modules`` again, the installed solver put back: each
    version keeps its own functions, memo tables and state. Its imports from the rest of
    ``rummy21`` (cards, groups...) are the installed ones.
    """
    path = Path(source)
    if not path.exists():
        path = _checkout(source)
    mine = {
        name: sys.modules.pop(name)
        for name in list(sys.modules)
        if name == SOLVER or name.startswith(SOLVER + ".")
    }
    try:
        if path.is_dir():
            spec = importlib.util.spec_from_file_location(
                SOLVER, path / "__init__.py", submodule_search_locations=[str(path)]
            )
        else:
            spec = importlib.util.spec_from_file_location(SOLVER, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[SOLVER] = module
        spec.loader.exec_module(module)
    finally:
        for name in [n for n in sys.modules if n == SOLVER or n.startswith(SOLVER + ".")]:
            del sys.modules[name]
        sys.modules.update(mine)
    return module


def _checkout(revision: str) -> Path:
    """The solver of a git revision, written to a temporary directory."""
    listed = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "ls-tree",
            "-r",
            "--name-only",
            revision,
            "src/rummy21/solver.py",
            "src/rummy21/solver",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not listed:
        raise SystemExit(f"{revision}: no such file, directory or revision with a solver")
    tree = tempfile.TemporaryDirectory(prefix="solver-")
    _TREES.append(tree)
    for name in listed:
        target = Path(tree.name) / Path(name).relative_to("src/rummy21")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(
            subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{revision}:{name}"],
                capture_output=True,
                check=True,
            ).stdout
        )
    return Path(tree.name) / ("solver" if any("/solver/" in n for n in listed) else "solver.py")


def pause_of(
    solver: ModuleType, collector: str = "paused"
) -> Callable[[], contextlib.AbstractContextManager[object]]:
    """How a benchmark wraps each reading: in the solver's opt-in pause of the cycle
    collector (``paused_collection``), or not. (Versions without one pause it themselves.)"""
    if collector == "paused" and hasattr(solver, "paused_collection"):
        return solver.paused_collection  # type: ignore[no-any-return]
    return contextlib.nullcontext


def load(name: str) -> list[tuple[Card, list[Card]]]:
    hands = []
    for line in (HERE / f"corpus_{name}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            cut, _, cards = line.partition(":")
            hands.append((Card.parse(cut), parse_cards(cards)))
    return hands


def _at(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def quantiles(times: list[float]) -> str:
    ordered = sorted(times)

    def at(fraction: float) -> float:
        return _at(ordered, fraction)

    return (
        f"median {at(0.5) * 1e3:8.3f} ms  p90 {at(0.9) * 1e3:8.3f} ms  "
        f"p99 {at(0.99) * 1e3:8.3f} ms  max {ordered[-1] * 1e3:8.1f} ms  (n={len(ordered)})"
    )


def timed(
    items: list[tuple[Card, list[Card]]],
    run: Callable[[Card, list[Card]], object],
    pause: Callable[[], contextlib.AbstractContextManager[object]] = contextlib.nullcontext,
) -> list[float]:
    times = []
    for cut, hand in items:
        start = time.perf_counter()
        with pause():
            run(cut, hand)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sample", type=int, default=0, help="only the first N hands of each corpus"
    )
    parser.add_argument(
        "--reference", type=int, default=100, help="hands per corpus timed with the reference too"
    )
    parser.add_argument("--skip-cli", action="store_true")
    parser.add_argument(
        "--helpers", type=int, default=100, help="hands per corpus timed with distance and outs"
    )
    parser.add_argument(
        "--twin",
        type=int,
        default=200,
        help="hands per corpus timed on the pure-Python twin too (with the native core)",
    )
    parser.add_argument(
        "--solver",
        metavar="SOURCE",
        help="time this version of the solver (git revision, directory or "
        "file) instead of the installed one; skips the CLI",
    )
    parser.add_argument(
        "--collector",
        choices=("paused", "on"),
        default="paused",
        help="the cycle collector during each reading (default: paused, "
        "through the solver's opt-in)",
    )
    args = parser.parse_args()
    if args.solver:
        sys.modules[SOLVER] = solver_from(args.solver)  # before the analysis imports it
        args.skip_cli = True
    # (Imported here: with --solver, the analysis must bind that version.)
    from rummy21.analysis import analyze, analyze_counts, outs
    from rummy21.distance import distance

    solver = sys.modules[SOLVER] if args.solver else importlib.import_module(SOLVER)
    pause = pause_of(solver, args.collector)
    rules = RuleSet()
    core = solver.backend.name() if hasattr(solver, "backend") else "python"
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, one core; solver {args.solver or 'installed'} ({core} core), "
        f"cycle collector {args.collector}"
    )
    twin_of = args.twin if core == "native" else 0

    def against_twin(
        label: str,
        sample: list[tuple[Card, list[Card]]],
        run: Callable[[Card, list[Card]], object],
    ) -> None:
        """Time ``run`` over ``sample`` on the twin and on the native core again, now that
        the memo tables both share are warm (the first native pass filled them)."""
        if not twin_of:
            return
        with solver.backend.using("python"):
            twin = timed(sample, run, pause)
        mine = timed(sample, run, pause)
        ratio = _at(twin, 0.5) / _at(mine, 0.5)
        print(
            f"  {label} on the pure-Python twin, first {len(sample)}: {quantiles(twin)}\n"
            f"  native again (warm): {quantiles(mine)}\n"
            f"  native speed-up: median {ratio:.1f}x, total {sum(twin) / sum(mine):.1f}x, "
            f"p99 {_at(twin, 0.99) / _at(mine, 0.99):.1f}x"
        )

    whole: dict[str, list[float]] = {"21": [], "22": []}  # both halves of the corpus
    for name in ("random", "near"):
        hands = load(name)
        if args.sample:
            hands = hands[: args.sample]
        print(f"\n== corpus_{name}.txt ({len(hands)} hands)")
        solve21 = lambda cut, hand: analyze_counts(counts_of(hand), Jokers.from_cut(cut), rules)  # noqa: E731
        timed(hands[:50], solve21, pause)  # warm the memo tables
        ours = timed(hands, solve21, pause)
        whole["21"] += ours
        print(f"21-card analysis   {quantiles(ours)}")
        against_twin("21-card analysis", hands[:twin_of], solve21)
        rng = random.Random(22)
        plus = []
        for cut, hand in hands:
            counts = counts_of(hand)
            extra = rng.choice(
                [
                    c
                    for c in map(Card, range(53))
                    if counts[c.index] < (rules.printed_jokers if c.is_printed_joker else 3)
                ]
            )
            plus.append((cut, hand + [extra]))
        solve22 = lambda cut, hand: analyze(hand, cut, rules)  # noqa: E731
        with_extra = timed(plus, solve22, pause)
        whole["22"] += with_extra
        print(f"22-card analysis   {quantiles(with_extra)}")
        against_twin("22-card analysis", plus[:twin_of], solve22)
        if args.reference:
            from reference import analyse as reference  # the oracle kept in tests/

            sample = hands[: args.reference]
            ref = timed(sample, lambda cut, hand: reference(hand, cut, rules))
            mine = ours[: len(sample)]
            print(f"reference (tests)  {quantiles(ref)}")
            median_ratio = sorted(ref)[len(ref) // 2] / sorted(mine)[len(mine) // 2]
            print(
                f"speed-up on those {len(sample)} hands: median {median_ratio:.1f}x, "
                f"total {sum(ref) / sum(mine):.1f}x"
            )
        if args.helpers:
            sample = hands[: args.helpers]
            few = sample[: min(len(sample), twin_of)]
            if name == "near":  # exact; far hands (random deals) take seconds: see limit
                exact_run = lambda cut, hand: distance(hand, cut, rules)  # noqa: E731
                exact = timed(sample, exact_run, pause)
                print(f"distance           {quantiles(exact)}")
                against_twin("distance", few, exact_run)
            limited_run = lambda cut, hand: distance(hand, cut, rules, 3)  # noqa: E731
            limited = timed(sample, limited_run, pause)
            print(f"distance, limit 3  {quantiles(limited)}")
            against_twin("distance, limit 3", few, limited_run)
            outs_run = lambda cut, hand: outs(hand, cut, rules)  # noqa: E731
            found = timed(sample, outs_run, pause)
            print(f"outs               {quantiles(found)}")
            against_twin("outs", few, outs_run)
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
    print(
        f"\n== {' '.join(command)} analyze --json --batch FILE (start-up included; "
        f"fastest / median of {runs} runs)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        whole = Path(tmp) / "corpus_whole.txt"
        whole.write_text(
            "".join((HERE / f"corpus_{n}.txt").read_text() for n in ("random", "near"))
        )
        for label, path in (
            ("random", HERE / "corpus_random.txt"),
            ("near", HERE / "corpus_near.txt"),
            ("whole corpus", whole),
        ):
            for jobs, workers in (
                (["--jobs", "1"], "one process"),
                ([], f"default: one worker per core ({os.cpu_count()})"),
            ):
                rates = []
                for _ in range(runs):
                    start = time.perf_counter()
                    done = subprocess.run(
                        command + ["analyze", "--json", "--batch", str(path)] + jobs,
                        capture_output=True,
                        text=True,
                        check=False,
                    )
                    elapsed = time.perf_counter() - start
                    lines = done.stdout.count("\n")
                    rates.append(lines / elapsed)
                rates.sort(reverse=True)
                print(
                    f"{label:13} {workers:34} {lines} hands: {rates[0]:6.0f} / "
                    f"{rates[len(rates) // 2]:6.0f} hands/s (exit {done.returncode})"
                )


if __name__ == "__main__":
    main()
