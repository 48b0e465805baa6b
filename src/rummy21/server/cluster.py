"""Many ``rummy21 serve`` processes on one database and one broker: who runs which room, and
how a client connected to one process plays at a room another runs.

Each live room is run by the one process that holds its lease (:mod:`.lease`): there the room
is an ordinary :class:`~.room.Room` (the same rules, clocks and bots as with one process),
with a fence on its writes. Any other process is a relay for it: a browser's WebSocket that
arrives there is piped through the broker (:mod:`.broker`) to the owner, which answers it with
the same conversation as a local one (:func:`.session.serve`) and sends its messages back on
that connection's own channel. Requests over HTTP that change a room (taking a seat) are calls
to the owner; reading its finished deals reads the database.

A tick (a third of the lease) renews this process's leases in one statement, drops the rooms
whose lease another process took (a process that was paused past its lease learns it there, or
from its first write, which the lease's guard refuses), closes the relayed connections of
rooms that changed hands (their clients reconnect by themselves and reach the new owner), ends
the connections of relays that stopped living, and takes over the open rooms nobody runs: a
room whose owner died is rebuilt from its log by another process within about a lease and a
tick, its clocks running again (:meth:`.room.Room.resume`).

The table follows its players. When every client of a room this process runs is relayed from
one other living process (none connected here, at least one there) for :data:`FOLLOW_TICKS`
ticks in a row, the owner hands the room's lease to that process (:func:`.lease.hand_to`,
behind its guard like every write, so an action in flight either commits first or is refused
and never acknowledged) and stops running it as if it had lost the lease, writing nothing
more; it tells the relayed connections to reconnect (:data:`~.room.CLOSE_RECONNECT`). The new
owner finds the lease among those its renewal returns (or when a client asks for the room)
and rebuilds the room from the log at that epoch, as after a take-over: the player in turn
gets a fresh turn. Its clients, reconnecting to the same process, now play there without the
broker. A room with a client at its owner, or relayed from two processes or more, stays where
it is. At most :data:`HANDS_PER_TICK` rooms are handed away a tick (each is rebuilt where it
goes); the others due keep their streak and go on the next ticks.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from rummy21.server import broker as wire
from rummy21.server import lease, present, repository
from rummy21.server.broker import Broker, Call, Close, Data, End, Open, Out, Reply
from rummy21.server.connection import Connection
from rummy21.server.lease import Fence, Holder
from rummy21.server.model import RoomConfig, RoomError, RoomStatus, Settings
from rummy21.server.room import CLOSE_RECONNECT, Room, Rooms
from rummy21.server.session import GuessLimiter, Receive, serve
from rummy21.server.store import StaleWrite, Store

log = logging.getLogger("rummy21.server.cluster")

CALL_SECONDS = 10.0
FOLLOW_TICKS = 2
"""Ticks in a row that all of a room's clients must be relayed from one other process before
the room is handed there (a client that merely reconnects elsewhere does not move a room)."""
SWEEP = 64
"""At most this many rooms taken over a tick."""
HANDS_PER_TICK = 8
"""At most this many rooms handed away by this process a tick. Each hand-over makes the
receiving process rebuild the room from its log (a read, a replay in a thread, a repair), and a
burst of them (every table of a fresh load whose players landed on the other process) stalls
both processes; the rooms beyond it keep their streak and go on a later tick."""


def new_node() -> str:
    """A name for this process, unique for each start."""
    host = "".join(c for c in socket.gethostname() if c.isalnum() or c in "-.")[:32] or "host"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


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


class Cluster:
    """This process as one of many: see the module docstring."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        rooms: Rooms,
        broker_url: str,
        guesses: GuessLimiter,
        lease_seconds: float = 3.0,
        node: str | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.rooms = rooms
        self.guesses = guesses
        self.lease_seconds = lease_seconds
        self.node = node or new_node()
        self.broker = Broker(broker_url, self.node, self._receive)
        self.sessions: dict[tuple[str, str], _Session] = {}
        self.pipes: dict[str, _Pipe] = {}
        self.calls: dict[str, asyncio.Future[Reply]] = {}
        self._taking: dict[str, asyncio.Task[Room | None]] = {}
        self._creating: set[str] = set()
        """Codes of rooms being created here (their lease is ours before the room runs)."""
        self._unopened: dict[str, int] = {}
        """Rooms this process could not rebuild, and the epoch it failed at: given up (their
        lease released) and left to the other processes, not tried here again each tick (a
        room handed here at a later epoch is tried once more)."""
        self._streaks: dict[Room, tuple[str, int]] = {}
        """Rooms whose clients were all relayed from one process: that process, for how many
        ticks in a row."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.taken_over = 0
        """Rooms this process took over from another (or from nobody), or was handed."""
        self.handed = 0
        """Rooms this process handed to another, where their players are."""

    # ---------------------------------------------------------------- life
    async def start(self) -> None:
        await self.broker.start()
        await self.broker.beat(self.lease_seconds)
        await self.tick()
        self._ticker = asyncio.create_task(self._tick_forever(), name="rummy21-lease")
        log.info("cluster node %s: lease %.1f s", self.node, self.lease_seconds)

    async def close(self) -> None:
        """Stop, giving every room up at once (another process takes them over)."""
        if self._ticker is not None:
            self._ticker.cancel()
            try:
                await self._ticker
            except BaseException:
                pass
        for code, room in list(self.rooms.rooms.items()):
            fence = room.fence
            await room.close()
            if fence is not None and not fence.lost:
                try:
                    await self.store.write(
                        [partial(lease.release, code=code, owner=self.node, epoch=fence.epoch)]
                    )
                except Exception:
                    log.exception("room %s: could not release its lease", code)
        self.rooms.rooms.clear()
        for task in list(self._tasks):
            task.cancel()
        await self.broker.close()

    def _spawn(self, job: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----------------------------------------------------------- ownership
    def fence_for(self, code: str, epoch: int = 1, asked: float | None = None) -> Fence:
        return Fence(code, self.node, epoch, self.lease_seconds, self._lost, asked)

    def _lost(self, code: str) -> None:
        """Room ``code``'s lease is another process's now: stop running it here."""
        room = self.rooms.rooms.pop(code, None)
        if room is None:
            return
        log.warning("room %s: lease lost; another process runs it now", code)
        self._drop(code, room)

    def _drop(self, code: str, room: Room) -> None:
        """Stop running ``room`` here (its lease is over): its sessions, its clocks, its
        channel."""
        for key, session in list(self.sessions.items()):
            if session.room is room:
                del self.sessions[key]
                if session.task is not None:
                    session.task.cancel()
        self._spawn(self._forget(code, room))

    async def _forget(self, code: str, room: Room) -> None:
        await room.close()  # its local clients reconnect, and reach the new owner
        try:
            await self.broker.unfollow(code)
        except Exception:
            log.exception("room %s: could not unsubscribe", code)

    async def take(
        self, code: str, handed: bool = False, renewed: tuple[int, float] | None = None
    ) -> Room | None:
        """Run room ``code`` here if nobody does (its lease is free or expired), or, if
        ``handed``, because its lease is this process's (its owner handed it here): the
        room, rebuilt from the database, else ``None``. One attempt at a time per room.
        ``renewed``: the lease's epoch and when the renewal that just returned it as this
        process's was asked for (a tick's), so that it is not renewed again."""
        room = self.rooms.rooms.get(code)
        if room is not None:
            return room
        if code in self._creating:
            return None  # being made here: it runs once stored
        task = self._taking.get(code)
        if task is None:
            task = asyncio.ensure_future(self._take(code, handed, renewed))
            self._taking[code] = task
            task.add_done_callback(lambda _t: self._taking.pop(code, None))
        return await asyncio.shield(task)

    async def _take(
        self, code: str, handed: bool, renewed: tuple[int, float] | None
    ) -> Room | None:
        asked = time.monotonic()
        epoch: int | None
        if renewed is not None:
            epoch, asked = renewed
        elif handed:  # confirm that the lease is still ours (renewing it, with all the others)
            held = await self.store.write(
                [partial(lease.renew, owner=self.node, seconds=self.lease_seconds)]
            )
            epoch = held.get(code)
        else:
            epoch = await self.store.write(
                [partial(lease.acquire, code=code, owner=self.node, seconds=self.lease_seconds)]
            )
        if epoch is None:
            return None
        fence = self.fence_for(code, epoch, asked)
        try:
            room = await Room.open(self.store, self.settings, code, fence)
        except Exception:
            log.exception("room %s could not be rebuilt; giving it up", code)
            self._unopened[code] = epoch
            await self.store.write(
                [partial(lease.release, code=code, owner=self.node, epoch=epoch)]
            )
            return None
        if room is None or fence.lost:
            return None
        self.rooms.rooms[code] = room
        await self.broker.follow(code)
        room.resume()
        self.taken_over += 1
        for pipe in list(self.pipes.values()):  # relayed here to the owner before: come back
            if pipe.code == code and pipe.epoch < epoch:
                pipe.conn.stop(CLOSE_RECONNECT)
        by = ", handed" if handed or renewed is not None else ""
        log.info("room %s: running it here (epoch %d%s)", code, epoch, by)
        return room

    async def create(
        self, config: RoomConfig, name: str, seed: int | None
    ) -> tuple[Room, int, str]:
        """A new room, run here (its first lease is written with it)."""
        codes: list[str] = []

        def fence_for(code: str) -> Fence:
            codes.append(code)
            self._creating.add(code)  # its lease is ours before it runs: not to be rebuilt
            return self.fence_for(code)

        try:
            room, seat, token = await Room.create(
                self.store, self.settings, config, name, seed, fence_for=fence_for
            )
            self.rooms.rooms[room.code] = room
        finally:
            self._creating.difference_update(codes)
        await self.broker.follow(room.code)
        return room, seat, token

    async def locate(self, code: str) -> Room | Holder | None:
        """Where room ``code`` runs: here (the room), elsewhere (its lease), or nowhere
        (``None``: no such room, or a finished one). A room whose lease was handed here
        runs here from now on."""
        room = self.rooms.rooms.get(code)
        if room is not None:
            return room
        for _ in range(2):
            held = (await self.store.read(partial(lease.holders, codes=[code]))).get(code)
            if held is not None and not held.expired and held.owner != self.node:
                return held
            room = await self.take(code, handed=held is not None and not held.expired)
            if room is not None:
                return room
        return None

    async def snapshot(self, code: str) -> Room | None:
        """Room ``code`` as stored, to read (its finished deals, a finished room's end)."""
        room = self.rooms.rooms.get(code)
        if room is not None:
            return room
        stored = await self.store.read(partial(repository.load_room, code=code))
        if stored is None:
            return None
        # Only read: no repair (that is for the process that runs the room).
        return await asyncio.to_thread(Room.restore, stored, self.store, self.settings)

    # ----------------------------------------------------------------- tick
    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster tick failed")

    async def tick(self) -> None:
        """Renew, hand over, clean up and take over: see the module docstring."""
        asked = time.monotonic()
        # Only the rooms run here before the renewal asked: one taken meanwhile is not in it.
        running = [(c, r.fence) for c, r in self.rooms.rooms.items() if r.fence is not None]
        held = await self.store.write(
            [partial(lease.renew, owner=self.node, seconds=self.lease_seconds)]
        )
        for code, fence in running:
            if held.get(code) == fence.epoch:
                fence.renewed(asked)
            else:
                fence.lose()
        await self.broker.beat(3 * self.lease_seconds)
        handed = [  # by their owner: run them here now (the renewal above confirmed them)
            self.take(code, renewed=(epoch, asked))
            for code, epoch in held.items()
            if code not in self.rooms.rooms and self._unopened.get(code) != epoch
        ]
        for failed in await asyncio.gather(*handed, return_exceptions=True):
            if isinstance(failed, Exception):
                log.error("a room handed here could not be run: %s", failed)
        await self._check_pipes()
        await self._follow_players(await self._check_sessions())
        for code in await self.store.read(partial(lease.orphans, limit=SWEEP)):
            # (one this process could not rebuild, and gave up, is left to the others)
            if code not in self.rooms.rooms and code not in self._unopened:
                await self.take(code)

    async def _check_pipes(self) -> None:
        """Close the relayed connections whose room changed hands or lost its owner."""
        # Only the pipes open before the question: one opened meanwhile is not in the answer.
        pipes = list(self.pipes.values())
        codes = sorted({p.code for p in pipes})
        if not codes:
            return
        holders = await self.store.read(partial(lease.holders, codes=codes))
        for pipe in pipes:
            held = holders.get(pipe.code)
            if held is None or held.epoch != pipe.epoch or held.expired:
                log.info("room %s: changing hands (%s); relayed clients reconnect", pipe.code, held)
                pipe.conn.stop(CLOSE_RECONNECT)

    async def _check_sessions(self) -> set[str]:
        """End the connections served for relays that no longer live; the relays that do."""
        sessions = list(self.sessions.items())  # a session opened meanwhile is not judged
        nodes = {node for (node, _), _ in sessions}
        if not nodes:
            return set()
        living = await self.broker.alive(nodes)
        for key, session in sessions:
            if key[0] not in living:
                session.queue.put_nowait(None)
        return living

    async def _follow_players(self, living: set[str]) -> None:
        """Hand each room whose clients have all been relayed from one other living process
        for :data:`FOLLOW_TICKS` ticks in a row to that process (see the module docstring), at
        most :data:`HANDS_PER_TICK` of them."""
        relayed: dict[Room, set[str]] = {}
        theirs: set[Connection] = set()
        for (relay, _), session in self.sessions.items():
            theirs.add(session.conn)
            if not session.conn.closed:
                relayed.setdefault(session.room, set()).add(relay)
        streaks: dict[Room, tuple[str, int]] = {}
        handed = 0
        for code, room in list(self.rooms.rooms.items()):
            nodes = relayed.get(room, set())
            node = next(iter(nodes)) if len(nodes) == 1 else None
            fence = room.fence
            if (
                node is None
                or node == self.node
                or node not in living
                or fence is None
                or not fence.speaking()
                or room.status is RoomStatus.FINISHED
                or any(c not in theirs and not c.closed for g in room.conns.values() for c in g)
            ):
                continue
            before = self._streaks.get(room)
            ticks = before[1] + 1 if before is not None and before[0] == node else 1
            if ticks >= FOLLOW_TICKS and handed < HANDS_PER_TICK:
                handed += 1
                await self._hand_over(code, room, fence, node)
            else:  # not yet, or over this tick's cap (then it is due again on the next)
                streaks[room] = (node, min(ticks, FOLLOW_TICKS))
        self._streaks = streaks

    async def _hand_over(self, code: str, room: Room, fence: Fence, to: str) -> None:
        """Give room ``code`` to process ``to`` (its clients' relay) and stop running it."""
        keys = [key for key, s in self.sessions.items() if s.room is room]
        hand = partial(
            lease.hand_to,
            code=code,
            owner=self.node,
            epoch=fence.epoch,
            to=to,
            seconds=self.lease_seconds,
        )
        try:
            epoch = await self.store.write([fence.guard(), hand])
        except StaleWrite:
            fence.lose()
            return
        except Exception:  # if it was written after all, the next renewal says so
            log.exception("room %s: could not hand it to %s", code, to)
            return
        log.info("room %s: its players are at %s; handed it there (epoch %d)", code, to, epoch)
        self.handed += 1
        if self.rooms.rooms.get(code) is room:
            del self.rooms.rooms[code]
            self._drop(code, room)
        fence.lose()  # the room is gone from here already: nothing else to do
        # The relays close their connections (the clients reconnect, to the room's new owner).
        end = End(t="end", epoch=fence.epoch, code=CLOSE_RECONNECT)
        await asyncio.gather(
            *(self.broker.publish(wire.conn_channel(n, c), end) for n, c in keys),
            return_exceptions=True,
        )

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
        room = self.rooms.rooms.get(code)
        fence = None if room is None else room.fence
        if room is None or fence is None or fence.lost:
            return  # not ours (any more): the relay notices from the lease
        if envelope.epoch != fence.epoch:
            if envelope.epoch < fence.epoch and isinstance(envelope, Open):
                self._spawn(self._end(envelope.node, envelope.cid, fence, CLOSE_RECONNECT))
            return
        if isinstance(envelope, Open):
            self._open(room, envelope)
        elif isinstance(envelope, (Data, Close)):
            session = self.sessions.get((envelope.node, envelope.cid))
            if session is not None:
                session.queue.put_nowait(envelope.text if isinstance(envelope, Data) else None)
        else:
            self._spawn(self._call(room, envelope))

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
                body = present.room_info(room)
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
