"""Event records: the frozen results of table operations, which together form the deal's log.

Every operation of :class:`~rummy21.game.table.Table` returns one of these, and appends it (and
any automatic follow-up, such as a reshuffle or the end of the deal) to ``table.log``. Each
record has a JSON form; a deal is the :class:`DealStarted` header plus the records after it.

>>> from rummy21.cards import Card
>>> event = Discarded(seat=1, card=Card.parse("7H"))
>>> event.to_dict()
{'event': 'discarded', 'seat': 1, 'card': '7H', 'forced': False}
>>> event_from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar, TypeAlias

from rummy21.analysis import Option
from rummy21.cards import Card
from rummy21.game.actions import Source
from rummy21.game.errors import ReplayError
from rummy21.ruleset import RuleSet


class DropKind(StrEnum):
    """The two kinds of drop (RULES §7)."""

    FIRST = "first"
    """At the player's own first turn, before any draw."""
    MIDDLE = "middle"
    """At any later turn (and after too many consecutive time-outs)."""


class EndReason(StrEnum):
    """How a deal ended."""

    DECLARED = "declared"
    """A player made a valid declaration (RULES §5)."""
    LAST_ACTIVE = "last_active"
    """Every other player dropped or declared wrongly (RULES §6.6)."""
    WASH = "wash"
    """No cards left to draw, or the turn limit was reached (RULES §6.3, §6.7): all score 0."""


class Record:
    """Base of the event records: their JSON form (cards as text, enums as values)."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = _encode(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class DealStarted(Record):
    """The header of a deal's log: everything needed to deal the same cards again.

    ``shoe`` is recorded only when the deal was not shuffled from ``seed`` (a live table, or a
    deck order chosen by hand); with a shoe, ``seed`` (if any) drives only the reshuffles.
    """

    kind: ClassVar[str] = "deal_started"
    players: int
    dealer: int
    seed: int | None
    rules: RuleSet
    cut: Card
    open_card: Card
    shoe: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Drew(Record):
    """``seat`` drew ``card`` from ``source`` (``forced`` by a time-out)."""

    kind: ClassVar[str] = "drew"
    seat: int
    source: Source
    card: Card
    forced: bool = False


@dataclass(frozen=True, slots=True)
class Reshuffled(Record):
    """The open pile but its top card became the new stock, top card first (RULES §6.3)."""

    kind: ClassVar[str] = "reshuffled"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Discarded(Record):
    """``seat`` discarded ``card`` face up, ending its turn."""

    kind: ClassVar[str] = "discarded"
    seat: int
    card: Card
    forced: bool = False


@dataclass(frozen=True, slots=True)
class Declared(Record):
    """``seat`` finished with ``finish`` and showed its other 21 cards.

    ``groups`` is the layout the player submitted, if any; ``valid`` and ``option`` are the verdict.
    """

    kind: ClassVar[str] = "declared"
    seat: int
    finish: Card
    valid: bool
    option: Option | None
    groups: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class Dropped(Record):
    """``seat`` dropped and owes ``points``; its cards left play."""

    kind: ClassVar[str] = "dropped"
    seat: int
    drop: DropKind
    points: int
    forced: bool = False


@dataclass(frozen=True, slots=True)
class TimedOut(Record):
    """``seat`` ran out of time; ``consecutive`` counts its time-outs in a row (RULES §6.4)."""

    kind: ClassVar[str] = "timed_out"
    seat: int
    consecutive: int


@dataclass(frozen=True, slots=True)
class DealEnded(Record):
    """The deal is over: who won, how, after how many turns, and each seat's deal score."""

    kind: ClassVar[str] = "deal_ended"
    winner: int | None
    reason: EndReason
    option: Option | None
    turns: int
    scores: tuple[int, ...]


Event: TypeAlias = (
    DealStarted | Drew | Reshuffled | Discarded | Declared | Dropped | TimedOut | DealEnded
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (DealStarted, Drew, Reshuffled, Discarded, Declared, Dropped, TimedOut, DealEnded)
}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, RuleSet):
        return {k: _encode(v) for k, v in value.to_dict().items()}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def rules_from_dict(data: dict[str, Any]) -> RuleSet:
    """Rebuild a :class:`RuleSet` from ``RuleSet.to_dict()`` output (as stored in JSON).

    >>> rules_from_dict(RuleSet.preset("adda52").to_dict()) == RuleSet.preset("adda52")
    True
    """
    base = RuleSet()
    changes: dict[str, Any] = {}
    for f in fields(RuleSet):
        if f.name not in data:
            continue
        value, default = data[f.name], getattr(base, f.name)
        if isinstance(default, Enum):
            value = type(default)(value)
        elif isinstance(default, tuple):
            value = tuple(value)
        changes[f.name] = value
    return RuleSet(**changes)


def _cards(value: Any) -> tuple[Card, ...]:
    return tuple(Card.parse(v) for v in value)


_DECODERS: dict[str, Any] = {
    "card": Card.parse,
    "finish": Card.parse,
    "cut": Card.parse,
    "open_card": Card.parse,
    "cards": _cards,
    "shoe": lambda v: None if v is None else _cards(v),
    "groups": lambda v: None if v is None else tuple(_cards(g) for g in v),
    "source": Source,
    "drop": DropKind,
    "reason": EndReason,
    "option": Option,
    "rules": rules_from_dict,
    "scores": tuple,
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event record a ``to_dict()`` output describes; :class:`ReplayError` if malformed."""
    try:
        cls = EVENT_TYPES[data["event"]]
        kwargs = {}
        for f in fields(cls):
            if f.name in data:
                decode = _DECODERS.get(f.name)
                value = data[f.name]
                kwargs[f.name] = (
                    decode(value) if decode is not None and value is not None else value
                )
        event: Event = cls(**kwargs)
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"malformed event {data!r}: {error}") from None
    return event
