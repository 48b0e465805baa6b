"""The bot protocol (``exec:COMMAND``): real programs through the real harness. Bots that play
legally, crash, hang, write garbage, name illegal moves or answer stale ids: every deal and
tournament completes, each fault is counted (and reported), and a bot is told its View, the
public events and the public result, nothing more. Declarations with a layout; ``--bot-time``.
(At live tables: ``test_bot_live``.)

Deals are tiny (2 seats, short turn limits) and the time a move is short (0.5 s).
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from protocol_bot import heard, keys_of
from typer.testing import CliRunner

import rummy21.cli.bot  # (these register their commands)
import rummy21.cli.play
import rummy21.cli.simulate
import rummy21.cli.tournament  # noqa: F401
from rummy21.bots import Bot, ExpertBot, RandomBot, check_bot_name, make_bot, play_deal
from rummy21.bots.external import ExecBot, fault_counts, stop_all
from rummy21.cli import app
from rummy21.game import Table
from rummy21.game.actions import Action
from rummy21.game.events import Declared, TimedOut
from rummy21.game.match import Match
from rummy21.game.settlement import Settlement
from rummy21.game.view import View
from rummy21.ruleset import RuleSet
from rummy21.tournament import Settings, ShoeRecord, render_report, run_shoes, summarize

ROOT = Path(__file__).resolve().parents[1]
HELPER = Path(__file__).with_name("protocol_bot.py")
EXAMPLES = ROOT / "examples" / "bots"
RULES = RuleSet().with_(turn_limit=30)
FAST = 0.5


def command(*args: str) -> str:
    """The command line running the helper bot with ``args``."""
    return shlex.join([sys.executable, str(HELPER), *args])


@pytest.fixture(autouse=True)
def _fresh_programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("RUMMY21_BOT_LOGS", str(tmp_path / "logs"))
    monkeypatch.setenv("RUMMY21_BOT_TIME", str(FAST))
    yield
    stop_all()


def play(bot: Bot, deals: int = 1, seed: int = 4) -> list[Table]:
    """``deals`` deals of a seeded match, ``bot`` in seat 0 against a random bot."""
    match, tables = Match(2, RULES, seed=seed), []
    for _ in range(deals):
        table = match.new_deal()
        play_deal(table, [bot, RandomBot(seed)])
        match.record(table)
        tables.append(table)
    return tables


def timeouts_of(table: Table, seat: int) -> int:
    return sum(isinstance(e, TimedOut) and e.seat == seat for e in table.log)


def test_exec_is_a_bot_kind() -> None:
    name = check_bot_name(f"exec:{command('legal')}")
    bot = make_bot(name, 7)
    assert isinstance(bot, ExecBot) and isinstance(bot, Bot)
    assert bot.name == name and bot.seed == 7 and bot.seconds == FAST
    with pytest.raises(ValueError, match="No closing quotation"):
        make_bot("exec:python3 'bot.py")


def test_a_legal_bot_plays_whole_deals_without_a_fault() -> None:
    bot = ExecBot(command("legal"))
    tables = play(bot, deals=2)
    assert all(t.over for t in tables)
    assert bot.faults == {} and bot.moves == len(bot.answer_times) > 10
    assert all(timeouts_of(t, 0) == 0 for t in tables)
    assert bot.log is not None and bot.log.exists()


@pytest.mark.parametrize(
    ("mode", "fault"),
    [("hang", "timeout"), ("garbage", "garbage"), ("illegal", "illegal")],
)
def test_a_fault_costs_the_move_only(mode: str, fault: str) -> None:
    bot = ExecBot(command(mode, "3"))
    (table,) = play(bot)
    assert table.over
    assert dict(bot.faults) == {fault: 1}
    assert timeouts_of(table, 0) == 1  # (the 3rd move; the others were its own)
    assert len(bot.answer_times) == bot.moves - 1
    (example,) = bot.examples[fault]
    assert example.startswith("deal 1, turn ")


def test_a_late_answer_is_not_counted_twice() -> None:
    bot = ExecBot(command("hang", "2"))
    play(bot)
    assert dict(bot.faults) == {"timeout": 1}  # (its answer to the move it lost: ignored)


def test_an_answer_with_another_id_is_ignored() -> None:
    bot = ExecBot(command("stale", "2"))
    (table,) = play(bot)
    assert dict(bot.faults) == {"stale": 1}
    assert timeouts_of(table, 0) == 0 and len(bot.answer_times) == bot.moves


def test_a_crashed_program_times_out_its_deal_and_is_started_again() -> None:
    bot = ExecBot(command("crash", "3"))
    first, second = play(bot, deals=2)
    assert first.over and second.over
    # Its deal: time-outs after the crash, until three in a row drop it (RULES §6.4).
    assert timeouts_of(first, 0) == 3 and first.result is not None
    assert first.result.seats[0].standing.value == "dropped"
    # Started again: two good moves, then the same crash.
    assert dict(bot.faults) == {"crash": 2} and len(bot.answer_times) == 4
    assert "the program ended" in bot.examples["crash"][0]


def test_a_program_that_cannot_start_is_a_crash() -> None:
    bot = ExecBot("/no/such/bot --fast")
    (table,) = play(bot)
    assert table.over and dict(bot.faults) == {"crash": 1}
    assert "cannot start" in bot.examples["crash"][0]


class _Watching:
    """Plays the bot, keeping what its seat's View was at each of its moves and at the end."""

    def __init__(self, bot: ExecBot) -> None:
        self.bot, self.name = bot, bot.name
        self.views: list[dict[str, Any]] = []

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        self.views.append(json.loads(json.dumps(view.to_dict())))
        return self.bot.choose(view, legal_actions)

    def deal_over(self, view: View, result: Settlement) -> None:
        self.views.append(json.loads(json.dumps(view.to_dict())))
        self.bot.deal_over(view, result)


