"""A room as it stands at one moment, to show: what :mod:`.present` builds every message and
answer from. The room (:mod:`.room`) makes one under its lock and it is read at once; nothing
here changes a room.

>>> from rummy21.server.model import RoomConfig
>>> config = RoomConfig(2, "classic", "1", 30, 3, ("human", "greedy"))
>>> snap = RoomSnapshot.stored("ABC123", config, RoomStatus.WAITING,
...                            (SeatSlot(0, SeatKind.HUMAN, name="Ann"),
...                             SeatSlot(1, SeatKind.BOT, "greedy")))
>>> snap.names, snap.number, snap.totals, snap.money(0)
(['Ann', 'Meera'], -1, (0, 0), Decimal('0'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from rummy21.game.match import DealSummary, Match
from rummy21.game.table import Table
from rummy21.server.model import RoomConfig, RoomStatus, SeatKind, SeatSlot
from rummy21.server.tokens import seat_for_token

__all__ = ["Clocks", "RoomSnapshot", "Trouble"]


@dataclass(frozen=True, slots=True)
class Clocks:
    """The room's clocks, in wall time (seconds since the epoch), ``None`` when not running."""

    deadline: float | None = None
    """When the turn in progress times out."""
    deadline_kind: str | None = None
    """Why: ``turn`` (the turn timer) or ``absent`` (the seat has no open connection)."""
    next_deal: float | None = None
    """When the next deal starts, between deals."""


@dataclass(frozen=True, slots=True)
class Trouble:
    """The server cannot save the room's changes right now, and says so to its players."""

    text: str
    """What the players are told."""
    retry_at: float | None = None
    """When the server tries again (wall time), if it does by itself."""


@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """One room's facts at one moment (see the module docstring). ``table`` is the deal in
    progress (or the last one), read while the snapshot is fresh."""

    code: str
    config: RoomConfig
    status: RoomStatus
    slots: tuple[SeatSlot, ...]
    number: int
    """The number (from 0) of :attr:`table`'s deal; -1 before the first deal."""
    deals: tuple[DealSummary, ...]
    totals: tuple[int, ...]
    point_value: Decimal
    table: Table | None = None
    connected: frozenset[int] = frozenset()
    """The human seats with an open connection."""
    version: int = 0
    ready: frozenset[int] = frozenset()
    clocks: Clocks = field(default_factory=Clocks)
    trouble: Trouble | None = None

    @classmethod
    def of(
        cls,
        code: str,
        config: RoomConfig,
        status: RoomStatus,
        slots: Sequence[SeatSlot],
        match: Match,
        **live: object,
    ) -> RoomSnapshot:
        """A snapshot of a room whose match is ``match`` (``live``: the runtime's facts, as
        the fields of the same names)."""
        return cls(
            code,
            config,
            status,
            tuple(_copy(s) for s in slots),
            match.number,
            match.deals,
            match.totals,
            match.point_value,
            match.current,
            **live,  # type: ignore[arg-type]
        )

    @classmethod
    def stored(
        cls,
        code: str,
        config: RoomConfig,
        status: RoomStatus,
        slots: Sequence[SeatSlot],
        deals: Sequence[DealSummary] = (),
        number: int | None = None,
    ) -> RoomSnapshot:
        """A room as stored, without its current deal (to read its finished deals, which a
        table set aside, whose deal cannot be rebuilt, still has); ``number``: the last deal
        dealt (default: the last of ``deals``)."""
        match = Match.rebuild(
            config.players, config.ruleset, point_value=config.point_value, deals=deals
        )
        snapshot = cls.of(code, config, status, slots, match)
        return snapshot if number is None else replace(snapshot, number=number)

    @property
    def names(self) -> list[str]:
        return [s.display for s in self.slots]

    def money(self, seat: int) -> Decimal:
        """``seat``'s running total in money."""
        return self.totals[seat] * self.point_value

    def seat_for_token(self, token: str) -> int | None:
        return seat_for_token(self.slots, token)

    def is_connected(self, seat: int) -> bool:
        """Whether the seat is present at the table: a bot seat always is."""
        return self.slots[seat].kind is SeatKind.BOT or seat in self.connected


def _copy(slot: SeatSlot) -> SeatSlot:
    return SeatSlot(slot.seat, slot.kind, slot.bot, slot.name, slot.token_hash)
