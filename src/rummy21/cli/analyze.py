"""``rummy21 analyze``: read a hand — declaration, penalty, value — as a report or as JSON."""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import io
import itertools
import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from typing import NoReturn, TextIO

import typer

from rummy21 import workers
from rummy21.analysis import Analysis, analyze
from rummy21.cards import CardError
from rummy21.cli import EXIT_INTERRUPTED, app, fail
from rummy21.cli.options import rules_option
from rummy21.distance import Distance, distance
from rummy21.ruleset import RuleSet
from rummy21.solver import paused_collection

DISTANCE_LIMIT = 3
"""The most replacements ``--distance`` looks for: hands further away take seconds."""

MAX_LINE = 10_000
"""The longest batch line read (a hand takes about 70 characters): a longer one is an error
line, so a file with no line ends (or ``/dev/zero``) cannot fill the memory."""

MAX_JOBS = 256
"""The most worker processes ``--jobs`` may ask for (``0`` asks for one per core, however
many): a mistyped count must not fork thousands of processes."""


def _distance_of(result: Analysis, rules: RuleSet) -> Distance:
    """The distance to a valid declaration of an analysis' 21 cards (up to the limit)."""
    return distance(list(result.cards), result.jokers.cut, rules, DISTANCE_LIMIT)


def _with_distance(result: Analysis, rules: RuleSet) -> dict[str, object]:
    """The JSON of an analysis, with the distance to a valid declaration of its 21 cards."""
    data: dict[str, object] = result.to_dict()
    data["distance"] = _distance_of(result, rules).to_dict()
    return data


Numbered = tuple[int, str | None]
"""A batch line to answer and its line number in the input, from 1 (``None``: a line too
long to read)."""


def _read_line(numbered: Numbered, rules: RuleSet, with_distance: bool) -> tuple[bool, str]:
    """(ok, JSON) for one batch line ``CUT: CARDS``; a bad line's answer names its line
    number (``{"line": N, "error": …}``).
    The cycle collector is paused while the hand is read: a batch reads many (see
    :func:`rummy21.solver.paused_collection`)."""
    number, line = numbered
    if line is None:
        return False, json.dumps(
            {"line": number, "error": f"line longer than {MAX_LINE:,} characters"}
        )
    try:
        cut, sep, hand = line.partition(":")
        if not sep:
            raise CardError("expected a line 'CUT: CARD CARD …'")
        with paused_collection():
            analysis = analyze(hand, cut.strip(), rules)
            data = _with_distance(analysis, rules) if with_distance else analysis.to_dict()
        return True, json.dumps(data)
    except (CardError, ValueError) as error:
        reason = _undecodable(line) or str(error)
        return False, json.dumps({"line": number, "error": reason})


def _undecodable(line: str) -> str | None:
    """What is wrong with a line that was not UTF-8 text (``None`` if it was).

    A batch is decoded with ``surrogateescape``: each byte that is not UTF-8 becomes one
    lone surrogate, which no card token contains, so such a line always fails to parse and
    this is asked only then.

    >>> _undecodable(b"7D: AS \\xff\\xfe".decode("utf-8", "surrogateescape"))
    'not UTF-8 text (byte 0xff)'
    >>> _undecodable("7D: A♠") is None
    True
    """
    for char in line:
        if "\udc80" <= char <= "\udcff":
            return f"not UTF-8 text (byte {ord(char) - 0xDC00:#04x})"
    return None


_CHUNK = 64
"""Lines a worker reads at a time; a batch no longer than this is read in this process."""


def _read_chunk(
    lines: list[Numbered], rules: RuleSet, with_distance: bool
) -> list[tuple[bool, str]]:
    _settle_heap()
    return [_read_line(line, rules, with_distance) for line in lines]


def _settle_heap() -> None:
    """Collect the young objects, then take everything alive out of the cycle collector's
    way (``gc.freeze``). A batch fills the solver's memo tables steadily, and each full
    collection would walk them all: 10 % of a near-complete batch, measured. Cyclic
    garbage is collected before the freeze, so the freeze keeps nothing that was garbage."""
    gc.collect(1)
    gc.freeze()


