"""Autoplay: the host may hand an absent player's seat to a bot, which plays it (as bot seats
play) until the player says hello again; refused for anyone but the host and for any seat but
another human's that is offline; kept across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app


def my_draw(state: dict[str, Any]) -> bool:
    return bool(state["deal"] and state["deal"]["my_turn"] and state["deal"]["phase"] == "draw")


def play_turn(seat: Seat) -> None:
    seat.wait(my_draw)
    assert seat.request({"type": "action", "action": "draw"})["type"] == "ack"
    card = seat.deal["drawn"]
    assert seat.request({"type": "action", "action": "discard", "card": card})["type"] == "ack"


def moves_of(state: dict[str, Any], seat: int) -> int:
    return sum(
        1
        for e in state["deal"]["history"]
        if e["seat"] == seat
        and e["action"] in ("discarded", "dropped", "declared", "declared_wrongly")
    )


def stored_bot(tmp_path: Path, code: str, seat: int) -> Any:
    engine = create_engine(f"sqlite:///{tmp_path / 'rummy21.sqlite3'}")
    with engine.connect() as conn:
        value = conn.execute(
            text("SELECT kind, bot FROM seats WHERE code = :c AND seat = :s"),
            {"c": code, "s": seat},
        ).one()
    engine.dispose()
    return tuple(value)


def autoplay(seat: Seat, target: int, bot: str = "random") -> dict[str, Any]:
    return seat.request({"type": "autoplay", "seat": target, "bot": bot})


def test_only_the_host_may_hand_only_an_absent_human_seat_to_a_bot(tmp_path: Path) -> None:
    # No absence grace: without autoplay the table would wait for Bob for ever.
    with TestClient(make_app(tmp_path, absent_grace=0)) as client:
        made = create_table(client, ["human", "human", "random"], deals=2)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            state = ann.hello()
            assert state["room"]["host"] == 0
            assert [s["autoplay"] for s in state["room"]["seats"]] == [None, None, None]
            refused = autoplay(ann, 1)
            assert refused["type"] == "error" and "has no player yet" in refused["error"]

            joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
            with client.websocket_connect(f"/ws/{code}") as ws1:
                bob = Seat(ws1, joined["token"])
                assert bob.hello()["room"]["host"] == 0
                for seat, target, code_, words in [
                    (bob, 0, "forbidden", "only the table's host (Ann, seat 1)"),
                    (bob, 2, "forbidden", "only the table's host"),
                    (ann, 1, "not_absent", "Bob (seat 2) is online"),
                    (ann, 2, "bad_seat", "is a bot seat"),
                    (ann, 0, "bad_seat", "your own seat"),
                    (ann, 5, "bad_seat", "no seat 6"),
                ]:
                    reply = autoplay(seat, target)
                    assert reply["type"] == "error", reply
                    assert reply["code"] == code_ and words in reply["error"], reply
                ann.send({"type": "autoplay", "seat": 1, "bot": "clever"})
                bad = ann.recv()
                assert bad["type"] == "error" and bad["code"] == "malformed"
                assert "greedy" in bad["error"]
                assert stored_bot(tmp_path, code, 1) == ("human", None)
                play_turn(ann)
                bob.wait(my_draw)
            # Bob has gone in his turn; the table waits (no grace) until the host acts.
            state = ann.wait(lambda s: not s["room"]["seats"][1]["connected"])
            assert state["deadline"] is None and moves_of(state, 1) == 0
            assert autoplay(ann, 1, "greedy")["type"] == "ack"
            state = ann.wait(lambda s: moves_of(s, 1) == 1)  # the greedy bot played his turn
            assert state["room"]["seats"][1]["autoplay"] == "greedy"
            assert state["room"]["seats"][1]["connected"] is False
            assert state["room"]["seats"][1]["kind"] == "human"
            assert stored_bot(tmp_path, code, 1) == ("human", "greedy")
            assert autoplay(ann, 1, "random")["type"] == "ack"  # the host may switch bots
            assert stored_bot(tmp_path, code, 1) == ("human", "random")


def hello_with_notice(seat: Seat, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    seat.send({"type": "hello", "token": token})
    assert seat.recv()["type"] == "welcome"
    notice = seat.recv()
    assert notice["type"] == "notice", notice
    return notice, seat.wait(lambda s: True)


def test_reconnecting_ends_autoplay_and_tells_the_player(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, absent_grace=0)) as client:
        made = create_table(client, ["human", "human", "random"], seed=5)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            ann.hello()
            joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
            state = ann.wait(lambda s: s["room"]["status"] == "playing")
            assert state["room"]["seats"][1]["connected"] is False  # Bob never came
            assert autoplay(ann, 1, "greedy")["type"] == "ack"
            for turns in (1, 2):
                play_turn(ann)

                def bot_moved(s: dict[str, Any], turns: int = turns) -> bool:
                    return moves_of(s, 1) == turns and my_draw(s)

                ann.wait(bot_moved)
            with client.websocket_connect(f"/ws/{code}") as ws1:
                bob = Seat(ws1)
                notice, state = hello_with_notice(bob, joined["token"])
                assert (
                    notice["text"] == "The Medium bot played for you while you were away (2 turns)."
                )
                assert state["room"]["seats"][1]["autoplay"] is None
                assert state["room"]["seats"][1]["connected"] is True
                assert stored_bot(tmp_path, code, 1) == ("human", None)
                state = ann.wait(lambda s: s["room"]["seats"][1]["autoplay"] is None)
                play_turn(ann)
                state = bob.wait(my_draw)  # his own turn again: nobody plays it
                assert state["deadline"] is None and moves_of(state, 1) == 2
                play_turn(bob)


def test_autoplay_survives_a_restart(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, absent_grace=0)) as client:
        made = create_table(client, ["human", "human", "random"], seed=5)
        code = made["code"]
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            ann.hello()
            joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
            ann.wait(lambda s: s["room"]["status"] == "playing")
            assert autoplay(ann, 1, "random")["type"] == "ack"
            play_turn(ann)
            ann.wait(lambda s: moves_of(s, 1) == 1 and my_draw(s))

    with TestClient(make_app(tmp_path, absent_grace=0)) as client:
        info = client.get(f"/api/tables/{code}").json()
        assert info["seats"][1]["autoplay"] == "random" and info["seats"][1]["kind"] == "human"
        assert info["host"] == 0
        with client.websocket_connect(f"/ws/{code}") as ws0:
            ann = Seat(ws0, made["token"])
            ann.hello()
            play_turn(ann)  # the bot still plays Bob's seat
            ann.wait(lambda s: moves_of(s, 1) == 2 and my_draw(s))
            with client.websocket_connect(f"/ws/{code}") as ws1:
                notice, state = hello_with_notice(Seat(ws1), joined["token"])
                # The count of its turns is not kept across the restart.
                assert notice["text"] == "The Easy bot played for you while you were away."
                assert state["room"]["seats"][1]["autoplay"] is None
                assert stored_bot(tmp_path, code, 1) == ("human", None)


def test_older_rooms_read_the_first_human_seat_as_host() -> None:
    from rummy21.server.model import RoomConfig

    old = RoomConfig.from_json(
        '{"players": 3, "rules": "classic", "point_value": "1", '
        '"turn_seconds": 30, "deals": 1, '
        '"kinds": ["greedy", "human", "human"]}'
    )
    assert old.host == 1 and old.public_history is False
    again = RoomConfig.from_json(old.to_json())
    assert again == old
    with pytest.raises(ValueError):
        RoomConfig(2, "classic", "1", 30, 1, ("human", "random"), host=1)
