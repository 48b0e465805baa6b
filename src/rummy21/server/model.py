"""What a room is made of, in words the other server modules share: its status, its seats, the
creator's choices (:class:`RoomConfig`, stored as JSON with the room) and the server's knobs.

>>> config = RoomConfig(3, "classic", "1", 30, 2, ("greedy", "human", "human"))
>>> config.host, RoomConfig.from_json(config.to_json()) == config
(1, True)
>>> RoomStatus.BETWEEN == "between", SeatKind("bot") is SeatKind.BOT
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

from pydantic import TypeAdapter
from pydantic.dataclasses import dataclass as pydantic_dataclass

from rummy21.bots.search import DEFAULT_SAMPLES
from rummy21.game.match import DealFactory
from rummy21.game.seat import seat_words
from rummy21.ruleset import RuleSet

BOT_NAMES = ("Ravi", "Meera", "Kiran", "Tara", "Dev", "Nila")

BotName: TypeAlias = Literal["expert", "greedy", "learned", "race", "random", "search"]
"""A bot a seat may be given (:func:`rummy21.bots.make_bot`)."""
SeatChoice: TypeAlias = Literal["human", "random", "greedy", "expert", "learned", "race", "search"]
"""What the creator puts in a seat: a human player or a bot."""

TableFactory = DealFactory
"""``(players, rules, dealer, deal_number, deal_seed) -> Table``: deals chosen cards in tests."""


class RoomStatus(StrEnum):
    """Where a room is in its match. Only ``waiting``, ``playing`` and ``finished`` are stored:
    a room between deals is stored as ``playing`` and read back as ``between``."""

    WAITING = "waiting"
    """For its players: some human seats are still open."""
    PLAYING = "playing"
    """A deal is being played."""
    BETWEEN = "between"
    """A deal is over and the next one not dealt yet (the result and its countdown are up)."""
    FINISHED = "finished"
    """Every deal of the match is played."""


class SeatKind(StrEnum):
    """Who sits in a seat for the whole match."""

    HUMAN = "human"
    """A player with a secret token (a bot may play for it while it is away: autoplay)."""
    BOT = "bot"
    """A bot, from the start."""


class RoomError(Exception):
    """A request the room refuses; ``code`` is the machine-readable kind, ``retry_after`` (if
    known) the seconds after which the same request may succeed."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


LEASE_SECONDS = 3.0
"""How long, by default, a table stays with a process that stopped answering before another
takes it over (many processes on one database: :mod:`.cluster`; ``rummy21 serve
--lease-seconds``)."""

ABSENT_GRACE = 60.0
"""The default absence grace, in seconds (:attr:`Settings.absent_grace`; ``create_app`` and
``rummy21 serve`` without ``--absent-grace`` take it)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Server-wide knobs (see :func:`rummy21.server.app.create_app`)."""

    bot_delay: float = 0.8
    next_deal_seconds: float = 20.0
    allow_seed: bool = False
    rate_limit: float | None = 40.0
    """Messages a second one connection may send (bursts of twice that); ``None``: no limit."""
    table_factory: TableFactory | None = None
    absent_grace: float = ABSENT_GRACE
    """Seconds the seat in turn may stay without an open connection before it times out
    (0: never, the table waits for the player or its turn timer)."""
    bot_workers: int | None = None
    """Processes the bots think in (the server's bot CPU: at most this many cores); ``None``:
    one per core but one; 0: threads of the server's own process."""
    max_tables: int = 2000
    """Live tables at once (in memory; idle ones are evicted first); 0: no cap."""
    max_search_seats: int = 60
    """Seats played by the ``search`` bot (the lobby's Master) at once; 0: no cap."""
    tables_per_address: int = 30
    """Tables one client address may create in :attr:`creation_window` seconds; 0: no cap."""
    creation_window: float = 600.0
    idle_seconds: float = 600.0
    """A table nobody has been connected to for this long is evicted from memory (it rests in
    the database; a visit runs it again)."""
    finished_seconds: float = 60.0
    """A finished table nobody is connected to is evicted from memory after this long."""
    review_worlds: int = DEFAULT_SAMPLES
    """Worlds the coach samples a decision in the history page's reviews (the search's
    default budget, as ``rummy21 review``)."""


@pydantic_dataclass(frozen=True)
class RoomConfig:
    """What the creator chose; stored as JSON with the room (pydantic reads and writes it).

    Older rooms (no ``host``, no ``public_history``) read as hosted by their first human seat,
    with a private history.
    """

    players: int
    rules: str
    point_value: str
    turn_seconds: int
    deals: int
    kinds: tuple[SeatChoice, ...]
    """Per seat: ``human``, ``random``, ``greedy``, ``expert`` or ``search``."""
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
        return _CONFIG.dump_json(self).decode()

    @classmethod
    def from_json(cls, text: str | bytes) -> RoomConfig:
        return _CONFIG.validate_json(text)


_CONFIG = TypeAdapter(RoomConfig)


@dataclass(slots=True)
class SeatSlot:
    seat: int
    kind: SeatKind
    bot: str | None = None
    """A bot seat's bot; on a human seat, the bot playing for its absent player (autoplay)."""
    name: str | None = None
    token_hash: str | None = None

    @property
    def autoplay(self) -> str | None:
        """The bot playing this human seat while its player is away (``None``: none)."""
        return self.bot if self.kind is SeatKind.HUMAN else None

    @property
    def plays_as_bot(self) -> bool:
        return self.kind is SeatKind.BOT or self.bot is not None

    @property
    def taken(self) -> bool:
        return self.kind is SeatKind.BOT or self.token_hash is not None

    @property
    def display(self) -> str:
        if self.kind is SeatKind.BOT:
            return self.name or BOT_NAMES[self.seat % len(BOT_NAMES)]
        return self.name or seat_words(self.seat)
