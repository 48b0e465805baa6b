"""Finding, creating and joining tables: one interface, :class:`Tables`, that every route asks,
whether this process serves alone (:class:`LocalTables`) or as one of many on one database
(:class:`~.cluster.ClusterTables`). No route asks which it has.

Both keep the rooms this process runs in a :class:`Rooms` registry, which also decides what
the process holds at once (:class:`~.limits.Capacity`: live tables, ``search`` seats), evicts
rooms nobody visits (a finished room after ``Settings.finished_seconds``, any other after
``Settings.idle_seconds``: it is *parked* — it rests in the database, and a visit runs it
again), and sets aside a room that cannot be rebuilt from the database (:meth:`Rooms.open`):
the room is marked so in the database and logged once, every request for it is answered
with a clear error (``set_aside``, HTTP 410, close code :data:`CLOSE_SET_ASIDE`), its finished
deals stay readable, and every other table plays on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, Protocol

from rummy21.server import present, repository
from rummy21.server.botpool import BotPool
from rummy21.server.connection import Connection
from rummy21.server.lease import Fence
from rummy21.server.limits import Capacity, CreationLimiter, GuessLimiter
from rummy21.server.model import RoomConfig, RoomError, RoomStatus, Settings
from rummy21.server.repository import DamagedRoom
from rummy21.server.room import Room
from rummy21.server.session import Receive, serve
from rummy21.server.snapshot import RoomSnapshot
from rummy21.server.store import Op, Store

__all__ = ["CLOSE_SET_ASIDE", "LocalTables", "Rooms", "Tables", "set_aside_error"]

log = logging.getLogger("rummy21.server")

CLOSE_SET_ASIDE = 4410
"""The close code of a WebSocket to a table set aside: the page does not reconnect."""
SWEEP_SECONDS = 15.0
"""How often the registry looks for rooms to evict (more often if they are evicted sooner)."""


def sweep_every(settings: Settings) -> float:
    """Seconds between two looks for rooms to evict."""
    return max(0.05, min(SWEEP_SECONDS, settings.idle_seconds / 4, settings.finished_seconds / 4))


def set_aside_error(code: str) -> RoomError:
    return RoomError(
        "set_aside",
        f"table {code} cannot be restored from its saved moves, so it has been set aside (the "
        "server's operator can look into it); its finished deals can still be replayed",
    )


def not_found(code: str) -> RoomError:
    return RoomError("not_found", f"no table {code.upper()[:12]}")


class Tables(Protocol):
    """Every table a client can reach through this process."""

    async def start(self) -> None:
        """Run the tables that were running (before serving)."""

    async def close(self) -> None:
        """Stop every table here (their state is in the database)."""

    async def create(
        self, config: RoomConfig, name: str, seed: int | None, address: str
    ) -> tuple[str, int, str]:
        """A new table, its creator (``name``, from ``address``) at the host's seat:
        (code, seat, token)."""

    async def info(self, code: str) -> dict[str, Any]:
        """The public facts of table ``code`` (:func:`.present.room_info`)."""

    async def join(self, code: str, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open seat of table ``code``: (seat, token)."""

    async def read(self, code: str) -> RoomSnapshot:
        """Table ``code`` to read its finished deals (not necessarily run here)."""

    async def serve(self, code: str, conn: Connection, receive: Receive, address: str) -> None:
        """Carry one client's WebSocket conversation with table ``code`` until it ends."""