def test_a_bot_is_told_its_view_and_public_events_only(tmp_path: Path) -> None:
    log = tmp_path / "heard.jsonl"
    watching = _Watching(ExecBot(command("legal", "0", str(log)), seed=5))
    table = Table(2, RULES, seed=9)
    result = play_deal(table, [watching, ExpertBot()])
    stop_all()  # (its input closed: every line it was sent is in the log)
    messages = heard(log)
    assert [m["type"] for m in messages[:2]] == ["hello", "start"]
    assert messages[0] == {"type": "hello", "protocol": 2, "seat": 0}
    assert messages[1]["seed"] == 5 and messages[1]["seat"] == 0
    assert {m["type"] for m in messages} == {"hello", "start", "events", "move", "end"}
    moves = [m for m in messages if m["type"] == "move"]
    # Each move carries exactly the View of its own seat, nothing else.
    assert [m["view"] for m in moves] == watching.views[:-1]
    assert all(set(m) == {"type", "id", "view", "legal"} for m in moves)
    # The events told are the public history, once each, to the deal's end.
    told = [e for m in messages if m["type"] == "events" for e in m["events"]]
    assert told == watching.views[-1]["history"] and told[-1]["action"] == "deal_ended"
    # And the end is the result as the seat is shown it (a dropped hand of another folded).
    shown = json.loads(json.dumps(result.public_dict(0)))
    assert messages[-1] == {"type": "end", "seat": 0, **shown}
    assert all(m["view"]["seat"] == 0 for m in moves)
    assert not keys_of(messages) & {"hands", "stock", "shoe", "log"}


