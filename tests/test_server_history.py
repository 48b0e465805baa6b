"""The history of a table follows the live table's privacy: its players only (unless the table
was made public), each seeing its own hand and the public log, and at the end exactly the
result it saw live; a dropped hand reaches nobody but its player. Checked by scanning every
replay answer for cards the viewer never saw, as test_server_leaks does for live play."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from test_server_helpers import (
    Seat,
    card_tokens,
    create_table,
    drain,
    keys_of,
    make_app,
    play_match,
)

from rummy21.game import Table
from rummy21.game.events import Drew
from rummy21.game.settlement import hand_shown
from rummy21.game.view import public_event
from rummy21.server import present

PRIVATE = "the history of this table is open to its players only"
NAMES = ["Ann", "Bob", "Kiran"]  # the bot in seat 3 is Kiran


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def deal_logs(tmp_path: Path, code: str) -> dict[int, list[str]]:
    engine = create_engine(f"sqlite:///{tmp_path / 'rummy21.sqlite3'}")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT deal, data FROM events WHERE code = :c ORDER BY deal, seq"), {"c": code}
        ).all()
    engine.dispose()
    logs: dict[int, list[str]] = {}
    for deal, data in rows:
        logs.setdefault(deal, []).append(data)
    return logs


def result_cards(result: dict[str, Any]) -> set[str]:
    return card_tokens(json.dumps(result))


def seen_by(lines: list[str], number: int, viewer: int | None) -> set[str]:
    """Every card ``viewer`` saw of the deal live: its own cards (dealt or drawn), the public
    log, the cut and its jokers, and the result as the live result screen showed it."""
    table = Table.replay(lines)
    seen = {str(c) for c in (table.cut, *table.jokers.value_cards)}
    seen |= card_tokens(json.dumps(present.jokers_dict(table.jokers)))
    for event in table.log:
        shown = public_event(event)
        if shown.card is not None:
            seen.add(str(shown.card))
        if shown.action == "dealt" and shown.detail:
            seen.add(shown.detail)
        if isinstance(event, Drew) and event.seat == viewer:
            seen.add(str(event.card))
    if viewer is not None:
        seen |= {str(c) for c in Table.replay(lines[:1]).hand(viewer)}
    seen |= result_cards(present.result_view(table, number, viewer, Decimal(1), NAMES))
    return seen


def play(client: TestClient, public: bool) -> tuple[dict[str, Any], dict[str, Any], list[Seat]]:
    """Ann and Bob (who drops at every first turn) and a random bot play two deals."""
    made = create_table(
        client, ["human", "human", "random"], deals=2, seed=8, public_history=public
    )
    code = made["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
    ws0 = client.websocket_connect(f"/ws/{code}")
    ws1 = client.websocket_connect(f"/ws/{code}")
    with ws0 as a, ws1 as b:
        seats = [Seat(a, made["token"]), Seat(b, joined["token"])]
        for seat in seats:
            seat.hello()
        play_match(seats, random.Random(6), drop_chances=[0.0, 1.0], ask=False)
        for seat in seats:
            drain(seat)
    return made, joined, seats


def live_results(seat: Seat) -> dict[int, dict[str, Any]]:
    found = {}
    for raw in seat.messages:
        message = json.loads(raw)
        if message["type"] == "state" and message["result"] is not None:
            found[message["result"]["deal"]] = message["result"]
    return found


def check_replay(replay: dict[str, Any], lines: list[str], number: int, viewer: int | None) -> None:
    raw = json.dumps(replay)
    assert not (keys_of(replay) & {"stock", "shoe", "seed", "token", "token_hash", "log"})
    leaked = card_tokens(raw) - seen_by(lines, number, viewer)
    assert not leaked, (viewer, number, leaked)
    table = Table.replay(lines)
    assert replay["viewer"] == viewer and replay["names"] == NAMES
    frames = replay["frames"]
    for frame in frames[:-1]:
        for seat, hand in enumerate(frame["hands"]):
            assert (hand is not None) == (seat == viewer), (seat, viewer)
            if hand is not None:
                assert len(hand) == frame["counts"][seat]
    final = frames[-1]["hands"]
    for row in table.result.seats:  # type: ignore[union-attr]
        shown = hand_shown(row.standing, row.seat, viewer)
        assert (final[row.seat] is not None) == shown
        assert shown == (row.standing.value != "dropped" or row.seat == viewer)
    assert replay["result"] == present.result_view(table, number, viewer, Decimal(1), NAMES)


def test_a_private_history_is_open_to_its_players_only(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        made, joined, seats = play(client, public=False)
        code = made["code"]
        assert client.get(f"/api/tables/{code}").json()["public_history"] is False
        for path in (f"/api/tables/{code}/deals", f"/api/tables/{code}/deals/0"):
            for headers in (
                {},
                bearer("z" * 32),
                {"Authorization": made["token"]},
                {"Authorization": "Basic abc"},
            ):
                reply = client.get(path, headers=headers)
                assert reply.status_code == 403, (path, headers)
                assert reply.json() == {"error": PRIVATE, "code": "forbidden"}
                assert made["token"] not in reply.text
            assert client.get(path, headers=bearer(made["token"])).status_code == 200
            assert client.get(path, headers=bearer(joined["token"])).status_code == 200
        listing = client.get(f"/api/tables/{code}/deals", headers=bearer(joined["token"]))
        assert listing.json()["viewer"] == 1 and len(listing.json()["finished"]) == 2

        logs = deal_logs(tmp_path, code)
        lives = [live_results(seat) for seat in seats]
        dropped_somewhere = False
        for number in (0, 1):
            lines = logs[number]
            table = Table.replay(lines)
            for viewer, token in ((0, made["token"]), (1, joined["token"])):
                replay = client.get(
                    f"/api/tables/{code}/deals/{number}", headers=bearer(token)
                ).json()
                check_replay(replay, lines, number, viewer)
                # Exactly the result this player saw on the live result screen.
                assert replay["result"] == lives[viewer][number]
            # Bob dropped: his folded hand reaches Ann in no form.
            assert table.standing(1).value == "dropped"
            dropped = [str(c) for c in table.zones()["out 1"]]
            assert len(dropped) == 21
            replay = client.get(
                f"/api/tables/{code}/deals/{number}", headers=bearer(made["token"])
            ).json()
            assert replay["result"]["seats"][1]["hidden"] is True
            assert replay["result"]["seats"][1]["cards"] == []
            assert all(f["hands"][1] is None for f in replay["frames"])
            only_bob = set(dropped) - seen_by(lines, number, 0)
            dropped_somewhere |= bool(only_bob)
            assert not (card_tokens(json.dumps(replay)) & only_bob)
            # ... while Bob sees his own hand, folded for the others.
            mine = client.get(
                f"/api/tables/{code}/deals/{number}", headers=bearer(joined["token"])
            ).json()
            assert sorted(mine["result"]["seats"][1]["cards"]) == sorted(dropped)
            assert sorted(mine["frames"][0]["hands"][1]) == sorted(dropped)
        assert dropped_somewhere  # the scan had something to find


def test_a_public_history_shows_outsiders_the_spectator_view(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        made, joined, _ = play(client, public=True)
        code = made["code"]
        assert client.get(f"/api/tables/{code}").json()["public_history"] is True
        logs = deal_logs(tmp_path, code)
        listing = client.get(f"/api/tables/{code}/deals")
        assert listing.status_code == 200 and listing.json()["viewer"] is None
        for number in (0, 1):
            for headers in ({}, bearer("q" * 32)):  # a wrong token: an outsider too
                replay = client.get(f"/api/tables/{code}/deals/{number}", headers=headers)
                assert replay.status_code == 200
                check_replay(replay.json(), logs[number], number, None)
                assert replay.json()["result"]["seats"][1]["hidden"] is True
            # Players still see the deal as they saw it.
            mine = client.get(
                f"/api/tables/{code}/deals/{number}", headers=bearer(joined["token"])
            ).json()
            check_replay(mine, logs[number], number, 1)


def test_history_tokens_of_another_table_do_not_open_it(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        first = create_table(client, ["human", "random"])
        second = create_table(client, ["human", "random"])
        reply = client.get(f"/api/tables/{second['code']}/deals", headers=bearer(first["token"]))
        assert reply.status_code == 403 and reply.json()["error"] == PRIVATE
