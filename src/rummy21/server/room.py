"""A live table ("room"): seats, the match of deals, bots, turn timers and connected browsers.

The room is the only place where the game changes. Every change (an action, a time-out, a bot's
move, a new deal) happens under the room's lock as: check with the engine → apply to the
:class:`~rummy21.game.table.Table` → write the new event records to the database and wait for
the commit → acknowledge and send each seat its own view. If the commit fails, the room is
rebuilt from the database (the change is undone) and the player gets an error.

Rooms are rebuilt after a restart by replaying the log of their current deal.

Clocks. The turn in progress of a human seat can end in a time-out (the engine's ``TimeOut``,
committed like any action; RULES §6.4) for two reasons, and the state message carries the
earlier of the two as ``deadline`` (epoch ms) with ``deadline_kind``:

* ``"turn"``: the table's turn timer (``turn_seconds``, 0 = off), started when the turn starts;
* ``"absent"``: the absence grace (:attr:`Settings.absent_grace`), started when the seat in
  turn has no open connection (at the start of its turn, or when its last tab closes) and
  cancelled when the player reconnects. So a player who leaves times out on each of its turns
  even at a table without a turn timer, and its third time-out in a row drops it.

After a restart (:meth:`Room.load` then :meth:`Room.resume`) the turn in progress of a human
seat gets a fresh full turn (``turn_seconds``) from the moment the server is back (the player
could not act while it was down), and the absence grace starts again for a seat nobody has
reconnected yet; a room between deals gets a fresh next-deal countdown.

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
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from functools import partial
from decimal import Decimal
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection as DBConnection

from rummy21.bots import make_bot
from rummy21.cards import Card
from rummy21.game.actions import Action, TimeOut
from rummy21.game.errors import IllegalActionError
from rummy21.game.events import Event
from rummy21.game.table import Table
from rummy21.game.view import View
from rummy21.ruleset import RuleSet
from rummy21.server import present
from rummy21.server.store import Store, deals, events, rooms, seats, utcnow

log = logging.getLogger("rummy21.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
BOT_NAMES = ("Ravi", "Meera", "Kiran", "Tara", "Dev", "Nila")
TableFactory = Callable[[int, RuleSet, int, int, "int | None"], Table]
"""``(players, rules, dealer, deal_number, deal_seed) -> Table``: deals chosen cards in tests."""


class RoomError(Exception):
    """A request the room refuses; ``code`` is the machine-readable kind."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def deal_seed(room_seed: int | None, number: int) -> int | None:
    """The seed of deal ``number`` of a seeded room (as :class:`~rummy21.game.Match` draws them).

    >>> deal_seed(5, 0) == deal_seed(5, 0), deal_seed(None, 3)
    (True, None)
    """
    if room_seed is None:
        return None
    rng = random.Random(room_seed)
    value = 0
    for _ in range(number + 1):
        value = rng.getrandbits(32)
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    """Server-wide knobs (see :func:`rummy21.server.app.create_app`)."""

    bot_delay: float = 0.8
    next_deal_seconds: float = 20.0
    allow_seed: bool = False
    rate_limit: float | None = 40.0
    """Messages a second one connection may send (bursts of twice that); ``None``: no limit."""
    table_factory: TableFactory | None = None
    absent_grace: float = 60.0
    """Seconds the seat in turn may stay without an open connection before it times out
    (0: never, the table waits for the player or its turn timer)."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """What the creator chose; stored as JSON with the room."""

    players: int
    rules: str
    point_value: str
    turn_seconds: int
    deals: int
    kinds: tuple[str, ...]
    """Per seat: ``human``, ``random`` or ``greedy``."""
    host: int = -1
    """The creator's seat (``-1``: the first human seat)."""
    public_history: bool = False
    """Whether anyone with the table's code may open its finished deals (else: its players)."""

    def __post_init__(self) -> None:
        if self.host < 0:
            object.__setattr__(self, "host", self.kinds.index("human"))
        if not 0 <= self.host < len(self.kinds) or self.kinds[self.host] != "human":
            raise ValueError(f"the host's seat {self.host + 1} is not a human seat")

    @property
    def ruleset(self) -> RuleSet:
        return RuleSet.preset(self.rules)

    def to_json(self) -> str:
        return json.dumps({"players": self.players, "rules": self.rules,
                           "point_value": self.point_value, "turn_seconds": self.turn_seconds,
                           "deals": self.deals, "kinds": list(self.kinds), "host": self.host,
                           "public_history": self.public_history})

    @classmethod
    def from_json(cls, text: str) -> RoomConfig:
        """The config stored with a room; older rooms (no host, no public_history) read as
        hosted by their first human seat, with a private history."""
        data = json.loads(text)
        return cls(data["players"], data["rules"], data["point_value"], data["turn_seconds"],
                   data["deals"], tuple(data["kinds"]), int(data.get("host", -1)),
                   bool(data.get("public_history", False)))


