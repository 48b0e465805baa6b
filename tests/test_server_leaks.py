"""Hidden information: every message sent to every seat over several deals is checked against
the deal's log. None may hold a card that only another hand holds, the stock's order, the seed
or a seat token; each seat's own hand must be exactly what the engine says it holds."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

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
from rummy21.game.view import public_event
from rummy21.server.present import jokers_dict

FORBIDDEN_KEYS = {"stock", "shoe", "seed", "token", "token_hash", "hands", "log"}


def test_no_message_reveals_another_hand_or_the_stock(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        made = create_table(client, ["human", "human", "random"], deals=3, seed=21)
        code = made["code"]
        joined = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
        with (
            client.websocket_connect(f"/ws/{code}") as ws0,
            client.websocket_connect(f"/ws/{code}") as ws1,
        ):
            seats = [Seat(ws0, made["token"]), Seat(ws1, joined["token"])]
            for seat in seats:
                seat.hello()
            play_match(seats, random.Random(4))
            for seat in seats:
                drain(seat)

    engine = create_engine(f"sqlite:///{tmp_path / 'rummy21.sqlite3'}")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT deal, data FROM events WHERE code = :c ORDER BY deal, seq"), {"c": code}
        ).all()
    engine.dispose()
    logs: dict[int, list[str]] = {}
    for deal, data in rows:
        logs.setdefault(deal, []).append(data)
    assert sorted(logs) == [0, 1, 2]

    @cache
    def table_at(deal: int, length: int) -> Table:
        return Table.replay(logs[deal][:length])

    checked = 0
    secrets_ = {made["token"], joined["token"]}
    for seat_no, seat in enumerate(seats):
        context: tuple[int, int] | None = None
        contexts: dict[int, tuple[int, int]] = {}
        for raw in seat.messages:
            message = json.loads(raw)
            assert not (keys_of(message) & FORBIDDEN_KEYS), keys_of(message) & FORBIDDEN_KEYS
            assert not any(token in raw for token in secrets_)
            if message["type"] == "state" and message["deal"] is not None:
                context = (message["match"]["deal"], message["deal"]["events"])
                contexts[message["version"]] = context
            # A reply about the hand is read at the version it names: states of a new deal
            # may overtake it while it is being worked out.
            here = (
                contexts.get(message.get("version", -1), context)
                if message["type"] != "state"
                else context
            )
            if here is None:
                continue
            table = table_at(*here)
            own = [str(c) for c in table.hand(seat_no)]
            if message["type"] == "state":
                assert Counter(message["deal"]["hand"]) == Counter(own)
            public = {
                str(c)
                for c in (
                    table.cut,
                    *table.jokers.value_cards,
                    table.jokers.upper,
                    table.jokers.lower,
                )
            }
            # Every card the cut makes a joker is public (the page is told which cards are
            # jokers: it does not work that rule out itself).
            public |= set(jokers_dict(table.jokers)["joker_cards"])
            for event in table.log:
                shown = public_event(event)
                if shown.card is not None:
                    public.add(str(shown.card))
                if shown.action == "dealt" and shown.detail:
                    public.add(shown.detail)
            allowed = set(own) | public
            result = message.get("result")
            if result is not None:
                for row in result["seats"]:
                    if row["standing"] == "dropped" and row["seat"] != seat_no:
                        assert row["cards"] == [] and row["hidden"]
                    allowed |= set(row["cards"])
                    if result["finish"]:
                        allowed.add(result["finish"])
                allowed |= {c for row in result["seats"] for c in row["cards"]}
            leaked = card_tokens(raw) - allowed
            assert not leaked, (message["type"], leaked)
            top = table.zones()["stock"][:6]
            # The stock's order must not show up either (a sorted run could be a hand's).
            if len(top) == 6 and top != sorted(top):
                assert json.dumps([str(c) for c in top])[1:-1] not in raw
            checked += 1
    assert checked > 100
