"""Many ``rummy21 serve`` processes on one database and one broker: who runs which room
(:class:`Cluster`), and the tables as the routes see them (:class:`ClusterTables`).

Each live room is run by the one process that holds its lease (:mod:`.lease`): there the room
is an ordinary :class:`~.room.Room` (the same rules, clocks and bots as with one process),
with a fence on its writes. Any other process is a relay for it (:mod:`.relay`): a browser's
WebSocket that arrives there is piped through the broker to the owner, which answers it with
the same conversation as a local one; requests over HTTP that change a room (taking a seat)
are calls to the owner; reading its finished deals reads the database.

A tick (a third of the lease) renews this process's leases in one statement, drops the rooms
whose lease another process took (a process that was paused past its lease learns it there, or
from its first write, which the lease's guard refuses), closes the relayed connections of
rooms that changed hands (their clients reconnect by themselves and reach the new owner), ends
the connections of relays that stopped living, and takes over the open rooms nobody runs: a
room whose owner died is rebuilt from its log by another process within about a lease and a
tick, its clocks running again (:meth:`.room.Room.resume`). A room idle for long is evicted
(:class:`~.directory.Rooms`) and its lease given up with it; parked, nobody takes it over
until a client asks for it.

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
from functools import partial
from typing import Any

from rummy21.server import lease, present
from rummy21.server.botpool import BotPool
from rummy21.server.broker import Broker
from rummy21.server.connection import Connection
from rummy21.server.directory import Rooms, not_found
from rummy21.server.lease import Fence, Holder
from rummy21.server.limits import GuessLimiter
from rummy21.server.model import LEASE_SECONDS, RoomConfig, RoomError, RoomStatus, Settings
from rummy21.server.relay import Relay
from rummy21.server.room import CLOSE_RECONNECT, Room
from rummy21.server.session import Receive, serve
from rummy21.server.snapshot import RoomSnapshot
from rummy21.server.store import Op, StaleWrite, Store

__all__ = ["FOLLOW_TICKS", "HANDS_PER_TICK", "Cluster", "ClusterTables", "new_node"]

log = logging.getLogger("rummy21.server.cluster")

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


class Cluster:
    """This process as one of many: which rooms it runs (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        rooms: Rooms,
        broker_url: str,
        guesses: GuessLimiter,
        lease_seconds: float = LEASE_SECONDS,
        node: str | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.rooms = rooms
        self.lease_seconds = lease_seconds
        self.node = node or new_node()
        self.relay = Relay(self.node, broker_url, settings, guesses, rooms.get)
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
        self._ticker: asyncio.Task[None] | None = None
        self.taken_over = 0
        """Rooms this process took over from another (or from nobody), or was handed."""
        self.handed = 0
        """Rooms this process handed to another, where their players are."""

    @property
    def broker(self) -> Broker:
        return self.relay.broker

    @broker.setter
    def broker(self, broker: Broker) -> None:
        self.relay.broker = broker

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
        await self.relay.close()

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
        self.relay.end_sessions(room)
        self.relay.spawn(self._forget(code, room))

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
            async with self.rooms.holding():
                room = await self.rooms.open(code, fence)
                if room is not None and not fence.lost:
                    self.rooms.rooms[code] = room
        except Exception as error:
            if isinstance(error, RoomError):
                log.warning("room %s: not run here: %s", code, error.message)
            else:
                log.exception("room %s could not be rebuilt; giving it up", code)
            self._unopened[code] = epoch
            await self.store.write(
                [partial(lease.release, code=code, owner=self.node, epoch=epoch)]
            )
            if isinstance(error, RoomError):
                raise
            return None
        if room is None or fence.lost:
            return None
        await self.broker.follow(code)
        room.resume()
        self.taken_over += 1
        self.relay.close_pipes(code, below=epoch)  # relayed here to the owner before: come back
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

        rooms = self.rooms
        try:
            room, seat, token = await Room.create(
                self.store,
                self.settings,
                rooms.bots,
                config,
                name,
                seed,
                capacity=rooms.capacity,
                fence_for=fence_for,
            )
            rooms.rooms[room.code] = room
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
        """Renew, hand over, evict, clean up and take over: see the module docstring."""
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
        await self._evict()
        await self._check_pipes()
        await self._follow_players(await self.relay.end_relays_gone())
        for code in await self.store.read(partial(lease.orphans, limit=SWEEP)):
            # (one this process could not rebuild, and gave up, is left to the others)
            if code not in self.rooms.rooms and code not in self._unopened:
                try:
                    await self.take(code)
                except RoomError:
                    pass  # set aside (logged once)

    async def _evict(self) -> None:
        """Stop running the rooms nobody visits (see :class:`~.directory.Rooms`), giving their
        leases up with them."""
        for room, park in self.rooms.evictable():
            fence = room.fence
            if fence is None or not fence.speaking():
                continue
            release: list[Op] = [
                partial(lease.release, code=room.code, owner=self.node, epoch=fence.epoch)
            ]
            if await self.rooms.evict(room, park, release):
                fence.lose()  # (given up on purpose: it is no longer in the registry)
                self._drop(room.code, room)

    async def _check_pipes(self) -> None:
        """Close the relayed connections whose room changed hands or lost its owner."""
        # Only the pipes open before the question: one opened meanwhile is not in the answer.
        pipes = self.relay.open_pipes()
        codes = sorted({p.code for p in pipes})
        if not codes:
            return
        holders = await self.store.read(partial(lease.holders, codes=codes))
        for pipe in pipes:
            held = holders.get(pipe.code)
            if held is None or held.epoch != pipe.epoch or held.expired:
                log.info("room %s: changing hands (%s); relayed clients reconnect", pipe.code, held)
                pipe.conn.stop(CLOSE_RECONNECT)

    async def _follow_players(self, living: set[str]) -> None:
        """Hand each room whose clients have all been relayed from one other living process
        for :data:`FOLLOW_TICKS` ticks in a row to that process (see the module docstring), at
        most :data:`HANDS_PER_TICK` of them."""
        relayed = self.relay.relays()
        theirs = self.relay.relayed_connections()
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
        keys = self.relay.sessions_of(room)
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
        await self.relay.tell_to_reconnect(keys, fence.epoch)


class ClusterTables:
    """Every table, as one of many processes on one database (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        bots: BotPool,
        guesses: GuessLimiter,
        broker_url: str,
        lease_seconds: float = LEASE_SECONDS,
        node: str | None = None,
    ) -> None:
        self.registry = Rooms(store, settings, bots, guesses)
        self.cluster = Cluster(
            store, settings, self.registry, broker_url, guesses, lease_seconds, node
        )
        self.guesses = guesses

    @property
    def rooms(self) -> dict[str, Room]:
        return self.registry.rooms

    async def start(self) -> None:
        await self.cluster.start()

    async def close(self) -> None:
        await self.cluster.close()
        await self.registry.close()

    async def create(
        self, config: RoomConfig, name: str, seed: int | None, address: str
    ) -> tuple[str, int, str]:
        self.registry.made.check(address)
        async with self.registry.holding(config):
            room, seat, token = await self.cluster.create(config, name, seed)
        return room.code, seat, token

    async def info(self, code: str) -> dict[str, Any]:
        where = await self.cluster.locate(code)
        if isinstance(where, Holder):
            return await self.cluster.relay.call(where, code, "info")
        if isinstance(where, Room):
            return present.room_info(where.snapshot())
        return present.room_info(await self.registry.read(code))  # a finished table, as stored

    async def join(self, code: str, name: str, seat: int | None) -> tuple[int, str]:
        where = await self.cluster.locate(code)
        if isinstance(where, Holder):
            found = await self.cluster.relay.call(where, code, "join", name, seat)
            return int(found["seat"]), str(found["token"])
        if isinstance(where, Room):
            return await where.join(name, seat)
        await self.registry.read(code)  # (not_found if there is no such table)
        raise RoomError("full", "no open seat at this table")

    async def read(self, code: str) -> RoomSnapshot:
        return await self.registry.read(code)

    async def serve(self, code: str, conn: Connection, receive: Receive, address: str) -> None:
        where = await self.cluster.locate(code)
        if isinstance(where, Holder):
            await self.cluster.relay.pipe(code, where, conn, receive, address)
            return
        room = where
        if room is None:  # a finished room: its end, as stored (read only, not kept)
            room = await self.registry.open(code, run=False)
            if room is None:
                raise not_found(code)
            if room.status is not RoomStatus.FINISHED:
                conn.stop(CLOSE_RECONNECT)  # changing hands this very moment: come back
                return
        try:
            await serve(room, conn, receive, address, self.guesses)
        finally:
            room.detach(conn)
            if where is None:
                await room.close()
