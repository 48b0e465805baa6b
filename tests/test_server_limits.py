"""No visitor can starve the others: bots think in worker processes, queued fairly between the
tables; an address creates only so many tables; the server holds only so many tables and
``search`` seats, and evicts the ones nobody visits (a visit runs them again); a seat holds
only so many sockets, and its messages share one rate limit."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.game import Table
from rummy21.server import botpool
from rummy21.server.botpool import BotPool
from rummy21.server.core import BotTurn
from rummy21.server.room import CLOSE_REPLACED, SOCKETS_PER_SEAT

HUMAN_AND_BOT = ["human", "random"]
T = TypeVar("T")


def tables_of(client: TestClient) -> Any:
    return client.app.state.tables  # type: ignore[attr-defined]


def in_a_thread(job: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(job)`` on a thread of its own: the browser tests' Playwright (sync API)
    keeps an event loop running in the main thread of a test worker."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, job).result()


# --------------------------------------------------------------------- the bot pool
class FakeExecutor:
    """Takes the moves submitted and answers them when the test says (one worker)."""

    def __init__(self) -> None:
        self.asked: list[tuple[Future[Any], str]] = []

    def submit(self, _fn: Any, bot: str, seed: Any, view: Any, legal: list[Any]) -> Future[Any]:
        future: Future[Any] = Future()
        self.asked.append((future, str(seed)))
        return future


def test_the_table_whose_bots_used_least_cpu_lately_thinks_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeExecutor()
    monkeypatch.setattr(botpool, "_executor", lambda workers, broken=None: fake)
    table = Table(2, seed=1)
    legal = table.legal_actions()

    def turn(seed: int) -> BotTurn:
        return BotTurn("greedy", seed, table.view(0), legal)

    async def run() -> list[str]:
        pool = BotPool(workers=1)
        pool._charge("HEAVY", 5.0)  # a table of Master bots: 5 CPU seconds just now
        asks = [
            asyncio.ensure_future(pool.choose("HEAVY", turn(1))),  # first in, and busy at once
            asyncio.ensure_future(pool.choose("HEAVY", turn(2))),
            asyncio.ensure_future(pool.choose("LIGHT", turn(3))),
            asyncio.ensure_future(pool.choose("OTHER", turn(4))),
        ]
        await asyncio.sleep(0)
        order = [seed for _, seed in fake.asked]
        while len(fake.asked) < 4 or not all(f.done() for f, _ in fake.asked):
            pending = [f for f, _ in fake.asked if not f.done()]
            pending[0].set_result((legal[0], 2.0))  # each move took 2 CPU seconds
            await asyncio.sleep(0.01)
            order = [seed for _, seed in fake.asked]
        assert await asyncio.gather(*asks) == [legal[0]] * 4
        assert pool.moves == 5 and pool.waiting == 0
        return order

    # The heavy table's second move waits behind both light tables' (it used the most CPU).
    assert in_a_thread(run()) == ["1", "3", "4", "2"]


def test_bots_think_in_worker_processes(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_workers=1)) as client:
        made = create_table(client, ["human", "greedy", "expert"], deals=1, seed=9)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            rng = random.Random(1)
            for _ in range(4):  # our turns; both bots play between them
                seat.wait(lambda s: s["deal"]["my_turn"] and s["version"] != seat.acted)
                assert seat.move(rng)["type"] == "ack"
            state = seat.wait(lambda s: s["deal"]["my_turn"] and s["version"] != seat.acted)
            assert all(s["played"] >= 2 for s in state["deal"]["seats"][1:])
        pool = tables_of(client).registry.bots
        assert pool.moves >= 8 and pool.cpu_seconds > 0
        assert botpool._EXECUTORS[1]._processes  # a process of its own


def test_a_bot_worker_that_dies_is_replaced_and_its_move_asked_again() -> None:
    import os
    import signal

    table = Table(2, seed=1)
    legal = table.legal_actions()

    async def run() -> list[Any]:
        pool = BotPool(workers=1)
        first = await pool.choose("A", BotTurn("expert", 1, table.view(0), legal))
        for pid in list(botpool._EXECUTORS[1]._processes):  # killed while idle…
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        both = await asyncio.gather(
            pool.choose("A", BotTurn("expert", 1, table.view(0), legal)),
            pool.choose("B", BotTurn("expert", 2, table.view(0), legal)),
        )
        pids = list(botpool._EXECUTORS[1]._processes)
        thinking = asyncio.ensure_future(
            pool.choose("C", BotTurn("search", 1, table.view(0), legal))
        )
        await asyncio.sleep(1.0)
        for pid in pids:  # …and while thinking
            os.kill(pid, signal.SIGKILL)
        return [first, *both, await asyncio.wait_for(thinking, 60)]

    moves = in_a_thread(run())
    assert len(moves) == 4 and all(move in legal for move in moves)


# ---------------------------------------------------------------------- creation
def test_an_address_creates_only_so_many_tables(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, tables_per_address=3)) as client:
        for _ in range(3):
            create_table(client, HUMAN_AND_BOT)
        reply = client.post("/api/tables", json={"name": "Ann", "seats": HUMAN_AND_BOT})
        assert reply.status_code == 429 and reply.json()["code"] == "rate_limited"
        assert "created 3 tables in the last 10 minutes" in reply.json()["error"]
        assert 1 <= int(reply.headers["retry-after"]) <= 600


def test_the_server_holds_only_so_many_master_seats(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, max_search_seats=3)) as client:
        create_table(client, ["human", "search", "search"])
        reply = client.post(
            "/api/tables", json={"name": "Ann", "seats": ["human", "search", "search"]}
        )
        assert reply.status_code == 503 and reply.json()["code"] == "busy"
        assert "Master bots" in reply.json()["error"] and reply.headers["retry-after"]
        create_table(client, ["human", "search", "expert"])  # one more fits


def test_a_full_server_evicts_an_idle_table_to_make_room_and_refuses_when_none_is(
    tmp_path: Path,
) -> None:
    with TestClient(make_app(tmp_path, max_tables=2)) as client:
        first = create_table(client, HUMAN_AND_BOT)
        second = create_table(client, HUMAN_AND_BOT)
        with (
            client.websocket_connect(f"/ws/{first['code']}") as one,
            client.websocket_connect(f"/ws/{second['code']}") as two,
        ):
            Seat(one, first["token"]).hello()
            Seat(two, second["token"]).hello()
            reply = client.post("/api/tables", json={"name": "Ann", "seats": HUMAN_AND_BOT})
            assert reply.status_code == 503 and reply.json()["code"] == "busy"
        time.sleep(0.05)  # both idle now: the one idle longest makes room
        third = create_table(client, HUMAN_AND_BOT)
        rooms = set(tables_of(client).rooms)
        (evicted,) = {first["code"], second["code"]} - rooms
        assert third["code"] in rooms and len(rooms) == 2
        # The evicted table is as it was, at its next visit (and another makes room for it).
        assert client.get(f"/api/tables/{evicted}").json()["status"] == "playing"
        assert evicted in tables_of(client).rooms


def test_tables_nobody_visits_are_evicted_and_run_again_at_a_visit(tmp_path: Path) -> None:
    db = tmp_path / "rummy21.sqlite3"
    options = {"idle_seconds": 0.3, "finished_seconds": 0.3}
    with TestClient(make_app(tmp_path, **options)) as client:
        made = create_table(client, HUMAN_AND_BOT, deals=1)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            seat = Seat(ws, made["token"])
            before = seat.hello()
            assert seat.move(random.Random(4))["type"] == "ack"
            before = seat.wait(lambda s: s["deal"]["my_turn"] or s["deal"]["phase"] == "discard")
            time.sleep(0.6)
            assert code in tables_of(client).rooms  # a player is here: not idle
        deadline = time.monotonic() + 5
        while code in tables_of(client).rooms and time.monotonic() < deadline:
            time.sleep(0.05)
        assert code not in tables_of(client).rooms
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT parked_at FROM rooms WHERE code = ?", (code,)).fetchone()[0]
        with client.websocket_connect(f"/ws/{code}") as ws:  # a visit: as it was
            again = Seat(ws, made["token"]).hello()
            assert again["deal"]["hand"] == before["deal"]["hand"]
            assert again["deal"]["turns"] == before["deal"]["turns"]
        with sqlite3.connect(db) as conn:
            assert (
                conn.execute("SELECT parked_at FROM rooms WHERE code = ?", (code,)).fetchone()[0]
                is None
            )
    with TestClient(make_app(tmp_path, **options)) as client:  # a restart runs it again
        assert code in tables_of(client).rooms


# ------------------------------------------------------------------ connections
def test_a_seat_holds_only_so_many_sockets_the_oldest_goes(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, HUMAN_AND_BOT)
        url = f"/ws/{made['code']}"
        with (
            client.websocket_connect(url) as w1,
            client.websocket_connect(url) as w2,
            client.websocket_connect(url) as w3,
            client.websocket_connect(url) as w4,
            client.websocket_connect(url) as w5,
        ):
            seats = [Seat(w, made["token"]) for w in (w1, w2, w3, w4, w5)]
            for seat in seats[:SOCKETS_PER_SEAT]:
                seat.hello()
            seats[-1].hello()
            first = seats[0]
            with pytest.raises(ConnectionError, match=str(CLOSE_REPLACED)):
                while True:
                    message = first.recv()
                    if message["type"] == "notice":
                        assert "opened in another window" in message["text"]
            for seat in seats[1:]:
                assert seat.request({"type": "ping"})["type"] == "pong"


def answer(seat: Seat) -> dict[str, Any]:
    """The next message that answers one of ``seat``'s (states are kept, not returned)."""
    while (message := seat.recv())["type"] == "state":
        pass
    return message


