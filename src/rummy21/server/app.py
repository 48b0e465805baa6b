"""The ASGI app: lobby and history over HTTP, play over one WebSocket per browser tab.

HTTP (JSON):

* ``POST /api/tables`` create a table → ``{code, seat, token}``; ``GET /api/tables/{code}``
  its public facts; ``POST /api/tables/{code}/join`` take an open seat → ``{seat, token}``;
* ``GET /api/tables/{code}/deals`` finished deals; ``GET /api/tables/{code}/deals/{n}`` one
  finished deal, step by step, as the asking seat saw it (:mod:`.replay`). A table's history
  is open to its players, who send their seat token as ``Authorization: Bearer <token>``;
  others get 403, unless the table was created with ``public_history`` (then they see it as
  a spectator). ``GET /healthz``.

WebSocket ``/ws/{code}``: the first message is ``{"type": "hello", "token": …}``; a wrong token
is answered with an error and the socket is closed (code 4401), or, from a client address that
sent too many wrong tokens to the table lately (seat tokens or history tokens), with
``rate_limited`` (close code 4429); a correct token is never refused. After the hello the
server sends ``welcome``, then (if a bot was playing the seat while its player was away) a
``notice`` with a sentence saying so, then ``state`` messages (the seat's own view) after
every change, and answers each client message (see :mod:`.protocol`) with ``ack``,
``error``, ``groups``, ``arranged``, ``declare_check`` or ``pong``, echoing its ``id``. The
host may send ``autoplay`` to hand an absent player's seat to a bot (see :mod:`.room`).

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/healthz").json()
{'status': 'ok'}
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, get_args

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummy21.bots import LEVELS, level_of
from rummy21.server import present, repository
from rummy21.server.cluster import Cluster
from rummy21.server.connection import Connection
from rummy21.server.lease import Holder
from rummy21.server.model import (
    BotName,
    RoomConfig,
    RoomError,
    RoomStatus,
    Settings,
    TableFactory,
)
from rummy21.server.protocol import (
    CreateTable,
    JoinTable,
    ProtocolError,
    check_code,
    error_message,
)
from rummy21.server.replay import replay_deal
from rummy21.server.room import CLOSE_RECONNECT, Room, Rooms
from rummy21.server.session import TOO_MANY_GUESSES, GuessLimiter, serve
from rummy21.server.store import Store

__all__ = ["GuessLimiter", "create_app"]

log = logging.getLogger("rummy21.server")

STATIC = Path(__file__).resolve().parent / "static"
_STATUS = {
    "not_found": 404,
    "full": 409,
    "forbidden": 403,
    "not_finished": 409,
    "rate_limited": 429,
}
PRIVATE_HISTORY = "the history of this table is open to its players only"

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


class SecurityHeaders:
    """Adds a strict content security policy (no third-party anything) to every HTTP reply."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def client_address(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client is not None else "unknown"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def create_app(
    db_url: str = "sqlite://",
    *,
    bot_delay: float = 0.8,
    next_deal_seconds: float = 20.0,
    allow_seed: bool = False,
    rate_limit: float | None = 40.0,
    table_factory: TableFactory | None = None,
    absent_grace: float = 60.0,
    hello_failures: int = 10,
    broker: str | None = None,
    lease_seconds: float = 3.0,
    node: str | None = None,
) -> FastAPI:
    """The server for the database at ``db_url`` (any SQLAlchemy URL).

    ``bot_delay`` is the pause before each bot move (0 in tests), ``next_deal_seconds`` how
    long the result of a deal stays up before the next deal (unless everyone is ready sooner).
    ``allow_seed`` lets ``POST /api/tables`` choose a seed (tests only: a seeded live table
    is predictable); ``table_factory`` deals chosen cards (tests only). ``rate_limit`` caps
    the messages a second of one connection (``None``: no cap). ``absent_grace`` is how long
    the seat in turn may have no open connection before it times out (0: no limit);
    ``hello_failures`` how many wrong seat tokens one client address may send a table a
    minute before its wrong tokens are answered ``rate_limited``.

    ``broker`` (a Redis URL) makes this process one of many on the same database (which must
    be PostgreSQL): each room is run by one of them at a time, under a lease of
    ``lease_seconds`` (:mod:`.cluster`); ``node`` names this process (default: host, pid and
    a random part).
    """
    settings = Settings(
        bot_delay=bot_delay,
        next_deal_seconds=next_deal_seconds,
        allow_seed=allow_seed,
        rate_limit=rate_limit,
        table_factory=table_factory,
        absent_grace=absent_grace,
    )
    guesses = GuessLimiter(hello_failures)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        rooms = Rooms(store, settings)
        cluster = None
        if broker is None:
            rebuilt = await rooms.load_open()
            if rebuilt:
                log.info("rebuilt %d open table(s) from the database", rebuilt)
            for room in rooms.rooms.values():
                room.resume()
        else:  # the open rooms nobody runs are taken over by the cluster's first tick
            cluster = Cluster(store, settings, rooms, broker, guesses, lease_seconds, node)
            try:
                await cluster.start()
            except BaseException:
                store.close()
                raise
        app.state.store = store
        app.state.rooms = rooms
        app.state.cluster = cluster
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.close()
            await rooms.close()
            store.close()

    app = FastAPI(
        title="rummy21", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def rooms_of(request: Request | WebSocket) -> Rooms:
        found: Rooms = request.app.state.rooms
        return found

    def cluster_of(request: Request | WebSocket) -> Cluster | None:
        found: Cluster | None = request.app.state.cluster
        return found

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        parts = []
        for item in error.errors()[:4]:
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            text = str(item.get("msg", "invalid")).removeprefix("Value error, ")
            parts.append(f"{where}: {text}" if where else text)
        return _error(422, "invalid", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        """Starlette's own refusals (an unreadable body, no such path, a wrong method) in the
        API's error shape, as every other refusal."""
        status = error.status_code
        if status == 400:
            code, message = "malformed", "the request body is not JSON in UTF-8"
        elif status == 404:
            code, message = "not_found", f"nothing at {request.url.path[:80]}"
        elif status == 405:
            code, message = "method_not_allowed", f"{request.method} is not allowed here"
        else:
            code, message = "invalid", str(error.detail)
        reply = _error(status, code, message)
        reply.headers.update(error.headers or {})
        return reply

    @app.exception_handler(RoomError)
    async def _room_error(_request: Request, error: RoomError) -> JSONResponse:
        return _error(_STATUS.get(error.code, 400), error.code, error.message)

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_request: Request, error: ProtocolError) -> JSONResponse:
        return _error(_STATUS.get(error.code, 400), error.code, error.message)

    async def room_or_404(request: Request, code: str) -> Room:
        """Room ``code`` to read (with many processes: as stored, unless it runs here)."""
        cluster = cluster_of(request)
        if cluster is None:
            room = await rooms_of(request).get(check_code(code))
        else:
            room = await cluster.snapshot(check_code(code))
        if room is None:
            raise RoomError("not_found", f"no table {code.upper()}")
        return room

    # ------------------------------------------------------------------ pages
    def page(name: str) -> FileResponse:
        return FileResponse(
            STATIC / name, media_type="text/html", headers={"cache-control": "no-cache"}
        )

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return page("index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> Response:
        check_code(code)
        return page("table.html")

    @app.get("/t/{code}/history", include_in_schema=False)
    async def history_page(code: str) -> Response:
        check_code(code)
        return page("history.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    # -------------------------------------------------------------------- API
    @app.get("/api/bots")
    async def bots() -> dict[str, Any]:
        """The bots a seat may be given, weakest first, with the level players are shown."""
        names = sorted(get_args(BotName), key=list(LEVELS).index)
        return {"bots": [{"name": name, "level": level_of(name)} for name in names]}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        if body.seed is not None and not settings.allow_seed:
            raise RoomError(
                "forbidden",
                "this server deals live tables from a secure shuffle; it does not accept seeds",
            )
        config = RoomConfig(
            len(body.seats),
            body.rules,
            body.point_value,
            body.turn_seconds,
            body.deals,
            tuple(body.seats),
            host=body.seats.index("human"),
            public_history=body.public_history,
        )
        cluster = cluster_of(request)
        if cluster is None:
            room, seat, token = await rooms_of(request).create(config, body.name, body.seed)
        else:
            room, seat, token = await cluster.create(config, body.name, body.seed)
        return {"code": room.code, "seat": seat, "token": token, "url": f"/t/{room.code}"}

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> dict[str, Any]:
        cluster = cluster_of(request)
        if cluster is not None:
            where = await cluster.locate(check_code(code))
            if isinstance(where, Holder):
                return await cluster.call(where, check_code(code), "info")
        room = await room_or_404(request, code)
        return present.room_info(room)

    @app.post("/api/tables/{code}/join")
    async def join_table(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
        cluster = cluster_of(request)
        if cluster is not None:
            where = await cluster.locate(check_code(code))
            if isinstance(where, Holder):
                found = await cluster.call(where, check_code(code), "join", body.name, body.seat)
                return {"code": check_code(code), "seat": found["seat"], "token": found["token"]}
        room = await room_or_404(request, code)
        seat, token = await room.join(body.name, body.seat)
        return {"code": room.code, "seat": seat, "token": token}

    def history_viewer(request: Request, room: Room) -> int | None:
        """The seat asking for ``room``'s history (``None``: an outsider of a public table)."""
        address = client_address(request)
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        seat = None
        if header:
            if scheme.lower() == "bearer" and token.strip():
                seat = room.seat_for_token(token.strip())
            if seat is None and guesses.wrong(room.code, address):
                raise RoomError("rate_limited", TOO_MANY_GUESSES)
        if seat is None and not room.config.public_history:
            raise RoomError("forbidden", PRIVATE_HISTORY)
        return seat

    @app.get("/api/tables/{code}/deals")
    async def list_deals(code: str, request: Request) -> dict[str, Any]:
        room = await room_or_404(request, code)
        viewer = history_viewer(request, room)
        return {
            "code": room.code,
            "names": room.names,
            "rules": room.config.rules,
            "point_value": room.config.point_value,
            "deals": room.config.deals,
            "finished": [present.summary_dict(s) for s in room.match.deals],
            "totals": list(room.match.totals),
            "viewer": viewer,
            "public_history": room.config.public_history,
        }

    @app.get("/api/tables/{code}/deals/{number}")
    async def deal_replay(code: str, number: int, request: Request) -> dict[str, Any]:
        room = await room_or_404(request, code)
        viewer = history_viewer(request, room)
        summary = next((s for s in room.match.deals if s.number == number), None)
        if summary is None:
            raise RoomError(
                "not_finished",
                f"deal {number + 1} is not finished"
                if 0 <= number <= room.number
                else f"no deal {number + 1}",
            )
        store: Store = request.app.state.store
        lines = await store.read(partial(repository.deal_log, code=room.code, number=number))
        replay = await asyncio.to_thread(
            replay_deal, lines, number, viewer, room.match.point_value, room.names
        )
        return {
            "code": room.code,
            "deal": number,
            "names": room.names,
            "summary": present.summary_dict(summary),
            **replay,
        }

    # -------------------------------------------------------------- WebSocket
    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        conn = Connection(websocket.send_text, lambda c: websocket.close(c), settings.rate_limit)
        pump = asyncio.create_task(conn.pump())
        room: Room | None = None
        cluster = cluster_of(websocket)
        receive = partial(_receive, websocket)
        try:
            where: Room | Holder | None
            try:
                if cluster is None:
                    where = await rooms_of(websocket).get(check_code(code))
                else:
                    where = await cluster.locate(check_code(code))
                    if where is None:  # a finished room: its end, as stored
                        where = await cluster.snapshot(check_code(code))
                        if where is not None and where.status is not RoomStatus.FINISHED:
                            conn.stop(CLOSE_RECONNECT)  # changing hands this very moment: come back
                            return
            except ProtocolError:
                where = None
            if where is None:
                conn.send(error_message("not_found", f"no table {code[:12].upper()}"))
                conn.stop(4404)
                return
            if isinstance(where, Holder):
                assert cluster is not None
                await cluster.pipe(code.upper(), where, conn, receive, client_address(websocket))
                return
            room = where
            await serve(room, conn, receive, client_address(websocket), guesses)
        finally:
            if room is not None:
                room.detach(conn)
            conn.stop()
            try:
                await asyncio.wait_for(pump, timeout=5)
            except (TimeoutError, Exception):
                pump.cancel()

    return app


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
