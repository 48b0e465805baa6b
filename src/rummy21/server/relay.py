"""What crosses between the processes of a cluster for clients: a browser connected to one
process, playing at a room another process runs (see :mod:`.broker` for the channels).

Relaying (the client's side): a WebSocket that arrives at a process that does not run its room
is piped (:meth:`Relay.pipe`) through the broker to the owner: the client's messages go as they
were sent, and what the owner sends that connection comes back on the connection's own channel,
delivered only if it carries the epoch the pipe was opened with. Requests that change a room
(taking a seat) or read its live facts are calls to the owner (:meth:`Relay.call`).

Serving (the owner's side): each piped client is served by the same conversation as a local one
(:func:`.session.serve`) over a :class:`~.connection.Connection` whose output is published to
the client's channel while the room's lease is surely the owner's. Calls are answered there.

Nothing here decides who runs a room (:mod:`.cluster` does); it only carries.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from rummy21.server import broker as wire
from rummy21.server import present
from rummy21.server.broker import Broker, Call, Close, Data, End, Open, Out, Reply
from rummy21.server.connection import Connection
from rummy21.server.lease import Fence, Holder
from rummy21.server.limits import GuessLimiter
from rummy21.server.model import RoomError, Settings
from rummy21.server.room import CLOSE_RECONNECT, Room
from rummy21.server.session import Receive, serve

__all__ = ["CALL_SECONDS", "Relay"]

log = logging.getLogger("rummy21.server.cluster")

CALL_SECONDS = 10.0


@dataclass
class _Session:
    """A client connected to another process, as the room's owner serves it."""

    room: Room
    conn: Connection
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


@dataclass
class _Pipe:
    """A client connected here to a room another process runs."""

    code: str
    epoch: int
    conn: Connection


