"""``rummy21 review LOG``: the coach's review of one seat of a finished deal
(:mod:`rummy21.review`).

    rummy21 review deal.jsonl --seat 0
    rummy21 review - --seat 2 --json < deal.jsonl

A table of the seat's decisions (the move played, the best, the loss with its standard error,
the verdict and why) and a summary line, or with ``--json`` one object per decision, in order,
then ``{"summary": …}``; ``--svg FILE`` also draws the points lost through the deal.
Seats are the log's numbers, from 0. Bad input — not a log, a log that does not replay, an
unfinished deal, a seat the deal does not have — is one line on stderr and status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from rummy21.bots.search import DEFAULT_SAMPLES
from rummy21.cards import Card
from rummy21.charts import line_chart
from rummy21.cli import app, fail
from rummy21.game.narration import plain
from rummy21.game.seat import Seat
from rummy21.review import Review

STYLES = {
    "best": "green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}


@app.command("review")
def review_command(
    log: str = typer.Argument(..., help="A deal's event log (JSON lines), or - for stdin."),
    seat: int = typer.Option(0, "--seat", help="The seat to review (the log's number, from 0)."),
    worlds: int = typer.Option(
        DEFAULT_SAMPLES, "--worlds", min=1, max=10_000, help="Worlds sampled a decision."
    ),
    seed: int = typer.Option(0, "--seed", help="Seeds the worlds (the same review each time)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per decision."),
    svg: Path | None = typer.Option(
        None, "--svg", help="Also write the points lost through the deal as an SVG chart."
    ),
) -> None:
    """Review every decision of one seat of a finished deal: what it cost and the better move."""
    from rummy21.review import ReviewError, review_deal

    try:
        text = sys.stdin.read() if log == "-" else Path(log).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read {log}: {getattr(error, 'strerror', None) or error}")
    console = Console(stderr=True)
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    problem = None
    shown = not as_json and console.is_terminal
    with Progress(*columns, console=console, transient=True, disable=not shown) as bar:
        task = bar.add_task("decisions", total=None)
        try:
            review = review_deal(
                text,
                seat,
                worlds=worlds,
                seed=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except ReviewError as error:
            problem = str(error)
    if problem is not None:
        fail(problem)
    if svg is not None:
        try:
            svg.write_text(review_chart(review, seat))
        except OSError as error:
            fail(f"cannot write {svg}: {error.strerror or error}")
    if as_json:
        for decision in review.decisions:
            row = decision.to_dict()
            row.pop("expected")
            typer.echo(json.dumps(row))
        typer.echo(json.dumps({"summary": review.summary()}))
        return
    print_review(Console(), review, f"{Seat(seat)} (log seat {seat}): every decision")


def review_chart(review: Review, seat: int) -> str:
    """The points lost so far, by turn (:meth:`~rummy21.review.Review.curve`), as SVG."""
    return line_chart(
        {f"{Seat(seat)}: points lost so far": review.curve()},
        f"where the deal slipped (accuracy {review.accuracy:.1f})",
        "points",
        x_label="turn",
    )


def print_review(out: Console, review: Review, title: str) -> None:
    """The review as a table of decisions, a summary line and the biggest loss (the
    ``review`` command and the terminal table after a deal)."""
    table = RichTable(title=title)
    for name, justify in (
        ("turn", "right"),
        ("played", "left"),
        ("best", "left"),
        ("loss", "right"),
        ("verdict", "left"),
        ("why", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in review.decisions:
        style = STYLES[d.verdict]
        table.add_row(
            str(d.turn),
            str(d.played),
            "" if d.best == d.played else str(d.best),
            f"{d.loss:.1f} ± {d.stderr:.1f}" if d.loss else "",
            f"[{style}]{d.verdict}[/]",
            plain(d.sentence, Card.pretty),
        )
    out.print(table)
    counts = ", ".join(f"{n} {v}" for v, n in review.verdicts.items() if n)
    out.print(
        f"accuracy {review.accuracy:.1f}, {review.loss:.1f} points lost over "
        f"{len(review.decisions)} decision{'' if len(review.decisions) == 1 else 's'} "
        f"({counts}); the deal scored {review.score:+d}."
    )
    worst = review.biggest(1)
    if worst:
        d = worst[0]
        out.print(
            f"Biggest loss, turn {d.turn}: {d.played} ({d.verdict}, {d.loss:.0f}). "
            + plain(d.sentence, Card.pretty)
        )
