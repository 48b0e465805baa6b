"""``rummy21 simulate``: bots play many deals; one JSON object per deal and a summary.

The same arguments always print the same bytes: deal seeds come from ``--seed`` and random
bots are seeded from it too.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from rummy21.bots import (
    BOT_NAMES,
    DEFAULT_TURN_LIMIT,
    check_bots_load,
    make_bots,
    parse_bot_names,
    play_deal,
)
from rummy21.bots.external import check_exec_names, set_move_time
from rummy21.cli import EXIT_INTERRUPTED, app
from rummy21.cli.options import bot_time_option, rules_option, turn_limit_option
from rummy21.game.match import MOST_DEALS, DealRecord, Match
from rummy21.game.seat import Seat
from rummy21.ruleset import RuleSet


def simulate(
    players: int, deals: int, seed: int, bots: list[str], rules: RuleSet
) -> Iterator[DealRecord]:
    """Play ``deals`` deals of a seeded match with ``bots`` and yield each deal's record.

    >>> rules = RuleSet().with_(turn_limit=20)
    >>> [r.to_dict()["turns"] <= 20 for r in simulate(3, 2, 1, ["random"] * 3, rules)]
    [True, True]
    """
    match = Match(players, rules, seed=seed)
    players_bots = make_bots(bots, seed=seed)
    for _ in range(deals):
        table = match.new_deal()
        play_deal(table, players_bots)
        yield match.record(table)


def summary(
    records: list[DealRecord], players: int, bots: list[str], rules: RuleSet, seed: int
) -> dict[str, Any]:
    """Totals, wins, mean score per deal and how deals ended."""
    totals = [sum(r.scores[s] for r in records) for s in range(players)]
    wins = [sum(1 for r in records if r.winner == s) for s in range(players)]
    reasons = Counter(r.reason.value for r in records)
    count = len(records)
    return {
        "summary": {
            "deals": count,
            "players": players,
            "bots": bots,
            "rules": rules.name,
            "seed": seed,
            "turn_limit": rules.turn_limit,
            "totals": totals,
            "wins": wins,
            "mean_scores": [round(t / count, 3) if count else 0.0 for t in totals],
            "reasons": {k: reasons.get(k, 0) for k in ("declared", "last_active", "wash")},
            "mean_turns": round(sum(r.turns for r in records) / count, 3) if count else 0.0,
        }
    }


@app.command("simulate")
def simulate_command(
    players: int = typer.Option(4, "--players", "-p", help="Seats at the table (2-6)."),
    deals: int = typer.Option(10, "--deals", "-k", help="Number of deals to play."),
    seed: int = typer.Option(0, "--seed", help="Match seed: same seed, same output."),
    bots: str = typer.Option(
        "random",
        "--bots",
        help=f"Comma-separated bots by seat, repeated to fill the table: {', '.join(BOT_NAMES)}, "
        "or search:WORLDS (search with its own budget), or rl:PATH (a trained policy), or "
        "exec:COMMAND (a program playing the bot protocol).",
    ),
    turn_limit: int | None = turn_limit_option(DEFAULT_TURN_LIMIT),
    rules: str = rules_option(),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per deal, then a summary line."
    ),
    bot_time: str | None = bot_time_option(),
) -> None:
    """Let bots play DEALS deals and report how each ended and the scores."""
    err = Console(stderr=True, soft_wrap=True)
    try:
        rule_set = RuleSet.preset(rules)
        if turn_limit is not None and turn_limit < 0:
            raise ValueError(
                f"--turn-limit must be a positive number of turns (or 0 for none), not {turn_limit}"
            )
        limit = (
            turn_limit if turn_limit is not None else (rule_set.turn_limit or DEFAULT_TURN_LIMIT)
        )
        rule_set = rule_set.with_(turn_limit=limit or None)
        if not rule_set.min_players <= players <= rule_set.max_players:
            raise ValueError(
                f"--players must be {rule_set.min_players} to {rule_set.max_players}, not {players}"
            )
        if not 1 <= deals <= MOST_DEALS:
            raise ValueError(f"--deals must be 1 to {MOST_DEALS:,}, not {deals}")
        names = parse_bot_names(bots, players)
        set_move_time(bot_time)
        check_exec_names(names)
        check_bots_load(names)
    except ValueError as error:
        err.print(f"error: {error}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    records: list[DealRecord] = []
    runs = simulate(players, deals, seed, names, rule_set)
    try:
        if as_json:
            for record in runs:
                records.append(record)
                print(json.dumps(record.to_dict()), flush=True)
        else:
            with Progress(
                TextColumn("deals"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                transient=True,
                disable=not err.is_terminal,
            ) as progress:
                task = progress.add_task("deals", total=deals)
                for record in runs:
                    records.append(record)
                    progress.advance(task)
    except KeyboardInterrupt:
        # As the tournament does: what was played is not lost.
        err.print(f"interrupted after {len(records)} of {deals} deals; the summary of those:")
        _finish(records, players, names, rule_set, seed, as_json)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    _finish(records, players, names, rule_set, seed, as_json)


def _finish(
    records: list[DealRecord],
    players: int,
    names: list[str],
    rule_set: RuleSet,
    seed: int,
    as_json: bool,
) -> None:
    """The summary of the deals played, as JSON (a last line) or as a table."""
    data = summary(records, players, names, rule_set, seed)
    if as_json:
        print(json.dumps(data), flush=True)
    else:
        _print_summary(data["summary"])


def _print_summary(data: dict[str, Any]) -> None:
    out = Console(highlight=False)
    reasons = data["reasons"]
    deals = data["deals"]
    limit = f"turn limit {data['turn_limit']}" if data["turn_limit"] else "no turn limit"
    out.print(
        f"{deals} deal{'' if deals == 1 else 's'}, rules {data['rules']}, seed "
        f"{data['seed']}, {limit}: {reasons['declared']} declared, {reasons['last_active']} "
        f"won by the last active player, {reasons['wash']} washed; "
        f"{data['mean_turns']:.1f} turns a deal on average"
    )
    table = RichTable("seat", "bot", "wins", "total", "mean per deal")
    for seat, bot in enumerate(data["bots"]):
        table.add_row(
            str(Seat(seat)),
            bot,
            str(data["wins"][seat]),
            f"{data['totals'][seat]:+d}",
            f"{data['mean_scores'][seat]:+.2f}",
        )
    out.print(table)
