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


def test_a_deal_that_could_not_be_stored_is_dealt_again_by_itself_with_its_seed(
    tmp_path: Path,
) -> None:
    with TestClient(make_app(tmp_path, next_deal_seconds=600)) as client:
        made = create_table(client, ["human", "random"], deals=2, seed=5)
        room = client.app.state.tables.rooms[made["code"]]  # type: ignore[attr-defined]
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
                # The player is ready; the deal cannot be stored: the server says it retries…
                assert seat.request({"type": "ready"})["type"] == "ack"
                troubled = seat.wait(lambda s: s["trouble"] is not None)
            finally:
                room.store.write = real_write
            assert troubled["room"]["status"] == "between" and troubled["trouble"]["retry_at"]
            assert (room.number, len(room.match.deals)) == (0, 1)
            # …and deals it by itself once it can, from its seed.
            state = seat.wait(lambda s: s["room"]["status"] == "playing")
            assert state["trouble"] is None
            assert state["match"]["deal"] == 1 and state["deal"]["dealer"] == 0
            assert (
                state["deal"]["hand"]
                == present.deal_view(Table(2, seed=deal_seed(5, 1), dealer=0), 0)["hand"]
            )


def test_a_hello_that_reaches_a_room_no_longer_run_here_is_told_to_reconnect(
    tmp_path: Path,
) -> None:
    """A room given up (its lease lost or handed away) or being closed accepts no one: a hello
    that reaches it in that moment gets no welcome and no state, only the close that makes the
    page reconnect (1012) — to whoever runs the room now."""
    from starlette.websockets import WebSocketDisconnect

    from rummy21.server.room import CLOSE_RECONNECT

    with TestClient(make_app(tmp_path)) as client:
        made = create_table(client, ["human", "random"], deals=2)
        room = client.app.state.tables.rooms[made["code"]]  # type: ignore[attr-defined]
        client.portal.call(room.close)  # type: ignore[union-attr]
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"], "id": 1})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == CLOSE_RECONNECT
        assert not any(room.conns.values())
