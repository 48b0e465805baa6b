"""Clocks of the turn in progress: a resumed table keeps a running clock (after a restart the
player in turn gets a fresh full turn), and an absent player times out after the absence grace
even at a table without a turn timer; coming back cancels the grace."""

from __future__ import annotations

import random
import signal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app


def timeouts_of(state: dict[str, Any], seat: int) -> int:
    return sum(
        1 for e in state["deal"]["history"] if e["action"] == "timed_out" and e["seat"] == seat
    )


def my_draw(state: dict[str, Any]) -> bool:
    return bool(state["deal"] and state["deal"]["my_turn"] and state["deal"]["phase"] == "draw")


def play_turn(seat: Seat) -> None:
    seat.wait(my_draw)
    assert seat.request({"type": "action", "action": "draw"})["type"] == "ack"
    card = seat.deal["drawn"]
    assert seat.request({"type": "action", "action": "discard", "card": card})["type"] == "ack"


# ------------------------------------------------------------------ after a restart
def test_a_killed_server_gives_the_player_in_turn_a_fresh_clock_that_fires(tmp_path: Path) -> None:
    restart = pytest.importorskip("test_server_restart")
    httpx = pytest.importorskip("httpx")
    port, db, log = restart.free_port(), tmp_path / "live.sqlite3", tmp_path / "server.log"
    server = restart.start(port, db, log)
    try:
        # The random bot's first turn drops or declares wrongly one time in thirty or so (a
        # live server takes no seed): the one deal ends there and seat 0's turn never comes
        # again. Such a table is left and another made.
        for _ in range(10):
            made = httpx.post(
                f"http://127.0.0.1:{port}/api/tables",
                timeout=10,
                json={"name": "Ann", "seats": ["human", "random"], "turn_seconds": 5, "deals": 1},
            ).json()
            code, token = made["code"], made["token"]
            client = restart.Client(port, code, token)
            client.turn()
            state = client.wait(lambda s: my_draw(s) or s["room"]["status"] != "playing")
            if my_draw(state):
                break
            client.close()
        assert my_draw(state), "ten deals in a row ended at the bot's first turn"
        assert state["deadline"] is not None and state["deadline_kind"] == "turn"
        assert timeouts_of(state, 0) == 0
        server.send_signal(signal.SIGKILL)  # in the middle of seat 0's turn
        server.wait(timeout=10)
        client.close()

        server = restart.start(port, db, log)
        again = restart.Client(port, code, token)
        state = again.wait(lambda s: s["deal"]["my_turn"])
        assert state["deadline"] is not None, "a resumed turn has no clock"
        assert state["deadline_kind"] == "turn"
        assert 0 < state["deadline"] - state["server_now"] <= 5000
        # Do nothing: the clock fires after the restart.
        timed_out = again.wait(lambda s: timeouts_of(s, 0) >= 1)
        assert timed_out["deal"]["turns"] > state["deal"]["turns"]
        again.close()
    finally:
        server.kill()
        server.wait(timeout=10)


def test_a_reloaded_room_keeps_its_turn_clock_and_countdowns(tmp_path: Path) -> None:
    """In process: the app is shut down and started again on the same file."""
    with TestClient(make_app(tmp_path, next_deal_seconds=60)) as client:
        timed = create_table(client, ["human", "random"], turn_seconds=30)
        between = create_table(client, ["human", "random"], deals=2)
        waiting = create_table(client, ["human", "human"])
        with client.websocket_connect(f"/ws/{between['code']}") as ws:
            seat = Seat(ws, between["token"])
            seat.hello()
            seat.wait(my_draw)
            assert seat.request({"type": "action", "action": "drop"})["type"] == "ack"
            assert seat.wait(lambda s: s["room"]["status"] == "between")["next_deal_at"]

    with TestClient(make_app(tmp_path, next_deal_seconds=60)) as client:
        with client.websocket_connect(f"/ws/{timed['code']}") as ws:
            state = Seat(ws, timed["token"]).hello()
            assert state["deal"]["my_turn"] and state["deadline_kind"] == "turn"
            assert 0 < state["deadline"] - state["server_now"] <= 30_000
        with client.websocket_connect(f"/ws/{between['code']}") as ws:
            state = Seat(ws, between["token"]).hello()
            assert state["room"]["status"] == "between" and state["deadline"] is None
            assert 0 < state["next_deal_at"] - state["server_now"] <= 60_000
            room = client.app.state.tables.rooms[between["code"]]  # type: ignore[attr-defined]
            assert room._task is not None and not room._task.done()  # the countdown runs
        info = client.get(f"/api/tables/{waiting['code']}").json()
        assert info["status"] == "waiting"
        with client.websocket_connect(f"/ws/{waiting['code']}") as ws:
            ann = Seat(ws, waiting["token"])
            assert ann.hello()["deal"] is None
            client.post(f"/api/tables/{waiting['code']}/join", json={"name": "Bob"})
            state = ann.wait(lambda s: s["room"]["status"] == "playing")
            assert state["deal"]["my_turn"] and state["deadline"] is None  # no timer, here


