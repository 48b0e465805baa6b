"""``rummy21 play`` driven through standard input, and ``rummy21 simulate``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import rummy21.cli.play  # noqa: F401  (registers the command)
import rummy21.cli.simulate  # noqa: F401
from rummy21.bots import make_bots
from rummy21.cli import app
from rummy21.game import Discard, Draw, Match, Source
from rummy21.ruleset import RuleSet

runner = CliRunner()
ENV = {"COLUMNS": "200"}


def play(args: list[str], lines: list[str]):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["play", *args], input="".join(f"{x}\n" for x in lines), env=ENV)


# ------------------------------------------------------------------- play
def test_first_drop_ends_a_heads_up_deal() -> None:
    result = play(["--players", "2", "--bots", "random", "--seed", "1", "--deals", "1"],
                  ["drop", "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Drop for 30 points?" in out
    assert "You drop (first drop, 30 points)." in out
    assert "won as the last active player" in out
    assert "deal score -30" in out and "deal score +30" in out
    assert "Running totals" in out


def test_bad_input_gets_readable_errors_and_help_and_hint() -> None:
    result = play(["--players", "3", "--bots", "random", "--seed", "4"],
                  ["", "zz", "discard 7H", "7H", "help", "hint", "hand", "q"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "✗ unknown action 'zz'" in out
    assert "✗ draw a card first" in out
    assert "Commands" in out and "declare 7H" in out
    assert "Draw from the stock" in out or "Take " in out
    assert out.count("Your hand, 21 cards") == 2
    assert "You left the table." in out


def test_hand_is_grouped_and_marked() -> None:
    result = play(["--players", "2", "--bots", "random", "--seed", "3"], ["q"])
    out = result.output
    assert "Cut card" in out and "wild rank" in out and "Stock" in out
    assert "loose" in out and "*" in out          # jokers are starred
    assert "penalty now" in out


def scripted_deal(seed: int, players: int, names: list[str]) -> tuple[list[str], tuple[int, ...]]:
    """Play the same deal the CLI will deal, with the human drawing and discarding from the
    stock each turn; return the commands it typed and the deal's scores."""
    match = Match(players, RuleSet(), seed=seed)
    bots = [None, *make_bots(names, seed=seed)]
    table = match.new_deal()
    commands: list[str] = []
    while not table.over:
        seat = table.turn
        assert seat is not None
        bot = bots[seat]
        if bot is None:
            commands.append("s")
            drew = table.apply(Draw(Source.STOCK))
            if table.over:
                break
            commands.append(str(drew.card).lower())   # a bare card discards it
            table.apply(Discard(drew.card))
        else:
            table.apply(bot.choose(table.view(seat), table.legal_actions()))
    assert table.scores is not None
    return commands, table.scores


def test_a_whole_deal_through_stdin_matches_the_engine() -> None:
    commands, scores = scripted_deal(seed=9, players=3, names=["random", "random"])
    result = play(["--players", "3", "--bots", "random", "--seed", "9", "--deals", "1"], commands)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "✗" not in out
    for seat, score in enumerate(scores):
        assert f"deal score {score:+d} · total {score:+d}" in out
    assert "You discard" in out and "Seat 1 (random)" in out


def test_declaring_wrongly_asks_first() -> None:
    match = Match(2, RuleSet(), seed=6)
    table = match.new_deal()
    first = str(table.hand(0)[0])
    result = play(["--players", "2", "--bots", "random", "--seed", "6", "--deals", "1"],
                  ["s", f"declare {first}", "n", f"declare {first}", "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("not a valid declaration") == 2
    assert "You declared wrongly: 120 points" in out
    assert "wrong declaration" in out and "deal score -120" in out


def test_play_option_errors() -> None:
    result = play(["--players", "7"], [])
    assert result.exit_code == 2 and "--players must be 2 to 6" in result.output
    result = play(["--bots", "clever"], [])
    assert result.exit_code == 2 and "unknown bot 'clever'" in result.output
    result = play(["--rules", "house"], [])
    assert result.exit_code == 2 and "unknown rule set" in result.output


def test_end_of_input_leaves_the_table_cleanly() -> None:
    result = play(["--players", "2", "--bots", "greedy", "--seed", "2"], [])
    assert result.exit_code == 0 and "You left the table." in result.output


# --------------------------------------------------------------- simulate
def simulate(args: list[str]):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["simulate", *args], env=ENV)


def test_simulate_json_is_reproducible_and_complete() -> None:
    args = ["--players", "4", "--deals", "6", "--seed", "7", "--bots", "random",
            "--turn-limit", "80", "--json"]
    first, second = simulate(args), simulate(args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    deals, summary = lines[:-1], lines[-1]["summary"]
    assert [d["deal"] for d in deals] == list(range(6))
    for deal in deals:
        assert set(deal) == {"deal", "seed", "winner", "reason", "option", "turns", "scores"}
        assert sum(deal["scores"]) == 0 and deal["turns"] <= 80
        assert deal["reason"] in ("declared", "last_active", "wash")
        assert (deal["winner"] is None) == (deal["reason"] == "wash")
    assert summary["totals"] == [sum(d["scores"][s] for d in deals) for s in range(4)]
    assert sum(summary["reasons"].values()) == 6
    other = simulate(args[:5] + ["8"] + args[6:])
    assert other.stdout != first.stdout


def test_simulate_with_greedy_and_a_rule_set() -> None:
    result = simulate(["--players", "3", "--deals", "1", "--seed", "5", "--bots",
                       "greedy,random", "--turn-limit", "12", "--rules", "adda52", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.splitlines()[-1])["summary"]
    assert summary["bots"] == ["greedy", "random", "greedy"] and summary["rules"] == "adda52"


def test_simulate_table_output() -> None:
    result = simulate(["--players", "2", "--deals", "3", "--seed", "1", "--turn-limit", "50"])
    assert result.exit_code == 0, result.output
    assert "mean per deal" in result.stdout and "3 deals" in result.stdout


def test_simulate_argument_errors() -> None:
    assert simulate(["--players", "1"]).exit_code == 2
    assert simulate(["--bots", "x"]).exit_code == 2
    assert simulate(["--deals", "-1"]).exit_code == 2
    result = simulate(["--turn-limit", "-5"])
    assert result.exit_code == 2
    assert "error: --turn-limit must be a positive number of turns" in result.output


def test_simulate_counts_read_as_english() -> None:
    result = simulate(["--players", "2", "--deals", "1", "--seed", "1", "--turn-limit", "0"])
    assert result.exit_code == 0, result.output
    assert "1 deal, rules classic" in result.stdout and "no turn limit" in result.stdout


def test_a_declared_layout_is_explained_group_by_group() -> None:
    match = Match(2, RuleSet(), seed=6)
    hand = [str(c) for c in match.new_deal().hand(0)]
    assert hand[:6] == ["2S", "7S", "10S", "JS", "QS", "QS"]
    result = play(["--players", "2", "--bots", "random", "--seed", "6"],
                  ["s", "declare 2S: 10S JS QS / 7S QS", "n", "q"])
    out = result.output
    assert "✓ pure sequence" in out and "✗" in out and "pure group(s) shown" in out
