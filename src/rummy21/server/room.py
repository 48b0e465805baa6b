"""A live table ("room"): its seats, its match of deals and the rules of the room.

The room is the only place where the game changes. Every change (an action, a time-out, a bot's
move, a new deal) happens under the room's lock as: check with the engine → apply to the
:class:`~rummy21.game.table.Table` → write the new event records to the database
(:mod:`.repository`) and wait for the commit → acknowledge and send each seat its own view
(:func:`.present.state_message`). If the commit fails, the room is rebuilt from the database
(the change is undone) and the player gets an error.

Who deals, with which seed, the deal numbers and the running totals are the room's
:class:`~rummy21.game.match.Match`; the clocks (turn timer, absence grace, countdown to the
next deal) and the bots' turns are run by its :class:`~.scheduler.Scheduler`, which asks the
room what is due (:meth:`Room.due`) and has it done.

Rooms are rebuilt after a restart (:meth:`Room.open`): the stored room is read
(:func:`.repository.load_room`, which only reads), the log of its current deal replayed
(:meth:`Room.restore`), and a deal that ended without its summary is summarised on purpose
(:meth:`Room.repair`). Then :meth:`Room.resume` starts its clocks and bots again: the turn in
progress of a human seat gets a fresh full turn from the moment the server is back (the player
could not act while it was down), and the absence grace starts again for a seat nobody has
reconnected yet; a room between deals gets a fresh next-deal countdown.

Many processes. With a broker (:mod:`.cluster`), a room is run by the one process that holds
its lease; the room then has a :class:`~.lease.Fence`: its guard goes first in each of the
room's writes (a write after the lease moved on fails, and the room is given up), and the room
sends nothing once its lease may have lapsed. Without a broker there is no fence.

Autoplay. The table's host (the creator's seat, ``RoomConfig.host``) may hand the seat of an
absent human player to a bot (``greedy`` or ``random``): the seat then plays exactly like a bot
seat until its player says hello again, which ends autoplay. Autoplay is stored in the seat's
``bot`` column (a ``human`` seat with a ``bot`` is on autoplay), so it survives a restart.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rummy21.cards import Card
from rummy21.game.actions import Action, TimeOut
from rummy21.game.errors import IllegalActionError
from rummy21.game.events import Event
from rummy21.game.match import DealSummary, Match, deal_seed
from rummy21.game.table import Table
from rummy21.server import present, repository
from rummy21.server.connection import Connection
from rummy21.server.lease import Fence
from rummy21.server.model import RoomConfig, RoomError, RoomStatus, SeatKind, SeatSlot, Settings
from rummy21.server.repository import StoredRoom
from rummy21.server.scheduler import BotTurn, DeadlineKind, Due, Scheduler, Step
from rummy21.server.store import Op, StaleWrite, Store, utcnow

__all__ = [
    "Room",
    "RoomConfig",
    "RoomError",
    "Rooms",
    "Settings",
    "deal_seed",
    "hash_token",
    "new_code",
]

log = logging.getLogger("rummy21.server")

MOVED = "this table is now run by another server: reconnecting"
CLOSE_RECONNECT = 1012
"""The WebSocket close code ("service restart") of a connection whose room is no longer run
here: the browser reconnects by itself (and reaches whoever runs the room now)."""
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


class Room:
    """One table: see the module docstring."""

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        seed: int | None,
        status: RoomStatus,
        slots: list[SeatSlot],
        match: Match,
        store: Store,
        settings: Settings,
    ) -> None:
        self.code = code
        self.config = config
        self.seed = seed
        self.status = status
        self.slots = slots
        self.match = match
        self.store = store
        self.settings = settings
        self.version = 0
        self.lock = asyncio.Lock()
        self.conns: dict[int, list[Connection]] = {}
        self.ready: set[int] = set()
        """The seats ready for the next deal, between deals."""
        self.autoplay_turns: dict[int, int] = {}
        """Turns each seat on autoplay has played since it was handed over (not kept across
        a restart: a seat on autoplay since before the restart is not in it)."""
        self.scheduler = Scheduler(self, config.turn_seconds, settings)
        self.fence: Fence | None = None
        """The room's lease, when many processes share the database (``None``: one)."""

    @staticmethod
    def rebuild_match(
        config: RoomConfig,
        seed: int | None,
        settings: Settings,
        deals: Sequence[DealSummary] = (),
        current: Table | None = None,
        recorded: bool = False,
    ) -> Match:
        """The room's match after ``deals`` (see :meth:`Match.rebuild`)."""
        return Match.rebuild(
            config.players,
            config.ruleset,
            seed=seed,
            point_value=config.point_value,
            deals=deals,
            current=current,
            recorded=recorded,
            table_factory=settings.table_factory,
        )

    # ------------------------------------------------------------- facts
    @property
    def table(self) -> Table | None:
        """The deal in progress, or the last one once it is over."""
        return self.match.current

    @property
    def number(self) -> int:
        """The number (from 0) of :attr:`table`'s deal."""
        return self.match.number

    @property
    def deadline(self) -> float | None:
        """When the turn in progress times out (event-loop time), for whichever reason."""
        return self.scheduler.deadline

    @property
    def _task(self) -> asyncio.Task[None] | None:
        """The scheduler's pending step (tests look at it)."""
        return self.scheduler.task

    @property
    def names(self) -> list[str]:
        return [s.display for s in self.slots]

    def seat_for_token(self, token: str) -> int | None:
        wanted = hash_token(token)
        for slot in self.slots:
            if slot.token_hash is not None and hmac.compare_digest(slot.token_hash, wanted):
                return slot.seat
        return None

    def connected(self, seat: int) -> bool:
        return any(not c.closed for c in self.conns.get(seat, ()))

    def due(self) -> Due | None:
        """What the room waits for now (its scheduler runs it)."""
        table = self.table
        if self.status is RoomStatus.WAITING:
            return Due(Step.START) if all(s.taken for s in self.slots) else None
        if self.status is RoomStatus.PLAYING and table is not None and not table.over:
            seat = table.turn or 0
            step = Step.BOT if self.slots[seat].plays_as_bot else Step.TURN
            return Due(step, seat, (self.number, table.turns))
        if self.status is RoomStatus.BETWEEN:
            return Due(Step.NEXT_DEAL, key=(self.number, 0))
        return None

    # ----------------------------------------------------------- creation
    @classmethod
    async def create(
        cls,
        store: Store,
        settings: Settings,
        config: RoomConfig,
        name: str,
        seed: int | None,
        fence_for: Callable[[str], Fence] | None = None,
    ) -> tuple[Room, int, str]:
        """A new room with the creator in the host's seat: (room, seat, token). With
        ``fence_for`` (many processes), the room's first lease is written with it."""
        slots = [
            SeatSlot(s, SeatKind.HUMAN) if kind == "human" else SeatSlot(s, SeatKind.BOT, kind)
            for s, kind in enumerate(config.kinds)
        ]
        seat = config.host
        token = secrets.token_urlsafe(24)
        slots[seat].name, slots[seat].token_hash = name, hash_token(token)
        now = utcnow()
        for _ in range(10):
            code = new_code()
            room = cls(
                code,
                config,
                seed,
                RoomStatus.WAITING,
                slots,
                cls.rebuild_match(config, seed, settings),
                store,
                settings,
            )
            ops: list[Op] = [
                partial(
                    repository.insert_room,
                    code=code,
                    config=config,
                    seed=seed,
                    slots=slots,
                    now=now,
                )
            ]
            if fence_for is not None:
                room.fence = fence_for(code)
                ops.append(room.fence.claim())
            try:
                await store.write(ops)
            except Exception as error:
                log.info("room code %s not stored (%s); trying another", code, error)
                continue
            async with room.lock:
                if all(s.taken for s in slots):
                    await room.start_deal()
            return room, seat, token
        raise RoomError("server", "could not store the new table")

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open human seat (the lowest, or ``seat``): (seat, token)."""
        async with self.lock:
            open_seats = [s for s in self.slots if s.kind is SeatKind.HUMAN and not s.taken]
            if seat is not None:
                open_seats = [s for s in open_seats if s.seat == seat]
            if not open_seats:
                raise RoomError(
                    "full",
                    "no open seat at this table"
                    if seat is None
                    else f"seat {seat + 1} is not open",
                )
            slot = open_seats[0]
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            await self._write(
                [
                    partial(
                        repository.take_seat,
                        code=self.code,
                        seat=slot.seat,
                        name=name,
                        token_hash=digest,
                    )
                ]
            )
            slot.name, slot.token_hash = name, digest
            if self.status is RoomStatus.WAITING and all(s.taken for s in self.slots):
                await self.start_deal()
            else:
                self._broadcast()
            return slot.seat, token

    # ------------------------------------------------------------ loading
    @classmethod
    async def open(
        cls, store: Store, settings: Settings, code: str, fence: Fence | None = None
    ) -> Room | None:
        """Rebuild room ``code`` from the database (``None``: no such room), repaired (under
        ``fence``, the room's lease, when many processes share the database)."""
        stored = await store.read(partial(repository.load_room, code=code))
        if stored is None:
            return None
        room = await asyncio.to_thread(cls.restore, stored, store, settings)
        room.fence = fence
        await room.repair()
        return room

    @classmethod
    def restore(cls, stored: StoredRoom, store: Store, settings: Settings) -> Room:
        """The room as stored, its current (or last) deal replayed from its log."""
        config = stored.config
        last = stored.last
        table = None if last is None else Table.replay(last.log)
        match = cls.rebuild_match(
            config,
            stored.seed,
            settings,
            stored.deals,
            table,
            recorded=last is not None and last.ended,
        )
        status = stored.status
        if status is RoomStatus.PLAYING and table is not None and table.over:
            # Between deals a room is stored as playing.
            status = RoomStatus.BETWEEN if match.number + 1 < config.deals else RoomStatus.FINISHED
        return cls(
            stored.code, config, stored.seed, status, list(stored.seats), match, store, settings
        )

    async def repair(self) -> None:
        """Write the summary of a deal that ended without one. Cannot happen with one
        transaction per change; recover rather than stall."""
        table = self.table
        if table is None or not table.over or self.match.recorded:
            return
        log.warning(
            "room %s: deal %d ended without its summary; writing it", self.code, self.number
        )
        self.match.record(table)
        summary = self.match.deals[-1]
        finished = self.status is RoomStatus.FINISHED
        await self._write(
            [partial(repository.end_deal, code=self.code, summary=summary, finished=finished)]
        )

    def resume(self) -> None:
        """Start the room's clocks and bots again (after :meth:`open`)."""
        self.scheduler.update()
        self.scheduler.schedule()

    async def _reload(self) -> None:
        """Undo what is not in the database (after a failed commit)."""
        fresh = await Room.open(self.store, self.settings, self.code, self.fence)
        if fresh is not None:
            self.match, self.status, self.slots = fresh.match, fresh.status, fresh.slots
        self._changed()

    # ------------------------------------------------------------- writes
    @property
    def epoch(self) -> int | None:
        """The epoch of the room's lease (``None``: one process, no lease)."""
        return None if self.fence is None else self.fence.epoch

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

    # ------------------------------------------------------------- deals
    async def start_deal(self) -> None:
        """Deal the next deal (the lock is held). Nobody sees it before it is stored; if it
        cannot be, the next try deals it again (the same seed, if seeded)."""
        table = self.match.next_table()
        number = len(self.match.deals)
        try:
            await self._write(
                [
                    partial(
                        repository.start_deal,
                        code=self.code,
                        number=number,
                        dealer=table.dealer,
                        seed=table.seed,
                        header=table.log[0],
                        epoch=self.epoch,
                    )
                ]
            )
        except RoomError:
            raise
        except Exception:
            log.exception("room %s: could not store deal %d", self.code, number + 1)
            raise RoomError("server", "the next deal could not be saved") from None
        self.match.begin(table)
        self.status = RoomStatus.PLAYING
        self.ready.clear()
        self._changed()

    async def _commit(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and commit it (the lock is held)."""
        table = self.table
        if table is None or self.status is not RoomStatus.PLAYING:
            raise RoomError("not_playing", "no deal is being played at this table now")
        if table.over:
            raise RoomError("not_playing", "the deal is over")
        if table.turn != seat and not isinstance(action, TimeOut):
            raise RoomError(
                "not_your_turn",
                f"it is {self.names[table.turn or 0]}'s turn "
                f"(seat {(table.turn or 0) + 1}), not yours",
            )
        table.verify(action, seat)  # IllegalActionError: nothing has changed
        before = len(table.log)
        table.apply(action, seat)
        new = list(table.log[before:])
        number = self.number
        summary = DealSummary.of(number, table) if table.over else None
        finished = summary is not None and number + 1 >= self.config.deals
        ops = [
            partial(
                repository.append_events,
                code=self.code,
                number=number,
                first=before,
                new=new,
                epoch=self.epoch,
            )
        ]
        if summary is not None:
            ops.append(
                partial(repository.end_deal, code=self.code, summary=summary, finished=finished)
            )
        try:
            await self._write(ops)
        except RoomError:
            raise
        except Exception:
            log.exception("room %s: commit failed; rolling back to the database", self.code)
            await self._reload()
            raise RoomError("server", "the move could not be saved; please try again") from None
        if summary is not None:
            self.match.record(table)
            if finished:
                self.status = RoomStatus.FINISHED
            else:
                self.status = RoomStatus.BETWEEN
                self.ready = {s.seat for s in self.slots if s.plays_as_bot}
        return new

    # ----------------------------------------------------------- actions
    async def act(
        self, seat: int, action: Action, conn: Connection | None = None, msg_id: int | None = None
    ) -> None:
        """A player's action: applied, committed, shown to every seat, then acknowledged."""
        async with self.lock:
            await self._commit(seat, action)
            self._changed()
            if conn is not None:  # after the new state: once acknowledged, the state is current
                conn.send({"type": "ack", "id": msg_id})

    async def time_out(self, seat: int, why: DeadlineKind) -> None:
        """The turn of ``seat`` ran out (the lock is held)."""
        log.info("room %s: seat %d timed out (%s)", self.code, seat, why)
        await self._commit(seat, TimeOut())
        self._changed()

    def bot_turn(self, seat: int) -> BotTurn:
        """What the bot playing ``seat`` (in turn) needs to choose its move."""
        table = self.table
        assert table is not None
        seed = (
            None
            if self.seed is None
            else random.Random(f"{self.seed}:{self.number}:{seat}:{len(table.log)}").getrandbits(63)
        )
        return BotTurn(
            self.slots[seat].bot or "random", seed, table.view(seat), table.legal_actions()
        )

    async def play_bot(self, seat: int, bot: str, action: Action) -> None:
        """The move the bot playing ``seat`` chose (the lock is held); an illegal one (a bug)
        times the seat out instead."""
        table = self.table
        assert table is not None
        turns = table.turns
        try:
            await self._commit(seat, action)
        except IllegalActionError as error:
            log.error(
                "room %s: bot %s chose an illegal %s (%s); timing it out",
                self.code,
                bot,
                action,
                error,
            )
            await self._commit(seat, TimeOut())
        if (
            self.slots[seat].autoplay is not None
            and table.turns > turns
            and seat in self.autoplay_turns
        ):
            self.autoplay_turns[seat] += 1
        self._changed()

    async def set_ready(self, seat: int) -> None:
        async with self.lock:
            if self.status is not RoomStatus.BETWEEN:
                return
            self.ready.add(seat)
            if all(s.seat in self.ready for s in self.slots):
                await self.start_deal()
            else:
                self._broadcast()

    async def set_autoplay(self, by: int, seat: int, bot: str) -> None:
        """The host (``by``) hands the seat of an absent human player to ``bot``."""
        async with self.lock:
            host = self.config.host
            if by != host:
                raise RoomError(
                    "forbidden",
                    f"only the table's host ({self.names[host]}, seat "
                    f"{host + 1}) can hand a seat to a bot",
                )
            if not 0 <= seat < self.config.players:
                raise RoomError("bad_seat", f"there is no seat {seat + 1} at this table")
            slot = self.slots[seat]
            if seat == by:
                raise RoomError("bad_seat", "you cannot hand your own seat to a bot")
            if slot.kind is SeatKind.BOT:
                raise RoomError("bad_seat", f"seat {seat + 1} ({slot.display}) is a bot seat")
            if not slot.taken:
                raise RoomError("bad_seat", f"seat {seat + 1} has no player yet")
            if self.connected(seat):
                raise RoomError(
                    "not_absent",
                    f"{slot.display} (seat {seat + 1}) is online: "
                    "only an absent player's seat can be handed "
                    "to a bot",
                )
            if self.status is RoomStatus.FINISHED:
                raise RoomError("not_playing", "the match is over")
            await self._write_bot(seat, bot)
            if slot.bot is None:
                self.autoplay_turns[seat] = 0
            slot.bot = bot
            log.info("room %s: seat %d handed to a %s bot by the host", self.code, seat, bot)
            if self.status is RoomStatus.BETWEEN:
                self.ready.add(seat)
                if all(s.seat in self.ready for s in self.slots):
                    await self.start_deal()
                    return
            self._changed()

    async def _write_bot(self, seat: int, bot: str | None) -> None:
        try:
            await self._write(
                [partial(repository.set_autoplay, code=self.code, seat=seat, bot=bot)]
            )
        except RoomError:
            raise
        except Exception:
            log.exception("room %s: could not store the autoplay of seat %d", self.code, seat)
            raise RoomError("server", "the change could not be saved; please try again") from None

    # ----------------------------------------------------------- clients
    async def attach(self, conn: Connection, seat: int) -> bool:
        """A connection that said hello with ``seat``'s token; ends the seat's autoplay.
        ``False`` if the room was closed meanwhile (given up, or the server stopping): the
        connection is then closed with :data:`CLOSE_RECONNECT` and told nothing else."""
        async with self.lock:
            if self.scheduler.closed or (self.fence is not None and self.fence.lost):
                conn.stop(CLOSE_RECONNECT)
                return False
            slot = self.slots[seat]
            bot = slot.autoplay
            if bot is not None:
                await self._write_bot(seat, None)  # a failure leaves the seat as it was
                slot.bot = None
            conn.seat = seat
            self.conns.setdefault(seat, []).append(conn)
            conn.send({"type": "welcome", "seat": seat, "code": self.code})
            if bot is not None:
                turns = self.autoplay_turns.pop(seat, None)
                conn.send({"type": "notice", "text": present.away_notice(bot, turns)})
                self.ready.discard(seat)
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
        for seat, group in self.conns.items():
            live = [c for c in group if not c.closed]
            if not live:
                continue
            text = json.dumps(present.state_message(self, seat))
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

    async def close(self) -> None:
        await self.scheduler.close()
        for group in self.conns.values():
            for conn in group:
                conn.stop()


@dataclass
class Rooms:
    """Every room the server knows, by code; rooms not in memory are loaded on first use."""

    store: Store
    settings: Settings
    rooms: dict[str, Room] = field(default_factory=dict)

    async def load_open(self) -> int:
        """Rebuild every open room (at startup, before serving). Returns how many."""
        count = 0
        for code in await self.store.read(repository.open_room_codes):
            try:
                room = await Room.open(self.store, self.settings, code)
            except Exception:
                log.exception("room %s could not be rebuilt", code)
                continue
            if room is not None:
                self.rooms[code] = room
                count += 1
        return count

    async def get(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        if room is not None:
            return room
        room = await Room.open(self.store, self.settings, code)
        if room is None:
            return None
        if code in self.rooms:  # loaded meanwhile by another request
            return self.rooms[code]
        self.rooms[code] = room
        room.resume()
        return room

    async def create(
        self, config: RoomConfig, name: str, seed: int | None
    ) -> tuple[Room, int, str]:
        room, seat, token = await Room.create(self.store, self.settings, config, name, seed)
        self.rooms[room.code] = room
        return room, seat, token

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            await room.close()
