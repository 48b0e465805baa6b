"""When the database will not take the server's writes, and when a table's saved rows are
damaged: the server says so, tries again by itself with a back-off, logs it once, and every
other table plays on.

* A next deal that cannot be stored is dealt again by itself (no one has to say ``ready``).
* A bot's move that cannot be saved is tried again after 1, 2, 4… s, not at once for ever
  (90 identical states in 10 s, once), and the room's players are told.
* Creating a table on a database that takes no writes is a 503 ``server`` error.
* A table whose log has a damaged row is set aside: a clear error for it (HTTP 410, close
  code 4410), logged once, its finished deals still readable, every other table as before.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from faults import refusing_writes
from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.server.scheduler import backoff


def engine_of(client: TestClient) -> Any:
    return client.app.state.services.store.engine  # type: ignore[attr-defined]


def states_within(seat: Seat, seconds: float) -> list[dict[str, Any]]:
    """Every state message ``seat`` gets in the next ``seconds``."""
    got = []
    until = time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0:
        try:
            message = seat.recv(timeout=left)
        except TimeoutError:
            break
        if message["type"] == "state":
            got.append(message)
    return got


def test_a_next_deal_that_cannot_be_stored_is_dealt_by_itself_once_it_can(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, next_deal_seconds=0.2)) as client:
        made = create_table(client, ["human", "random"], deals=2, seed=3)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            with refusing_writes(engine_of(client)) as refused:
                assert seat.request({"type": "action", "action": "drop"})["type"] == "error"
            assert refused  # (the drop itself could not be saved: nothing changed)
            assert seat.request({"type": "action", "action": "drop"})["type"] == "ack"
            seat.wait(lambda s: s["room"]["status"] == "between")
            with refusing_writes(engine_of(client)) as refused:
                troubled = states_within(seat, 2.5)  # the countdown runs out meanwhile
            # Tried at the end of the countdown, then again after the back-off: told so,
            # with when the next try is; the table waits between deals meanwhile.
            assert len(refused) >= 2
            told = [s for s in troubled if s["trouble"] is not None]
            assert told and all(s["room"]["status"] == "between" for s in troubled)
            assert told[-1]["trouble"]["retry_at"] > told[0]["server_now"]
            assert "keeps trying" in told[-1]["trouble"]["text"]
            # Writable again: the deal comes by itself, and the trouble is over.
            state = seat.wait(lambda s: s["room"]["status"] == "playing", timeout=10)
            assert state["trouble"] is None and state["match"]["deal"] == 1


def bot_moves(statement: str, parameters: Any) -> bool:
    """The writes of seat 1's moves (the bot's, below)."""
    rows = parameters if isinstance(parameters, list) else [parameters]
    return "INSERT INTO events" in statement and any('"seat": 1' in str(row) for row in rows)


def test_a_bot_s_move_that_cannot_be_saved_is_tried_again_with_a_back_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="rummy21")
    with TestClient(make_app(tmp_path, bot_delay=0.05)) as client:
        made = create_table(client, ["human", "greedy"], deals=1, seed=4)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            with refusing_writes(engine_of(client), bot_moves) as refused:
                seat.move(random.Random(1))  # draw
                seat.move(random.Random(1))  # discard: the bot is in turn
                states = states_within(seat, 3.5)
            # Tries at about 0, 1 and 3 s (back-off 1, 2, 4 s): a handful, not one a moment.
            assert 2 <= len(refused) <= 4, refused
            assert len(states) <= 2 * len(refused) + 2, len(states)
            assert states[-1]["trouble"] is not None and states[-1]["deal"]["turn"] == 1
            # Writable again: the bot's move is made, and the trouble is over.
            state = seat.wait(lambda s: s["deal"]["turn"] == 0, timeout=10)
            assert state["trouble"] is None
    records = [r for r in caplog.records if r.name.startswith("rummy21")]
    cannot = [r for r in records if "cannot save" in r.getMessage()]
    assert len(cannot) == 1 and not any(r.exc_info for r in cannot)
    assert sum("saving again" in r.getMessage() for r in records) == 1
    store_errors = [r for r in records if r.name == "rummy21.server.store"]
    assert sum(r.exc_info is not None for r in store_errors) <= 1  # one traceback at most


def test_the_back_off_doubles_up_to_half_a_minute() -> None:
    assert [backoff(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]


def test_a_table_cannot_be_created_on_a_database_that_takes_no_writes(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        with refusing_writes(engine_of(client)):
            reply = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "random"]})
        assert reply.status_code == 503
        assert reply.json()["code"] == "server" and "could not be created" in reply.json()["error"]
        assert create_table(client, ["human", "random"])["code"]  # and then it can


LAST_RECORD = (
    "WHERE code = :code AND deal = (SELECT MAX(deal) FROM events WHERE code = :code) "
    "AND seq = (SELECT MAX(seq) FROM events WHERE code = :code AND deal = "
    "(SELECT MAX(deal) FROM events WHERE code = :code))"
)
"""The last record of a table's current deal."""


