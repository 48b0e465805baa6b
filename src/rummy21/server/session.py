"""One client's conversation with a room: its hello (a seat's token), then each message read,
checked and answered (:mod:`.protocol`, :class:`~.room.Room`). The same loop serves a browser's
WebSocket in the process that runs the room and, through the broker, one connected to another
process (:mod:`.cluster`): a client sees no difference.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from rummy21.cards import Card, CardError
from rummy21.game.errors import ActionSyntaxError, IllegalActionError
from rummy21.server import present
from rummy21.server.connection import Connection
from rummy21.server.limits import TOO_MANY_GUESSES, GuessLimiter
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
    ViewMsg,
    error_message,
    groups_of,
    message_id,
    parse_message,
    to_action,
)
from rummy21.server.room import Room

log = logging.getLogger("rummy21.server")

HELLO_SECONDS = 30.0
WRONG_TOKEN = "this token holds no seat at this table"
SLOW_DOWN = "too many messages: slow down"
FLOODING = "too many messages after being asked to slow down: disconnected"

Receive = Callable[[float | None], Awaitable[str | bytes | None]]
"""The client's next message, waiting at most ``timeout`` seconds (``None``: for ever)."""


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
        if not (conn.allow() if seat is None else room.allow(seat)):
            if conn.flooding():  # it was told, and did not slow down
                conn.send(error_message("rate_limited", FLOODING, message_id(payload)))
                conn.stop(1008)
                return
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
        except (ActionSyntaxError, CardError) as error:
            conn.send(error_message("malformed", str(error), msg_id))
        except IllegalActionError as error:
            reason = {"code": error.code, **error.values}
            conn.send(error_message("illegal", str(error), msg_id, reason))
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
    if isinstance(msg, ViewMsg):
        _, table = room.hand_of(seat)
        conn.send({**present.bot_view(table, seat, room.number), "id": msg_id})
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
