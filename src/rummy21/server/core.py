"""One table's state and every change to it, as plain synchronous code: no database, no event
loop, no connections (the runtime, :mod:`.room`, does those).

Each change is asked of the engine first (:class:`~rummy21.game.table.Table`,
:class:`~rummy21.game.match.Match`) and comes back as a :class:`Change`: the writes that make it
durable (:mod:`.repository` statements) and what to do once they are committed. A player's
action is applied to the table at once (that is how the engine makes its event records); if
its writes fail, :meth:`RoomCore.undo` puts the table back. Nothing else changes before the
commit: a seat is taken, a deal begun, a deal's end recorded only in :meth:`Change.done`.

>>> from rummy21.game.actions import Draw, Source
>>> from rummy21.server.model import RoomConfig
>>> config = RoomConfig(2, "classic", "1", 30, 1, ("human", "random"))
>>> core, seat, token = RoomCore.new("ABC123", config, "Ann", seed=7)
>>> [op.func.__name__ for op in core.creation()]
['insert_room']
>>> start = core.start_deal(); start.done()
>>> core.status, core.due().step
(<RoomStatus.PLAYING: 'playing'>, <Step.TURN: 'turn'>)
>>> move = core.act(0, Draw(Source.STOCK))
>>> [type(e).__name__ for e in move.events], [op.func.__name__ for op in move.ops]
(['Drew'], ['append_events'])
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial

from rummy21.game.actions import Action, TimeOut
from rummy21.game.errors import GameError, NotYourTurnError
from rummy21.game.events import Event
from rummy21.game.match import DealFactory, DealSummary, Match
from rummy21.game.table import Table
from rummy21.game.view import View
from rummy21.server import repository
from rummy21.server.model import RoomConfig, RoomError, RoomStatus, SeatKind, SeatSlot
from rummy21.server.repository import DamagedRoom, StoredRoom
from rummy21.server.snapshot import RoomSnapshot
from rummy21.server.store import Op
from rummy21.server.tokens import hash_token, new_token, seat_for_token

__all__ = ["BotTurn", "Change", "Due", "RoomCore", "Step"]

log = logging.getLogger("rummy21.server")


def _nothing() -> None:
    pass


@dataclass(slots=True)
class Change:
    """A change of a room: ``ops`` to commit (in one transaction), then ``done()``."""

    ops: list[Op]
    done: Callable[[], None] = _nothing
    events: list[Event] = field(default_factory=list)
    """The engine's new event records (a player's action)."""
    undo_to: int | None = None
    """The length of the table's log before the action (what :meth:`RoomCore.undo` restores
    if the commit fails); ``None``: the table did not change."""


class Step(StrEnum):
    """What a room is waiting for."""

    START = "start"
    """Its first deal: every seat is taken."""
    BOT = "bot"
    """A seat played by a bot is in turn."""
    TURN = "turn"
    """A human seat is in turn: its clocks run."""
    NEXT_DEAL = "next_deal"
    """The next deal: the countdown runs."""


@dataclass(frozen=True, slots=True)
class Due:
    """What a room is waiting for: ``step``, for ``seat`` (the seat in turn), at ``key`` (the
    deal number and its turns so far: a new key is a new turn, or a new deal ended)."""

    step: Step
    seat: int = 0
    key: tuple[int, int] = (-1, 0)


@dataclass(frozen=True, slots=True)
class BotTurn:
    """What a bot needs to choose its move (it runs away from the room: another process)."""

    bot: str
    seed: int | None
    view: View
    legal: Sequence[Action]


class RoomCore:
    """One table: its seats, its match and what the room waits for (see the module
    docstring). ``ready`` (the seats ready for the next deal) and ``autoplay_turns`` live in
    memory only."""

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        seed: int | None,
        status: RoomStatus,
        slots: list[SeatSlot],
        match: Match,
        table_factory: DealFactory | None = None,
    ) -> None:
        self.code = code
        self.config = config
        self.seed = seed
        self.status = status
        self.slots = slots
        self.match = match
        self.table_factory = table_factory
        self.epoch: int | None = None
        """The lease epoch this room is run under (written with its event records; ``None``:
        one process, no lease)."""
        self.ready: set[int] = set()
        """The seats ready for the next deal, between deals (bot seats are, at once)."""
        self.autoplay_turns: dict[int, int] = {}
        """Turns each seat on autoplay has played since it was handed over (a seat on autoplay
        since before a restart is not in it)."""
        if status is RoomStatus.BETWEEN:
            self.ready = self._bot_seats()

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
    def names(self) -> list[str]:
        return [s.display for s in self.slots]

    def seat_for_token(self, token: str) -> int | None:
        return seat_for_token(self.slots, token)

    def due(self) -> Due | None:
        """What the room waits for now."""
        table = self.table
        if self.status is RoomStatus.WAITING:
            return Due(Step.START) if self.all_taken else None
        if self.status is RoomStatus.PLAYING and table is not None and not table.over:
            seat = table.turn or 0
            step = Step.BOT if self.slots[seat].plays_as_bot else Step.TURN
            return Due(step, seat, (self.number, table.turns))
        if self.status is RoomStatus.BETWEEN:
            return Due(Step.NEXT_DEAL, key=(self.number, 0))
        return None

    @property
    def all_taken(self) -> bool:
        return all(s.taken for s in self.slots)

    @property
    def all_ready(self) -> bool:
        return all(s.seat in self.ready for s in self.slots)

    def snapshot(self, **live: object) -> RoomSnapshot:
        """The room as it stands (``live``: the runtime's facts, see :class:`RoomSnapshot`)."""
        ready = frozenset(self.ready)
        return RoomSnapshot.of(
            self.code, self.config, self.status, self.slots, self.match, ready=ready, **live
        )

    def _bot_seats(self) -> set[int]:
        return {s.seat for s in self.slots if s.plays_as_bot}

    # ----------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        code: str,
        config: RoomConfig,
        name: str,
        seed: int | None,
        table_factory: DealFactory | None = None,
    ) -> tuple[RoomCore, int, str]:
        """A new room with its creator in the host's seat: (room, seat, token)."""
        slots = [
            SeatSlot(s, SeatKind.HUMAN) if kind == "human" else SeatSlot(s, SeatKind.BOT, kind)
            for s, kind in enumerate(config.kinds)
        ]
        seat = config.host
        token = new_token()
        slots[seat].name, slots[seat].token_hash = name, hash_token(token)
        match = _match(config, seed, table_factory)
        return cls(code, config, seed, RoomStatus.WAITING, slots, match, table_factory), seat, token

    def creation(self) -> list[Op]:
        """The writes that store this new room."""
        return [
            partial(
                repository.insert_room,
                code=self.code,
                config=self.config,
                seed=self.seed,
                slots=self.slots,
            )
        ]

    @classmethod
    def restore(cls, stored: StoredRoom, table_factory: DealFactory | None = None) -> RoomCore:
        """The room as stored, its current (or last) deal replayed from its log;
        :class:`DamagedRoom` if the stored room cannot be rebuilt (a record that is not JSON,
        a log that does not replay)."""
        config = stored.config
        last = stored.last
        try:
            table = None if last is None else Table.replay(last.log)
            match = _match(
                config,
                stored.seed,
                table_factory,
                stored.deals,
                table,
                recorded=last is not None and last.ended,
            )
        except (GameError, ValueError, KeyError, TypeError) as error:
            number = "?" if last is None else last.number + 1
            raise DamagedRoom(stored.code, f"deal {number} does not replay: {error}") from None
        status = stored.status
        if status is RoomStatus.PLAYING and table is not None and table.over:
            # Between deals a room is stored as playing.
            status = (
                RoomStatus.FINISHED if _ends_match(config, match.number) else RoomStatus.BETWEEN
            )
        return cls(
            stored.code, config, stored.seed, status, list(stored.seats), match, table_factory
        )

    def repair(self) -> Change | None:
        """The summary of a deal that ended without one (cannot happen with one transaction
        per change; recover rather than stall)."""
        table = self.table
        if table is None or not table.over or self.match.recorded:
            return None
        log.warning(
            "room %s: deal %d ended without its summary; writing it", self.code, self.number
        )
        summary = DealSummary.of(self.number, table)
        finished = self.status is RoomStatus.FINISHED
        return Change(
            [partial(repository.end_deal, code=self.code, summary=summary, finished=finished)],
            lambda: self._record_end(table),
        )

    def carry_over(self, before: RoomCore) -> None:
        """Keep what lives in memory only from ``before``, the same room rebuilt."""
        self.epoch = before.epoch
        self.ready = set(before.ready) if self.status is RoomStatus.BETWEEN else set()
        self.autoplay_turns = dict(before.autoplay_turns)

    def undo(self, change: Change) -> None:
        """Put the table back as it was before ``change`` (whose writes failed)."""
        table = self.table
        if change.undo_to is None or table is None:
            return
        before = Table.replay(table.log[: change.undo_to])
        self.match = _match(
            self.config, self.seed, self.table_factory, self.match.deals, before, recorded=False
        )

    # ------------------------------------------------------------ seats
    def join(self, name: str, seat: int | None) -> tuple[int, str, Change]:
        """Take an open human seat (the lowest, or ``seat``): (seat, token, change)."""
        open_seats = [s for s in self.slots if s.kind is SeatKind.HUMAN and not s.taken]
        if seat is not None:
            open_seats = [s for s in open_seats if s.seat == seat]
        if not open_seats:
            raise RoomError(
                "full",
                "no open seat at this table" if seat is None else f"seat {seat + 1} is not open",
            )
        slot = open_seats[0]
        token = new_token()
        digest = hash_token(token)

        def done() -> None:
            slot.name, slot.token_hash = name, digest

        ops: list[Op] = [
            partial(
                repository.take_seat, code=self.code, seat=slot.seat, name=name, token_hash=digest
            )
        ]
        return slot.seat, token, Change(ops, done)

    def check_autoplay(self, by: int, seat: int, connected: bool) -> None:
        """Whether the host (``by``) may hand ``seat`` to a bot now: :class:`RoomError` if not
        (``connected``: whether the seat's player has an open connection)."""
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
        if connected:
            raise RoomError(
                "not_absent",
                f"{slot.display} (seat {seat + 1}) is online: only an absent player's seat can "
                "be handed to a bot",
            )
        if self.status is RoomStatus.FINISHED:
            raise RoomError("not_playing", "the match is over")

    def autoplay(self, seat: int, bot: str | None) -> Change:
        """Hand ``seat`` to ``bot`` (``None``: its player is back)."""
        slot = self.slots[seat]

        def done() -> None:
            if bot is not None and slot.bot is None:
                self.autoplay_turns[seat] = 0
            slot.bot = bot
            if bot is not None and self.status is RoomStatus.BETWEEN:
                self.ready.add(seat)
            if bot is None:
                self.ready.discard(seat)

        ops: list[Op] = [partial(repository.set_autoplay, code=self.code, seat=seat, bot=bot)]
        return Change(ops, done)

    # ------------------------------------------------------------- deals
    def start_deal(self) -> Change:
        """Deal the next deal: stored first, begun once stored (a failed write deals it again
        on the next try, from the same seed if seeded)."""
        table = self.match.next_table()
        number = len(self.match.deals)

        def done() -> None:
            self.match.begin(table)
            self.status = RoomStatus.PLAYING
            self.ready.clear()

        ops: list[Op] = [
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
        return Change(ops, done)

    def set_ready(self, seat: int) -> bool:
        """``seat`` is ready for the next deal; whether every seat is now (between deals)."""
        if self.status is not RoomStatus.BETWEEN:
            return False
        self.ready.add(seat)
        return self.all_ready

    def act(self, seat: int, action: Action) -> Change:
        """Apply ``action`` for ``seat`` (the engine checks it: nothing changes if it is
        illegal): the new event records, their writes, and the deal's end if it ended."""
        table = self.table
        if table is None or self.status is not RoomStatus.PLAYING:
            raise RoomError("not_playing", "no deal is being played at this table now")
        if table.over:
            raise RoomError("not_playing", "the deal is over")
        try:
            table.verify(action, seat)  # IllegalActionError: nothing has changed
        except NotYourTurnError as error:
            raise RoomError(
                "not_your_turn",
                f"it is {self.names[error.turn]}'s turn (seat {error.turn + 1}), not yours",
            ) from None
        before = len(table.log)
        table.apply(action, seat)
        new = list(table.log[before:])
        number = self.number
        summary = DealSummary.of(number, table) if table.over else None
        finished = summary is not None and _ends_match(self.config, number)
        ops: list[Op] = [
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

        def done() -> None:
            if summary is not None:
                self._record_end(table)

        return Change(ops, done, new, undo_to=before)

    def time_out(self, seat: int) -> Change:
        """The turn of ``seat`` ran out (RULES §6.4)."""
        return self.act(seat, TimeOut())

    def _record_end(self, table: Table) -> None:
        self.match.record(table)
        if _ends_match(self.config, self.match.number):
            self.status = RoomStatus.FINISHED
        else:
            self.status = RoomStatus.BETWEEN
            self.ready = self._bot_seats()

    def count_autoplay(self, seat: int) -> None:
        """A turn played by the bot that plays ``seat`` for its absent player."""
        if self.slots[seat].autoplay is not None and seat in self.autoplay_turns:
            self.autoplay_turns[seat] += 1

    # ------------------------------------------------------------- bots
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

    def bot_names(self) -> list[str | None]:
        """The bot playing each seat (a bot seat's, or the one playing for an absent player;
        ``None``: a human plays it)."""
        return [s.bot for s in self.slots]


def _ends_match(config: RoomConfig, number: int) -> bool:
    """Whether deal ``number`` (from 0) is the match's last."""
    return number + 1 >= config.deals


def _match(
    config: RoomConfig,
    seed: int | None,
    table_factory: DealFactory | None,
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
        table_factory=table_factory,
    )
