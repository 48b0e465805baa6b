"""One client's conversation with a room: its hello (a seat's token), then each message read,
checked and answered (:mod:`.protocol`, :class:`~.room.Room`). The same loop serves a browser's
WebSocket in the process that runs the room and, through the broker, one connected to another
process (:mod:`.cluster`): a client sees no difference.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from rummy21.cards import Card, CardError
from rummy21.game.errors import IllegalActionError
from rummy21.server import present
from rummy21.server.connection import Connection
from rummy21.server.model import RoomError
from rummy21.server.protocol import (
    ArrangeMsg,
    AutoplayMsg,
    CheckDeclareMsg,
    GroupsMsg,
    HelloMsg,
    PingMsg,
    ProtocolError,
    ReadyMsg,
    error_message,
    groups_of,
    message_id,
    parse_message,
    to_action,
)
from rummy21.server.room import Room

log = logging.getLogger("rummy21.server")

HELLO_SECONDS = 30.0
TOO_MANY_GUESSES = "too many wrong seat tokens from your address: wait a minute and try again"
WRONG_TOKEN = "this token holds no seat at this table"
SLOW_DOWN = "too many messages: slow down"

Receive = Callable[[float | None], Awaitable[str | bytes | None]]
"""The client's next message, waiting at most ``timeout`` seconds (``None``: for ever)."""


