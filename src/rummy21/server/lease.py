"""Who runs each live room when many processes share one database: a lease per room.

A room's lease names one process (its ``owner``), lasts until ``expires_at`` and is renewed
while that process lives; every hand-over (a take-over once it expired, :func:`acquire`, or the
owner giving it to another process, :func:`hand_to`) adds one to its ``epoch``, the fencing
token. The owner puts :func:`guard` first in each of the room's writes: in the same
transaction, it checks that the lease still has the owner's epoch, and takes the lease row's
lock, so a hand-over either waits for that write to commit (and the new owner then reads it
from the log) or has already happened (and the write fails with :class:`~.store.StaleWrite`,
writing nothing). A process that was merely slow (paused past its lease) therefore cannot write
as owner once another has taken the room over, and learns so from its first write or renewal.

Every lease granted is recorded in ``owners`` (one row per room and epoch), and each event
record carries the epoch that wrote it, so the log shows who wrote what.

Time is the database's (``now()``), never a process's clock, so the processes' clocks need not
agree. A process also keeps its own, earlier deadline (:class:`Fence`): past it, it stops
speaking for the room (no state sent) until a renewal says the lease is still its own.
The statements use PostgreSQL's ``INSERT … ON CONFLICT``: a cluster runs on PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from sqlalchemy import func, literal, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.engine import Connection

from rummy21.server.model import RoomStatus
from rummy21.server.store import Op, StaleWrite, leases, owners, rooms

NOBODY = ""
"""The owner of a lease given up (:func:`release`): no process is named so, so no renewal
extends it and no write passes its guard; the next :func:`acquire` takes it."""
SAFETY = 0.8
"""The share of a lease a process trusts its own clock for (the rest covers clock drift and
the time between asking for a renewal and the database granting it)."""


@dataclass(frozen=True, slots=True)
class Holder:
    """A room's lease as another process sees it."""

    owner: str
    epoch: int
    expired: bool


def _until(seconds: float) -> object:
    return func.now() + literal(timedelta(seconds=seconds))


def acquire(conn: Connection, code: str, owner: str, seconds: float) -> int | None:
    """Take room ``code`` for ``owner`` if it exists, is not finished nor set aside, and
    nobody holds its lease (or the lease expired): the new epoch, else ``None``."""
    row = conn.execute(
        select(rooms.c.status, rooms.c.set_aside).where(rooms.c.code == code)
    ).first()
    if row is None or row.status == RoomStatus.FINISHED.value or row.set_aside is not None:
        return None
    statement = (
        insert(leases)
        .values(code=code, owner=owner, epoch=1, expires_at=_until(seconds))
        .on_conflict_do_update(
            index_elements=[leases.c.code],
            set_={"owner": owner, "epoch": leases.c.epoch + 1, "expires_at": _until(seconds)},
            where=leases.c.expires_at < func.now(),
        )
        .returning(leases.c.epoch)
    )
    epoch = conn.execute(statement).scalar()
    if epoch is None:
        return None
    conn.execute(owners.insert().values(code=code, epoch=epoch, owner=owner, since=func.now()))
    return int(epoch)


def claim_new(conn: Connection, code: str, owner: str, seconds: float) -> None:
    """The first lease of a room being created (in the transaction that stores it): epoch 1."""
    conn.execute(
        leases.insert().values(code=code, owner=owner, epoch=1, expires_at=_until(seconds))
    )
    conn.execute(owners.insert().values(code=code, epoch=1, owner=owner, since=func.now()))


def renew(conn: Connection, owner: str, seconds: float) -> dict[str, int]:
    """Extend every lease ``owner`` holds, in one statement: {room: epoch}. A room that is
    not in it was taken over (its lease had expired) or given up (:func:`release`). A lease
    that expired while nobody took it over is still ``owner``'s, and renewed."""
    rows = conn.execute(
        update(leases)
        .where(leases.c.owner == owner)
        .values(expires_at=_until(seconds))
        .returning(leases.c.code, leases.c.epoch)
    )
    return {r.code: int(r.epoch) for r in rows}


