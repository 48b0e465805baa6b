"""``rummy21 bot``: bots in any language (:mod:`rummy21.bots.external`).

    rummy21 bot check "python3 examples/bots/first_legal.py" --deals 3 --seed 1
    rummy21 bot connect --url https://host/t/CODE --exec "python3 mybot.py" [--token T]

``check`` plays a few seeded deals against rummy21's bots and reports every protocol error
the program made: status 0 if none, 1 if some, 2 on bad usage. ``connect`` plays a seat of a
live table (:mod:`rummy21.bots.live`) until its match is over: status 0 then, 1 if it could
not play on (the table unreachable, the token refused…), 2 on bad usage, 130 on Ctrl-C.
"""

from __future__ import annotations

import json
import shutil
import statistics
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from rummy21.bots import Bot, check_bot_name, make_bot, play_deal, seat_seed
from rummy21.bots.external import DEFAULT_MOVE_TIME, ExecBot, Fault, split_command, stop_all
from rummy21.cli import EXIT_INTERRUPTED, app
from rummy21.cli.options import rules_option
from rummy21.game.match import Match
from rummy21.ruleset import RuleSet

bot = typer.Typer(no_args_is_help=True, help="Bots in any language: the bot protocol.")
app.add_typer(bot, name="bot")


class _Fail(Exception):
    """Bad usage: one line on stderr, status 2."""


