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
from rummy21.game.match import DealSummary
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


def _finished(room: RoomSnapshot, number: int) -> DealSummary:
    summary = next((s for s in room.deals if s.number == number), None)
    if summary is None:
        raise RoomError(
            "not_finished",
            f"deal {number + 1} is not finished"
            if 0 <= number <= room.number
            else f"no deal {number + 1}",
        )
    return summary


@router.get("/deals/{number}")
async def deal_replay(
    code: CodeDep, number: int, request: Request, server: ServicesDep, address: AddressDep
) -> dict[str, Any]:
    room = await server.tables.read(code)
    viewer = viewer_of(request, room, server, address)
    summary = _finished(room, number)
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


@router.get("/deals/{number}/review")
async def deal_review(
    code: CodeDep,
    number: int,
    request: Request,
    server: ServicesDep,
    address: AddressDep,
    seat: int | None = None,
) -> dict[str, Any]:
    """The coach's review of a seat of a finished deal (:mod:`rummy21.server.coach`): a
    player's own seat (``seat`` left out or its own), or, for an outsider of a table with a
    public history, the ``seat`` asked for. ``{"status": "running", "done", "total"}`` while it
    is worked out (ask again), then ``{"status": "done", "review": …}``."""
    room = await server.tables.read(code)
    viewer = viewer_of(request, room, server, address)
    wanted = viewer if seat is None else seat
    if wanted is None:
        raise RoomError("bad_request", "say which seat to review: ?seat=N (from 0)")
    if viewer is not None and wanted != viewer:
        raise RoomError("forbidden", "a player may review only its own seat")
    if not 0 <= wanted < len(room.names):
        raise RoomError("bad_request", f"the table has seats 0..{len(room.names) - 1}")
    _finished(room, number)
    lines = await server.store.read(partial(repository.deal_log, code=room.code, number=number))
    try:
        answer = await server.reviews.review(room.code, number, wanted, lines, room.names)
    except ValueError as error:
        raise RoomError("damaged", str(error)) from None
    return {"code": room.code, "deal": number, "seat": wanted, **answer}
