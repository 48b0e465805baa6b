"""Every SQL statement of the server: rooms, their seats, deals and deal logs (tables in
:mod:`.store`).

Each function takes an open :class:`~sqlalchemy.engine.Connection` and does one unit of work;
callers hand them to :meth:`Store.write <rummy21.server.store.Store.write>` (one transaction,
durable before it returns) or :meth:`Store.read <rummy21.server.store.Store.read>`. Reading
never writes: :func:`load_room` returns what is stored, and the one repair a room may need
(a deal that ended without its summary) is :func:`end_deal`, called on purpose.

>>> from rummy21.server.model import RoomConfig, SeatSlot, SeatKind
>>> from rummy21.server.store import Store
>>> store = Store("sqlite://")
>>> config = RoomConfig(2, "classic", "1", 30, 3, ("human", "greedy"))
>>> seats = [SeatSlot(0, SeatKind.HUMAN, name="Ann", token_hash="ab" * 32),
...          SeatSlot(1, SeatKind.BOT, "greedy")]
>>> store.run_sync(lambda conn: insert_room(conn, "ABC123", config, None, seats))
>>> room = store.run_sync(lambda conn: load_room(conn, "ABC123"), write=False)
>>> room.status, [s.display for s in room.seats], room.deals, room.last
(<RoomStatus.WAITING: 'waiting'>, ['Ann', 'Meera'], [], None)
>>> store.close()
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from rummy21.game.events import EndReason, Event
from rummy21.game.match import DealSummary
from rummy21.server.model import RoomConfig, RoomStatus, SeatKind, SeatSlot
from rummy21.server.store import deals, events, reviews, rooms, seats, utcnow


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """The last deal a room dealt, as stored: its log, and whether its summary was written."""

    number: int
    ended: bool
    log: list[str]
    """The deal's event records, one JSON object a line, in order."""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room as the database holds it (nothing derived, nothing repaired)."""

    code: str
    config: RoomConfig
    seed: int | None
    status: RoomStatus
    seats: list[SeatSlot]
    deals: list[DealSummary]
    """The deals with a summary (ended), in order."""
    last: StoredDeal | None
    """The last deal dealt, if any (it may be the last of :attr:`deals`)."""
    parked: bool = False
    """Whether the room rests in the database only (evicted from memory while idle)."""
    set_aside: str | None = None
    """Why the room was set aside (it cannot be rebuilt), if it was."""


class DamagedRoom(Exception):
    """A stored room that cannot be read back or rebuilt (a row that does not parse, a log
    that does not replay): not the database's passing trouble, and retrying will not help.
    ``recorded``: the room is marked set aside in the database already (``reason`` is why)."""

    def __init__(self, code: str, reason: str, recorded: bool = False) -> None:
        super().__init__(f"table {code}: {reason}")
        self.code = code
        self.reason = reason
        self.recorded = recorded


# ------------------------------------------------------------------------ reads
def load_room(conn: Connection, code: str) -> StoredRoom | None:
    """Everything stored about room ``code`` (``None``: no such room); :class:`DamagedRoom` if
    its rows do not read back as a room."""
    row = conn.execute(select(rooms).where(rooms.c.code == code)).first()
    if row is None:
        return None
    try:
        return _stored_room(conn, code, row)
    except (ValueError, KeyError, TypeError) as error:  # (pydantic's errors are ValueErrors)
        if row.set_aside is not None:
            raise DamagedRoom(code, row.set_aside, recorded=True) from None
        raise DamagedRoom(code, f"its stored rows do not read back: {error}") from None


def _stored_room(conn: Connection, code: str, row: Any) -> StoredRoom:
    slots = [
        SeatSlot(r.seat, SeatKind(r.kind), r.bot, r.name, r.token_hash)
        for r in conn.execute(select(seats).where(seats.c.code == code).order_by(seats.c.seat))
    ]
    deal_rows = list(
        conn.execute(select(deals).where(deals.c.code == code).order_by(deals.c.number))
    )
    summaries = [
        DealSummary(
            r.number,
            r.dealer,
            r.seed,
            r.winner,
            EndReason(r.reason),
            r.option,
            r.turns,
            tuple(json.loads(r.scores)),
        )
        for r in deal_rows
        if r.ended_at is not None
    ]
    last = None
    if deal_rows:
        final = deal_rows[-1]
        last = StoredDeal(
            final.number, final.ended_at is not None, deal_log(conn, code, final.number)
        )
    return StoredRoom(
        code,
        RoomConfig.from_json(row.config),
        row.seed,
        RoomStatus(row.status),
        slots,
        summaries,
        last,
        parked=row.parked_at is not None,
        set_aside=row.set_aside,
    )


def deal_log(conn: Connection, code: str, number: int) -> list[str]:
    """The event records of deal ``number`` of room ``code`` (JSON lines, in order)."""
    return [
        r.data
        for r in conn.execute(
            select(events.c.data)
            .where(events.c.code == code, events.c.deal == number)
            .order_by(events.c.seq)
        )
    ]


