"""What one seat may see (OpenSpiel's per-player observation): its own hand and public facts.

A :class:`View` holds the seat's own cards, the open pile (who discarded each card), what
happened in public (cards taken from the open pile, discards, drops, reshuffles — never a card
drawn from the stock), every seat's card count and standing, the stock size, the cut card and
its jokers, and the deal scores once the deal is over. Nothing else: tests check that no view
reveals another hand or the stock.

>>> from rummy21.game.table import Table
>>> view = Table(players=3, seed=7).view(0)
>>> len(view.hand), view.stock_size, [s.cards for s in view.seats]
(21, 95, [21, 21, 21])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rummy21.analysis import Penalty
from rummy21.cards import Card, Hand
from rummy21.game.actions import Source
from rummy21.game.events import (
    DealEnded,
    DealStarted,
    Declared,
    Discarded,
    Drew,
    DropKind,
    Dropped,
    Event,
    Reshuffled,
    TimedOut,
)
from rummy21.game.settlement import Charge, Standing, charge
from rummy21.game.turn import drop_kind, why_not_take
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


class Phase(StrEnum):
    """What the player in turn must do next."""

    DRAW = "draw"
    """Draw (stock or open pile) or drop."""
    DISCARD = "discard"
    """Discard or declare."""
    OVER = "over"
    """The deal has ended."""


@dataclass(frozen=True, slots=True)
class OpenCard:
    """A card of the open pile and the seat that discarded it (``None``: the first open card)."""

    card: Card
    discarded_by: int | None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """The public facts about one seat."""

    seat: int
    cards: int
    standing: Standing
    drop: DropKind | None
    played: int
    timeouts: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "cards": self.cards,
            "standing": self.standing.value,
            "drop": self.drop.value if self.drop else None,
            "played": self.played,
            "timeouts": self.timeouts,
        }


class EventAction(StrEnum):
    """What happened, as every seat is told it (a :class:`PublicEvent`)."""

    DEALT = "dealt"
    DREW = "drew"
    RESHUFFLED = "reshuffled"
    DISCARDED = "discarded"
    DECLARED = "declared"
    DECLARED_WRONGLY = "declared_wrongly"
    DROPPED = "dropped"
    TIMED_OUT = "timed_out"
    DEAL_ENDED = "deal_ended"

    def __repr__(self) -> str:  # reads as it travels in JSON ('drew')
        return repr(self.value)


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One event as every seat sees it (a card drawn from the stock stays hidden)."""

    action: EventAction
    seat: int | None = None
    card: Card | None = None
    detail: str | None = None
    number: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "seat": self.seat,
            "card": None if self.card is None else str(self.card),
            "detail": self.detail,
            "number": self.number,
        }


def public_event(event: Event) -> PublicEvent:
    """The public face of an event record."""
    if isinstance(event, DealStarted):
        return PublicEvent(EventAction.DEALT, None, event.open_card, str(event.cut), event.players)
    if isinstance(event, Drew):
        card = event.card if event.source is Source.OPEN else None
        return PublicEvent(EventAction.DREW, event.seat, card, event.source.value)
    if isinstance(event, Reshuffled):
        return PublicEvent(EventAction.RESHUFFLED, event.seat, None, None, len(event.cards))
    if isinstance(event, Discarded):
        return PublicEvent(
            EventAction.DISCARDED, event.seat, event.card, "forced" if event.forced else None
        )
    if isinstance(event, Declared):
        if event.valid:
            return PublicEvent(EventAction.DECLARED, event.seat, None, event.option)
        return PublicEvent(EventAction.DECLARED_WRONGLY, event.seat)
    if isinstance(event, Dropped):
        return PublicEvent(EventAction.DROPPED, event.seat, None, event.drop.value, event.points)
    if isinstance(event, TimedOut):
        return PublicEvent(EventAction.TIMED_OUT, event.seat, None, None, event.consecutive)
    assert isinstance(event, DealEnded)
    return PublicEvent(EventAction.DEAL_ENDED, event.winner, None, event.reason.value, event.turns)