@bot.command("check")
def check_command(
    command: str = typer.Argument(
        ..., help='The bot program and its arguments, quoted as one: "python3 mybot.py".'
    ),
    deals: int = typer.Option(3, "--deals", "-k", help="Deals to play."),
    seed: int = typer.Option(0, "--seed", help="Seeds the deals (and the bots' seeds)."),
    players: int = typer.Option(2, "--players", "-p", help="Seats; the bot plays seat 0."),
    against: str = typer.Option("expert", "--against", help="The bot in the other seats."),
    seconds: float = typer.Option(DEFAULT_MOVE_TIME, "--time", help="Seconds a move."),
    turn_limit: int = typer.Option(200, "--turn-limit", help="Turns before a deal is a wash."),
    rules: str = rules_option(),
    logs: Path | None = typer.Option(
        None, "--logs", help="The folder of the bot's stderr log (default: a temporary one)."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Play seeded deals with the bot program COMMAND; report its protocol errors.

    Every fault is counted by kind, with examples; the status is 1 if there was any."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        tested, others = _bots(command, seed, players, against, seconds, logs)
        rule_set = _rules(rules, players, deals, turn_limit)
    except (ValueError, _Fail) as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    match = Match(players, rule_set, seed=seed)
    scores = []
    try:
        for _ in range(deals):
            table = match.new_deal()
            scores.append(play_deal(table, [tested, *others]).scores[0])
            match.record(table)
    except KeyboardInterrupt:
        err.print(f"interrupted after {len(scores)} of {deals} deals")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        stop_all()
    report = _report(tested, scores, against=against, players=players, seed=seed)
    if as_json:
        print(json.dumps(report))
    else:
        played = f"{_deals(len(scores))} at {players} seats against {against} (seed {seed})"
        _print(report, played, Console(highlight=False, soft_wrap=True))
    if tested.faults:
        raise typer.Exit(1)


@bot.command("connect")
def connect_command(
    url: str = typer.Option(..., "--url", help="The table's page: https://host/t/CODE."),
    command: str = typer.Option(
        ..., "--exec", help='The bot program and its arguments, quoted as one: "python3 mybot.py".'
    ),
    token: str | None = typer.Option(
        None, "--token", help="A seat's token; without it the program takes an open seat."
    ),
    name: str | None = typer.Option(
        None, "--name", help="The name it takes a seat under (default: the program's)."
    ),
    seat: int | None = typer.Option(
        None, "--seat", help="The open seat to take, from 1 (default: the first open one)."
    ),
    seconds: float = typer.Option(
        DEFAULT_MOVE_TIME, "--time", help="Seconds a move (at most what the table's clock leaves)."
    ),
    logs: Path | None = typer.Option(
        None, "--logs", help="The folder of the bot's stderr log (default: a temporary one)."
    ),
) -> None:
    """Play a seat of a live table (rummy21 serve) with the bot program COMMAND, through the
    WebSocket a browser uses, until the table's match is over."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        from rummy21.bots.live import LiveBot, LiveError, program_name, socket_url, table_address
    except ImportError as error:
        err.print(
            f"error: bot connect needs {error.name}, which is not installed: "
            "pip install 'rummy21[live]'",
            markup=False,
        )
        raise typer.Exit(2) from None
    try:
        server, code = table_address(url)
        text = _program(command)
        _check_time(seconds, "--time")
        if seat is not None and seat < 1:
            raise _Fail(f"--seat counts from 1, not {seat}")
        tested = ExecBot(text, None, seconds=seconds, logs=logs)
    except (ValueError, _Fail) as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    out = Console(highlight=False, soft_wrap=True)

    def say(line: str) -> None:
        out.print(line, markup=False)

    live: LiveBot | None = None
    try:
        if token is None:
            from rummy21.bots.live import take_seat

            taken, token = take_seat(
                server, code, name or program_name(tested.argv), None if seat is None else seat - 1
            )
            say(f"took seat {taken + 1} at table {code}; to come back to it: --token {token}")
        live = LiveBot(tested, socket_url(server, code), token, say)
        live.run()
    except LiveError as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        err.print("interrupted: the seat is left to the table's clock")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        stop_all()
        if live is not None and live.seat is not None:
            report = _report(tested, live.scores, table=code, seat=live.seat)
            played = f"{_deals(len(live.scores))} at table {code}, seat {live.seat + 1}"
            _print(report, played, out)


def _program(command: str) -> str:
    """The command of a bot program (``exec:`` allowed before it), if it names a program."""
    text = command.strip()
    if text.lower().startswith("exec:"):
        text = text[len("exec:") :]
    program = split_command(text)[0]
    if shutil.which(program) is None:
        raise _Fail(f"cannot run {program!r}: no such program (on the PATH, or executable)")
    return text


def _check_time(seconds: float, option: str) -> None:
    if not 0 < seconds < float("inf"):
        raise _Fail(f"{option} must be a positive number of seconds, not {seconds}")


def _bots(
    command: str, seed: int, players: int, against: str, seconds: float, logs: Path | None
) -> tuple[ExecBot, list[Bot]]:
    text = _program(command)
    _check_time(seconds, "--time")
    other = check_bot_name(against)
    if other.startswith("exec:"):
        raise _Fail("--against names one of rummy21's own bots, not a program")
    others = [make_bot(other, seat_seed(seed, seat)) for seat in range(1, players)]
    return ExecBot(text, seat_seed(seed, 0), seconds=seconds, logs=logs), others


def _rules(rules: str, players: int, deals: int, turn_limit: int) -> RuleSet:
    rule_set = RuleSet.preset(rules)
    if not rule_set.min_players <= players <= rule_set.max_players:
        raise _Fail(
            f"--players must be {rule_set.min_players} to {rule_set.max_players}, not {players}"
        )
    if deals < 1:
        raise _Fail(f"--deals must be 1 or more, not {deals}")
    if turn_limit < 1:
        raise _Fail(f"--turn-limit must be a positive number of turns, not {turn_limit}")
    return rule_set.with_(turn_limit=turn_limit)


def _report(tested: ExecBot, scores: list[int], **facts: Any) -> dict[str, Any]:
    """What the program did: ``facts`` (where it played), its deals, moves, times and
    faults."""
    times = tested.answer_times
    return {
        "bot": tested.name,
        **facts,
        "deals": len(scores),
        "scores": scores,
        "moves": tested.moves,
        "median_ms": round(statistics.median(times) * 1000, 3) if times else None,
        "slowest_ms": round(max(times) * 1000, 3) if times else None,
        "faults": {kind.value: tested.faults[kind.value] for kind in Fault},
        "examples": {kind: list(found) for kind, found in tested.examples.items()},
        "log": None if tested.log is None else str(tested.log),
    }


def _deals(count: int) -> str:
    return f"{count} deal{'' if count == 1 else 's'}"


def _print(report: dict[str, Any], played: str, out: Console) -> None:
    """``report`` for a person; ``played`` says what and where."""
    timing = (
        f"answered in {report['median_ms']:g} ms (median), {report['slowest_ms']:g} ms (slowest)"
        if report["median_ms"] is not None
        else "no answer"
    )
    out.print(
        f"{report['bot']} played {played}: {report['moves']} moves asked, {timing}; its score "
        f"{sum(report['scores']):+d}.",
        markup=False,
    )
    if report["log"]:
        out.print(f"its stderr: {report['log']}", markup=False)
    faults = {kind: n for kind, n in report["faults"].items() if n}
    total = sum(faults.values())
    if not total:
        out.print("no protocol error")
        return
    out.print(f"{total} protocol error{'' if total == 1 else 's'}:")
    for kind, count in faults.items():
        examples = report["examples"].get(kind, [])
        out.print(f"  {kind:<8} {count:>4}  e.g. {examples[0] if examples else ''}", markup=False)
        for example in examples[1:]:
            out.print(f"{'':20}{example}", markup=False)