def damage(db: Path, sql: str, **params: Any) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute(sql, params).rowcount >= 1


@pytest.mark.parametrize(
    "how",
    [
        f"UPDATE events SET data = 'not json' {LAST_RECORD}",
        f'UPDATE events SET data = \'{{"event": "drew", "seat": 7}}\' {LAST_RECORD}',
        "UPDATE rooms SET config = '{\"players\": 2' WHERE code = :code",
    ],
    ids=["not-json", "an-impossible-record", "a-broken-room-row"],
)
def test_a_table_that_cannot_be_rebuilt_is_set_aside_and_the_others_play_on(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "rummy21.sqlite3"
    with TestClient(make_app(tmp_path)) as client:
        broken = create_table(client, ["human", "random"], deals=2, seed=6)
        fine = create_table(client, ["human", "random"], deals=2, seed=7)
        with client.websocket_connect(f"/ws/{broken['code']}") as ws:
            seat = Seat(ws, broken["token"])
            seat.hello()
            for _ in range(4):
                seat.move(random.Random(2))
                seat.wait(lambda s: s["deal"]["my_turn"] or s["deal"]["turns"] > 1)
    damage(db, how, code=broken["code"])
    caplog.set_level(logging.INFO, logger="rummy21")
    with TestClient(make_app(tmp_path)) as client:  # the server starts again
        code = broken["code"]
        for _ in range(3):
            reply = client.get(f"/api/tables/{code}")
            assert reply.status_code == 410, reply.text
            assert reply.json()["code"] == "set_aside" and "set aside" in reply.json()["error"]
        assert client.post(f"/api/tables/{code}/join", json={"name": "Bo"}).status_code == 410
        with client.websocket_connect(f"/ws/{code}") as ws:
            seat = Seat(ws)
            said = seat.recv()
            assert said["type"] == "error" and said["code"] == "set_aside"
            with pytest.raises(ConnectionError, match="4410"):
                seat.recv()
        auth = {"Authorization": f"Bearer {broken['token']}"}
        history = client.get(f"/api/tables/{code}/deals", headers=auth)
        if "rooms" in how:  # the room's own row is what is damaged: nothing to show
            assert history.status_code == 410
        else:  # its finished deals (if a bot dropped early) stay readable
            assert history.status_code == 200
            for deal in history.json()["finished"]:
                replay = client.get(f"/api/tables/{code}/deals/{deal['deal']}", headers=auth)
                assert replay.status_code == 200
        # Every other table plays on.
        assert client.get(f"/api/tables/{fine['code']}").status_code == 200
        with client.websocket_connect(f"/ws/{fine['code']}") as ws:
            other = Seat(ws, fine["token"])
            other.hello()
            assert other.move(random.Random(3))["type"] == "ack"
    logged = [r for r in caplog.records if r.name.startswith("rummy21")]
    aside = [r for r in logged if "cannot be rebuilt" in r.getMessage()]
    assert len(aside) == 1 and not any(r.exc_info for r in logged if r.levelno >= logging.ERROR)
    with sqlite3.connect(db) as conn:
        (reason,) = conn.execute("SELECT set_aside FROM rooms WHERE code = ?", (code,)).fetchone()
    assert reason
    caplog.clear()
    with TestClient(make_app(tmp_path)) as client:  # and again: it stays set aside, quietly
        assert client.get(f"/api/tables/{code}").status_code == 410
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_finished_deal_whose_log_is_damaged_answers_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "rummy21.sqlite3"
    with TestClient(make_app(tmp_path)) as client:
        made = create_table(client, ["human", "random"], deals=2, seed=8)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            assert seat.request({"type": "action", "action": "drop"})["type"] == "ack"
            seat.wait(lambda s: s["match"]["history"] != [])
        damage(
            db,
            "UPDATE events SET data = 'not json' WHERE code = :code AND deal = 0 AND seq = 1",
            code=made["code"],
        )
        auth = {"Authorization": f"Bearer {made['token']}"}
        reply = client.get(f"/api/tables/{made['code']}/deals/0", headers=auth)
        assert reply.status_code == 410 and reply.json()["code"] == "damaged"
        assert json.loads(reply.text)["error"].startswith("deal 1 of table")
        assert client.get(f"/api/tables/{made['code']}/deals", headers=auth).status_code == 200