class Rooms:
    """The rooms this process runs, by code (see the module docstring)."""

    def __init__(
        self, store: Store, settings: Settings, bots: BotPool, guesses: GuessLimiter
    ) -> None:
        self.store = store
        self.settings = settings
        self.bots = bots
        self.guesses = guesses
        self.rooms: dict[str, Room] = {}
        self._making: dict[object, list[str | None]] = {}
        """The seats' bots of the tables being made (or loaded) here right now."""
        self.capacity = Capacity(
            settings.max_tables,
            settings.max_search_seats,
            lambda: (
                [room.core.bot_names() for room in self.rooms.values()]
                + list(self._making.values())
            ),
        )
        self.made = CreationLimiter(settings.tables_per_address, settings.creation_window)
        self._set_aside: set[str] = set()
        """The rooms found damaged by this process (answered at once, logged once)."""

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code)

    # ------------------------------------------------------------- opening
    async def open(self, code: str, fence: Fence | None = None, run: bool = True) -> Room | None:
        """Rebuild room ``code`` from the database (``None``: no such room), not yet kept
        here nor running (without ``run``: only to read it). A room that cannot be rebuilt is
        set aside (written so under ``fence``, or with no fence at all; only to read it: not
        written) and :func:`set_aside_error` raised."""
        if code in self._set_aside:
            raise set_aside_error(code)
        try:
            return await Room.open(
                self.store, self.settings, self.bots, code, fence, self.capacity, run
            )
        except DamagedRoom as damage:
            if run:
                await self.set_aside(code, damage, fence)
            raise set_aside_error(code) from None

    async def set_aside(self, code: str, damage: DamagedRoom, fence: Fence | None = None) -> None:
        """Room ``code`` cannot be rebuilt (``damage`` says why): never run it again (see the
        module docstring)."""
        if code in self._set_aside:
            return
        self._set_aside.add(code)
        reason = damage.reason
        if damage.recorded:
            log.warning("room %s was set aside before: %s", code, reason)
            return
        log.error(
            "room %s cannot be rebuilt (%s): set aside; the other tables play on", code, reason
        )
        ops: list[Op] = [partial(repository.set_aside, code=code, reason=reason)]
        try:
            await self.store.write(ops if fence is None else [fence.guard(), *ops])
        except Exception as error:  # still set aside here; marked in the database next time
            self._set_aside.discard(code)
            log.warning("room %s: could not mark it as set aside: %s", code, error)

    async def read(self, code: str) -> RoomSnapshot:
        """Room ``code`` to read its finished deals: as it runs here, or as stored (without
        replaying its current deal)."""
        room = self.rooms.get(code)
        if room is not None:
            return room.snapshot()
        try:
            stored = await self.store.read(partial(repository.load_room, code=code))
        except DamagedRoom:
            raise set_aside_error(code) from None
        if stored is None:
            raise not_found(code)
        number = -1 if stored.last is None else stored.last.number
        return RoomSnapshot.stored(
            code, stored.config, stored.status, stored.seats, stored.deals, number
        )

    # ------------------------------------------------------------- holding
    @asynccontextmanager
    async def holding(self, config: RoomConfig | None = None) -> AsyncIterator[None]:
        """Room for one more table here while the block makes it (``config``: a new one, with
        its bots): the longest idle room is evicted first if this process holds as many as it
        may, and :class:`RoomError` ``busy`` raised if one more does not fit. The tables being
        made count until the block ends, so that many made at once cannot overshoot."""
        cap = self.settings.max_tables
        if cap and len(self.rooms) + len(self._making) >= cap:
            now = time.monotonic()
            idle = [(room.idle_for(now), code) for code, room in self.rooms.items()]
            longest, code = max(idle, default=(0.0, ""))
            if longest > 0:
                room = self.rooms[code]
                await self.evict(room, park=room.status is not RoomStatus.FINISHED)
        self.capacity.check_table(config, loaded=len(self.rooms) + len(self._making))
        key = object()
        self._making[key] = (
            [None if kind == "human" else kind for kind in config.kinds] if config else []
        )
        try:
            yield
        finally:
            del self._making[key]

    async def evict(self, room: Room, park: bool, extra: Sequence[Op] = ()) -> bool:
        """Stop running ``room`` here (parked, with ``extra`` writes, if ``park``): whether it
        was (a room whose park cannot be written stays)."""
        if self.rooms.get(room.code) is not room:
            return False
        try:
            await room.leave(park, extra)
        except Exception as error:
            log.warning("room %s: could not park it: %s", room.code, error)
            return False
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        log.info("room %s: evicted from memory (%s)", room.code, "idle" if park else "finished")
        return True

    def evictable(self) -> list[tuple[Room, bool]]:
        """The rooms to evict now, and whether each is parked (not finished)."""
        now = time.monotonic()
        due = []
        for room in self.rooms.values():
            idle = room.idle_for(now)
            finished = room.status is RoomStatus.FINISHED
            if idle >= (self.settings.finished_seconds if finished else self.settings.idle_seconds):
                due.append((room, not finished))
        return due

    async def close(self) -> None:
        rooms = list(self.rooms.values())
        self.rooms.clear()
        for room in rooms:
            await room.close()


class LocalTables:
    """Every table, run by this process alone (no broker)."""

    def __init__(
        self, store: Store, settings: Settings, bots: BotPool, guesses: GuessLimiter
    ) -> None:
        self.registry = Rooms(store, settings, bots, guesses)
        self.store = store
        self._loading: dict[str, asyncio.Task[Room]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def rooms(self) -> dict[str, Room]:
        return self.registry.rooms

    async def start(self) -> None:
        rebuilt = 0
        for code in await self.store.read(repository.open_room_codes):
            try:
                room = await self.registry.open(code)
            except RoomError:
                continue  # set aside (logged once)
            except Exception:
                log.exception("room %s could not be rebuilt", code)
                continue
            if room is not None:
                self.rooms[code] = room
                rebuilt += 1
        if rebuilt:
            log.info("rebuilt %d open table(s) from the database", rebuilt)
        for room in self.rooms.values():
            room.resume()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="rummy21-evict")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.registry.close()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(sweep_every(self.registry.settings))
            for room, park in self.registry.evictable():
                await self.registry.evict(room, park)

    # -------------------------------------------------------------- finding
    async def find(self, code: str) -> Room:
        """Room ``code``, run here (loaded from the database on first use)."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        loading = self._loading.get(code)
        if loading is None:
            loading = asyncio.ensure_future(self._load(code))
            self._loading[code] = loading
            loading.add_done_callback(lambda _t: self._loading.pop(code, None))
        return await asyncio.shield(loading)

    async def _load(self, code: str) -> Room:
        async with self.registry.holding():
            room = await self.registry.open(code)
            if room is None:
                raise not_found(code)
            self.rooms[code] = room
        room.resume()
        return room

    # ------------------------------------------------------------ the API
    async def create(
        self, config: RoomConfig, name: str, seed: int | None, address: str
    ) -> tuple[str, int, str]:
        registry = self.registry
        registry.made.check(address)
        async with registry.holding(config):
            room, seat, token = await Room.create(
                registry.store,
                registry.settings,
                registry.bots,
                config,
                name,
                seed,
                capacity=registry.capacity,
            )
            self.rooms[room.code] = room
        return room.code, seat, token

    async def info(self, code: str) -> dict[str, Any]:
        return present.room_info((await self.find(code)).snapshot())

    async def join(self, code: str, name: str, seat: int | None) -> tuple[int, str]:
        return await (await self.find(code)).join(name, seat)

    async def read(self, code: str) -> RoomSnapshot:
        return await self.registry.read(code)

    async def serve(self, code: str, conn: Connection, receive: Receive, address: str) -> None:
        room = await self.find(code)
        try:
            await serve(room, conn, receive, address, self.registry.guesses)
        finally:
            room.detach(conn)
