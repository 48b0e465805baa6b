"""A table's history: its finished deals, and each one step by step as the asking seat saw
it (:mod:`rummy21.server.replay`). Open to the table's players, who send their seat token as
``Authorization: Bearer <token>``; others get 403, unless the table was created with
``public_history`` (then they see it as a spectator). Wrong tokens count as guesses
(:class:`~rummy21.server.limits.GuessLimiter`)."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from fastapi import APIRouter, Request

from rummy21.game.errors import GameError
from rummy21.server import present, repository
from rummy21.server.api.deps import AddressDep, CodeDep, Services, ServicesDep
from rummy21.server.limits import TOO_MANY_GUESSES
from rummy21.server.model import RoomError
from rummy21.server.replay import replay_deal
from rummy21.server.snapshot import RoomSnapshot

router = APIRouter(prefix="/api/tables/{code}")

log = logging.getLogger("rummy21.server")

PRIVATE_HISTORY = "the history of this table is open to its players only"


def viewer_of(request: Request, room: RoomSnapshot, server: Services, address: str) -> int | None:
    """The seat asking for ``room``'s history (``None``: an outsider of a public table)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    seat = None
    if header:
        if scheme.lower() == "bearer" and token.strip():
            seat = room.seat_for_token(token.strip())
        if seat is None and server.guesses.wrong(room.code, address):
            raise RoomError("rate_limited", TOO_MANY_GUESSES)
    if seat is None and not room.config.public_history:
        raise RoomError("forbidden", PRIVATE_HISTORY)
    return seat


@router.get("/deals")
async def list_deals(
    code: CodeDep, request: Request, server: ServicesDep, address: AddressDep
) -> dict[str, Any]:
    room = await server.tables.read(code)
    return present.history_info(room, viewer_of(request, room, server, address))


@router.get("/deals/{number}")
async def deal_replay(
    code: CodeDep, number: int, request: Request, server: ServicesDep, address: AddressDep
) -> dict[str, Any]:
    room = await server.tables.read(code)
    viewer = viewer_of(request, room, server, address)
    summary = next((s for s in room.deals if s.number == number), None)
    if summary is None:
        raise RoomError(
            "not_finished",
            f"deal {number + 1} is not finished"
            if 0 <= number <= room.number
            else f"no deal {number + 1}",
        )
    lines = await server.store.read(partial(repository.deal_log, code=room.code, number=number))
    try:
        replay = await asyncio.to_thread(
            replay_deal, lines, number, viewer, room.point_value, room.names
        )
    except (GameError, ValueError, KeyError, TypeError) as error:
        if (room.code, number) not in server.damaged:
            server.damaged.add((room.code, number))
            log.error("room %s: deal %d does not replay (%s)", room.code, number + 1, error)
        raise RoomError(
            "damaged",
            f"deal {number + 1} of table {room.code} cannot be replayed from its saved moves",
        ) from None
    return {
        "code": room.code,
        "deal": number,
        "names": room.names,
        "summary": present.summary_dict(summary),
        **replay,
    }