@dataclass(slots=True)
class SeatSlot:
    seat: int
    kind: str
    """``human`` or ``bot``."""
    bot: str | None = None
    """A bot seat's bot; on a human seat, the bot playing for its absent player (autoplay)."""
    name: str | None = None
    token_hash: str | None = None

    @property
    def autoplay(self) -> str | None:
        """The bot playing this human seat while its player is away (``None``: none)."""
        return self.bot if self.kind == "human" else None

    @property
    def plays_as_bot(self) -> bool:
        return self.kind == "bot" or self.bot is not None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def display(self) -> str:
        if self.kind == "bot":
            return self.name or BOT_NAMES[self.seat % len(BOT_NAMES)]
        return self.name or f"Seat {self.seat + 1}"


@dataclass(frozen=True, slots=True)
class DealSummary:
    number: int
    dealer: int
    winner: int | None
    reason: str
    option: str | None
    turns: int
    scores: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.number, "dealer": self.dealer, "winner": self.winner,
                "reason": self.reason, "option": self.option, "turns": self.turns,
                "scores": list(self.scores)}


class Connection:
    """One browser tab's WebSocket: messages go out through a bounded queue and one pump task,
    so a slow client never holds up a room."""

    LIMIT = 512

    def __init__(self, send: Callable[[str], Any], close: Callable[[int], Any],
                 rate: float | None = 40.0) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.seat: int | None = None
        self.sent = 0
        self.close_code = 1000
        # A token bucket: ``rate`` messages a second, bursts of twice that.
        self._rate = rate
        self._tokens = 2 * rate if rate else 0.0
        self._stamp = time.monotonic()

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.LIMIT:
            log.warning("closing a connection that does not read its messages")
            self.stop(1013)
            return
        text = message if isinstance(message, str) else json.dumps(message)
        self.queue.put_nowait(text)

    def allow(self) -> bool:
        if not self._rate:
            return True
        now = time.monotonic()
        self._tokens = min(2 * self._rate, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    async def pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self._send(text)
                self.sent += 1
        except Exception:  # noqa: BLE001  (the socket went away)
            pass
        finally:
            self.closed = True
            try:
                await self._close(self.close_code)
            except Exception:  # noqa: BLE001
                pass

    def stop(self, code: int = 1000) -> None:
        """Close after the messages already queued (``code``: the WebSocket close code)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


def away_notice(bot: str, turns: int | None) -> str:
    """What a player who comes back is told about the bot that played for it (``turns``:
    how many turns it played, ``None`` if not known: the server restarted meanwhile).

    >>> away_notice("greedy", 3)
    'A greedy bot played for you while you were away (3 turns).'
    >>> away_notice("random", 1)
    'A random bot played for you while you were away (1 turn).'
    >>> away_notice("greedy", 0)
    'A greedy bot was playing for you while you were away; it has not had a turn yet.'
    >>> away_notice("random", None)
    'A random bot played for you while you were away.'
    """
    if turns is None:
        return f"A {bot} bot played for you while you were away."
    if turns == 0:
        return f"A {bot} bot was playing for you while you were away; it has not had a turn yet."
    return f"A {bot} bot played for you while you were away ({turns} turn{'s' * (turns != 1)})."


def choose_bot_action(name: str, seed: int | None, view: View,
                      legal: Sequence[Action]) -> Action:
    """A bot's move (module-level so that a process pool could run it)."""
    return make_bot(name, seed).choose(view, legal)


class Room:
    """One table: see the module docstring."""

    def __init__(self, code: str, config: RoomConfig, seed: int | None, status: str,
                 slots: list[SeatSlot], summaries: list[DealSummary], store: Store,
                 settings: Settings) -> None:
        self.code = code
        self.config = config
        self.rules = config.ruleset
        self.point_value = Decimal(config.point_value)
        self.seed = seed
        self.status = status
        """``waiting`` (for players), ``playing``, ``between`` (deals) or ``finished``."""
        self.slots = slots
        self.summaries = summaries
        self.store = store
        self.settings = settings
        self.table: Table | None = None
        """The deal in progress, or the last one once it is over."""
        self.number = -1
        """The number (from 0) of ``table``'s deal."""
        self.version = 0
        self.lock = asyncio.Lock()
        self.conns: dict[int, list[Connection]] = {}
        self.ready: set[int] = set()
        self.deadline: float | None = None
        """When the turn in progress times out (event-loop time), for whichever reason."""
        self.deadline_wall: float | None = None
        self.deadline_kind: str | None = None
        """``turn`` (the turn timer), ``absent`` (the absence grace) or ``None``."""
        self.next_deal_wall: float | None = None
        self.autoplay_turns: dict[int, int] = {}
        """Turns each seat on autoplay has played since it was handed over (not kept across
        a restart: a seat on autoplay since before the restart is not in it)."""
        self._turn_key: tuple[int, int] | None = None
        self._turn_clock: tuple[float, float] | None = None
        self._absent_clock: tuple[float, float] | None = None
        self._absent_key: tuple[int, int] | None = None
        self._task: asyncio.Task[None] | None = None
        self._side: set[asyncio.Task[None]] = set()
        self._closed = False

    # ------------------------------------------------------------- facts
    @property
    def names(self) -> list[str]:
        return [s.display for s in self.slots]

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.config.players
        for summary in self.summaries:
            for seat, score in enumerate(summary.scores):
                totals[seat] += score
        return totals

    def seat_for_token(self, token: str) -> int | None:
        wanted = hash_token(token)
        for slot in self.slots:
            if slot.token_hash is not None and hmac.compare_digest(slot.token_hash, wanted):
                return slot.seat
        return None

    def connected(self, seat: int) -> bool:
        return any(not c.closed for c in self.conns.get(seat, ()))

    def info(self) -> dict[str, Any]:
        """The public facts of the room (the lobby's view)."""
        return {
            "code": self.code, "status": self.status, "players": self.config.players,
            "rules": self.config.rules, "point_value": self.config.point_value,
            "turn_seconds": self.config.turn_seconds, "deals": self.config.deals,
            "deal": self.number, "deals_done": len(self.summaries),
            "host": self.config.host, "public_history": self.config.public_history,
            "seats": [{"seat": s.seat, "kind": s.kind,
                       "bot": s.bot if s.kind == "bot" else None, "name": s.display,
                       "taken": s.taken, "connected": s.kind == "bot" or self.connected(s.seat),
                       "autoplay": s.autoplay}
                      for s in self.slots],
        }

    def match_dict(self) -> dict[str, Any]:
        totals = self.totals
        return {"deal": self.number, "deals": self.config.deals,
                "point_value": self.config.point_value,
                "totals": totals, "money": [str(t * self.point_value) for t in totals],
                "history": [s.to_dict() for s in self.summaries]}

    def state_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat``'s browser shows, built from the engine's view for ``seat``."""
        table = self.table
        deal = None if table is None else present.deal_view(table, seat)
        result = None
        if table is not None and table.over and table.result is not None:
            result = present.result_view(table, self.number, seat, self.point_value, self.names)
        return {
            "type": "state", "version": self.version, "you": seat,
            "room": self.info(), "match": self.match_dict(), "deal": deal, "result": result,
            "deadline": None if self.deadline_wall is None else int(self.deadline_wall * 1000),
            "deadline_kind": self.deadline_kind,
            "next_deal_at": None if self.next_deal_wall is None
            else int(self.next_deal_wall * 1000),
            "ready": sorted(self.ready), "server_now": int(time.time() * 1000),
        }

    # ----------------------------------------------------------- creation
    @classmethod
    async def create(cls, store: Store, settings: Settings, config: RoomConfig, name: str,
                     seed: int | None) -> tuple[Room, int, str]:
        """A new room with the creator in its first human seat: (room, seat, token)."""
        slots = [SeatSlot(s, "human") if kind == "human" else SeatSlot(s, "bot", kind)
                 for s, kind in enumerate(config.kinds)]
        seat = config.host
        token = secrets.token_urlsafe(24)
        slots[seat].name, slots[seat].token_hash = name, hash_token(token)
        now = utcnow()
        for _ in range(10):
            code = new_code()
            room = cls(code, config, seed, "waiting", slots, [], store, settings)

            def insert(conn: DBConnection, code: str = code) -> None:
                conn.execute(rooms.insert().values(code=code, created_at=now,
                                                   config=config.to_json(), seed=seed,
                                                   status="waiting"))
                conn.execute(seats.insert(), [
                    {"code": code, "seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                     "token_hash": s.token_hash, "joined_at": now if s.taken else None}
                    for s in slots])

            try:
                await store.write([insert])
            except Exception as error:  # noqa: BLE001  (a code collision: try another)
                log.info("room code %s not stored (%s); trying another", code, error)
                continue
            async with room.lock:
                if all(s.taken for s in slots):
                    await room._start_deal()
            return room, seat, token
        raise RoomError("server", "could not store the new table")

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open human seat (the lowest, or ``seat``): (seat, token)."""
        async with self.lock:
            open_seats = [s for s in self.slots if s.kind == "human" and not s.taken]
            if seat is not None:
                open_seats = [s for s in open_seats if s.seat == seat]
            if not open_seats:
                raise RoomError("full", "no open seat at this table" if seat is None
                                else f"seat {seat + 1} is not open")
            slot = open_seats[0]
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            now = utcnow()

            def write(conn: DBConnection) -> None:
                conn.execute(update(seats).where(seats.c.code == self.code,
                                                 seats.c.seat == slot.seat)
                             .values(name=name, token_hash=digest, joined_at=now))

            await self.store.write([write])
            slot.name, slot.token_hash = name, digest
            if self.status == "waiting" and all(s.taken for s in self.slots):
                await self._start_deal()
            else:
                self._broadcast()
            return slot.seat, token

    # ------------------------------------------------------------ loading
    @classmethod
    def load(cls, conn: DBConnection, code: str, store: Store, settings: Settings) -> Room | None:
        """Rebuild a room from the database, replaying its current (or last) deal."""
        row = conn.execute(select(rooms).where(rooms.c.code == code)).first()
        if row is None:
            return None
        config = RoomConfig.from_json(row.config)
        slots = [SeatSlot(r.seat, r.kind, r.bot, r.name, r.token_hash) for r in
                 conn.execute(select(seats).where(seats.c.code == code).order_by(seats.c.seat))]
        deal_rows = list(conn.execute(select(deals).where(deals.c.code == code)
                                      .order_by(deals.c.number)))
        summaries = [DealSummary(r.number, r.dealer, r.winner, r.reason, r.option, r.turns,
                                 tuple(json.loads(r.scores)))
                     for r in deal_rows if r.ended_at is not None]
        room = cls(code, config, row.seed, row.status, slots, summaries, store, settings)
        if deal_rows:
            last = deal_rows[-1]
            lines = [r.data for r in conn.execute(
                select(events.c.data).where(events.c.code == code, events.c.deal == last.number)
                .order_by(events.c.seq))]
            room.table = Table.replay(lines)
            room.number = last.number
            if room.table.over and last.ended_at is None:
                # Cannot happen with one transaction per change; recover rather than stall.
                log.warning("room %s: deal %d ended without its summary", code, last.number)
                room.summaries.append(room._summary(room.table))
                conn.execute(update(deals).where(deals.c.code == code,
                                                 deals.c.number == last.number)
                             .values(**room._ended_values(room.table)))
        if room.status == "playing" and room.table is not None and room.table.over:
            room.status = "between" if len(room.summaries) < config.deals else "finished"
        return room

    def resume(self) -> None:
        """Start the room's clocks and bots again (after a load): a fresh full turn for a human
        seat in turn, the absence grace for it if nobody is connected, a fresh next-deal
        countdown between deals (see the module docstring)."""
        if self.status == "between":
            self.next_deal_wall = time.time() + self.settings.next_deal_seconds
        self._update_deadline()
        self._schedule()

    # ------------------------------------------------------------- deals
    def _summary(self, table: Table) -> DealSummary:
        result = table.result
        assert result is not None
        return DealSummary(self.number, table.dealer, result.winner, result.reason.value,
                           result.option, table.turns, result.scores)

    def _ended_values(self, table: Table) -> dict[str, Any]:
        result = table.result
        assert result is not None
        return {"ended_at": utcnow(), "winner": result.winner, "reason": result.reason.value,
                "option": result.option, "turns": table.turns,
                "scores": json.dumps(list(result.scores))}

    async def _start_deal(self) -> None:
        """Deal the next deal (the lock is held)."""
        number = len(self.summaries)
        players = self.config.players
        dealer = (players - 1 + number) % players
        seed = deal_seed(self.seed, number)
        factory = self.settings.table_factory
        table = factory(players, self.rules, dealer, number, seed) if factory \
            else Table(players, self.rules, seed=seed, dealer=dealer)
        header = table.log[0]
        code = self.code

        def write(conn: DBConnection) -> None:
            conn.execute(deals.insert().values(code=code, number=number, dealer=dealer,
                                               seed=seed, started_at=utcnow()))
            conn.execute(events.insert().values(code=code, deal=number, seq=0,
                                                data=json.dumps(header.to_dict())))
            conn.execute(update(rooms).where(rooms.c.code == code).values(status="playing"))

        await self.store.write([write])
        self.table, self.number, self.status = table, number, "playing"
        self.ready.clear()
        self.next_deal_wall = None
        self._changed()

    async def _commit(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and commit it (the lock is held)."""
        table = self.table
        if table is None or self.status != "playing":
            raise RoomError("not_playing", "no deal is being played at this table now")
        if table.over:
            raise RoomError("not_playing", "the deal is over")
        if table.turn != seat and not isinstance(action, TimeOut):
            raise RoomError("not_your_turn", f"it is {self.names[table.turn or 0]}'s turn "
                                             f"(seat {(table.turn or 0) + 1}), not yours")
        table.verify(action, seat)   # IllegalActionError: nothing has changed
        before = len(table.log)
        table.apply(action, seat)
        new = list(table.log[before:])
        rows = [{"code": self.code, "deal": self.number, "seq": before + i,
                 "data": json.dumps(e.to_dict())} for i, e in enumerate(new)]
        ended = table.over
        finished = ended and self.number + 1 >= self.config.deals
        values = self._ended_values(table) if ended else None
        code, number = self.code, self.number

        def write(conn: DBConnection) -> None:
            conn.execute(events.insert(), rows)
            if values is not None:
                conn.execute(update(deals).where(deals.c.code == code, deals.c.number == number)
                             .values(**values))
            if finished:
                conn.execute(update(rooms).where(rooms.c.code == code)
                             .values(status="finished"))

        try:
            await self.store.write([write])
        except Exception:
            log.exception("room %s: commit failed; rolling back to the database", self.code)
            await self._reload()
            raise RoomError("server", "the move could not be saved; please try again") from None
        if ended:
            self.summaries.append(self._summary(table))
            if finished:
                self.status = "finished"
            else:
                self.status = "between"
                self.ready = {s.seat for s in self.slots if s.plays_as_bot}
                self.next_deal_wall = time.time() + self.settings.next_deal_seconds
        return new

    async def _reload(self) -> None:
        fresh = await self.store.write(
            [lambda conn: Room.load(conn, self.code, self.store, self.settings)])
        if fresh is not None:
            self.table, self.number, self.status = fresh.table, fresh.number, fresh.status
            self.summaries, self.slots = fresh.summaries, fresh.slots
        self._changed()

    # ----------------------------------------------------------- actions
    async def act(self, seat: int, action: Action, conn: Connection | None = None,
                  msg_id: int | None = None) -> None:
        """A player's action: applied, committed, shown to every seat, then acknowledged."""
        async with self.lock:
            await self._commit(seat, action)
            self._changed()
            if conn is not None:   # after the new state: once acknowledged, the state is current
                conn.send({"type": "ack", "id": msg_id})

    async def set_ready(self, seat: int) -> None:
        async with self.lock:
            if self.status != "between":
                return
            self.ready.add(seat)
            if all(s.seat in self.ready for s in self.slots):
                await self._start_deal()
            else:
                self._broadcast()

    async def set_autoplay(self, by: int, seat: int, bot: str) -> None:
        """The host (``by``) hands the seat of an absent human player to ``bot``."""
        async with self.lock:
            host = self.config.host
            if by != host:
                raise RoomError("forbidden", f"only the table's host ({self.names[host]}, seat "
                                             f"{host + 1}) can hand a seat to a bot")
            if not 0 <= seat < self.config.players:
                raise RoomError("bad_seat", f"there is no seat {seat + 1} at this table")
            slot = self.slots[seat]
            if seat == by:
                raise RoomError("bad_seat", "you cannot hand your own seat to a bot")
            if slot.kind == "bot":
                raise RoomError("bad_seat", f"seat {seat + 1} ({slot.display}) is a bot seat")
            if not slot.taken:
                raise RoomError("bad_seat", f"seat {seat + 1} has no player yet")
            if self.connected(seat):
                raise RoomError("not_absent", f"{slot.display} (seat {seat + 1}) is online: "
                                              "only an absent player's seat can be handed "
                                              "to a bot")
            if self.status == "finished":
                raise RoomError("not_playing", "the match is over")
            await self._write_bot(seat, bot)
            if slot.bot is None:
                self.autoplay_turns[seat] = 0
            slot.bot = bot
            log.info("room %s: seat %d handed to a %s bot by the host", self.code, seat, bot)
            if self.status == "between":
                self.ready.add(seat)
                if all(s.seat in self.ready for s in self.slots):
                    await self._start_deal()
                    return
            self._changed()

    async def _write_bot(self, seat: int, bot: str | None) -> None:
        code = self.code

        def write(conn: DBConnection) -> None:
            conn.execute(update(seats).where(seats.c.code == code, seats.c.seat == seat)
                         .values(bot=bot))

        try:
            await self.store.write([write])
        except Exception:
            log.exception("room %s: could not store the autoplay of seat %d", code, seat)
            raise RoomError("server", "the change could not be saved; please try again") \
                from None

    # ----------------------------------------------------------- clients
    async def attach(self, conn: Connection, seat: int) -> None:
        """A connection that said hello with ``seat``'s token; ends the seat's autoplay."""
        async with self.lock:
            slot = self.slots[seat]
            bot = slot.autoplay
            if bot is not None:
                await self._write_bot(seat, None)   # a failure leaves the seat as it was
                slot.bot = None
            conn.seat = seat
            self.conns.setdefault(seat, []).append(conn)
            conn.send({"type": "welcome", "seat": seat, "code": self.code})
            if bot is not None:
                turns = self.autoplay_turns.pop(seat, None)
                conn.send({"type": "notice", "text": away_notice(bot, turns)})
                self.ready.discard(seat)
                self._changed()
            else:
                self._presence()

    def detach(self, conn: Connection) -> None:
        if conn.seat is None:
            return
        group = self.conns.get(conn.seat, [])
        if conn in group:
            group.remove(conn)
        if not self._closed:
            self._spawn(self._presence_later())

    def _presence(self) -> None:
        """Who is connected changed (the lock is held): the absence clock may start or stop."""
        if self._update_deadline():
            self._schedule()
        self._broadcast()

    async def _presence_later(self) -> None:
        async with self.lock:
            if not self._closed:
                self._presence()

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._side.add(task)
        task.add_done_callback(self._side.discard)

    def _broadcast(self) -> None:
        for seat, group in self.conns.items():
            live = [c for c in group if not c.closed]
            if not live:
                continue
            text = json.dumps(self.state_for(seat))
            for conn in live:
                conn.send(text)

    # --------------------------------------------------------- scheduling
    def _changed(self) -> None:
        self.version += 1
        self._update_deadline()
        self._broadcast()
        self._schedule()

    def _update_deadline(self) -> bool:
        """Set the clocks of the turn in progress (see the module docstring); returns whether
        the deadline changed."""
        before = (self.deadline, self.deadline_kind)
        table = self.table
        key: tuple[int, int] | None = None
        seat = 0
        if table is not None and not table.over and self.status == "playing" \
                and table.turn is not None and not self.slots[table.turn].plays_as_bot:
            seat = table.turn
            key = (self.number, table.turns)

        def clock(seconds: float) -> tuple[float, float]:
            return asyncio.get_running_loop().time() + seconds, time.time() + seconds

        seconds = self.config.turn_seconds
        if key is None or seconds <= 0:
            self._turn_clock = None
        elif key != self._turn_key or self._turn_clock is None:
            self._turn_clock = clock(seconds)
        self._turn_key = key
        grace = self.settings.absent_grace
        if key is None or grace <= 0 or self.connected(seat):
            self._absent_clock = self._absent_key = None
        elif key != self._absent_key or self._absent_clock is None:
            self._absent_clock, self._absent_key = clock(grace), key
        clocks = [(c, kind) for c, kind in ((self._turn_clock, "turn"),
                                            (self._absent_clock, "absent")) if c is not None]
        if clocks:
            (self.deadline, self.deadline_wall), self.deadline_kind = \
                min(clocks, key=lambda item: item[0][0])
        else:
            self.deadline = self.deadline_wall = self.deadline_kind = None
        return (self.deadline, self.deadline_kind) != before

    def _schedule(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        if self._closed:
            return
        table = self.table
        if self.status == "waiting" and all(s.taken for s in self.slots):
            self._task = asyncio.create_task(self._run(self._start_waiting, self.version))
        elif self.status == "playing" and table is not None and not table.over:
            seat = table.turn or 0
            if self.slots[seat].plays_as_bot:
                self._task = asyncio.create_task(self._run(self._bot_turn, self.version))
            elif self.deadline is not None:
                self._task = asyncio.create_task(self._run(self._time_out, self.version))
        elif self.status == "between" and self.next_deal_wall is not None:
            self._task = asyncio.create_task(self._run(self._next_deal, self.version))

    async def _run(self, job: Callable[[int], Any], version: int) -> None:
        try:
            await job(version)
        except asyncio.CancelledError:
            raise
        except RoomError as error:
            log.warning("room %s: %s", self.code, error.message)
        except Exception:  # noqa: BLE001
            log.exception("room %s: background step failed", self.code)

    async def _start_waiting(self, version: int) -> None:
        async with self.lock:
            if self.version == version and self.status == "waiting":
                await self._start_deal()

    async def _next_deal(self, version: int) -> None:
        assert self.next_deal_wall is not None
        await asyncio.sleep(max(0.0, self.next_deal_wall - time.time()))
        async with self.lock:
            if self.version == version and self.status == "between":
                await self._start_deal()

    async def _time_out(self, version: int) -> None:
        loop = asyncio.get_running_loop()
        while self.deadline is not None:
            await asyncio.sleep(max(0.0, self.deadline - loop.time()))
            async with self.lock:
                table = self.table
                if self.version != version or table is None or table.over \
                        or self.deadline is None:
                    return   # the turn changed meanwhile (and was rescheduled)
                if loop.time() < self.deadline:
                    continue   # the clock moved on (a reconnection): sleep on
                seat = table.turn or 0
                log.info("room %s: seat %d timed out (%s)", self.code, seat, self.deadline_kind)
                await self._commit(seat, TimeOut())
                self._changed()
                return

    async def _bot_turn(self, version: int) -> None:
        await asyncio.sleep(self.settings.bot_delay)
        table = self.table
        if self.version != version or table is None or table.over:
            return
        seat = table.turn or 0
        slot = self.slots[seat]
        view, legal = table.view(seat), table.legal_actions()
        seed = None if self.seed is None else \
            random.Random(f"{self.seed}:{self.number}:{seat}:{len(table.log)}").getrandbits(63)
        name = slot.bot or "random"
        if name == "random":
            action = choose_bot_action(name, seed, view, legal)
        else:   # the solver can think for a while: keep the event loop free
            action = await asyncio.to_thread(choose_bot_action, name, seed, view, legal)
        async with self.lock:
            if self.version != version or not slot.plays_as_bot:
                return
            turns = table.turns
            try:
                await self._commit(seat, action)
            except IllegalActionError as error:
                log.error("room %s: bot %s chose an illegal %s (%s); timing it out",
                          self.code, name, action, error)
                await self._commit(seat, TimeOut())
            if slot.autoplay is not None and table.turns > turns \
                    and seat in self.autoplay_turns:
                self.autoplay_turns[seat] += 1
            self._changed()

    # ----------------------------------------------------------- reading
    def hand_of(self, seat: int) -> tuple[list[Card], Table]:
        table = self.table
        if table is None:
            raise RoomError("not_playing", "no deal has started yet")
        return list(table.hand(seat)), table

    async def close(self) -> None:
        self._closed = True
        for task in [self._task, *self._side]:
            if task is None:
                continue
            task.cancel()
            try:
                await task
            except BaseException:  # noqa: BLE001
                pass
        for group in self.conns.values():
            for conn in group:
                conn.stop()


@dataclass
class Rooms:
    """Every room the server knows, by code; rooms not in memory are loaded on first use."""

    store: Store
    settings: Settings
    rooms: dict[str, Room] = field(default_factory=dict)

    def load_open(self) -> int:
        """Rebuild every open room (at startup, before serving). Returns how many."""
        def codes(conn: DBConnection) -> list[str]:
            return [r.code for r in conn.execute(
                select(rooms.c.code).where(rooms.c.status != "finished"))]

        count = 0
        for code in self.store.run_sync(codes, write=False):
            try:
                room = self.store.run_sync(
                    partial(Room.load, code=code, store=self.store, settings=self.settings))
            except Exception:  # noqa: BLE001  (one broken room must not keep the server down)
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
        room = await self.store.write(
            [lambda conn: Room.load(conn, code, self.store, self.settings)])
        if room is None:
            return None
        room = self.rooms.setdefault(code, room)
        room.resume()
        return room

    async def create(self, config: RoomConfig, name: str,
                     seed: int | None) -> tuple[Room, int, str]:
        room, seat, token = await Room.create(self.store, self.settings, config, name, seed)
        self.rooms[room.code] = room
        return room, seat, token

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            await room.close()