def load_review(conn: Connection, code: str, number: int, seat: int, worlds: int) -> Any:
    """The stored review of ``seat`` in deal ``number`` of room ``code`` at ``worlds`` worlds
    (the JSON it was saved as, read back), or ``None``."""
    row = conn.execute(
        select(reviews.c.body).where(
            reviews.c.code == code,
            reviews.c.number == number,
            reviews.c.seat == seat,
            reviews.c.worlds == worlds,
        )
    ).first()
    return None if row is None else json.loads(row.body)


def save_review(
    conn: Connection, code: str, number: int, seat: int, worlds: int, body: dict[str, Any]
) -> None:
    """Keep a computed review (a second save of the same review is ignored: the same inputs
    give the same review)."""
    if load_review(conn, code, number, seat, worlds) is None:
        conn.execute(
            reviews.insert().values(
                code=code, number=number, seat=seat, worlds=worlds, body=json.dumps(body)
            )
        )


def open_room_codes(conn: Connection) -> list[str]:
    """The codes of the rooms to run at start: their match is not finished, they are not
    parked (idle) and not set aside."""
    return [
        r.code
        for r in conn.execute(
            select(rooms.c.code).where(
                rooms.c.status != RoomStatus.FINISHED.value,
                rooms.c.parked_at.is_(None),
                rooms.c.set_aside.is_(None),
            )
        )
    ]


# ----------------------------------------------------------------------- writes
def insert_room(
    conn: Connection,
    code: str,
    config: RoomConfig,
    seed: int | None,
    slots: Sequence[SeatSlot],
    now: datetime | None = None,
) -> None:
    """A new room, waiting for its players, with its seats (an existing ``code``: an error)."""
    now = now or utcnow()
    conn.execute(
        rooms.insert().values(
            code=code,
            created_at=now,
            config=config.to_json(),
            seed=seed,
            status=RoomStatus.WAITING.value,
        )
    )
    conn.execute(
        seats.insert(),
        [
            {
                "code": code,
                "seat": s.seat,
                "kind": s.kind.value,
                "bot": s.bot,
                "name": s.name,
                "token_hash": s.token_hash,
                "joined_at": now if s.taken else None,
            }
            for s in slots
        ],
    )


def take_seat(conn: Connection, code: str, seat: int, name: str, token_hash: str) -> None:
    """A player takes an open human seat."""
    conn.execute(
        update(seats)
        .where(seats.c.code == code, seats.c.seat == seat)
        .values(name=name, token_hash=token_hash, joined_at=utcnow())
    )


def set_autoplay(conn: Connection, code: str, seat: int, bot: str | None) -> None:
    """The bot playing a human seat while its player is away (``None``: the player is back)."""
    conn.execute(update(seats).where(seats.c.code == code, seats.c.seat == seat).values(bot=bot))


def start_deal(
    conn: Connection,
    code: str,
    number: int,
    dealer: int,
    seed: int | None,
    header: Event,
    epoch: int | None = None,
) -> None:
    """Deal ``number`` starts: its row, the first record of its log (written under lease
    ``epoch``), the room ``playing``."""
    conn.execute(
        deals.insert().values(
            code=code, number=number, dealer=dealer, seed=seed, started_at=utcnow()
        )
    )
    conn.execute(
        events.insert().values(
            code=code, deal=number, seq=0, data=json.dumps(header.to_dict()), epoch=epoch
        )
    )
    _set_status(conn, code, RoomStatus.PLAYING)


def append_events(
    conn: Connection,
    code: str,
    number: int,
    first: int,
    new: Sequence[Event],
    epoch: int | None = None,
) -> None:
    """Records ``first``, ``first + 1``… of deal ``number``'s log (written under lease
    ``epoch``)."""
    if new:
        conn.execute(
            events.insert(),
            [
                {
                    "code": code,
                    "deal": number,
                    "seq": first + i,
                    "data": json.dumps(e.to_dict()),
                    "epoch": epoch,
                }
                for i, e in enumerate(new)
            ],
        )


def end_deal(conn: Connection, code: str, summary: DealSummary, finished: bool) -> None:
    """Deal ``summary.number`` ended: its summary; with ``finished``, the room's match too."""
    values: dict[str, Any] = {
        "ended_at": utcnow(),
        "winner": summary.winner,
        "reason": summary.reason.value,
        "option": None if summary.option is None else str(summary.option),
        "turns": summary.turns,
        "scores": json.dumps(list(summary.scores)),
    }
    conn.execute(
        update(deals).where(deals.c.code == code, deals.c.number == summary.number).values(**values)
    )
    if finished:
        _set_status(conn, code, RoomStatus.FINISHED)


def park(conn: Connection, code: str) -> None:
    """Room ``code`` rests in the database only (idle: evicted from memory until a visit)."""
    conn.execute(update(rooms).where(rooms.c.code == code).values(parked_at=utcnow()))


def unpark(conn: Connection, code: str) -> None:
    """Room ``code`` runs again."""
    conn.execute(update(rooms).where(rooms.c.code == code).values(parked_at=None))


def set_aside(conn: Connection, code: str, reason: str) -> None:
    """Room ``code`` cannot be rebuilt (``reason``): it is never run again."""
    conn.execute(update(rooms).where(rooms.c.code == code).values(set_aside=reason[:2000]))


def _set_status(conn: Connection, code: str, status: RoomStatus) -> None:
    conn.execute(update(rooms).where(rooms.c.code == code).values(status=status.value))
