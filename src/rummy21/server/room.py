"""A live table ("room") at run time: its lock, its commits, its clocks and bots, and its
connections. What the table *is* and how it changes is :class:`~.core.RoomCore` (no I/O);
this module runs it.

Every change (an action, a time-out, a bot's move, a new deal) happens under the room's lock
as: the core checks it with the engine and applies it → its writes are committed to the
database (:mod:`.repository`, through the one database thread of :class:`~.store.Store`) →
the change is done, the action acknowledged and each seat sent its own view
(:func:`.present.state_message`, built from a :class:`~.snapshot.RoomSnapshot`). If the commit
fails, the room is rebuilt from the database (or, if that cannot be read either, the table is
put back in memory): nothing the database does not hold is shown or kept.

When the database cannot be written, the room says so to its players (the state's ``trouble``)
and logs it once; its clocks and bots try again with a back-off (:mod:`.scheduler`); the first
write that works ends it.

Who deals, with which seed, the deal numbers and the running totals are the room's
:class:`~rummy21.game.match.Match`; the clocks (turn timer, absence grace, countdown to the
next deal) and the bots' turns are run by its :class:`~.scheduler.Scheduler`, which asks the
room what is due (:meth:`Room.due`) and has it done. Bots think in the server's
:class:`~.botpool.BotPool`.

Rooms are rebuilt after a restart (:meth:`Room.open`): the stored room is read
(:func:`.repository.load_room`, which only reads), the log of its current deal replayed
(:meth:`RoomCore.restore`), and a deal that ended without its summary is summarised on purpose
(:meth:`RoomCore.repair`). Then :meth:`Room.resume` starts its clocks and bots again: the turn in
progress of a human seat gets a fresh full turn from the moment the server is back (the player
could not act while it was down), and the absence grace starts again for a seat nobody has
reconnected yet; a room between deals gets a fresh next-deal countdown.

Many processes. With a broker (:mod:`.cluster`), a room is run by the one process that holds
its lease; the room then has a :class:`~.lease.Fence`: its guard goes first in each of the
room's writes (a write after the lease moved on fails, and the room is given up), and the room
sends nothing once its lease may have lapsed. Without a broker there is no fence.

Autoplay. The table's host (the creator's seat, ``RoomConfig.host``) may hand the seat of an
absent human player to a bot: the seat then plays exactly like a bot seat until its player
says hello again, which ends autoplay. Autoplay is stored in the seat's ``bot`` column (a
``human`` seat with a ``bot`` is on autoplay), so it survives a restart.

Connections. A seat may have at most :data:`SOCKETS_PER_SEAT` connections (tabs, devices): a
newer one closes the oldest (:data:`CLOSE_REPLACED`, with a notice saying why), and the
messages of all of a seat's connections share one rate limit (``Settings.rate_limit``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError

from rummy21.cards import Card
from rummy21.game.actions import Action
from rummy21.game.errors import IllegalActionError
from rummy21.game.match import Match
from rummy21.game.table import Table
from rummy21.server import present, repository
from rummy21.server.botpool import BotPool
from rummy21.server.connection import Connection
from rummy21.server.core import BotTurn, Change, Due, RoomCore
from rummy21.server.lease import Fence
from rummy21.server.limits import Capacity, TokenBucket
from rummy21.server.model import RoomConfig, RoomError, RoomStatus, SeatSlot, Settings
from rummy21.server.scheduler import DeadlineKind, Scheduler
from rummy21.server.snapshot import Clocks, RoomSnapshot, Trouble
from rummy21.server.store import Op, StaleWrite, Store, cause_of
from rummy21.server.tokens import new_code

__all__ = ["CLOSE_RECONNECT", "CLOSE_REPLACED", "SOCKETS_PER_SEAT", "Room"]

log = logging.getLogger("rummy21.server")

MOVED = "this table is now run by another server: reconnecting"
CLOSE_RECONNECT = 1012
"""The WebSocket close code ("service restart") of a connection whose room is no longer run
here: the browser reconnects by itself (and reaches whoever runs the room now)."""
CLOSE_REPLACED = 4409
"""The close code of a seat's oldest connection when it opened one too many: the page does not
reconnect by itself (the player is at the newer one)."""
SOCKETS_PER_SEAT = 4
"""Connections one seat may hold at once (a few tabs and a phone)."""
REPLACED = (
    "this seat was opened in another window (a seat may be open in "
    f"{SOCKETS_PER_SEAT} at once): this one is closed"
)
NOT_SAVED = "the server could not save that (its database is not accepting changes); try again"
CANNOT_SAVE = "The server cannot save moves right now: it keeps trying, and nothing is lost."


class Room:
    """One live table: see the module docstring."""

    def __init__(
        self,
        core: RoomCore,
        store: Store,
        settings: Settings,
        bots: BotPool,
        capacity: Capacity | None = None,
    ) -> None:
        self.core = core
        self.store = store
        self.settings = settings
        self.bots = bots
        self.capacity = capacity
        self.version = 0
        self.lock = asyncio.Lock()
        self.conns: dict[int, list[Connection]] = {}
        self.scheduler = Scheduler(self, core.config.turn_seconds, settings)
        self.trouble: Trouble | None = None
        """What the players are told while the room's changes cannot be saved."""
        self._failures = 0
        """Writes that failed in a row (logged once, at the first)."""
        self._buckets: dict[int, TokenBucket] = {}
        self.last_seen = time.monotonic()
        """When a client of the room last connected, spoke or left (for eviction)."""
        self._fence: Fence | None = None

    # ------------------------------------------------------------- facts
    @property
    def code(self) -> str:
        return self.core.code

    @property
    def config(self) -> RoomConfig:
        return self.core.config

    @property
    def seed(self) -> int | None:
        return self.core.seed

    @property
    def status(self) -> RoomStatus:
        return self.core.status

    @property
    def slots(self) -> list[SeatSlot]:
        return self.core.slots

    @property
    def match(self) -> Match:
        return self.core.match

    @property
    def table(self) -> Table | None:
        """The deal in progress, or the last one once it is over."""
        return self.core.table

    @property
    def number(self) -> int:
        """The number (from 0) of :attr:`table`'s deal."""
        return self.core.number

    @property
    def names(self) -> list[str]:
        return self.core.names

    @property
    def ready(self) -> set[int]:
        return self.core.ready

    @property
    def deadline(self) -> float | None:
        """When the turn in progress times out (event-loop time), for whichever reason."""
        return self.scheduler.deadline

    @property
    def _task(self) -> asyncio.Task[None] | None:
        """The scheduler's pending step (tests look at it)."""
        return self.scheduler.task

    @property
    def fence(self) -> Fence | None:
        """The room's lease, when many processes share the database (``None``: one)."""
        return self._fence

    @fence.setter
    def fence(self, fence: Fence | None) -> None:
        self._fence = fence
        self.core.epoch = None if fence is None else fence.epoch

    def seat_for_token(self, token: str) -> int | None:
        return self.core.seat_for_token(token)

    def connected(self, seat: int) -> bool:
        return any(not c.closed for c in self.conns.get(seat, ()))

    def due(self) -> Due | None:
        """What the room waits for now (its scheduler runs it)."""
        return self.core.due()

    def snapshot(self) -> RoomSnapshot:
        """The room as it stands, for :mod:`.present` (read at once)."""
        clock = self.scheduler
        kind = clock.deadline_kind
        clocks = Clocks(
            clock.deadline_wall, None if kind is None else kind.value, clock.next_deal_wall
        )
        connected = frozenset(seat for seat in self.conns if self.connected(seat))
        return self.core.snapshot(
            connected=connected, version=self.version, clocks=clocks, trouble=self.trouble
        )

    def idle_for(self, now: float) -> float:
        """Seconds since a client was last here (0 while one is connected)."""
        if any(self.connected(seat) for seat in self.conns):
            return 0.0
        return max(0.0, now - self.last_seen)

    def touch(self) -> None:
        self.last_seen = time.monotonic()

    # ----------------------------------------------------------- creation
    @classmethod
    async def create(
        cls,
        store: Store,
        settings: Settings,
        bots: BotPool,
        config: RoomConfig,
        name: str,
        seed: int | None,
        *,
        capacity: Capacity | None = None,
        fence_for: Callable[[str], Fence] | None = None,
    ) -> tuple[Room, int, str]:
        """A new room with the creator in the host's seat: (room, seat, token). With
        ``fence_for`` (many processes), the room's first lease is written with it."""
        for _ in range(10):
            code = new_code()
            core, seat, token = RoomCore.new(code, config, name, seed, settings.table_factory)
            room = cls(core, store, settings, bots, capacity)
            ops = core.creation()
            if fence_for is not None:
                room.fence = fence_for(code)
                ops.append(room.fence.claim())
            try:
                await store.write(ops)
            except IntegrityError:
                log.info("room code %s is taken; trying another", code)
                continue
            except Exception as error:
                log.warning("a new table could not be stored: %s", cause_of(error))
                raise RoomError("server", f"the table could not be created: {NOT_SAVED}") from None
            async with room.lock:
                if core.all_taken:
                    await room._start_or_retry()
            return room, seat, token
        raise RoomError("server", "could not store the new table")

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open human seat (the lowest, or ``seat``): (seat, token)."""
        async with self.lock:
            taken, token, change = self.core.join(name, seat)
            await self._commit(change)
            if self.status is RoomStatus.WAITING and self.core.all_taken:
                await self._start_or_retry()
            else:
                self._broadcast()
            return taken, token

    # ------------------------------------------------------------ loading
    @classmethod
    async def open(
        cls,
        store: Store,
        settings: Settings,
        bots: BotPool,
        code: str,
        fence: Fence | None = None,
        capacity: Capacity | None = None,
        run: bool = True,
    ) -> Room | None:
        """Rebuild room ``code`` from the database (``None``: no such room), to run it here:
        repaired and no longer parked (under ``fence``, the room's lease, when many processes
        share the database); or, without ``run``, only to read it (nothing is written).
        :class:`~.repository.DamagedRoom` if it cannot be rebuilt (or was set aside so)."""
        stored = await store.read(partial(repository.load_room, code=code))
        if stored is None:
            return None
        if stored.set_aside is not None:
            raise repository.DamagedRoom(code, stored.set_aside, recorded=True)
        core = await asyncio.to_thread(RoomCore.restore, stored, settings.table_factory)
        room = cls(core, store, settings, bots, capacity)
        room.fence = fence
        if not run:
            return room
        if stored.parked:
            await room._write([partial(repository.unpark, code=code)])
        repair = core.repair()
        if repair is not None:
            await room._commit(repair)
        return room

    def resume(self) -> None:
        """Start the room's clocks and bots again (after :meth:`open`)."""
        self.scheduler.update()
        self.scheduler.schedule()

    # ------------------------------------------------------------- writes
    async def _write(self, ops: Sequence[Op]) -> Any:
        """Commit ``ops`` (behind the lease's guard, if any). A write the guard refuses means
        another process runs the room now: the room is given up (:data:`MOVED`)."""
        fence = self.fence
        if fence is None:
            return await self.store.write(ops)
        if fence.lost:
            raise RoomError("moved", MOVED)
        try:
            return await self.store.write([fence.guard(), *ops])
        except StaleWrite:
            log.warning("room %s: epoch %d is over; giving the table up", self.code, fence.epoch)
            fence.lose()
            raise RoomError("moved", MOVED) from None

    async def _commit(self, change: Change) -> None:
        """Commit ``change`` and do it (the lock is held); if the commit fails, put the room
        back as the database holds it and raise :class:`RoomError` ``server``."""
        try:
            await self._write(change.ops)
        except RoomError:
            self.core.undo(change)
            raise
        except Exception as error:
            await self._roll_back(change)
            self._failures += 1
            if self._failures == 1:
                log.warning(
                    "room %s: cannot save its changes: %s: %s",
                    self.code,
                    type(error).__name__,
                    cause_of(error),
                )
            if self.trouble is None:
                self.trouble = Trouble(CANNOT_SAVE)
            raise RoomError("server", NOT_SAVED) from None
        if self._failures:
            log.info("room %s: saving again (after %d failed writes)", self.code, self._failures)
            self._failures = 0
        self.trouble = None
        change.done()

    async def _roll_back(self, change: Change) -> None:
        """Undo ``change``, whose writes failed: the room as the database holds it, or, if
        that cannot be read, the table as it was before the change."""
        if change.undo_to is None:
            return  # nothing changed before the commit
        try:
            stored = await self.store.read(partial(repository.load_room, code=self.code))
            if stored is None:
                raise LookupError(self.code)
            fresh = await asyncio.to_thread(RoomCore.restore, stored, self.settings.table_factory)
        except Exception:
            self.core.undo(change)
            return
        fresh.carry_over(self.core)
        self.core = fresh

    def retrying(self, failures: int, retry_at: float) -> None:
        """A background step's writes failed ``failures`` times in a row; the scheduler tries
        again at ``retry_at`` (wall time): the players are told (the lock is held)."""
        self.trouble = Trouble(CANNOT_SAVE, retry_at)
        self._changed()

    # ------------------------------------------------------------- deals
    async def start_deal(self) -> None:
        """Deal the next deal (the lock is held). Nobody sees it before it is stored; if it
        cannot be, the next try deals it again (the same seed, if seeded)."""
        await self._commit(self.core.start_deal())
        self._changed()

    async def _start_or_retry(self) -> None:
        """Deal the next deal now, or, if it cannot be stored, have the scheduler try again
        (the lock is held)."""
        due = self.due()
        try:
            await self.start_deal()
        except RoomError as error:
            if error.code != "server" or due is None:
                raise
            failures, retry_at = self.scheduler.failed(due)
            self.retrying(failures, retry_at)

    async def act(
        self, seat: int, action: Action, conn: Connection | None = None, msg_id: int | None = None
    ) -> None:
        """A player's action: applied, committed, shown to every seat, then acknowledged."""
        async with self.lock:
            troubled = self.trouble is not None
            try:
                await self._commit(self.core.act(seat, action))
            except RoomError as error:
                if error.code == "server" and not troubled:
                    self._changed()  # everyone sees the trouble
                raise
            self._changed()
            if conn is not None:  # after the new state: once acknowledged, the state is current
                conn.send({"type": "ack", "id": msg_id})

    async def time_out(self, seat: int, why: DeadlineKind) -> None:
        """The turn of ``seat`` ran out (the lock is held)."""
        log.info("room %s: seat %d timed out (%s)", self.code, seat, why)
        await self._commit(self.core.time_out(seat))
        self._changed()

    def bot_turn(self, seat: int) -> BotTurn:
        """What the bot playing ``seat`` (in turn) needs to choose its move."""
        return self.core.bot_turn(seat)

    async def choose(self, turn: BotTurn) -> Action:
        """The move of a bot of this room (thought about in the server's bot pool)."""
        return await self.bots.choose(self.code, turn)

    async def play_bot(self, seat: int, bot: str, action: Action) -> None:
        """The move the bot playing ``seat`` chose (the lock is held); an illegal one (a bug)
        times the seat out instead."""
        table = self.table
        assert table is not None
        turns = table.turns
        try:
            await self._commit(self.core.act(seat, action))
        except IllegalActionError as error:
            log.error(
                "room %s: bot %s chose an illegal %s (%s); timing it out",
                self.code,
                bot,
                action,
                error,
            )
            await self._commit(self.core.time_out(seat))
        if table.turns > turns:
            self.core.count_autoplay(seat)
        self._changed()

    async def set_ready(self, seat: int) -> None:
        async with self.lock:
            if self.status is not RoomStatus.BETWEEN:
                return
            if self.core.set_ready(seat):
                await self._start_or_retry()
            else:
                self._broadcast()

    async def set_autoplay(self, by: int, seat: int, bot: str) -> None:
        """The host (``by``) hands the seat of an absent human player to ``bot``."""
        async with self.lock:
            self.core.check_autoplay(by, seat, self.connected(seat))
            if self.capacity is not None and self.slots[seat].bot != bot:
                self.capacity.check_bots([bot])
            await self._commit(self.core.autoplay(seat, bot))
            log.info("room %s: seat %d handed to a %s bot by the host", self.code, seat, bot)
            if self.status is RoomStatus.BETWEEN and self.core.all_ready:
                await self._start_or_retry()
                return
            self._changed()

    # ----------------------------------------------------------- clients
    def allow(self, seat: int) -> bool:
        """Whether ``seat`` may send another message now (all its connections together)."""
        bucket = self._buckets.get(seat)
        if bucket is None:
            bucket = self._buckets[seat] = TokenBucket(self.settings.rate_limit)
        self.touch()
        return bucket.allow()

    async def attach(self, conn: Connection, seat: int) -> bool:
        """A connection that said hello with ``seat``'s token; ends the seat's autoplay, and
        closes the seat's oldest connection if it has too many. ``False`` if the room was
        closed meanwhile (given up, or the server stopping): the connection is then closed
        with :data:`CLOSE_RECONNECT` and told nothing else."""
        async with self.lock:
            if self.scheduler.closed or (self.fence is not None and self.fence.lost):
                conn.stop(CLOSE_RECONNECT)
                return False
            slot = self.slots[seat]
            bot = slot.autoplay
            if bot is not None:
                await self._commit(self.core.autoplay(seat, None))  # a failure: as it was
            conn.seat = seat
            group = [c for c in self.conns.get(seat, []) if not c.closed]
            while len(group) >= SOCKETS_PER_SEAT:
                oldest = group.pop(0)
                oldest.send({"type": "notice", "text": REPLACED})
                oldest.stop(CLOSE_REPLACED)
            group.append(conn)
            self.conns[seat] = group
            self.touch()
            conn.send({"type": "welcome", "seat": seat, "code": self.code})
            if bot is not None:
                turns = self.core.autoplay_turns.pop(seat, None)
                conn.send({"type": "notice", "text": present.away_notice(bot, turns)})
                self._changed()
            else:
                self._presence()
            return True

    def detach(self, conn: Connection) -> None:
        if conn.seat is None:
            return
        group = self.conns.get(conn.seat, [])
        if conn in group:
            group.remove(conn)
        self.touch()
        if not self.scheduler.closed:
            self.scheduler.spawn(self._presence_later())

    def _presence(self) -> None:
        """Who is connected changed (the lock is held): the absence clock may start or stop."""
        if self.scheduler.update():
            self.scheduler.schedule()
        self._broadcast()

    async def _presence_later(self) -> None:
        async with self.lock:
            if not self.scheduler.closed:
                self._presence()

    def _broadcast(self) -> None:
        if self.fence is not None and not self.fence.speaking():
            return  # the lease may have lapsed: only its owner speaks for the room
        snapshot: RoomSnapshot | None = None
        for seat, group in self.conns.items():
            live = [c for c in group if not c.closed]
            if not live:
                continue
            snapshot = snapshot or self.snapshot()
            text = json.dumps(present.state_message(snapshot, seat))
            for conn in live:
                conn.send(text)

    def _changed(self) -> None:
        """The room changed (the lock is held): a new version, its clocks, every seat told."""
        self.version += 1
        self.scheduler.update()
        self._broadcast()
        self.scheduler.schedule()

    # ----------------------------------------------------------- reading
    def hand_of(self, seat: int) -> tuple[list[Card], Table]:
        table = self.table
        if table is None:
            raise RoomError("not_playing", "no deal has started yet")
        return list(table.hand(seat)), table

    # ------------------------------------------------------------ leaving
    async def leave(self, park: bool, extra: Sequence[Op] = ()) -> None:
        """Stop running the room here: with ``park``, it rests in the database only (idle:
        evicted from memory until a visit); ``extra`` writes go in the same transaction. A
        write that fails leaves the room running."""
        ops = [partial(repository.park, code=self.code)] if park else []
        async with self.lock:
            if ops or extra:
                await self._write([*ops, *extra])
        await self.close()

    async def close(self) -> None:
        await self.scheduler.close()
        self.bots.forget(self.code)
        for group in self.conns.values():
            for conn in group:
                conn.stop()