def test_a_seat_s_sockets_share_one_rate_limit(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60, rate_limit=5)) as client:
        made = create_table(client, HUMAN_AND_BOT)
        url = f"/ws/{made['code']}"
        with client.websocket_connect(url) as w1, client.websocket_connect(url) as w2:
            seats = [Seat(w1, made["token"]), Seat(w2, made["token"])]
            for seat in seats:
                seat.hello()
            for n in range(1, 21):
                for seat in seats:
                    seat.send({"type": "ping", "id": n})
            replies = [answer(seat) for seat in seats for _ in range(20)]
            pongs = sum(r["type"] == "pong" for r in replies)
            # A burst of twice the rate for the seat, not for each of its sockets.
            assert 10 <= pongs <= 12, pongs
            assert all(r.get("id") for r in replies)


def test_tables_made_at_once_do_not_overshoot_the_caps(tmp_path: Path) -> None:
    """Ten creations in flight together: the seats being made count before any is stored."""
    from rummy21.server.directory import LocalTables
    from rummy21.server.limits import GuessLimiter
    from rummy21.server.model import RoomConfig, RoomError, Settings
    from rummy21.server.store import Store

    async def make_ten() -> list[str]:
        store = Store(f"sqlite:///{tmp_path / 'caps.sqlite3'}")
        settings = Settings(max_search_seats=5, bot_workers=0)
        tables = LocalTables(store, settings, BotPool(0), GuessLimiter())
        config = RoomConfig(3, "classic", "1", 0, 1, ("human", "search", "search"))
        try:
            made = await asyncio.gather(
                *(tables.create(config, "Ann", None, f"10.0.0.{i}") for i in range(10)),
                return_exceptions=True,
            )
            outcomes = []
            for outcome in made:
                if isinstance(outcome, RoomError):
                    outcomes.append(outcome.code)
                elif isinstance(outcome, BaseException):
                    raise outcome
                else:
                    outcomes.append("made")
            return outcomes
        finally:
            await tables.close()
            store.close()

    outcomes = in_a_thread(make_ten())
    assert sorted(outcomes) == ["busy"] * 8 + ["made"] * 2