def hand_to(conn: Connection, code: str, owner: str, epoch: int, to: str, seconds: float) -> int:
    """Give room ``code`` from ``owner`` (at ``epoch``) to process ``to`` at once: the lease
    is ``to``'s at the next epoch, for ``seconds``, and recorded in ``owners``. Put after the
    owner's :func:`guard`, in the same write; :class:`StaleWrite` (nothing written) if
    ``owner`` no longer holds the lease at ``epoch``. Returns the new epoch."""
    if to == owner:
        raise ValueError(f"room {code}: {owner} cannot hand its lease to itself")
    new = conn.execute(
        update(leases)
        .where(leases.c.code == code, leases.c.owner == owner, leases.c.epoch == epoch)
        .values(owner=to, epoch=leases.c.epoch + 1, expires_at=_until(seconds))
        .returning(leases.c.epoch)
    ).scalar()
    if new is None:
        raise StaleWrite(f"room {code}: epoch {epoch} of {owner} is over")
    conn.execute(owners.insert().values(code=code, epoch=new, owner=to, since=func.now()))
    return int(new)


def release(conn: Connection, code: str, owner: str, epoch: int) -> None:
    """Give room ``code`` up at once, if ``owner`` still holds it: the lease expires now and
    names :data:`NOBODY`, so that ``owner``'s next renewal does not take it back."""
    conn.execute(
        update(leases)
        .where(leases.c.code == code, leases.c.owner == owner, leases.c.epoch == epoch)
        .values(owner=NOBODY, expires_at=func.now() - literal(timedelta(seconds=1)))
    )


_GUARD = text(
    "UPDATE leases SET epoch = epoch WHERE code = :code AND owner = :owner AND epoch = :epoch"
)


def guard(conn: Connection, code: str, owner: str, epoch: int) -> None:
    """The fencing check, first in each write of room ``code``: :class:`StaleWrite` unless
    ``owner`` still holds its lease at ``epoch`` (whether or not it has expired: until
    another process takes it, nobody else writes). Holds the lease row's lock until commit."""
    # One prepared text statement: this runs in every write of every room.
    found = conn.execute(_GUARD, {"code": code, "owner": owner, "epoch": epoch}).rowcount
    if found != 1:
        raise StaleWrite(f"room {code}: epoch {epoch} of {owner} is over")


def holders(conn: Connection, codes: Sequence[str]) -> dict[str, Holder]:
    """The leases of ``codes`` (a room without one is not in the answer)."""
    if not codes:
        return {}
    rows = conn.execute(
        select(
            leases.c.code,
            leases.c.owner,
            leases.c.epoch,
            (leases.c.expires_at < func.now()).label("expired"),
        ).where(leases.c.code.in_(list(codes)))
    )
    return {r.code: Holder(r.owner, int(r.epoch), bool(r.expired)) for r in rows}


def orphans(conn: Connection, limit: int) -> list[str]:
    """Open rooms nobody runs: their lease expired, or they never had one (not the parked
    ones, idle until a visit, nor those set aside)."""
    rows = conn.execute(
        select(rooms.c.code)
        .select_from(rooms.outerjoin(leases, leases.c.code == rooms.c.code))
        .where(
            rooms.c.status != RoomStatus.FINISHED.value,
            rooms.c.parked_at.is_(None),
            rooms.c.set_aside.is_(None),
            or_(leases.c.code.is_(None), leases.c.expires_at < func.now()),
        )
        .limit(limit)
    )
    return [r.code for r in rows]


class Fence:
    """One room's lease as its owner holds it: the guard for the room's writes, and until
    when the owner may speak for the room (its own clock, :data:`SAFETY` of the lease)."""

    def __init__(
        self,
        code: str,
        owner: str,
        epoch: int,
        seconds: float,
        on_lost: Callable[[str], None],
        asked: float | None = None,
    ) -> None:
        self.code = code
        self.owner = owner
        self.epoch = epoch
        self.seconds = seconds
        self.lost = False
        self._on_lost = on_lost
        self._until = 0.0
        self.renewed(time.monotonic() if asked is None else asked)

    def guard(self) -> Op:
        return partial(guard, code=self.code, owner=self.owner, epoch=self.epoch)

    def claim(self) -> Op:
        """The write of a new room's first lease (its epoch is 1)."""
        assert self.epoch == 1
        return partial(claim_new, code=self.code, owner=self.owner, seconds=self.seconds)

    def renewed(self, asked: float) -> None:
        """The lease was granted or renewed by a request sent at ``asked`` (monotonic)."""
        self._until = asked + SAFETY * self.seconds

    def speaking(self) -> bool:
        """Whether this process may still send what the room says (the lease is surely its
        own): not after a pause longer than the lease, until a renewal succeeds."""
        return not self.lost and time.monotonic() < self._until

    def lose(self) -> None:
        """The lease is someone else's now (a write was refused, or a renewal missed it)."""
        if not self.lost:
            self.lost = True
            self._on_lost(self.code)
