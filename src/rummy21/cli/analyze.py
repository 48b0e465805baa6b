"""``rummy21 analyze``: read a hand — declaration, penalty, value — as a report or as JSON."""

from __future__ import annotations

import functools
import gc
import itertools
import json
import multiprocessing
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Optional, TextIO

import typer
from rich.console import Console
from rich.text import Text

from rummy21.analysis import Analysis, analyze
from rummy21.cards import Card, CardError
from rummy21.cli import app
from rummy21.distance import Distance, distance
from rummy21.groups import Group
from rummy21.ruleset import RuleSet

_SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold"}


def card_text(card: Card, analysis_jokers: object | None = None) -> Text:
    """A card with its suit symbol, coloured by suit; jokers marked with ``*``."""
    style = "bold magenta" if card.suit is None else _SUIT_STYLE[int(card.suit)]
    text = Text(card.pretty(), style=style)
    is_joker = getattr(analysis_jokers, "is_joker", None)
    if is_joker is not None and is_joker(card):
        text.append("*", style="yellow")
    return text


def _cards_line(cards: tuple[Card, ...], jokers: object) -> Text:
    line = Text()
    for i, card in enumerate(cards):
        if i:
            line.append(" ")
        line.append_text(card_text(card, jokers))
    return line


def _group_lines(groups: tuple[Group, ...], jokers: object) -> list[Text]:
    lines = []
    for group in groups:
        line = Text(f"  {group.kind.value.replace('_', ' '):16} ")
        line.append_text(_cards_line(group.cards, jokers))
        lines.append(line)
    return lines


def report(a: Analysis, console: Console) -> None:
    j = a.jokers
    head = Text("cut ")
    head.append_text(card_text(j.cut))
    head.append(f"   wild rank {j.wild_rank_name}   upper ")
    head.append_text(card_text(j.upper))
    head.append("   lower ")
    head.append_text(card_text(j.lower))
    console.print(head)
    console.print(Text("hand  ").append_text(_cards_line(a.input_cards, j)))
    if a.discard is not None:
        console.print(Text("put aside ").append_text(card_text(a.discard, j)))
    if a.valid:
        console.print(f"[green]valid declaration[/green]: option(s) {', '.join(a.options)}")
        for line in _group_lines(a.groups, j):
            console.print(line)
        if a.loose:
            console.print(Text("  other cards      ").append_text(_cards_line(a.loose, j)))
    else:
        console.print("[red]not a valid declaration[/red]")
    p = a.penalty
    capped = f" (capped from {p.uncapped})" if p.uncapped != p.points else ""
    console.print(f"penalty if another player declares: [bold]{p.points}[/bold]{capped} "
                  f"by {p.rule.replace('_', ' ')}")
    for line in _group_lines(p.groups, j):
        console.print(line)
    if p.loose:
        console.print(Text("  loose            ").append_text(_cards_line(p.loose, j)))
    v = a.value
    console.print(f"value cards: {v.points} points ({v.cut} cut, {v.upper} upper, {v.lower} lower, "
                  f"{v.marriages} marriage{'s' if v.marriages != 1 else ''})")


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


def _report_distance(found: Distance, result: Analysis, console: Console) -> None:
    if found.cards is None:
        console.print(f"distance to a valid declaration: more than {found.more_than}")
        return
    line = Text(f"distance to a valid declaration: {found.cards}")
    if found.cards:
        line.append(f" (option {found.option}: out ")
        line.append_text(_cards_line(found.remove, result.jokers))
        line.append(", in ")
        line.append_text(_cards_line(found.add, result.jokers))
        line.append(")")
    console.print(line)


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


_CHUNK = 64
"""Lines a worker reads at a time; a batch no longer than this is read in this process."""


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
            jobs) as pool:
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
             "Default: one per core for a file; 1 for stdin, answering each line as it comes."),
    with_distance: bool = typer.Option(False, "--distance",
                                       help="Also the fewest cards to replace for a valid "
                                            f"declaration (up to {DISTANCE_LIMIT})."),
) -> None:
    """Analyse a hand: valid declaration and options, penalty, value cards."""
    err = Console(stderr=True)
    try:
        rule_set = RuleSet.preset(rules)
    except ValueError as error:
        err.print(f"error: {error}")
        raise typer.Exit(2)
    if batch is not None:
        if hand:
            err.print("error: give either a hand or --batch, not both")
            raise typer.Exit(2)
        try:
            source = sys.stdin if batch == "-" else open(batch, encoding="utf-8")
        except OSError as error:
            err.print(f"error: cannot read {batch}: {error.strerror}")
            raise typer.Exit(2)
        with source:
            if jobs is None:
                jobs = 1 if batch == "-" else 0
            status = _batch(source, rule_set, sys.stdout, with_distance,
                            jobs or _usable_cores())
        raise typer.Exit(status)
    if not hand or cut is None:
        err.print("error: give a hand and --cut CARD (or --batch FILE)")
        raise typer.Exit(2)
    try:
        result = analyze(" ".join(hand), cut, rule_set)
    except (CardError, ValueError) as error:
        err.print(f"error: {error}")
        raise typer.Exit(2)
    if as_json:
        print(json.dumps(_with_distance(result, rule_set) if with_distance else result.to_dict()))
    else:
        console = Console(highlight=False)
        report(result, console)
        if with_distance:
            _report_distance(_distance_of(result, rule_set), result, console)