def _read_lines(
    lines: Iterable[Numbered], rules: RuleSet, with_distance: bool
) -> Iterator[tuple[bool, str]]:
    for count, line in enumerate(lines):
        if count % _CHUNK == 0:
            _settle_heap()
        yield _read_line(line, rules, with_distance)


def _batch(
    source: TextIO, rules: RuleSet, out: TextIO, with_distance: bool = False, jobs: int = 1
) -> int:
    """Answer each line of ``source`` with a line of JSON, in order; with ``jobs`` > 1 the
    lines are read by that many worker processes (the output is the same), unless they
    fit in one chunk (starting workers would cost more than it saves)."""
    lines = _hand_lines(source)
    if jobs <= 1:
        # From a pipe, each answer goes out as soon as it is ready (a program may be
        # waiting for it before it sends the next line).
        return _write(_read_lines(lines, rules, with_distance), out, flush=not source.seekable())
    chunks = _chunks(lines, _CHUNK)
    first = next(chunks, [])
    read = functools.partial(_read_chunk, rules=rules, with_distance=with_distance)
    second = next(chunks, None)
    if second is None:
        return _write(read(first), out)
    context = multiprocessing.get_context(workers.fork_method())
    # Forked workers inherit both ends of the lifeline; this process keeps them open while
    # the pool may start workers (the pool replaces any that dies).
    line = workers.lifeline()
    try:
        with _interrupts_held():  # a worker is born deaf to Ctrl-C (its initializer keeps it so)
            pool = context.Pool(jobs, initializer=workers.start_worker, initargs=(line,))
        with pool:
            try:
                return _write(
                    (
                        answer
                        for chunk in pool.imap(read, itertools.chain((first, second), chunks))
                        for answer in chunk
                    ),
                    out,
                )
            except KeyboardInterrupt:
                _abandon(out, line is not None)
    finally:
        workers.close(line)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) in this thread while the block runs; one that came meanwhile
    arrives as the block ends. Processes forked in the block start with it held back too."""
    if not hasattr(signal, "pthread_sigmask"):  # (Windows: spawned workers start afresh)
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _abandon(out: TextIO, lifeline: bool) -> NoReturn:
    """Ctrl-C during a batch with workers: keep the answers written so far, stop the workers
    and leave at once with status 130.

    ``Pool.terminate`` cannot be trusted here: it waits for the thread that feeds the workers,
    and that thread may be waiting for the next line of a pipe or a terminal that stays open
    (or the interrupt may have come inside the pool's own bookkeeping, leaving a lock taken).
    So the process ends without the interpreter's clean-up, which would wait for the same
    threads. Forked workers leave by their lifeline (:mod:`rummy21.workers`) as soon as
    this process is gone; they are not killed, for the pool would fork replacements at once,
    while this thread may hold a lock a new process would wait for forever. Spawned workers
    (no lifeline) are killed.
    """
    for stream in (out, sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if not lifeline:
        for worker in multiprocessing.active_children():
            worker.kill()
    os._exit(EXIT_INTERRUPTED)


def _hand_lines(source: TextIO) -> Iterator[Numbered]:
    """The lines of ``source`` to answer, stripped, with their line numbers; blank lines,
    ``#`` comments (of any length) and a byte-order mark at the start are skipped.
    ``None`` stands for any other line longer than :data:`MAX_LINE`, whose rest is skipped,
    never held in memory. Each line is yielded as soon as it is read (a pipe's writer may be
    waiting for its answer).

    >>> text = "\\ufeff# c\\n\\n 7D: AS \\r\\n" + "x" * MAX_LINE + "x\\nKC: 2S"
    >>> list(_hand_lines(io.StringIO(text)))
    [(3, '7D: AS'), (4, None), (5, 'KC: 2S')]
    """
    start, number = True, 0
    while line := _readline(source):
        number += 1
        too_long = len(line) > MAX_LINE and not line.endswith("\n")
        if start:  # a byte-order mark (Windows editors write one) is not part of the text
            line, start = line.removeprefix("\ufeff"), False
        if too_long:
            comment = line.lstrip().startswith("#")
            while line and not line.endswith("\n"):
                line = _readline(source)
            if not comment:
                yield number, None
            continue
        line = line.strip()
        if line and not line.startswith("#"):
            yield number, line


class Unreadable(Exception):
    """The batch could not be read on (an I/O error: not a bad line, the end of the batch)."""


def _readline(source: TextIO) -> str:
    try:
        return source.readline(MAX_LINE + 1)
    except OSError as error:
        raise Unreadable(error.strerror or str(error)) from error


def _write(answers: Iterable[tuple[bool, str]], out: TextIO, flush: bool = False) -> int:
    """Write each answer's JSON line; the exit status: 1 if any line was bad."""
    status = 0
    for ok, text in answers:
        status = status if ok else 1
        out.write(text + "\n")
        if flush:
            out.flush()
    return status


def _chunks(lines: Iterable[Numbered], size: int) -> Iterator[list[Numbered]]:
    chunk: list[Numbered] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _open_batch(batch: str) -> TextIO:
    """The batch file (``-``: stdin) as UTF-8 text, lines ending in \\n, \\r\\n or \\r.
    Bytes that are not UTF-8 are kept as lone surrogates (``surrogateescape``): they make
    their own line an error line (:func:`_undecodable`) and nothing else."""
    if batch == "-":
        if sys.stdin is None:  # started with its standard input closed
            raise OSError(errno.EBADF, "standard input is closed")
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:  # stdin replaced by a text stream (already decoded)
            return sys.stdin
        return io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape")
    return open(batch, encoding="utf-8", errors="surrogateescape")


@app.command("analyze")
def analyze_command(
    hand: list[str] | None = typer.Argument(
        None, metavar="CARDS", help="21 or 22 cards, e.g. AS 2S 3S 9H 9D 9C JK (and 14 more)."
    ),
    cut: str | None = typer.Option(None, "--cut", help="The cut card, e.g. 5H or JK."),
    rules: str = rules_option(),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per hand."),
    batch: str | None = typer.Option(
        None, "--batch", metavar="FILE", help="Read 'CUT: CARDS' lines from FILE (- for stdin)."
    ),
    jobs: int | None = typer.Option(
        None,
        "--jobs",
        min=0,
        max=MAX_JOBS,
        show_default=False,
        help="With --batch: worker processes (0: one per core; 1: this process only). "
        "Default: one per core for a file; 1 for a pipe or stdin, answering each line "
        "as it comes.",
    ),
    with_distance: bool = typer.Option(
        False,
        "--distance",
        help=f"Also the fewest cards to replace for a valid declaration (up to {DISTANCE_LIMIT}).",
    ),
) -> None:
    """Analyze a hand: valid declaration and options, penalty, value cards."""
    try:
        rule_set = RuleSet.preset(rules)
    except ValueError as error:
        fail(str(error))
    if batch is not None:
        if hand:
            fail("give either a hand or --batch, not both")
        if not as_json:
            fail("--batch answers each line in JSON: add --json")
        if cut is not None:
            fail("--cut is for one hand: each line of a batch names its own ('CUT: CARDS')")
        try:
            source = _open_batch(batch)
        except OSError as error:
            fail(f"cannot read {batch}: {error.strerror}")
        with source:
            if jobs is None:  # a pipe streams (its writer may wait for each answer)
                jobs = 0 if source.seekable() else 1
            try:
                status = _batch(
                    source, rule_set, sys.stdout, with_distance, jobs or workers.usable_cores()
                )
            except Unreadable as error:  # the answers so far are out: say where it ended
                fail(f"stopped reading {batch}: {error}")
        raise typer.Exit(status)
    if not hand or cut is None:
        fail("give a hand and --cut CARD (or --batch FILE)")
    if jobs is not None:
        fail("--jobs is for --batch: one hand is read in this process")
    try:
        result = analyze(" ".join(hand), cut, rule_set)
    except (CardError, ValueError) as error:
        fail(str(error))
    if as_json:
        print(json.dumps(_with_distance(result, rule_set) if with_distance else result.to_dict()))
    else:
        from rich.console import Console  # (rich only for a report: batches start sooner)

        from rummy21.cli.hand_report import report, report_distance

        console = Console(highlight=False)
        report(result, console)
        if with_distance:
            report_distance(_distance_of(result, rule_set), result, console)
