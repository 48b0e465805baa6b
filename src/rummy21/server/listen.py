"""How ``rummy21 serve`` listens: uvicorn, with limits on what one connection may hold.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) but has no deadline for
a request's headers: a client that opens a socket and trickles a header byte every few
seconds holds it for ever, and a few hundred such sockets hold the server's file descriptors
(a "slowloris"). :func:`with_header_deadline` makes uvicorn's HTTP protocol close a connection
whose request headers have not all arrived within ``header_seconds`` of its opening (or of
the end of its previous response), with ``408 Request Timeout``. A WebSocket, once upgraded,
is the WebSocket protocol's (its pings find a dead peer; the room closes a socket that never
says hello).

uvicorn also logs a traceback for a WebSocket text frame that is not UTF-8 (it closes the
socket with 1007, rightly): :class:`OneLineForBadFrames` makes that one line.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("rummy21.server")

HEADER_SECONDS = 10.0
"""How long a connection may take to send a request's headers."""
KEEP_ALIVE_SECONDS = 5
"""How long an idle keep-alive connection stays open."""
MAX_CONNECTIONS = 4096
"""Connections (and their requests) uvicorn serves at once; more are answered 503."""
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


def with_header_deadline(base: type[Any], header_seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` (h11's or httptools'), closing a connection whose
    request headers are not all in within ``header_seconds``."""

    class HeaderDeadline(base):  # type: ignore[misc]
        _deadline: asyncio.TimerHandle | None = None
        _awaited: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._deadline is not None and (
                self.transport.get_protocol() is not self  # upgraded to a WebSocket
                or self.cycle is not self._awaited  # a request's headers are in
            ):
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers, on a kept-alive connection

        def _arm(self) -> None:
            self._disarm()
            self._awaited = self.cycle
            self._deadline = self.loop.call_later(header_seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return
            cycle = self.cycle
            if cycle is not None and (cycle is not self._awaited or not cycle.response_complete):
                return  # a request came in, and is being answered
            transport.write(REQUEST_TIMEOUT)
            transport.close()

    HeaderDeadline.__name__ = HeaderDeadline.__qualname__ = f"HeaderDeadline{base.__name__}"
    return HeaderDeadline


class OneLineForBadFrames(logging.Filter):
    """uvicorn's record of a WebSocket text frame that is not UTF-8, as one line, no traceback."""

    PREFIX = "Invalid UTF-8 sequence received from client"

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == f"{self.PREFIX}." or str(record.msg).startswith(self.PREFIX):
            record.msg = "a WebSocket client sent a text frame that is not UTF-8: closed (1007)"
            record.args = ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def run(
    app: Any,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    forwarded_allow_ips: str | None = None,
    header_seconds: float = HEADER_SECONDS,
    max_connections: int = MAX_CONNECTIONS,
) -> None:
    """Serve ``app`` on ``host``:``port`` until interrupted (see the module docstring)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=64 * 1024,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=max_connections,
    )
    config.load()
    config.http_protocol_class = with_header_deadline(config.http_protocol_class, header_seconds)
    logging.getLogger("uvicorn.error").addFilter(OneLineForBadFrames())
    server = uvicorn.Server(config)
    server.config.loaded = True
    server.run()
