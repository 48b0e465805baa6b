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
``error``, ``groups``, ``arranged``, ``declare_check``, ``view`` (the seat's view as the bot
protocol gives it, for a program at the seat: :mod:`rummy21.bots.live`) or ``pong``, echoing
its ``id``. The host may send ``autoplay`` to hand an absent player's seat to a bot (see
:mod:`.room`).

The routes are in :mod:`.api`; this module puts the server together: its settings, its parts
(made when the app starts: the database's :class:`~.store.Store`, the bot pool, and the
:class:`~.directory.Tables` — a process alone, or one of many with a broker), the routes and
the refusals' answers.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/healthz").json()
{'status': 'ok'}
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummy21.server.api import ROUTERS, errors
from rummy21.server.api.deps import Services
from rummy21.server.api.pages import STATIC
from rummy21.server.botpool import BotPool
from rummy21.server.cluster import ClusterTables
from rummy21.server.coach import Reviews
from rummy21.server.directory import LocalTables, Tables
from rummy21.server.limits import GuessLimiter
from rummy21.server.model import ABSENT_GRACE, LEASE_SECONDS, Settings, TableFactory
from rummy21.server.store import Store

__all__ = ["GuessLimiter", "create_app"]

log = logging.getLogger("rummy21.server")

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


def create_app(
    db_url: str = "sqlite://",
    *,
    bot_delay: float = 0.8,
    next_deal_seconds: float = 20.0,
    allow_seed: bool = False,
    rate_limit: float | None = 40.0,
    table_factory: TableFactory | None = None,
    absent_grace: float = ABSENT_GRACE,
    hello_failures: int = 10,
    broker: str | None = None,
    lease_seconds: float = LEASE_SECONDS,
    node: str | None = None,
    **limits: float | int | None,
) -> FastAPI:
    """The server for the database at ``db_url`` (any SQLAlchemy URL).

    ``bot_delay`` is the pause before each bot move (0 in tests), ``next_deal_seconds`` how
    long the result of a deal stays up before the next deal (unless everyone is ready sooner).
    ``allow_seed`` lets ``POST /api/tables`` choose a seed (tests only: a seeded live table
    is predictable); ``table_factory`` deals chosen cards (tests only). ``rate_limit`` caps
    the messages a second of one seat (``None``: no cap). ``absent_grace`` is how long
    the seat in turn may have no open connection before it times out (0: no limit);
    ``hello_failures`` how many wrong seat tokens one client address may send a table a
    minute before its wrong tokens are answered ``rate_limited``. ``limits`` are the other
    fields of :class:`~.model.Settings` (the bot workers, the caps on tables and ``search``
    seats, tables per address, eviction).

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
        **limits,  # type: ignore[arg-type]
    )
    guesses = GuessLimiter(hello_failures)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        bots = BotPool(settings.bot_workers)
        tables: Tables
        if broker is None:
            tables = LocalTables(store, settings, bots, guesses)
        else:  # the open rooms nobody runs are taken over by the cluster's first tick
            tables = ClusterTables(store, settings, bots, guesses, broker, lease_seconds, node)
        try:
            await tables.start()
        except BaseException:
            store.close()
            raise
        reviews = Reviews(store, bots, settings.review_worlds)
        app.state.services = Services(settings, store, tables, guesses, reviews)
        app.state.tables = tables
        try:
            yield
        finally:
            await reviews.close()
            await tables.close()
            store.close()

    app = FastAPI(
        title="rummy21", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    return app
