"""Play over one WebSocket per browser tab, ``/ws/{code}``: the first message is
``{"type": "hello", "token": …}``; then the conversation of :func:`rummy21.server.session.serve`
(carried to the process that runs the table, if another one does). A table that does not
exist is answered with an error and closed with 4404; one set aside with 4410; a server that
holds as many tables as it can with 1013 (try again later)."""

from __future__ import annotations

import asyncio
from functools import partial

from fastapi import APIRouter, WebSocket

from rummy21.server.api.deps import client_address, services
from rummy21.server.connection import Connection
from rummy21.server.directory import CLOSE_SET_ASIDE
from rummy21.server.model import RoomError
from rummy21.server.protocol import ProtocolError, check_code, error_message

router = APIRouter()

CLOSE_CODES = {"not_found": 4404, "set_aside": CLOSE_SET_ASIDE, "busy": 1013, "server": 1013}
"""How a WebSocket is closed when its table cannot be reached, by the refusal's code."""


@router.websocket("/ws/{code}")
async def play(websocket: WebSocket, code: str) -> None:
    await websocket.accept()
    server = services(websocket)
    conn = Connection(websocket.send_text, lambda c: websocket.close(c), server.settings.rate_limit)
    pump = asyncio.create_task(conn.pump())
    try:
        try:
            table = check_code(code)
            await server.tables.serve(
                table, conn, partial(_receive, websocket), client_address(websocket)
            )
        except ProtocolError:
            conn.send(error_message("not_found", f"no table {code[:12].upper()}"))
            conn.stop(4404)
        except RoomError as error:
            conn.send(error_message(error.code, error.message))
            conn.stop(CLOSE_CODES.get(error.code, 1011))
    finally:
        conn.stop()
        try:
            await asyncio.wait_for(pump, timeout=5)
        except (TimeoutError, Exception):
            pump.cancel()


async def _receive(websocket: WebSocket, timeout: float | None) -> str | bytes | None:
    """The next message's payload, or ``None`` once the client has gone."""
    if timeout is None:
        message = await websocket.receive()
    else:
        message = await asyncio.wait_for(websocket.receive(), timeout)
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""