# ------------------------------------------------------------------ absent players
def test_an_absent_player_times_out_at_a_table_without_timer(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, absent_grace=0.3)) as client:
        made = create_table(client, ["human", "human"], turn_seconds=0)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            ann.hello()  # connected before the deal starts: no absence clock for Ann
            joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
            with client.websocket_connect(f"/ws/{code}") as ws1:
                bob = Seat(ws1, joined["token"])
                bob.hello()
                state = ann.wait(my_draw)
                assert state["deadline"] is None and state["deadline_kind"] is None
                play_turn(ann)
                state = bob.wait(my_draw)
                assert state["deadline"] is None  # Bob is here: the table waits for him
            # Bob has gone, in his turn: after the grace he times out and play moves on.
            state = ann.wait(lambda s: not s["room"]["seats"][1]["connected"])
            if timeouts_of(state, 1) == 0:
                assert state["deadline_kind"] == "absent" and state["deadline"] is not None
            state = ann.wait(lambda s: timeouts_of(s, 1) == 1 and s["deal"]["my_turn"])
            assert state["deadline"] is None
            # Every later turn of his times out too; the third in a row drops him.
            for _ in range(2):
                play_turn(ann)
            final = ann.wait(lambda s: s["result"] is not None)
            assert timeouts_of(final, 1) == 3
            assert final["result"]["winner"] == 0
            assert final["result"]["seats"][1]["rule"] == "middle_drop"


def test_coming_back_cancels_the_grace(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, absent_grace=30)) as client:
        made = create_table(client, ["human", "human"], turn_seconds=0)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            ann.hello()
            joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
            with client.websocket_connect(f"/ws/{code}") as ws1:
                Seat(ws1, joined["token"]).hello()
                play_turn(ann)
            state = ann.wait(lambda s: s["deadline_kind"] == "absent")
            assert 25_000 < state["deadline"] - state["server_now"] <= 30_000
            with client.websocket_connect(f"/ws/{code}") as ws1:
                bob = Seat(ws1, joined["token"])
                state = bob.hello()
                assert state["deal"]["my_turn"] and state["deadline"] is None
                assert state["deadline_kind"] is None
                state = ann.wait(lambda s: s["room"]["seats"][1]["connected"])
                assert state["deadline"] is None
                play_turn(bob)  # Bob plays on, nothing timed out
                assert timeouts_of(bob.state, 1) == 0  # type: ignore[arg-type]


def test_the_earlier_of_turn_clock_and_grace_applies(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, absent_grace=20)) as client:
        made = create_table(client, ["human", "human"], turn_seconds=120)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            ann.hello()
            joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
            with client.websocket_connect(f"/ws/{code}") as ws1:
                bob = Seat(ws1, joined["token"])
                bob.hello()
                play_turn(ann)
                turn = bob.wait(my_draw)
                assert turn["deadline_kind"] == "turn"
            absent = ann.wait(lambda s: s["deadline_kind"] == "absent")
            assert absent["deadline"] < turn["deadline"]
            assert absent["deadline"] - absent["server_now"] <= 20_000
            with client.websocket_connect(f"/ws/{code}") as ws1:
                back = Seat(ws1, joined["token"]).hello()
                # Back in time: the turn's own clock, unchanged (it was not restarted).
                assert back["deadline_kind"] == "turn" and back["deadline"] == turn["deadline"]


def test_the_grace_can_be_turned_off(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, absent_grace=0)) as client:
        made = create_table(client, ["human", "random"], turn_seconds=0)
        room = client.app.state.tables.rooms[made["code"]]  # type: ignore[attr-defined]
        assert room.table.turn == 0 and not room.connected(0)
        info = client.get(f"/api/tables/{made['code']}").json()
        assert info["seats"][0]["connected"] is False and room.deadline is None
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            assert seat.hello()["deadline"] is None
            seat.play_until(
                lambda s: s["room"]["status"] == "finished", random.Random(2), drop_chance=0.2
            )