def test_bots_that_misbehave_do_not_stop_a_tournament() -> None:
    bots = (f"exec:{command('crash', '4')}", f"exec:{command('garbage', '2')}", "random")
    settings = Settings(bots, players=2, deals=2, seed=1, turn_limit=30)
    records = sorted(run_shoes(settings, range(2), jobs=1), key=lambda r: r.number)
    summary = summarize(settings, records)
    assert summary.deals == 2 * 3
    faults = dict(summary.faults)
    # Each bot plays 2 deals a shoe, one in each seat (one program a seat, reused); the
    # crashing one crashes in every deal (started again each time), the other writes one
    # garbage line in the life of each of its two programs.
    assert dict(faults[settings.labels[0]]) == {"crash": 4}
    assert dict(faults[settings.labels[1]]) == {"garbage": 2}
    assert settings.labels[2] not in faults
    assert summary.to_dict()["summary"]["faults"][settings.labels[0]] == {"crash": 4}
    line = json.loads(json.dumps(records[0].to_dict(settings.labels)))
    assert line["faults"] == {settings.labels[0]: {"crash": 2}, settings.labels[1]: {"garbage": 2}}
    assert records[1].to_dict(settings.labels)["faults"] == {settings.labels[0]: {"crash": 2}}
    again = ShoeRecord.from_dict(line, settings)
    assert again == records[0] and again.faults == records[0].faults


def test_a_declaration_may_show_its_own_layout() -> None:
    bot = ExecBot(command("layout", "4"))
    (table,) = play(bot)
    (declared,) = [e for e in table.log if isinstance(e, Declared) and e.seat == 0]
    assert declared.groups is not None and len(declared.groups) == 1
    assert len(declared.groups[0]) == 3 and bot.faults == {}


def test_a_layout_of_cards_not_held_is_illegal() -> None:
    bot = ExecBot(command("badlayout", "4"))
    (table,) = play(bot)
    assert table.over and dict(bot.faults) == {"illegal": 1} and timeouts_of(table, 0) == 1
    assert "which is not in its hand (besides the finish card)" in bot.examples["illegal"][0]
    assert not any(isinstance(e, Declared) and e.seat == 0 for e in table.log)


def ends_heard(log: Path) -> list[dict[str, Any]]:
    return [m for m in heard(log) if m["type"] == "end"]


def test_every_deal_of_a_tournament_ends_with_its_result(tmp_path: Path) -> None:
    log = tmp_path / "heard.jsonl"
    settings = Settings(
        (f"exec:{command('legal', '0', str(log))}", "random"), 2, 2, 3, turn_limit=30
    )
    records = list(run_shoes(settings, range(2), jobs=1))
    stop_all()
    ends = ends_heard(log)
    # Two shoes, each played once with the bot in each seat.
    assert len(ends) == 4 and sorted(e["seat"] for e in ends) == [0, 0, 1, 1]
    scores = sorted(deal.scores for record in records for deal in record.deals)
    assert sorted(tuple(e["scores"]) for e in ends) == scores


def test_simulate_tells_each_deal_s_end(tmp_path: Path) -> None:
    log = tmp_path / "heard.jsonl"
    bots = f"exec:{command('legal', '0', str(log))},random"
    result = runner.invoke(
        app, ["simulate", "-p", "2", "-k", "2", "--turn-limit", "30", "--bots", bots, "--json"]
    )
    assert result.exit_code == 0, result.output
    stop_all()
    deals = [json.loads(line) for line in result.stdout.splitlines()[:-1]]
    assert [e["scores"] for e in ends_heard(log)] == [d["scores"] for d in deals]


def test_bot_time_sets_a_program_s_time_for_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RUMMY21_BOT_TIME")
    args = ["-p", "2", "-k", "1", "--turn-limit", "20", "--bot-time", "0.5", "--json"]
    bots = ["--bots", f"exec:{command('hang', '2')},random"]
    result = runner.invoke(app, ["tournament", *args, *bots, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.splitlines()[-1])["summary"]
    # A hang of 0.65 s is a time-out at 0.5 s (not at the default 5 s), once in each of the
    # program's two deals (one a seat).
    assert summary["faults"] == {f"exec:{command('hang', '2')}": {"timeout": 2}}


@pytest.mark.parametrize("command_name", ["tournament", "simulate", "play"])
@pytest.mark.parametrize("value", ["abc", "0", "-1", "inf"])
def test_a_bad_bot_time_is_one_line(command_name: str, value: str) -> None:
    result = runner.invoke(app, [command_name, "--bot-time", value])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --bot-time must be a positive number of seconds, not {value!r}\n"
    )


