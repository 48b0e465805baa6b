"""When things happen at a room by themselves: its clocks and its bots.

A room says what is due now (:meth:`Room.due <rummy21.server.room.Room.due>`: the first deal
of a full table, a bot's turn, a human's turn, the next deal) and how to do it; the
:class:`Scheduler` decides when, and runs it in a background task, under the room's lock, only
if nothing changed meanwhile (the room's ``version`` is the same). Every change of the room
reschedules: the pending task is cancelled and the next one started.

Clocks. The turn in progress of a human seat can end in a time-out (RULES §6.4) for two
reasons, and the earlier one is :attr:`Scheduler.deadline`, with :attr:`Scheduler.deadline_kind`:

* ``turn``: the table's turn timer (``turn_seconds``, 0 = off), started when the turn starts;
* ``absent``: the absence grace (:attr:`Settings.absent_grace`), started when the seat in turn
  has no open connection (at the start of its turn, or when its last tab closes) and cancelled
  when the player reconnects.

Between deals the countdown to the next deal (``next_deal_seconds``) starts when the deal ends.
A scheduler starts with no clock running, so a room rebuilt after a restart gives the player in
turn a fresh full turn and a room between deals a fresh countdown.

Back-off. A step whose writes fail (the database is unwritable: a full disk, a lost server)
is tried again by itself after 1, 2, 4… seconds, at most :data:`MAX_BACKOFF` apart, and the
room tells its players meanwhile (:meth:`Scheduled.retrying`): a next deal that could not be
stored is dealt as soon as it can be, a bot's move is made once it can be saved (the move
chosen once, not again at every try), a time-out happens once it can be written.

Bots think away from the event loop, in the server's :class:`~.botpool.BotPool`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from enum import StrEnum
from typing import Any, Protocol

from rummy21.game.actions import Action
from rummy21.server.broker import cancel_all
from rummy21.server.core import BotTurn, Due, Step
from rummy21.server.model import RoomError, Settings

log = logging.getLogger("rummy21.server")

BACKOFF = 1.0
"""Seconds before the first retry of a step whose writes failed (then twice as long each)."""
MAX_BACKOFF = 30.0


class DeadlineKind(StrEnum):
    """Why the turn in progress will time out."""

    TURN = "turn"
    """The table's turn timer."""
    ABSENT = "absent"
    """The absence grace of a seat with no open connection."""


def backoff(failures: int) -> float:
    """Seconds before the next try after ``failures`` failed ones in a row.

    >>> [backoff(n) for n in (1, 2, 3, 6, 7, 20)]
    [1.0, 2.0, 4.0, 30.0, 30.0, 30.0]
    """
    return min(MAX_BACKOFF, BACKOFF * 2.0 ** min(failures - 1, 30))


class Scheduled(Protocol):
    """The room as its scheduler drives it (:class:`rummy21.server.room.Room`). The ``async``
    methods are called with the lock held."""

    lock: asyncio.Lock

    @property
    def code(self) -> str: ...

    @property
    def version(self) -> int: ...

    def due(self) -> Due | None: ...

    def connected(self, seat: int) -> bool: ...

    def bot_turn(self, seat: int) -> BotTurn: ...

    async def choose(self, turn: BotTurn) -> Action: ...

    async def start_deal(self) -> None: ...

    async def time_out(self, seat: int, why: DeadlineKind) -> None: ...

    async def play_bot(self, seat: int, bot: str, action: Action) -> None: ...

    def retrying(self, failures: int, retry_at: float) -> None:
        """A step failed for the ``failures``-th time in a row: it is tried again at
        ``retry_at`` (wall time)."""
        ...


Clock = tuple[float, float]
"""When a clock runs out: (event-loop time, wall time)."""