class GuessLimiter:
    """Wrong seat tokens per table and client address: at most ``limit`` in any ``window``
    seconds. A wrong token from an address over the limit at that table is answered
    ``rate_limited`` instead of ``unauthorized`` (and its socket closed with 4429); a correct
    token is never refused, so a player is never locked out by someone guessing from the same
    address (a home, an office), and one table's guesses do not count at another.

    >>> clock = iter(range(100)).__next__
    >>> guesses = GuessLimiter(limit=2, window=10, clock=lambda: float(clock()))
    >>> guesses.failed("ABCDEF", "a"); guesses.failed("ABCDEF", "a")
    >>> guesses.blocked("ABCDEF", "a"), guesses.blocked("ABCDEF", "b")
    (True, False)
    >>> guesses.blocked("XYZ234", "a")
    False
    """

    MAX_KEYS = 10_000

    def __init__(
        self, limit: int = 10, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._failures: dict[tuple[str, str], deque[float]] = {}

    def _recent(self, key: tuple[str, str], now: float) -> deque[float] | None:
        stamps = self._failures.get(key)
        if stamps is None:
            return None
        while stamps and stamps[0] <= now - self.window:
            stamps.popleft()
        if not stamps:
            del self._failures[key]
            return None
        return stamps

    def blocked(self, code: str, address: str) -> bool:
        """Whether ``address`` sent ``limit`` wrong tokens to table ``code`` lately."""
        stamps = self._recent((code, address), self._clock())
        return stamps is not None and len(stamps) >= self.limit

    def failed(self, code: str, address: str) -> None:
        """``address`` sent a wrong token to table ``code``."""
        now = self._clock()
        if len(self._failures) >= self.MAX_KEYS:  # forget the addresses gone quiet
            for old in list(self._failures):
                self._recent(old, now)
            while len(self._failures) >= self.MAX_KEYS:
                del self._failures[next(iter(self._failures))]
        key = (code, address)
        stamps = self._recent(key, now)
        if stamps is None:
            stamps = self._failures[key] = deque()
        stamps.append(now)
        while len(stamps) > self.limit:
            stamps.popleft()

    def wrong(self, code: str, address: str) -> bool:
        """Count a wrong token from ``address`` at table ``code``; whether the address was
        already over the limit there (then the answer is ``rate_limited``)."""
        over = self.blocked(code, address)
        self.failed(code, address)
        return over


async def serve(
    room: Room, conn: Connection, receive: Receive, address: str, guesses: GuessLimiter
) -> None:
    """Answer the client of ``conn`` (at ``address``) until it goes: its hello, then its
    messages, each answered (see :mod:`.app`); ``receive(timeout)`` gives the client's next
    message (``None``: it has gone; :class:`TimeoutError` after ``timeout`` seconds)."""
    seat: int | None = None
    while True:
        try:
            payload = await receive(HELLO_SECONDS if seat is None else None)
        except TimeoutError:
            conn.send(error_message("unauthorized", "say hello with your seat's token first"))
            conn.stop(4401)
            return
        if payload is None:
            return
        if not conn.allow():
            conn.send(error_message("rate_limited", SLOW_DOWN, message_id(payload)))
            continue
        msg_id = None
        try:
            msg = parse_message(payload)
            msg_id = msg.id
            if seat is None:
                if not isinstance(msg, HelloMsg):
                    raise ProtocolError("unauthorized", "say hello with your seat's token first")
                found = room.seat_for_token(msg.token)
                if found is None:
                    if guesses.wrong(room.code, address):
                        conn.send(error_message("rate_limited", TOO_MANY_GUESSES, msg_id))
                        conn.stop(4429)
                    else:
                        conn.send(error_message("unauthorized", WRONG_TOKEN, msg_id))
                        conn.stop(4401)
                    return
                if not await room.attach(conn, found):
                    return  # (the room closed meanwhile: the client reconnects)
                seat = found
                continue
            await handle(room, seat, conn, msg)
        except ProtocolError as error:
            conn.send(
                error_message(error.code, error.message, error.msg_id if msg_id is None else msg_id)
            )
        except RoomError as error:
            conn.send(error_message(error.code, error.message, msg_id))
        except (IllegalActionError, CardError) as error:
            conn.send(error_message("illegal", str(error), msg_id))
        except Exception:
            log.exception("room %s: message from seat %s failed", room.code, seat)
            conn.send(error_message("server", "the server could not handle that message", msg_id))


async def handle(room: Room, seat: int, conn: Connection, msg: Any) -> None:
    msg_id = msg.id
    if isinstance(msg, HelloMsg):
        raise ProtocolError("malformed", "this connection already holds a seat")
    if isinstance(msg, PingMsg):
        conn.send({"type": "pong", "id": msg_id})
        return
    if isinstance(msg, ReadyMsg):
        await room.set_ready(seat)
        conn.send({"type": "ack", "id": msg_id})
        return
    if isinstance(msg, AutoplayMsg):
        await room.set_autoplay(seat, msg.seat, msg.bot)
        conn.send({"type": "ack", "id": msg_id})
        return
    if isinstance(msg, (GroupsMsg, ArrangeMsg, CheckDeclareMsg)):
        await _read(room, seat, conn, msg)
        return
    await room.act(seat, to_action(msg), conn, msg_id)


async def _read(
    room: Room, seat: int, conn: Connection, msg: GroupsMsg | ArrangeMsg | CheckDeclareMsg
) -> None:
    """Questions about the player's own hand: nothing changes, nobody else is told."""
    hand, table = room.hand_of(seat)
    jokers, rules, version = table.jokers, table.rules, room.version
    holds_hand = len(hand) in (rules.hand_size, rules.hand_size + 1)
    reply: dict[str, Any]
    run: Callable[..., Awaitable[Any]] = asyncio.to_thread
    if isinstance(msg, GroupsMsg):
        groups = groups_of(msg.groups)
        present.cards_outside(hand, groups, "the layout")
        reading = await run(present.reading, table.view(seat)) if holds_hand else None
        reply = {
            "type": "groups",
            "labels": present.label_groups(groups, jokers, rules),
            "reading": reading,
            "hand": [str(c) for c in hand],
        }
    elif isinstance(msg, ArrangeMsg):
        if not holds_hand:
            raise RoomError("not_playing", "you hold no cards to arrange")
        keep = groups_of(msg.keep or [])
        arranged = await run(present.arrangement, table.view(seat), keep)
        reply = {"type": "arranged", **arranged}
    else:
        finish = Card.parse(msg.card)
        if table.over or table.turn != seat:
            raise IllegalActionError("you can declare only in your turn, after drawing")
        table.verify_declare(finish, None, seat)  # drawn? holds it? not just taken?
        groups = groups_of(msg.groups)
        check = await run(present.check_declaration, hand, finish, groups, jokers, rules)
        reply = {"type": "declare_check", **check}
    reply["id"] = msg.id
    reply["version"] = version
    conn.send(reply)
