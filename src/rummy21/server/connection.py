"""One browser tab's WebSocket, as a room sees it: a bounded queue of outgoing messages
pumped by one task (so a slow client never holds up a room), and a rate limit on what it sends.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from rummy21.server.limits import TokenBucket

log = logging.getLogger("rummy21.server")


class Connection:
    """One browser tab's WebSocket: messages go out through a bounded queue and one pump task,
    so a slow client never holds up a room."""

    LIMIT = 512
    FLOOD_RATE = 20.0
    """Messages a second a client may go on sending after it is told to slow down (in bursts
    of twice that) before it is disconnected (1008)."""

    def __init__(
        self, send: Callable[[str], Any], close: Callable[[int], Any], rate: float | None = 40.0
    ) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.seat: int | None = None
        self.sent = 0
        self.close_code = 1000
        self._bucket = TokenBucket(rate)
        """What it may send before it holds a seat (after: the seat's own limit)."""
        self._refusals = TokenBucket(self.FLOOD_RATE if rate else None)

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.LIMIT:
            log.warning("closing a connection that does not read its messages")
            self.stop(1013)
            return
        text = message if isinstance(message, str) else json.dumps(message)
        self.queue.put_nowait(text)

    def allow(self) -> bool:
        return self._bucket.allow()

    def flooding(self) -> bool:
        """Count a message refused over the rate limit: whether the client keeps sending so
        far past it that it is to be disconnected."""
        return not self._refusals.allow()

    async def pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self._send(text)
                self.sent += 1
        except Exception:
            pass
        finally:
            self.closed = True
            try:
                await self._close(self.close_code)
            except Exception:
                pass

    def stop(self, code: int = 1000) -> None:
        """Close after the messages already queued (``code``: the WebSocket close code)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)
