"""``rummy21 tournament``: duplicate tournaments between bots, with confidence intervals.

Every shoe is played once per line-up of :mod:`rummy21.tournament.scheme`; the results are the
same bytes (the move times aside) whatever ``--jobs`` or ``--backend``, and a run resumed from
its ``--resume`` file ends as an uninterrupted one.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column
from rich.table import Table as RichTable

from rummy21.bots import BOT_NAMES, DEFAULT_TURN_LIMIT, check_bots_load
from rummy21.bots.external import set_move_time
from rummy21.cli import EXIT_INTERRUPTED, OUTPUT_FAILED, app
from rummy21.cli.options import bot_time_option, rules_option, turn_limit_option
from rummy21.tournament import (
    BACKENDS,
    MAX_JOBS,
    RAY_MISSING,
    Backend,
    BackendUnavailable,
    Journal,
    Settings,
    ShoeRecord,
    Summary,
    Timing,
    lineup_text,
    lineups,
    render_report,
    run_shoes,
    summarize,
)
from rummy21.tournament.report import duration


class _Fail(Exception):
    """Bad input: one line on stderr, status 2."""


@app.command("tournament")
def tournament_command(
    bots: str = typer.Option(
        "greedy,random",
        "--bots",
        help=f"Comma-separated bots to compare (at least 2): {', '.join(BOT_NAMES)}, "
        "or search:WORLDS (search with its own budget), or rl:PATH (a trained policy), or "
        "exec:COMMAND (a program playing the bot protocol), or clairvoyant (research only: "
        "the search told every hidden card).",
    ),
    players: int = typer.Option(4, "--players", "-p", help="Seats at the table."),
    deals: int = typer.Option(
        100,
        "--deals",
        "-k",
        help="Shoes: distinct seeded deals, each played once per line-up (once per bot).",
    ),
    seed: int = typer.Option(0, "--seed", help="Tournament seed: same seed, same results."),
    jobs: int = typer.Option(
        0, "--jobs", "-j", help="Worker processes (0: one per core; 1: this process)."
    ),
    backend: str = typer.Option("local", "--backend", help="local processes, or ray tasks."),
    address: str | None = typer.Option(
        None, "--address", help="With --backend ray: an existing Ray cluster (e.g. auto)."
    ),
    turn_limit: int | None = turn_limit_option(DEFAULT_TURN_LIMIT),
    rules: str = rules_option(),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per shoe, in order, then a summary line."
    ),
    report: Path | None = typer.Option(
        None, "--report", help="Write a self-contained HTML report to this file."
    ),
    resume: Path | None = typer.Option(
        None,
        "--resume",
        help="Record the shoes to this JSON-lines file, and skip those it holds already.",
    ),
    bot_time: str | None = bot_time_option(),
) -> None:
    """Compare bots in a duplicate tournament: every shoe is replayed with the line-up rotated,
    so each bot plays each seat's cards; means per deal with 95% intervals, pairwise
    differences and a rating."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        set_move_time(bot_time)
        settings = Settings.parse(bots, players, deals, seed, rules, turn_limit)
        check_bots_load(settings.bots)
        _check_run(jobs, backend, address, report)
        journal = Journal.open(resume, settings) if resume is not None else None
    except (ValueError, _Fail) as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    except OSError as error:
        err.print(f"error: cannot open {resume}: {error.strerror or error}", markup=False)
        raise typer.Exit(2) from None
    records: dict[int, ShoeRecord] = dict(journal.done) if journal else {}
    printed = 0

    def emit() -> None:
        nonlocal printed
        while as_json and printed in records:
            print(json.dumps(records[printed].to_dict(settings.labels)), flush=True)
            printed += 1

    todo = [n for n in range(settings.deals) if n not in records]
    progress = Progress(
        TextColumn("shoes"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task("shoes", total=settings.deals, completed=len(records))
            emit()
            where: Backend = "ray" if backend == "ray" else "local"
            for record in run_shoes(settings, todo, jobs=jobs, backend=where, address=address):
                if journal is not None:
                    journal.append(record)
                records[record.number] = record
                emit()
                progress.advance(task)
    except BackendUnavailable as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    except OSError as error:
        if error.filename is None:
            raise  # the output's (main() reports it)
        err.print(f"error: cannot write {error.filename}: {error.strerror}", markup=False)
        raise typer.Exit(OUTPUT_FAILED) from None
    except KeyboardInterrupt:
        again = f"; --resume {resume} plays the rest" if resume is not None else ""
        err.print(f"interrupted after {len(records)} of {settings.deals} shoes{again}")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        if journal is not None:
            journal.close()
    summary = summarize(settings, records.values())
    # The results first: a report that cannot be written loses nothing that was played.
    if as_json:
        print(json.dumps(summary.to_dict()), flush=True)
    else:
        print_summary(summary, Console(highlight=False))
    if report is not None:
        try:
            report.write_text(render_report(summary), encoding="utf-8")
        except OSError as error:
            err.print(f"error: cannot write {report}: {error.strerror}", markup=False)
            raise typer.Exit(OUTPUT_FAILED) from None


def _check_run(jobs: int, backend: str, address: str | None, report: Path | None) -> None:
    if not 0 <= jobs <= MAX_JOBS:
        raise _Fail(f"--jobs must be 0 (one per core) to {MAX_JOBS}, not {jobs}")
    if backend not in BACKENDS:
        raise _Fail(f"--backend must be {' or '.join(BACKENDS)}, not {backend!r}")
    if address is not None and backend != "ray":
        raise _Fail("--address is for --backend ray")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise _Fail(RAY_MISSING)
    if report is not None:
        _probe(report)


def _probe(report: Path) -> None:
    """Refuse before playing a report path that cannot be opened for writing (a folder, a
    missing folder, ``/proc``): opened to append nothing, and removed again if the probe made
    it. (A device that fails only on writing, as ``/dev/full``, is found at the end, after the
    results are out.)"""
    existed = report.exists()
    if report.is_dir():
        raise _Fail(f"cannot write the report to {report}: it is a folder")
    try:
        with report.open("ab"):
            pass
    except OSError as error:
        raise _Fail(f"cannot write the report to {report}: {error.strerror}") from None
    if not existed:
        report.unlink(missing_ok=True)


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+.1f}"


def print_summary(summary: Summary, out: Console) -> None:
    """The result for a person: the settings, the bots' strength (ranked), how they played,
    and each pair's difference; each table fits 80 columns."""
    settings = summary.settings
    plays = lineups(len(settings.bots), settings.players)
    names = ", ".join(f"{chr(65 + i)} {label}" for i, label in enumerate(settings.labels))
    limit = f"turn limit {settings.turn_limit}" if settings.turn_limit else "no turn limit"
    reasons = dict(summary.reasons)
    out.print(
        f"{summary.shoes} shoes × {len(plays)} line-ups ({', '.join(map(lineup_text, plays))};"
        f" {names}) = {summary.deals} deals at {settings.players} seats; rules "
        f"{settings.rules}, seed {settings.seed}, {limit}. {reasons['declared']} declared, "
        f"{reasons['last_active']} won by the last active player, {reasons['wash']} washed; "
        f"{summary.turns:.1f} turns a deal."
    )
    ranked = sorted(summary.bots, key=lambda b: -b.score.mean)
    strength = _table("bot", "mean/deal", "95% interval", "rating", "wins/seats")
    for bot in ranked:
        strength.add_row(
            bot.label,
            _signed(bot.score.mean),
            f"{_signed(bot.score.low)} to {_signed(bot.score.high)}",
            f"{bot.rating:+.0f}",
            f"{bot.wins}/{bot.plays}",
        )
    out.print(strength)
    timing: dict[str, Timing] = {t.label: t for t in summary.timing}
    play = _table("bot", "drops", "wrong decl.", "declared A/B/C", "turns", "move", "p99")
    for bot in ranked:
        times = timing.get(bot.label)
        play.add_row(
            bot.label,
            str(bot.drops),
            str(bot.wrong),
            "/".join(str(count) for _, count in bot.declarations),
            f"{bot.turns:.1f}",
            duration(times.median if times else None),
            duration(times.p99 if times else None),
        )
    out.print(play)
    pairs = _table("pair", "difference", "95% interval", "shoes +/−", "verdict")
    for pair in sorted((p.better_first() for p in summary.pairs), key=lambda p: p.first):
        interval = pair.difference
        pairs.add_row(
            f"{pair.first} − {pair.second}",
            _signed(interval.mean),
            f"{_signed(interval.low)} to {_signed(interval.high)}",
            f"{pair.ahead}/{pair.behind}",
            "stronger" if interval.excludes_zero else "not shown",
        )
    out.print(pairs)
    out.print(
        "turns: a bot's turns per deal; move: its median time to choose a move. A difference "
        "whose interval excludes 0 is significant at the 95% level (paired by shoe)."
    )
    for label, kinds in summary.faults:
        counted = ", ".join(f"{n} {kind}" for kind, n in kinds)
        out.print(
            f"protocol faults of {label}: {counted} (each but stale cost a move, played as a "
            "time-out; the program's stderr is in its log)"
        )


def _table(*headers: str) -> RichTable:
    """A compact table, the first column text and the others numbers (right-aligned)."""
    columns = [Column(headers[0])] + [Column(h, justify="right") for h in headers[1:]]
    return RichTable(*columns, box=box.SIMPLE_HEAD, pad_edge=False)
