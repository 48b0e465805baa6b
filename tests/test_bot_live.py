"""Bot programs at live tables (``rummy21 bot connect``, :mod:`rummy21.bots.live`): a real
server (uvicorn in a thread, on a SQLite file), the example bot and the protocol's test bot at
tables with rummy21's bots, through the WebSocket a browser uses. Whole matches are played;
faults are left to the table's clock (or asked again at a table with none); a dropped
connection is opened again; a program hears its seat's view and the public facts only.

Bots move at once and the tables are seeded, so that a match takes a second or two.
"""

from __future__ import annotations

import json
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from protocol_bot import heard, keys_of
from serving import HOST, free_port
from typer.testing import CliRunner

uvicorn = pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")

import rummy21.cli.bot  # noqa: E402, F401  (registers the command)
from rummy21.bots.external import ExecBot, stop_all  # noqa: E402
from rummy21.bots.live import LiveBot, socket_url  # noqa: E402
from rummy21.cli import app  # noqa: E402
from rummy21.game.view import View  # noqa: E402
from rummy21.server import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = shlex.join([sys.executable, str(ROOT / "examples" / "bots" / "first_legal.py")])
HELPER = Path(__file__).with_name("protocol_bot.py")
VIEW_KEYS = set(View.__dataclass_fields__) | {"top_stays", "drop_kind"}  # (and derived facts)


def helper(*args: str) -> str:
    return shlex.join([sys.executable, str(HELPER), *args])


