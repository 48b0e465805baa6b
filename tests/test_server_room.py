"""The room's own rules around its match: a deal that could not be stored is forgotten and
dealt again with the same seed; the room's match is the engine's Match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.game import Match, Table
from rummy21.game.match import deal_seed
from rummy21.server import present


def test_a_deal_that_could_not_be_stored_is_dealt_again_with_its_seed(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, next_deal_seconds=600)) as client:
        made = create_table(client, ["human", "random"], deals=2, seed=5)
        room = client.app.state.rooms.rooms[made["code"]]  # type: ignore[attr-defined]
        assert isinstance(room.match, Match)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            first = seat.hello()
            assert (
                first["deal"]["hand"]
                == present.deal_view(Table(2, seed=deal_seed(5, 0), dealer=1), 0)["hand"]
            )
            assert seat.request({"type": "action", "action": "drop"})["type"] == "ack"
            seat.wait(lambda s: s["room"]["status"] == "between")
            real_write = room.store.write
            calls: list[object] = []

            async def failing(ops: list[Any]) -> Any:
                if not calls:
                    calls.append(1)
                    raise RuntimeError("disk full")
                return await real_write(ops)

            room.store.write = failing
            try:
                reply = seat.request({"type": "ready"})
            finally:
                room.store.write = real_write
            assert reply["type"] == "error" and reply["code"] == "server"
            assert (room.status, room.number, len(room.match.deals)) == ("between", 0, 1)
            assert seat.request({"type": "ready"})["type"] == "ack"
            state = seat.wait(lambda s: s["room"]["status"] == "playing")
            assert state["match"]["deal"] == 1 and state["deal"]["dealer"] == 0
            assert (
                state["deal"]["hand"]
                == present.deal_view(Table(2, seed=deal_seed(5, 1), dealer=0), 0)["hand"]
            )