class Relay:
    """This process's side of every relayed conversation (see the module docstring).
    ``running(code)`` is the room run here under that code, if any."""

    def __init__(
        self,
        node: str,
        broker_url: str,
        settings: Settings,
        guesses: GuessLimiter,
        running: Callable[[str], Room | None],
    ) -> None:
        self.node = node
        self.settings = settings
        self.guesses = guesses
        self._running = running
        self.broker = Broker(broker_url, node, self._receive)
        self.sessions: dict[tuple[str, str], _Session] = {}
        self.pipes: dict[str, _Pipe] = {}
        self.calls: dict[str, asyncio.Future[Reply]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.broker.close()

    def spawn(self, job: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---------------------------------------------------- the owner's side
    def sessions_of(self, room: Room) -> list[tuple[str, str]]:
        """The relayed clients of ``room`` served here: (relay process, connection id)."""
        return [key for key, s in self.sessions.items() if s.room is room]

    def end_sessions(self, room: Room) -> None:
        """Stop serving ``room``'s relayed clients (the room is no longer run here)."""
        for key in self.sessions_of(room):
            session = self.sessions.pop(key)
            if session.task is not None:
                session.task.cancel()

    def relays(self) -> dict[Room, set[str]]:
        """Each room served here, the processes its open relayed clients are at; and the
        connections served for relays (for telling them apart from local ones)."""
        relayed: dict[Room, set[str]] = {}
        for (relay, _), session in self.sessions.items():
            if not session.conn.closed:
                relayed.setdefault(session.room, set()).add(relay)
        return relayed

    def relayed_connections(self) -> set[Connection]:
        return {session.conn for session in self.sessions.values()}

    async def end_relays_gone(self) -> set[str]:
        """End the sessions served for relays that no longer live; the relays that do."""
        sessions = list(self.sessions.items())  # a session opened meanwhile is not judged
        nodes = {node for (node, _), _ in sessions}
        if not nodes:
            return set()
        living = await self.broker.alive(nodes)
        for key, session in sessions:
            if key[0] not in living:
                session.queue.put_nowait(None)
        return living

    async def tell_to_reconnect(self, keys: Iterable[tuple[str, str]], epoch: int) -> None:
        """Have the relays close these connections (their clients reconnect)."""
        end = End(t="end", epoch=epoch, code=CLOSE_RECONNECT)
        await asyncio.gather(
            *(self.broker.publish(wire.conn_channel(n, c), end) for n, c in keys),
            return_exceptions=True,
        )

    # ----------------------------------------------------- the relay's side
    def close_pipes(self, code: str, below: int) -> None:
        """Close the relayed connections to room ``code`` opened at an epoch before ``below``
        (the room runs here now: they reconnect, and play here)."""
        for pipe in list(self.pipes.values()):
            if pipe.code == code and pipe.epoch < below:
                pipe.conn.stop(CLOSE_RECONNECT)

    def open_pipes(self) -> list[_Pipe]:
        return list(self.pipes.values())

    # --------------------------------------------------------- the broker
    def _receive(self, channel: str, envelope: wire.Envelope) -> None:
        """An envelope from the broker (see :mod:`.broker` for who sends what where)."""
        if isinstance(envelope, (Out, End)):
            prefix = wire.conn_channel(self.node, "")
            pipe = (
                self.pipes.get(channel.removeprefix(prefix)) if channel.startswith(prefix) else None
            )
            if pipe is None:
                return
            if isinstance(envelope, Out) and envelope.epoch == pipe.epoch:
                pipe.conn.send(envelope.text)
            elif isinstance(envelope, End) and envelope.epoch >= pipe.epoch:
                pipe.conn.stop(envelope.code)
            return
        if isinstance(envelope, Reply):
            future = self.calls.pop(envelope.rid, None)
            if future is not None and not future.done():
                future.set_result(envelope)
            return
        code = channel.removeprefix(wire.room_channel(""))
        room = self._running(code)
        fence = None if room is None else room.fence
        if room is None or fence is None or fence.lost:
            return  # not ours (any more): the relay notices from the lease
        if envelope.epoch != fence.epoch:
            if envelope.epoch < fence.epoch and isinstance(envelope, Open):
                self.spawn(self._end(envelope.node, envelope.cid, fence, CLOSE_RECONNECT))
            return
        if isinstance(envelope, Open):
            self._open(room, envelope)
        elif isinstance(envelope, (Data, Close)):
            session = self.sessions.get((envelope.node, envelope.cid))
            if session is not None:
                session.queue.put_nowait(envelope.text if isinstance(envelope, Data) else None)
        else:
            self.spawn(self._call(room, envelope))

    async def _end(self, node: str, cid: str, fence: Fence, code: int) -> None:
        if fence.speaking():
            await self.broker.publish(
                wire.conn_channel(node, cid), End(t="end", epoch=fence.epoch, code=code)
            )

    def _open(self, room: Room, envelope: Open) -> None:
        fence = room.fence
        assert fence is not None
        channel = wire.conn_channel(envelope.node, envelope.cid)

        async def send(text: str) -> None:
            if fence.speaking():
                await self.broker.publish(channel, Out(t="out", epoch=fence.epoch, text=text))

        async def close(code: int) -> None:
            if fence.speaking():
                await self.broker.publish(channel, End(t="end", epoch=fence.epoch, code=code))

        key = (envelope.node, envelope.cid)
        if key in self.sessions:
            return
        session = _Session(room, Connection(send, close, self.settings.rate_limit))
        self.sessions[key] = session
        session.task = asyncio.create_task(self._serve_session(key, session, envelope.address))

    async def _serve_session(self, key: tuple[str, str], session: _Session, address: str) -> None:
        conn, room = session.conn, session.room
        pump = asyncio.create_task(conn.pump())

        async def receive(timeout: float | None) -> str | None:
            if timeout is None:
                return await session.queue.get()
            return await asyncio.wait_for(session.queue.get(), timeout)

        try:
            await serve(room, conn, receive, address, self.guesses)
        finally:
            room.detach(conn)
            conn.stop()
            if self.sessions.get(key) is session:
                del self.sessions[key]
            try:
                await asyncio.wait_for(pump, timeout=5)
            except BaseException:
                pump.cancel()

    async def _call(self, room: Room, call: Call) -> None:
        fence = room.fence
        assert fence is not None
        try:
            if call.op == "join":
                if call.name is None:
                    raise RoomError("invalid", "a name is needed to take a seat")
                seat, token = await room.join(call.name, call.seat)
                body: dict[str, Any] = {"seat": seat, "token": token}
            else:
                body = present.room_info(room.snapshot())
            reply = Reply(t="reply", rid=call.rid, ok=True, body=body)
        except RoomError as error:
            reply = Reply(
                t="reply", rid=call.rid, ok=False, body={"code": error.code, "error": error.message}
            )
        if fence.speaking():
            await self.broker.publish(wire.node_channel(call.node), reply)

    # ------------------------------------------------------------- relaying
    async def call(
        self,
        held: Holder,
        code: str,
        op: Literal["join", "info"],
        name: str | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Ask the owner of room ``code`` (``held``) to do ``op``: its answer, or the
        :class:`RoomError` it raised."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self.calls[rid] = future
        try:
            request = Call(
                t="call", node=self.node, rid=rid, epoch=held.epoch, op=op, name=name, seat=seat
            )
            if await self.broker.publish(wire.room_channel(code), request) == 0:
                raise RoomError(
                    "server", "the server running this table is not answering; try again"
                )
            reply = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            raise RoomError(
                "server", "the server running this table did not answer; try again"
            ) from None
        finally:
            self.calls.pop(rid, None)
        if not reply.ok:
            raise RoomError(str(reply.body.get("code", "server")), str(reply.body.get("error", "")))
        return reply.body

    async def pipe(
        self, code: str, held: Holder, conn: Connection, receive: Receive, address: str
    ) -> None:
        """Carry a client connected here to room ``code``, which another process runs
        (``held``), until either side ends it."""
        cid = secrets.token_hex(8)
        self.pipes[cid] = _Pipe(code, held.epoch, conn)
        channel = wire.room_channel(code)
        try:
            await self._relay(cid, channel, held, conn, receive, address)
        except Exception as error:  # the broker is unreachable: the client comes back later
            log.warning("room %s: relaying failed: %s", code, error)
            conn.stop(1011)
        finally:
            self.pipes.pop(cid, None)
            try:
                await self.broker.publish(
                    channel, Close(t="close", node=self.node, cid=cid, epoch=held.epoch)
                )
            except Exception:
                pass

    async def _relay(
        self, cid: str, channel: str, held: Holder, conn: Connection, receive: Receive, address: str
    ) -> None:
        """Forward what the client sends until it goes or nobody runs the room any more."""
        opened = Open(t="open", node=self.node, cid=cid, epoch=held.epoch, address=address[:64])
        if await self.broker.publish(channel, opened) == 0:
            log.info("%s: its owner does not listen; the client reconnects", channel)
            conn.stop(CLOSE_RECONNECT)  # nobody runs it right now: the client comes back shortly
            return
        while not conn.closed:
            payload = await receive(None)
            if payload is None:
                break
            text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
            data = Data(
                t="data", node=self.node, cid=cid, epoch=held.epoch, text=text[: wire.MAX_TEXT]
            )
            if await self.broker.publish(channel, data) == 0:
                log.info("%s: its owner stopped listening; the client reconnects", channel)
                conn.stop(CLOSE_RECONNECT)
                break
