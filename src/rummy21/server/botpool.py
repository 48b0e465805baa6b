"""Where the server's bots think: worker processes, shared fairly between the tables.

A bot that thinks in the server's own process holds its interpreter (the GIL) against the
event loop that answers every player: thirty tables of ``search`` bots took a human's action
at another table from 7 to 237 ms. So every bot but ``random`` (microseconds) chooses its
move in a worker process (:func:`rummy21.bots.choose_move`): the server's bot CPU is at most
``workers`` cores, whatever the bots do, and the event loop keeps its own.

Fair queuing. When more bots wait than there are workers, the next move to think about is
the one of the table whose bots used the least CPU lately (each table's CPU seconds, decaying
with a half-life of :data:`HALF_LIFE` seconds), the oldest first among equals: a table of
Master bots cannot hold up the tables of cheaper bots, and no table waits for ever (its
bots' usage decays while it waits).

With ``workers=0`` bots think in threads of the server's process, as they once did (a
test's choice, or a machine with one core). A pool whose worker died (killed by the system,
say) is replaced, and the move asked again once.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from rummy21.bots import choose_move
from rummy21.game.actions import Action
from rummy21.server.core import BotTurn

__all__ = ["HALF_LIFE", "BotPool", "default_workers"]

log = logging.getLogger("rummy21.server")

HALF_LIFE = 30.0
"""Seconds for a table's bot CPU usage to count half (fair queuing)."""
INLINE = frozenset({"random"})
"""Bots cheap enough to choose in the event loop itself."""


def default_workers() -> int:
    """One worker process per core but one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _warm() -> None:
    """A new worker loads the bots (and the solver's core) before its first move."""
    import rummy21.bots  # noqa: F401


_EXECUTORS: dict[int, ProcessPoolExecutor] = {}
"""One pool of each size per process, shared by every server app in it (tests make many)."""


def _executor(workers: int, broken: ProcessPoolExecutor | None = None) -> ProcessPoolExecutor:
    """The pool of ``workers`` processes; a new one in place of ``broken`` if that is still the
    pool (several moves that met the same dead pool replace it once, not one another's)."""
    pool = _EXECUTORS.get(workers)
    if pool is None or pool is broken:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        context = multiprocessing.get_context("spawn")  # never fork a process with threads
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_warm)
        _EXECUTORS[workers] = pool
    return pool


Work = tuple[Callable[..., tuple[Any, float]], tuple[Any, ...]]
"""A function for a worker and its arguments; it returns its answer and the CPU seconds it
took (:func:`rummy21.bots.choose_move` is one)."""


@dataclass(eq=False)
class _Ask:
    """A move (or other work) a table waits for."""

    table: str
    work: Work
    order: int
    answer: asyncio.Future[Any] = field(repr=False)
    tried: int = 0
    pool: ProcessPoolExecutor | None = field(default=None, repr=False)
    """The pool it was last sent to."""


class BotPool:
    """Bot moves for every table of this server: see the module docstring."""

    def __init__(self, workers: int | None = None, half_life: float = HALF_LIFE) -> None:
        self.workers = default_workers() if workers is None else workers
        self.half_life = half_life
        self._waiting: list[_Ask] = []
        self._busy = 0
        self._usage: dict[str, tuple[float, float]] = {}
        """Each table's bot CPU seconds, as of when (monotonic)."""
        self._order = itertools.count()
        self.moves = 0
        self.cpu_seconds = 0.0

    # ----------------------------------------------------------------- asking
    async def choose(self, table: str, turn: BotTurn) -> Action:
        """The move of the bot of ``turn`` at ``table``, once a worker has thought about it."""
        if turn.bot in INLINE:
            action, _ = choose_move(turn.bot, turn.seed, turn.view, turn.legal)
            return action
        chosen: Action = await self.run(
            table, choose_move, turn.bot, turn.seed, turn.view, list(turn.legal)
        )
        return chosen

    async def run(self, table: str, fn: Callable[..., tuple[Any, float]], *args: Any) -> Any:
        """``fn(*args)``'s answer, computed by a worker in the same fair queue as the bots'
        moves, its CPU charged to ``table`` (the coach's reviews queue under a table of their
        own, so a table's bots are never kept waiting by them for more than one piece of
        work). ``fn`` returns its answer and the CPU seconds it took."""
        if self.workers <= 0:
            answer, seconds = await asyncio.to_thread(fn, *args)
            self._charge(table, seconds)
            return answer
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Ask(table, (fn, args), next(self._order), future))
        self._dispatch()
        return await future  # (cancelled: the ask is dropped, or its answer ignored)

    @property
    def waiting(self) -> int:
        """Moves waiting for a worker."""
        return sum(1 for ask in self._waiting if not ask.answer.done())

    def usage(self, table: str) -> float:
        """``table``'s bot CPU seconds, decayed to now."""
        used, at = self._usage.get(table, (0.0, 0.0))
        return used * math.exp2(-(time.monotonic() - at) / self.half_life) if used else 0.0

    def forget(self, table: str) -> None:
        """``table`` is gone from this server."""
        self._usage.pop(table, None)

    # -------------------------------------------------------------- workers
    def _charge(self, table: str, seconds: float) -> None:
        self._usage[table] = (self.usage(table) + seconds, time.monotonic())
        self.moves += 1
        self.cpu_seconds += seconds

    def _dispatch(self) -> None:
        self._waiting = [a for a in self._waiting if not a.answer.done()]  # cancelled meanwhile
        while self._busy < self.workers and self._waiting:
            ask = min(self._waiting, key=lambda a: (self.usage(a.table), a.order))
            self._waiting.remove(ask)
            self._start(ask)

    def _start(self, ask: _Ask) -> None:
        fn, args = ask.work
        ask.tried += 1
        self._busy += 1
        pool = _executor(self.workers)
        try:
            work = pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):
            pool = _executor(self.workers, broken=pool)
            work = pool.submit(fn, *args)
        ask.pool = pool
        loop = asyncio.get_running_loop()
        work.add_done_callback(lambda done: loop.call_soon_threadsafe(self._finished, ask, done))

    def _finished(self, ask: _Ask, work: Future[tuple[Any, float]]) -> None:
        self._busy -= 1
        try:
            answer, seconds = work.result()
        except BrokenProcessPool:
            if ask.tried < 2 and not ask.answer.done():
                log.error("a bot worker process died; starting the pool again")
                _executor(self.workers, broken=ask.pool)
                self._waiting.insert(0, ask)
            elif not ask.answer.done():
                ask.answer.set_exception(RuntimeError("the bot workers keep dying"))
        except BaseException as error:
            if not ask.answer.done():
                ask.answer.set_exception(error)
        else:
            self._charge(ask.table, seconds)
            if not ask.answer.done():
                ask.answer.set_result(answer)
        self._dispatch()