@dataclass(frozen=True, slots=True)
class View:
    """Everything ``seat`` may know about the deal, and nothing more."""

    seat: int
    players: int
    dealer: int
    rules: RuleSet
    jokers: Jokers
    turn: int | None
    """The seat to act (``None`` once the deal is over)."""
    phase: Phase
    hand: Hand
    """Own cards (in canonical order as it iterates)."""
    drawn: Card | None
    """During own turn, after drawing: the card drawn."""
    drawn_from: Source | None
    stock_size: int
    open_pile: tuple[OpenCard, ...]
    """Bottom first; the last entry is the top card."""
    seats: tuple[SeatInfo, ...]
    history: tuple[PublicEvent, ...]
    turns: int
    """Turns completed in this deal."""
    scores: tuple[int, ...] | None
    """Deal scores, once the deal is over."""
    blocked: Card | None = None
    """During own turn, after taking from the open pile: the card that may not be discarded
    or finished this turn (RULES §6.2)."""
    can_take_open: bool = False
    """Whether this seat may take the open card now (its turn, before drawing, RULES §6.1)."""
    drop_cost: int = 0
    """What dropping at this seat's next chance costs (a first or a middle drop, RULES §7)."""

    @property
    def cut(self) -> Card:
        return self.jokers.cut

    @property
    def top(self) -> OpenCard | None:
        return self.open_pile[-1] if self.open_pile else None

    @property
    def drop_kind(self) -> DropKind:
        """Which drop this seat's next chance to drop would be
        (:func:`~rummy21.game.turn.drop_kind`: a first drop before its first turn is played,
        else a middle one), the kind :attr:`drop_cost` prices.

        >>> from rummy21.game.table import Table
        >>> Table(players=2, seed=1).view(0).drop_kind
        <DropKind.FIRST: 'first'>
        """
        return drop_kind(self.seats[self.seat].played)

    @property
    def top_stays(self) -> bool:
        """Whether the open card must stay on the pile whoever is in turn (RULES §6.1: a joker
        a player discarded, :func:`~rummy21.game.turn.why_not_take`), so that a screen can
        say so without restating the rule.

        >>> from rummy21.game.table import Table
        >>> Table(players=2, seed=1).view(0).top_stays   # the first open card may be taken
        False
        """
        top = self.top
        return (
            top is not None
            and why_not_take(top.card, top.discarded_by, self.jokers, self.rules) is not None
        )

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    def may_release(self, card: Card) -> bool:
        """Whether ``card`` may be discarded or finished now (held, after drawing, not the
        card just taken from the open pile)."""
        return (
            self.my_turn
            and self.phase is Phase.DISCARD
            and card in self.hand
            and card != self.blocked
        )

    def charge(self, penalty: Penalty) -> Charge:
        """What this seat would pay if another declared now
        (:func:`~rummy21.game.settlement.charge`, the rule the settlement charges by), its 21
        cards paying ``penalty`` (their analysis's): after drawing, the 21 cards it keeps once
        its turn is over.

        >>> from rummy21.game.table import Table
        >>> from rummy21.analysis import analyze
        >>> from rummy21.ruleset import RuleSet
        >>> view = Table(players=2, rules=RuleSet.preset("adda52"), seed=0).view(1)
        >>> analysis = analyze(view.hand, view.cut, view.rules)
        >>> analysis.penalty.points, view.charge(analysis.penalty)
        (118, Charge(points=75, rule='first_turn_cap', count=118))
        """
        me = self.seats[self.seat]
        played = me.played + (self.my_turn and self.phase is Phase.DISCARD)
        return charge(me.standing, played, self.rules, penalty, me.drop)

    @property
    def releasable(self) -> tuple[Card, ...]:
        """The distinct cards that may be discarded or finished now, in canonical order."""
        if not self.my_turn or self.phase is not Phase.DISCARD:
            return ()
        return tuple(sorted({c for c in self.hand if c != self.blocked}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "rules": self.rules.name,
            "jokers": self.jokers.to_dict(),
            "turn": self.turn,
            "phase": self.phase.value,
            "hand": [str(c) for c in self.hand],
            "drawn": None if self.drawn is None else str(self.drawn),
            "drawn_from": None if self.drawn_from is None else self.drawn_from.value,
            "stock_size": self.stock_size,
            "open_pile": [
                {"card": str(o.card), "discarded_by": o.discarded_by} for o in self.open_pile
            ],
            "seats": [s.to_dict() for s in self.seats],
            "history": [e.to_dict() for e in self.history],
            "turns": self.turns,
            "scores": None if self.scores is None else list(self.scores),
            "blocked": None if self.blocked is None else str(self.blocked),
            "can_take_open": self.can_take_open,
            "top_stays": self.top_stays,
            "drop_cost": self.drop_cost,
            "drop_kind": self.drop_kind.value,
        }