class LiveServer:
    """``rummy21 serve``'s app under uvicorn in a thread, on the SQLite file ``db``: bots move
    at once, seeds allowed, no rate limit; :meth:`stop` ends it (its tables stay in ``db``)."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.port = free_port() if port is None else port
        application = create_app(
            f"sqlite:///{db}",
            bot_delay=0.0,
            next_deal_seconds=0.0,
            allow_seed=True,
            rate_limit=None,
        )
        config = uvicorn.Config(application, host=HOST, port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def table(self, seats: list[str], **options: Any) -> dict[str, Any]:
        body = {"name": "Host", "seats": seats, "seed": 5, "turn_seconds": 10, "deals": 1}
        made = httpx.post(f"{self.url}/api/tables", json={**body, **options}, timeout=10)
        assert made.status_code == 201, made.text
        answer: dict[str, Any] = made.json()
        return answer

    def finished(self, code: str, token: str) -> list[dict[str, Any]]:
        listing = httpx.get(
            f"{self.url}/api/tables/{code}/deals",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        deals: list[dict[str, Any]] = listing.json()["finished"]
        return deals

    def stop(self) -> None:
        """Stop it (its connections closed, as a server that restarts closes them)."""
        self.server.should_exit = True
        self.thread.join(20)
        assert not self.thread.is_alive()


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("RUMMY21_BOT_LOGS", str(tmp_path / "logs"))
    live = LiveServer(tmp_path / "live.sqlite3")
    yield live
    stop_all()
    live.stop()


runner = CliRunner()


def connect(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["bot", "connect", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_the_example_plays_a_whole_match_at_a_live_table(server: LiveServer) -> None:
    made = server.table(["human", "random", "random"], deals=2)
    started = time.monotonic()
    status, out, err = connect(
        "--url", f"{server.url}/t/{made['code']}", "--token", made["token"], "--exec", EXAMPLE
    )
    took = time.monotonic() - started
    assert status == 0, out + err
    lines = out.splitlines()
    assert lines[0] == f"seat 1 at table {made['code']}"
    assert lines[1].startswith("deal 1: ") and lines[2].startswith("deal 2: ")
    assert f"played 2 deals at table {made['code']}, seat 1: " in out
    assert "no protocol error" in out and took < 30
    deals = server.finished(made["code"], made["token"])
    assert [d["deal"] for d in deals] == [0, 1]
    score = int(lines[-3].rsplit("its score ", 1)[1].rstrip("."))
    assert score == sum(d["scores"][0] for d in deals)


def test_a_program_takes_an_open_seat_and_hears_its_view_only(
    server: LiveServer, tmp_path: Path
) -> None:
    made = server.table(["human", "human", "expert"])
    code, log = made["code"], tmp_path / "heard.jsonl"
    # The host's seat is played by the protocol's test bot (it writes down what it hears).
    host = LiveBot(
        ExecBot(helper("legal", "0", str(log))),
        socket_url(server.url, code),
        made["token"],
        lambda line: None,
    )
    playing = threading.Thread(target=host.run, daemon=True)
    playing.start()
    status, out, err = connect(
        "--url", f"{server.url}/t/{code}", "--exec", EXAMPLE, "--name", "Robo"
    )
    playing.join(30)
    assert status == 0 and not playing.is_alive(), out + err
    assert out.startswith(f"took seat 2 at table {code}; to come back to it: --token ")
    info = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
    assert info["seats"][1]["name"] == "Robo"
    stop_all()
    messages = heard(log)
    assert messages[0] == {"type": "hello", "protocol": 2, "seat": 0}
    assert messages[1] == {
        "type": "start",
        "seat": 0,
        "players": 3,
        "dealer": messages[1]["dealer"],
        "rules": "classic",
        "seed": None,
    }
    moves = [m for m in messages if m["type"] == "move"]
    assert moves and all(set(m["view"]) == VIEW_KEYS and m["view"]["seat"] == 0 for m in moves)
    assert all(len(m["view"]["hand"]) in (21, 22) for m in moves)
    told = [e for m in messages if m["type"] == "events" for e in m["events"]]
    assert told[-1]["action"] == "deal_ended"
    assert all(e["card"] is None for e in told if e["detail"] == "stock")
    (end,) = [m for m in messages if m["type"] == "end"]
    assert messages[-1] == end and end["seat"] == 0
    assert all(
        row["hidden"] == (row["standing"] == "dropped" and row["seat"] != 0)
        and (row["cards"] == []) == row["hidden"]
        for row in end["seats"]
    )
    assert not keys_of(messages) & {"hands", "stock", "shoe", "log", "token"}


def test_a_fault_is_left_to_the_table_s_clock(server: LiveServer, tmp_path: Path) -> None:
    made = server.table(["human", "random"], turn_seconds=2)
    log = tmp_path / "heard.jsonl"
    bot = ExecBot(helper("garbage", "3", str(log)))
    live = LiveBot(bot, socket_url(server.url, made["code"]), made["token"], lambda line: None)
    live.run()
    assert dict(bot.faults) == {"garbage": 1} and live.scores
    stop_all()
    told = [e for m in heard(log) if m["type"] == "events" for e in m["events"]]
    assert [e["seat"] for e in told if e["action"] == "timed_out"] == [0]


@pytest.mark.parametrize(("fault", "when"), [("garbage", "3"), ("crash", "12")])
def test_a_table_with_no_clock_asks_again(
    server: LiveServer, tmp_path: Path, fault: str, when: str
) -> None:
    made = server.table(["human", "random"], turn_seconds=0)
    log = tmp_path / "heard.jsonl"
    bot = ExecBot(helper(fault, when, str(log)))
    live = LiveBot(bot, socket_url(server.url, made["code"]), made["token"], lambda line: None)
    live.run()
    # (a crashed program starts again, and crashes again at its 12th move)
    assert set(bot.faults) == {fault} and len(live.scores) == 1
    assert len(server.finished(made["code"], made["token"])) == 1
    stop_all()
    messages = heard(log)
    told = [e for m in messages if m["type"] == "events" for e in m["events"]]
    assert not any(e["action"] == "timed_out" for e in told)
    if fault == "crash":  # (each new program told the deal from its start)
        hellos = [m for m in messages if m["type"] == "hello"]
        assert len(hellos) == bot.faults["crash"] + 1


def test_a_program_that_keeps_failing_at_a_table_with_no_clock_leaves(server: LiveServer) -> None:
    made = server.table(["human", "random"], turn_seconds=0)
    status, _, err = connect(
        "--url",
        f"{server.url}/t/{made['code']}",
        "--token",
        made["token"],
        "--exec",
        helper("hang", "1"),
        "--time",
        "0.2",
    )
    assert status == 1
    assert err.startswith("error: the program failed the same move 3 times")


def test_the_connection_is_opened_again_after_the_server_restarts(
    server: LiveServer, tmp_path: Path
) -> None:
    made = server.table(["human", "random"], deals=2)
    log = tmp_path / "heard.jsonl"
    bot = ExecBot(helper("legal", "0", str(log)))
    live = LiveBot(bot, socket_url(server.url, made["code"]), made["token"], lambda line: None)
    playing = threading.Thread(target=live.run, daemon=True)
    playing.start()
    deadline = time.monotonic() + 20
    while not (log.exists() and '"type":"move"' in log.read_text(encoding="utf-8")):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    server.stop()  # (in the middle of the first deal)
    again = LiveServer(tmp_path / "live.sqlite3", port=server.port)
    try:
        playing.join(30)
        assert not playing.is_alive()
        assert live.reconnects >= 1 and len(live.scores) == 2 and bot.faults == {}
        assert [d["deal"] for d in again.finished(made["code"], made["token"])] == [0, 1]
    finally:
        again.stop()


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--url", "example.com/t/ABCD"], 2, "--url is the address of a table's page"),
        (["--url", "http://127.0.0.1:1/t/ABCD", "--token", "x" * 32], 1, "cannot reach"),
        (["--url", "{url}/t/NOSUCH", "--token", "x" * 32], 1, "no table NOSUCH"),
        (["--url", "{table}", "--token", "x" * 32], 1, "this token holds no seat"),
        (["--url", "{table}", "--seat", "1"], 1, "cannot take a seat at table "),
        (["--url", "{table}", "--token", "x" * 32, "--time", "0"], 2, "--time must be"),
    ],
)
def test_connect_says_why_it_cannot_play(
    server: LiveServer, args: list[str], status: int, message: str
) -> None:
    made = server.table(["human", "random"])
    url = f"{server.url}/t/{made['code']}"
    filled = [a.format(url=server.url, table=url) for a in args]
    got, _, err = connect(*filled, "--exec", EXAMPLE)
    assert got == status and err.startswith("error: ") and message in err, err
    assert len(err.strip().splitlines()) == 1


def test_the_seat_s_view_is_its_own(server: LiveServer) -> None:
    """The server's answer to ``view``: the seat's View and, in turn, its legal actions."""
    from websockets.sync.client import connect as open_socket

    made = server.table(["human", "random"])
    with open_socket(socket_url(server.url, made["code"])) as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        ws.send(json.dumps({"type": "view", "id": 7}))
        while (answer := json.loads(ws.recv(timeout=10)))["type"] != "view":
            pass
    assert answer["id"] == 7 and answer["deal"] == 0 and answer["result"] is None
    view = answer["view"]
    assert set(view) == VIEW_KEYS and view["seat"] == 0 and len(view["hand"]) in (21, 22)
    if view["turn"] == 0:
        assert answer["legal"][0] == "draw stock" and "drop" in answer["legal"]
    else:
        assert answer["legal"] == []