class Scheduler:
    """One room's clocks and background steps: see the module docstring."""

    def __init__(self, room: Scheduled, turn_seconds: float, settings: Settings) -> None:
        self.room = room
        self.turn_seconds = turn_seconds
        self.settings = settings
        self.deadline: float | None = None
        """When the turn in progress times out (event-loop time), for whichever reason."""
        self.deadline_wall: float | None = None
        self.deadline_kind: DeadlineKind | None = None
        self.next_deal_wall: float | None = None
        """When the next deal starts (wall time), between deals."""
        self.task: asyncio.Task[None] | None = None
        """The pending step."""
        self._turn: tuple[tuple[int, int], Clock] | None = None
        self._absent: tuple[tuple[int, int], Clock] | None = None
        self._countdown: tuple[int, int] | None = None
        self._side: set[asyncio.Task[None]] = set()
        self._closed = False
        self._failed: tuple[Due, int, float] | None = None
        """The step whose writes failed: what it was, how many times in a row, when (event-loop
        time) it is tried again."""
        self._chosen: tuple[Due, int, Action] | None = None
        """A bot's move chosen but not yet saved (its due and the length of the public
        history it saw)."""

    # ------------------------------------------------------------------ clocks
    def update(self) -> bool:
        """Set the clocks for what the room waits for now; returns whether the deadline
        changed (a reconnection stops the absence clock, a new turn starts fresh clocks)."""
        before = (self.deadline, self.deadline_kind)
        due = self.room.due()
        turn = due if due is not None and due.step is Step.TURN else None

        def clock(seconds: float) -> Clock:
            return asyncio.get_running_loop().time() + seconds, time.time() + seconds

        if turn is None or self.turn_seconds <= 0:
            self._turn = None
        elif self._turn is None or self._turn[0] != turn.key:
            self._turn = turn.key, clock(self.turn_seconds)
        grace = self.settings.absent_grace
        if turn is None or grace <= 0 or self.room.connected(turn.seat):
            self._absent = None
        elif self._absent is None or self._absent[0] != turn.key:
            self._absent = turn.key, clock(grace)
        clocks = [
            (c[1], kind)
            for c, kind in ((self._turn, DeadlineKind.TURN), (self._absent, DeadlineKind.ABSENT))
            if c is not None
        ]
        if clocks:
            (self.deadline, self.deadline_wall), self.deadline_kind = min(
                clocks, key=lambda item: item[0][0]
            )
        else:
            self.deadline = self.deadline_wall = self.deadline_kind = None
        if due is None or due.step is not Step.NEXT_DEAL:
            self._countdown = self.next_deal_wall = None
        elif self._countdown != due.key:
            self._countdown = due.key
            self.next_deal_wall = time.time() + self.settings.next_deal_seconds
        return (self.deadline, self.deadline_kind) != before

    # ------------------------------------------------------------------- tasks
    def schedule(self) -> None:
        """Cancel the pending step and start the one the room waits for now."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        if self._closed:
            return
        due = self.room.due()
        version = self.room.version
        job: Callable[[Due, int], Coroutine[Any, Any, None]] | None = None
        if due is None:
            return
        if due.step is Step.START:
            job = self._start
        elif due.step is Step.BOT:
            job = self._bot
        elif due.step is Step.TURN and self.deadline is not None:
            job = self._time_out
        elif due.step is Step.NEXT_DEAL and self.next_deal_wall is not None:
            job = self._next_deal
        if job is not None:
            self.task = asyncio.create_task(self._run(job, due, version))

    def spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` in the background until it ends or the room closes."""
        task = asyncio.create_task(job)
        self._side.add(task)
        task.add_done_callback(self._side.discard)

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        """Stop every clock and background step."""
        self._closed = True
        await cancel_all([self.task, *self._side])

    async def _run(
        self, job: Callable[[Due, int], Coroutine[Any, Any, None]], due: Due, version: int
    ) -> None:
        try:
            failed = self._failed
            if failed is not None and failed[0] == due:  # a retry: after its back-off
                await asyncio.sleep(max(0.0, failed[2] - asyncio.get_running_loop().time()))
                if due.step is Step.NEXT_DEAL:
                    job = self._start  # the countdown ran out before (or everyone was ready)
            await job(due, version)
        except asyncio.CancelledError:
            raise
        except RoomError as error:
            if error.code == "server":
                await self._retry_later(due)
            else:
                log.warning("room %s: %s", self.room.code, error.message)
        except Exception:
            log.exception("room %s: background step failed", self.room.code)
        else:
            if self._failed is not None and self._failed[0] == due:
                self._failed = None

    def failed(self, due: Due) -> tuple[int, float]:
        """``due``'s step could not be saved: how many times in a row now, and when (wall
        time) it is tried again (the next :meth:`schedule` waits until then)."""
        failed = self._failed
        failures = failed[1] + 1 if failed is not None and failed[0] == due else 1
        delay = backoff(failures)
        self._failed = (due, failures, asyncio.get_running_loop().time() + delay)
        return failures, time.time() + delay

    async def _retry_later(self, due: Due) -> None:
        """The writes of ``due``'s step failed: try again after a back-off, and say so."""
        async with self.room.lock:
            if self.room.due() == due and not self._closed:
                self.room.retrying(*self.failed(due))  # (reschedules)

    def _still(self, due: Due, version: int) -> bool:
        """Whether the room is as it was when ``due`` was scheduled (call with the lock)."""
        return self.room.version == version and self.room.due() == due

    async def _start(self, due: Due, version: int) -> None:
        async with self.room.lock:
            if self._still(due, version):
                await self.room.start_deal()

    async def _next_deal(self, due: Due, version: int) -> None:
        assert self.next_deal_wall is not None
        await asyncio.sleep(max(0.0, self.next_deal_wall - time.time()))
        async with self.room.lock:
            if self._still(due, version):
                await self.room.start_deal()

    async def _time_out(self, due: Due, version: int) -> None:
        loop = asyncio.get_running_loop()
        while self.deadline is not None:
            await asyncio.sleep(max(0.0, self.deadline - loop.time()))
            async with self.room.lock:
                if (
                    not self._still(due, version)
                    or self.deadline is None
                    or self.deadline_kind is None
                ):
                    return  # the turn changed meanwhile (and was rescheduled)
                if loop.time() < self.deadline:
                    continue  # the clock moved on (a reconnection): sleep on
                await self.room.time_out(due.seat, self.deadline_kind)
                return

    async def _bot(self, due: Due, version: int) -> None:
        await asyncio.sleep(self.settings.bot_delay)
        if not self._still(due, version):
            return
        turn = self.room.bot_turn(due.seat)
        position = (due, len(turn.view.history))
        chosen = self._chosen
        if chosen is not None and chosen[:2] == position:
            action = chosen[2]  # chosen before, not saved yet: the same move
        else:
            action = await self.room.choose(turn)
            self._chosen = (*position, action)
        async with self.room.lock:
            if self._still(due, version):
                await self.room.play_bot(due.seat, turn.bot, action)
                self._chosen = None
