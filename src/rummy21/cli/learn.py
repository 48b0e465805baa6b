"""``rummy21 learn``: the recipe that trains the ``learned`` bot (:mod:`rummy21.learn`).

    rummy21 learn teach artifacts/learn/teacher --deals 12000 --jobs 2 --resume
    rummy21 learn train artifacts/learn/teacher artifacts/learn/fit --epochs 20 --resume
    rummy21 learn export artifacts/learn/fit artifacts/learn/learned.npz
    rummy21 learn improve artifacts/learn/improve --rounds 4 --jobs 2 --resume
    rummy21 tournament --bots learned:artifacts/learn/learned.npz,expert -p 4 -k 300 --seed 51

Each stage resumes where it stopped. ``train`` and ``export`` need PyTorch (extra ``train``).
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from rummy21.bots import check_bot_name
from rummy21.cli import app, fail
from rummy21.ruleset import CLASSIC

learn = typer.Typer(
    no_args_is_help=True, help="Train the learned bot: teach, train, reach, improve, export."
)
app.add_typer(learn, name="learn")


def _sizes(text: str, what: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        fail(f"{what} is a comma-separated list of whole numbers, not {text!r}")
    return sizes


def _table_sizes(text: str) -> tuple[int, ...]:
    """The table sizes of ``--players``: the recipe deals by the classic rules."""
    low, high = CLASSIC.min_players, CLASSIC.max_players
    sizes = _sizes(text, "--players")
    if not all(low <= n <= high for n in sizes):
        fail(f"--players takes table sizes from {low} to {high}, not {text!r}")
    return sizes


@learn.command("teach")
def teach_command(
    out: Path = typer.Argument(..., help="The folder of the run's shards (made if missing)."),
    teacher: str = typer.Option("race", help="The bot whose decisions are recorded."),
    players: str = typer.Option("2,4,2,4,3,6", help="Table sizes, deal by deal, in turn."),
    deals: int = typer.Option(12000, min=1, help="Deals in all."),
    deals_per_shard: int = typer.Option(50, min=1, help="Deals a shard file holds."),
    seed: int = typer.Option(1000, help="Seeds the deals (keep it apart from tournaments')."),
    explore: float = typer.Option(0.05, min=0.0, max=1.0, help="Share of moves not the teacher's."),
    reach: int = typer.Option(
        6, min=0, max=22, help="Hands a discard teaches the reach network, with their distances."
    ),
    jobs: int = typer.Option(1, min=1, help="Processes."),
    resume: bool = typer.Option(False, help="Go on with a run in OUT (the same settings)."),
) -> None:
    """Stage 1: a teacher's decisions on seeded deals, to shards of NumPy arrays."""
    from rummy21.learn.teacher import TeacherRun, generate

    try:
        check_bot_name(teacher)
    except ValueError as error:
        fail(str(error))
    sizes = _table_sizes(players)
    run = TeacherRun(teacher, sizes, deals, deals_per_shard, seed, explore, reach=reach)
    columns = (TextColumn("teaching"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("shards", total=run.shards)
        try:
            report = generate(
                run, out, jobs, resume, lambda done, total, rows: bar.update(task, completed=done)
            )
        except ValueError as error:
            fail(str(error))
    typer.echo(
        f"{report['rows']:.0f} decisions in {report['seconds']:.0f} s "
        f"({report['per_second']:.1f} a second) written to {out}"
    )


@learn.command("train")
def train_command(
    shards: Path = typer.Argument(..., help="A teacher run's folder (rummy21 learn teach)."),
    out: Path = typer.Argument(..., help="The folder of the fit's checkpoint and curve."),
    hidden: str = typer.Option("256,256", help="Widths of the hidden layers."),
    epochs: int = typer.Option(20, min=1, help="Passes over the training rows."),
    batch: int = typer.Option(512, min=1, help="Rows a step."),
    learning_rate: float = typer.Option(1e-3, min=0.0, help="Adam's step size."),
    value_weight: float = typer.Option(1.0, min=0.0, help="The value loss's weight."),
    seed: int = typer.Option(1, help="Seeds the weights and the order of the rows."),
    draws_only: bool = typer.Option(
        False, help="Fit on the draw decisions alone (what a bot with a reach network asks)."
    ),
    resume: bool = typer.Option(False, help="Go on from OUT's checkpoint."),
) -> None:
    """Stage 2: behaviour cloning (policy head) and Monte-Carlo values (value head)."""
    from rummy21.learn.train import TrainRun, train

    run = TrainRun(
        _sizes(hidden, "--hidden"),
        epochs,
        batch,
        learning_rate,
        value_weight=value_weight,
        seed=seed,
        draws_only=draws_only,
    )

    def show(point: dict[str, float]) -> None:
        typer.echo(
            f"epoch {point['epoch']:.0f}: loss {point['loss']:.3f}, held-out teacher moves "
            f"{100 * point['agree']:.1f} %, value error {point['value_rmse']:.1f} points, "
            f"{point['samples_per_s']:.0f} samples/s"
        )

    try:
        train(shards, out, run, resume, show)
    except ValueError as error:
        fail(str(error))


@learn.command("reach")
def reach_command(
    shards: Path = typer.Argument(..., help="A teacher run's folder (teach --reach)."),
    out: Path = typer.Argument(..., help="The folder of the reach fit's checkpoint and curve."),
    widths: str = typer.Option(
        "96,64,32,256",
        help="Channels of the suit rows' two convolutions and of the ranks' layers, and the "
        "dense layer's width.",
    ),
    epochs: int = typer.Option(20, min=1, help="Passes over the lessons."),
    batch: int = typer.Option(256, min=1, help="Lessons a step."),
    learning_rate: float = typer.Option(2e-3, min=0.0, help="Adam's largest step size."),
    seed: int = typer.Option(1, help="Seeds the weights and the order of the lessons."),
    resume: bool = typer.Option(False, help="Go on from OUT's checkpoint."),
) -> None:
    """Stage 2b: the reach network, which reads a hand's distance to a valid declaration."""
    from rummy21.learn.reach import ReachRun, train_reach

    sizes = _sizes(widths, "--widths")
    if len(sizes) != 4:
        fail(f"--widths takes four numbers (rows, runs, ranks, dense), not {widths!r}")
    run = ReachRun(*sizes, epochs=epochs, batch=batch, learning_rate=learning_rate, seed=seed)

    def show(point: dict[str, float]) -> None:
        typer.echo(
            f"epoch {point['epoch']:.0f}: loss {point['loss']:.3f}, held-out distances read "
            f"exactly {100 * point['exact']:.1f} %, mean error {point['mean_error']:.3f} "
            f"cards, {point['samples_per_s']:.0f} samples/s"
        )

    try:
        train_reach(shards, out, run, resume, show)
    except ValueError as error:
        fail(str(error))


@learn.command("improve")
def improve_command(
    out: Path = typer.Argument(..., help="The folder of the rounds (made if missing)."),
    start: Path | None = typer.Option(
        None, help="The network file round 0 plays (default: the one shipped)."
    ),
    rounds: int = typer.Option(4, min=1, help="Rounds of play and fit."),
    deals: int = typer.Option(2000, min=1, help="Deals a round plays."),
    players: str = typer.Option("2,4", help="Table sizes, deal by deal, in turn."),
    explore: float = typer.Option(0.1, min=0.0, max=1.0, help="Share of choices played at random."),
    drops: bool = typer.Option(
        True, help="The value head also decides the drops the drop rule would make."
    ),
    explore_drop: float = typer.Option(
        0.5, min=0.0, max=1.0, help="Share of those drops played otherwise."
    ),
    ties: bool = typer.Option(
        False, help="The value head also settles the discards near the nearest hand."
    ),
    epochs: int = typer.Option(3, min=1, help="Passes over a round's rows."),
    window: int = typer.Option(2, min=1, help="Rounds of rows a fit sees (the last ones)."),
    learning_rate: float = typer.Option(3e-4, min=0.0, help="Adam's step size."),
    seed: int = typer.Option(3000, help="Seeds the deals (keep it apart from tournaments')."),
    jobs: int = typer.Option(1, min=1, help="Processes."),
    resume: bool = typer.Option(False, help="Go on with a run in OUT (the same settings)."),
) -> None:
    """Stage 3: Deep Monte-Carlo self-play against a league; each round a network file."""
    from rummy21.learn.improve import ImproveRun, improve

    sizes = _table_sizes(players)
    run = ImproveRun(
        str(start or ""),
        rounds,
        deals,
        sizes,
        seed=seed,
        explore=explore,
        drops=drops,
        explore_drop=explore_drop,
        ties=ties,
        epochs=epochs,
        window=window,
        learning_rate=learning_rate,
    )
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("round 1", total=None)

        def show(round_number: int, done: int, total: int) -> None:
            bar.update(task, description=f"round {round_number}", completed=done, total=total)

        try:
            curve = improve(run, out, jobs, resume, show)
        except ValueError as error:
            fail(str(error))
    for point in curve:
        typer.echo(
            f"round {point['round']:.0f}: {point['rows']:.0f} choices, "
            f"{point['moves_per_s']:.0f} moves/s a process, {point['samples_per_s']:.0f} "
            f"samples/s fitted, value error {point['value_rmse']:.1f} points, "
            f"{point['vs_expert']:+.1f} a deal vs expert in play: learned:{out}/round-"
            f"{point['round']:.0f}.npz"
        )


def _race(text: str) -> dict[str, float]:
    settings: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        try:
            settings[name.strip()] = float(value)
        except ValueError:
            fail(f"--race takes NAME=NUMBER settings, comma-separated, not {part!r}")
    return settings


@learn.command("export")
def export_command(
    out: Path = typer.Argument(..., help="A fit's folder (rummy21 learn train)."),
    network: Path = typer.Argument(..., help="The network file to write (.npz)."),
    head: str = typer.Option(
        "policy",
        help="What chooses moves: policy, value, or policy+value (the best-valued of "
        "the policy's --top likeliest).",
    ),
    top: int = typer.Option(3, min=1, help="For policy+value: the policy's moves compared."),
    reach: Path | None = typer.Option(
        None, help="A reach fit's folder (rummy21 learn reach): the bot plays the race by it."
    ),
    race: str = typer.Option(
        "", help="The race rule's settings, e.g. margin=0.25,take=0.5,far_drop=3.5."
    ),
) -> None:
    """Stage 4: the NumPy network file the learned bot plays (learned:PATH)."""
    from rummy21.learn.train import export

    if not (out / "checkpoint.pt").is_file():
        fail(f"no checkpoint in {out}: run rummy21 learn train first")
    try:
        meta = export(out, network, head, top, reach, _race(race))
    except ValueError as error:
        fail(str(error))
    typer.echo(f"wrote {network} (head {meta['head']}): play it as learned:{network}")