def test_the_report_shows_each_program_s_faults_and_move_times() -> None:
    bots = (f"exec:{command('garbage', '2')}", f"exec:{command('legal')}", "random")
    settings = Settings(bots, players=2, deals=1, seed=1, turn_limit=20)
    page = render_report(summarize(settings, run_shoes(settings, [0], jobs=1)))
    table = page[page.index("<h2>Bot programs</h2>") :]
    table = table[: table.index("</table>")]
    rows = table.split("<tr>")[2:]
    assert len(rows) == 2 and "random" not in table
    # crash, timeout, garbage, illegal, stale, moves lost: one garbage line a program.
    assert "<td>0</td><td>0</td><td>2</td><td>0</td><td>0</td><td>2</td>" in rows[0]
    assert "<td>0</td>" * 6 in rows[1] and "s</td>" in rows[1]
    plain = Settings(("random", "greedy"), players=2, deals=1, seed=1, turn_limit=20)
    assert "Bot programs" not in render_report(summarize(plain, run_shoes(plain, [0])))


def test_a_tournament_with_a_deterministic_bot_is_deterministic() -> None:
    settings = Settings((f"exec:{command('legal')}", "random"), 2, deals=2, seed=3, turn_limit=30)
    first = sorted(run_shoes(settings, range(2), jobs=1), key=lambda r: r.number)
    stop_all()  # (fresh programs: the same results)
    second = sorted(run_shoes(settings, range(2), jobs=1), key=lambda r: r.number)
    workers = sorted(run_shoes(settings, range(2), jobs=2), key=lambda r: r.number)
    assert first == second == workers
    assert all("faults" not in r.to_dict(settings.labels) for r in first)
    assert [fault_counts(bot) for bot in (RandomBot(1), ExpertBot())] == [{}, {}]


def test_the_python_example_plays_the_real_harness() -> None:
    bot = ExecBot(shlex.join([sys.executable, str(EXAMPLES / "first_legal.py")]), seed=2)
    tables = play(bot, deals=2)
    assert all(t.over for t in tables) and bot.faults == {}
    assert all(timeouts_of(t, 0) == 0 for t in tables)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_plays_the_real_harness() -> None:
    bot = ExecBot(shlex.join(["node", str(EXAMPLES / "first_legal.js")]), seconds=5.0)
    tables = play(bot, deals=2)
    assert all(t.over for t in tables) and bot.faults == {}


runner = CliRunner()


def check(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["bot", "check", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_check_passes_a_good_bot() -> None:
    status, out, _ = check(command("legal"), "--deals", "2", "--seed", "1", "--turn-limit", "30")
    assert status == 0, out
    assert "played 2 deals at 2 seats against expert (seed 1)" in out
    assert "no protocol error" in out


def test_check_reports_each_fault_with_examples() -> None:
    status, out, _ = check(command("illegal", "2"), "--deals", "2", "--turn-limit", "30")
    assert status == 1
    assert "1 protocol error:" in out and "illegal" in out and "'fly away' is not legal" in out
    status, out, _ = check(command("hang", "1"), "-k", "1", "--time", "0.5", "--json")
    report = json.loads(out)
    assert status == 1 and report["faults"]["timeout"] == 1
    assert report["examples"]["timeout"] == ["deal 1, turn 0: no answer in 0.5 s"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/no/such/program"], "cannot run '/no/such/program'"),
        (["python3 'x"], "No closing quotation"),
        ([command("legal"), "--players", "9"], "--players must be"),
        ([command("legal"), "--against", "nobody"], "unknown bot 'nobody'"),
        ([command("legal"), "--time", "0"], "--time must be"),
    ],
)
def test_check_refuses_bad_usage(args: list[str], message: str) -> None:
    status, _, err = check(*args)
    assert status == 2 and err.startswith("error: ") and message in err
    assert len(err.strip().splitlines()) == 1
