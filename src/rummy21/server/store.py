"""Persistence for the browser tables: the tables (rooms, seats, deals and every deal's event
log) and the one thread that talks to the database. The statements are in :mod:`.repository`.

The schema is plain SQLAlchemy Core, so any SQLAlchemy URL works (SQLite by default,
PostgreSQL with ``postgresql+psycopg://…``); opening a :class:`Store` brings the database to
the latest schema (:mod:`.migrations`, Alembic). All database work runs on one thread that owns
the connection pool; a batch of pending writes from many tables is committed in one transaction
(group commit), and each writer is told only once its transaction is durable. That is how
"committed before acknowledged" stays cheap with hundreds of tables.

>>> store = Store("sqlite://")
>>> store.run_sync(lambda conn: conn.execute(rooms.select()).all(), write=False)
[]
>>> store.close()
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from rummy21.server import migrations

log = logging.getLogger("rummy21.server.store")

T = TypeVar("T")
Op = Callable[[Connection], Any]

metadata = MetaData()
"""The schema as the code uses it; a change here needs a revision in ``migrations/versions``."""

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("config", Text, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("status", String(16), nullable=False),
    Column("parked_at", DateTime(timezone=True), nullable=True),
    Column("set_aside", Text, nullable=True),
)
"""``parked_at``: since when the room rests in the database only (idle, evicted from memory;
a visit runs it again); ``set_aside``: why the room cannot be rebuilt (it is then never run
again, and its finished deals stay readable)."""

seats = Table(
    "seats",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("bot", String(16), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("joined_at", DateTime(timezone=True), nullable=True),
)

deals = Table(
    "deals",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("dealer", Integer, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True), nullable=True),
    Column("winner", Integer, nullable=True),
    Column("reason", String(16), nullable=True),
    Column("option", String(4), nullable=True),
    Column("turns", Integer, nullable=True),
    Column("scores", Text, nullable=True),
)

events = Table(
    "events",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("deal", Integer, primary_key=True, autoincrement=False),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("data", Text, nullable=False),
    Column("epoch", BigInteger, nullable=True),
)
"""A deal's log; ``epoch`` is the lease epoch of the process that wrote the record (``NULL``:
one process, no broker), so the log itself shows who wrote what (:mod:`.lease`)."""

leases = Table(
    "leases",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
"""Which process runs each live room, until when, and under which epoch (:mod:`.lease`)."""

reviews = Table(
    "reviews",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("worlds", Integer, primary_key=True, autoincrement=False),
    Column("body", Text, nullable=False),
)
"""The coach's review of a seat of a finished deal at a budget of worlds, once computed
(:mod:`rummy21.review`; the history page asks for it)."""

owners = Table(
    "owners",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("epoch", BigInteger, primary_key=True, autoincrement=False),
    Column("owner", String(64), nullable=False),
    Column("since", DateTime(timezone=True), nullable=False),
)
"""Every lease ever granted: one owner per (room, epoch), by construction."""


class StaleWrite(RuntimeError):
    """A write whose guard found that its writer no longer owns what it writes (a lease lost
    to another process): the transaction is rolled back, nothing is written."""


def cause_of(error: BaseException) -> str:
    """The first line of what the database driver said (SQLAlchemy adds lines of its own).

    >>> cause_of(RuntimeError("disk full\\n(more)")), cause_of(KeyError())
    ('disk full', 'KeyError')
    """
    cause = str(getattr(error, "orig", None) or error).strip().partition("\n")[0]
    return cause or type(error).__name__


def utcnow() -> datetime:
    return datetime.now(UTC)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, full fsync and a shared in-memory pool."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    if not memory:
        path = url.split("///", 1)[1] if "///" in url else ""
        if path:
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url, connect_args={"check_same_thread": False}, poolclass=StaticPool if memory else None
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit survives a power cut too, not only a crash of the server process.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine


class _Job:
    __slots__ = ("done", "ops", "read")

    def __init__(
        self, ops: list[Op], done: Callable[[Any, BaseException | None], None], read: bool
    ) -> None:
        self.ops = ops
        self.done = done
        self.read = read


class Store:
    """The database and the one thread that talks to it.

    ``write(ops)`` (async) commits a list of operations as one unit and returns once they are
    durable; concurrent units are committed together. ``read(fn)`` runs a query on the same
    thread. ``run_sync`` is for startup code and tests that run outside an event loop.
    """

    def __init__(self, url: str, max_batch: int = 512) -> None:
        self.url = url
        self.engine = make_engine(url)
        try:
            migrations.upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._max_batch = max_batch
        self._thread = threading.Thread(target=self._work, name="rummy21-db", daemon=True)
        self._thread.start()
        self.commits = 0
        self.batches = 0
        self.failures = 0
        """Writes that failed since the last one that worked."""

    # ------------------------------------------------------------ public
    async def write(self, ops: Sequence[Op]) -> Any:
        """Commit ``ops`` in one transaction (shared with other pending writes); return what
        the last of them returned."""
        return await self._submit(ops, read=False)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` on the database thread and return its result."""
        result: T = await self._submit([fn], read=True)
        return result

    def run_sync(self, fn: Callable[[Connection], T], write: bool = True) -> T:
        """Run ``fn`` in a transaction on the database thread and wait for it (no event loop)."""
        future: Future[Any] = Future()

        def done(value: Any, error: BaseException | None) -> None:
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

        self._queue.put(_Job([fn], done, read=not write))
        result: T = future.result()
        return result

    def close(self) -> None:
        """Finish pending work, stop the thread and release the engine."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=10)
        self.engine.dispose()

    # ----------------------------------------------------------- internal
    async def _submit(self, ops: Sequence[Op], read: bool) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(value: Any, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

        def done(value: Any, error: BaseException | None) -> None:
            try:
                loop.call_soon_threadsafe(settle, value, error)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass

        self._queue.put(_Job(list(ops), done, read))
        return await future

    def _work(self) -> None:
        stop = False
        while not stop:
            job = self._queue.get()
            if job is None:
                break
            batch = [job]
            while len(batch) < self._max_batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            reads = [j for j in batch if j.read]
            writes = [j for j in batch if not j.read]
            if writes:
                self._commit(writes)
            for j in reads:
                self._run_read(j)

    def _run_read(self, job: _Job) -> None:
        try:
            with self.engine.connect() as conn:
                value = job.ops[0](conn)
        except BaseException as error:
            job.done(None, error)
        else:
            job.done(value, None)

    def _commit(self, jobs: list[_Job]) -> None:
        try:
            results = self._transaction(jobs)
        except Exception as error:
            if len(jobs) == 1:
                self._refused(jobs[0], error)
                return
            # One bad unit must not sink the others: commit each on its own.
            for job in jobs:
                self._run_alone(job)
            return
        self.batches += 1
        self.commits += len(jobs)
        if self.failures:
            log.warning("database writes work again (%d failed meanwhile)", self.failures)
            self.failures = 0
        for job, value in zip(jobs, results, strict=True):
            job.done(value, None)

    def _transaction(self, jobs: list[_Job]) -> list[Any]:
        results = []
        with self.engine.begin() as conn:
            for job in jobs:
                value = None
                for op in job.ops:
                    value = op(conn)
                results.append(value)
        return results

    def _refused(self, job: _Job, error: BaseException) -> None:
        """``job``'s transaction failed with ``error``: tell its writer (and the log, once)."""
        if isinstance(error, StaleWrite):
            log.info("stale write refused: %s", error)
        elif isinstance(error, IntegrityError):
            log.debug("write refused by a constraint: %s", error)
        else:
            self.failures += 1
            if self.failures == 1:  # once, until writes work again: not at every try
                log.error("database write failed (further failures are not logged)", exc_info=error)
        job.done(None, error)

    def _run_alone(self, job: _Job) -> None:
        try:
            value = self._transaction([job])[0]
        except BaseException as error:
            self._refused(job, error)
        else:
            self.batches += 1
            self.commits += 1
            if self.failures:
                log.warning("database writes work again (%d failed meanwhile)", self.failures)
                self.failures = 0
            job.done(value, None)
