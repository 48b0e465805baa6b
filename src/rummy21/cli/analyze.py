"""``rummy21 analyze``: read a hand — declaration, penalty, value — as a report or as JSON."""

from __future__ import annotations

import functools
import gc
import itertools
import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from typing import NoReturn, Optional, TextIO

import typer

from rummy21.analysis import Analysis, analyze
from rummy21.cards import CardError
from rummy21.cli import app
from rummy21.distance import Distance, distance
from rummy21.ruleset import RuleSet

DISTANCE_LIMIT = 3
"""The most replacements ``--distance`` looks for: hands further away take seconds."""


def _distance_of(result: Analysis, rules: RuleSet) -> Distance:
    """The distance to a valid declaration of an analysis' 21 cards (up to the limit)."""
    return distance(list(result.cards), result.jokers.cut, rules, DISTANCE_LIMIT)


def _with_distance(result: Analysis, rules: RuleSet) -> dict[str, object]:
    """The JSON of an analysis, with the distance to a valid declaration of its 21 cards."""
    data: dict[str, object] = result.to_dict()
    data["distance"] = _distance_of(result, rules).to_dict()
    return data


def _read_line(line: str, rules: RuleSet, with_distance: bool) -> tuple[bool, str]:
    """(ok, JSON) for one batch line ``CUT: CARDS``."""
    try:
        cut, sep, hand = line.partition(":")
        if not sep:
            raise CardError("expected a line 'CUT: CARD CARD …'")
        analysis = analyze(hand, cut.strip(), rules)
        return True, json.dumps(_with_distance(analysis, rules) if with_distance
                                else analysis.to_dict())
    except (CardError, ValueError) as error:
        return False, json.dumps({"error": str(error)})


_CHUNK = 64
"""Lines a worker reads at a time; a batch no longer than this is read in this process."""


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is this process's to handle (it stops the workers), so the
    workers print no tracebacks of their own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _read_chunk(lines: list[str], rules: RuleSet, with_distance: bool) -> list[tuple[bool, str]]:
    _settle_heap()
    return [_read_line(line, rules, with_distance) for line in lines]


def _settle_heap() -> None:
    """Collect the young objects, then take everything alive out of the cycle collector's
    way (``gc.freeze``). A batch fills the solver's memo tables steadily, and each full
    collection would walk them all: 10 % of a near-complete batch, measured. Cyclic
    garbage is collected before the freeze, so the freeze keeps nothing that was garbage."""
    gc.collect(1)
    gc.freeze()


def _read_lines(lines: Iterable[str], rules: RuleSet,
                with_distance: bool) -> Iterator[tuple[bool, str]]:
    for count, line in enumerate(lines):
        if count % _CHUNK == 0:
            _settle_heap()
        yield _read_line(line, rules, with_distance)


def _batch(source: TextIO, rules: RuleSet, out: TextIO, with_distance: bool = False,
           jobs: int = 1) -> int:
    """Answer each line of ``source`` with a line of JSON, in order; with ``jobs`` > 1 the
    lines are read by that many worker processes (the output is the same), unless they
    fit in one chunk (starting workers would cost more than it saves)."""
    lines = (line for line in map(str.strip, source) if line and not line.startswith("#"))
    if jobs <= 1:
        # From a pipe, each answer goes out as soon as it is ready (a program may be
        # waiting for it before it sends the next line).
        return _write(_read_lines(lines, rules, with_distance), out,
                      flush=not source.seekable())
    chunks = _chunks(lines, _CHUNK)
    first = next(chunks, [])
    read = functools.partial(_read_chunk, rules=rules, with_distance=with_distance)
    second = next(chunks, None)
    if second is None:
        return _write(read(first), out)
    with multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn").Pool(
            jobs, initializer=_ignore_interrupts) as pool:
        return _write((answer for chunk in pool.imap(read, itertools.chain((first, second),
                                                                           chunks))
                       for answer in chunk), out)


def _usable_cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer than
    the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _write(answers: Iterable[tuple[bool, str]], out: TextIO, flush: bool = False) -> int:
    """Write each answer's JSON line; the exit status: 1 if any line was bad."""
    status = 0
    for ok, text in answers:
        status = status if ok else 1
        out.write(text + "\n")
        if flush:
            out.flush()
    return status


def _chunks(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _fail(message: str) -> NoReturn:
    """Report bad input on stderr, one line, and stop with status 2."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(2)


@app.command("analyze")
def analyze_command(
    hand: Optional[list[str]] = typer.Argument(None, help="21 or 22 cards, e.g. \"AS 2S 3S …\""),
    cut: Optional[str] = typer.Option(None, "--cut", help="The cut card, e.g. 5H or JK."),
    rules: str = typer.Option("classic", "--rules", help="Rule set: classic or adda52."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per hand."),
    batch: Optional[str] = typer.Option(None, "--batch",
                                        help="Read 'CUT: CARDS' lines from FILE (- for stdin)."),
    jobs: Optional[int] = typer.Option(
        None, "--jobs", min=0, show_default=False,
        help="With --batch: worker processes (0: one per core; 1: this process only). "
             "Default: one per core for a file; 1 for a pipe or stdin, answering each line "
             "as it comes."),
    with_distance: bool = typer.Option(False, "--distance",
                                       help="Also the fewest cards to replace for a valid "
                                            f"declaration (up to {DISTANCE_LIMIT})."),
) -> None:
    """Analyse a hand: valid declaration and options, penalty, value cards."""
    try:
        rule_set = RuleSet.preset(rules)
    except ValueError as error:
        _fail(str(error))
    if batch is not None:
        if hand:
            _fail("give either a hand or --batch, not both")
        try:
            source = sys.stdin if batch == "-" else open(batch, encoding="utf-8")
        except OSError as error:
            _fail(f"cannot read {batch}: {error.strerror}")
        with source:
            if jobs is None:    # a pipe streams (its writer may wait for each answer)
                jobs = 0 if source.seekable() else 1
            status = _batch(source, rule_set, sys.stdout, with_distance,
                            jobs or _usable_cores())
        raise typer.Exit(status)
    if not hand or cut is None:
        _fail("give a hand and --cut CARD (or --batch FILE)")
    try:
        result = analyze(" ".join(hand), cut, rule_set)
    except (CardError, ValueError) as error:
        _fail(str(error))
    if as_json:
        print(json.dumps(_with_distance(result, rule_set) if with_distance else result.to_dict()))
    else:
        from rich.console import Console     # (rich only for a report: batches start sooner)

        from rummy21.cli.hand_report import report, report_distance
        console = Console(highlight=False)
        report(result, console)
        if with_distance:
            report_distance(_distance_of(result, rule_set), result, console)
