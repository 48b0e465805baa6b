"""What a player can do on its turn (RULES §6), as small value types with a text notation.

An action is what a player (or bot) *chooses*; the table answers with an event record.
The text form is the one the terminal game reads and the golden playthroughs use.

>>> parse_action("draw open")
Draw(source=<Source.OPEN: 'open'>)
>>> str(parse_action("discard 10h")), str(parse_action("declare QS")), str(parse_action("drop"))
('discard 10H', 'declare QS', 'drop')
>>> str(parse_action("declare 5H: 2S 3S 4S / 7D 7C 7H"))
'declare 5H: 2S 3S 4S / 7D 7C 7H'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from rummy21.cards import ALL_CARDS, Card, CardError, format_cards, parse_cards
from rummy21.game.errors import ActionSyntaxError


class Source(StrEnum):
    """Where a card is drawn from."""

    STOCK = "stock"
    """The top of the closed stock."""
    OPEN = "open"
    """The top of the open (discard) pile."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card from the stock or the open pile."""

    source: Source

    def __str__(self) -> str:
        return f"draw {self.source.value}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card face up, ending the turn."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Put ``finish`` on the finish slot and show the other 21 cards.

    ``groups`` is the layout the player shows (optional; it is what counts when the rule set
    judges declarations ``as_shown``; cards left out of it are shown loose).
    """

    finish: Card
    groups: tuple[tuple[Card, ...], ...] | None = None

    def __str__(self) -> str:
        if self.groups is None:
            return f"declare {self.finish}"
        return f"declare {self.finish}: " + " / ".join(format_cards(g) for g in self.groups)


@dataclass(frozen=True, slots=True)
class Drop:
    """Leave the deal before drawing (a first or middle drop, RULES §7)."""

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The player in turn ran out of time (fed in by the caller, RULES §6.4)."""

    def __str__(self) -> str:
        return "timeout"


Action: TypeAlias = Draw | Discard | Declare | Drop | TimeOut

# One instance of each action a table lists (they are values): listing the legal actions then
# makes no new objects, and callers may index them by identity.
DRAW_STOCK = Draw(Source.STOCK)
DRAW_OPEN = Draw(Source.OPEN)
DROP = Drop()
DISCARD_OF: tuple[Discard, ...] = tuple(Discard(card) for card in ALL_CARDS)
"""``DISCARD_OF[card.index] == Discard(card)``."""
DECLARE_OF: tuple[Declare, ...] = tuple(Declare(card) for card in ALL_CARDS)
"""``DECLARE_OF[card.index] == Declare(card)`` (no layout: the engine judges the cards)."""

_SOURCES = {
    "stock": Source.STOCK,
    "s": Source.STOCK,
    "closed": Source.STOCK,
    "open": Source.OPEN,
    "o": Source.OPEN,
    "pile": Source.OPEN,
}


def as_card(card: Card | str) -> Card:
    """A card, parsing text; bad text is an :class:`ActionSyntaxError` naming the token."""
    if isinstance(card, Card):
        return card
    try:
        return Card.parse(card)
    except CardError as error:
        raise ActionSyntaxError(str(error)) from None


def parse_groups(text: str) -> tuple[tuple[Card, ...], ...]:
    """Groups written as cards separated by ``/`` or ``|``: ``"2S 3S 4S / 7D 7C 7H"``."""
    parts = [p for p in text.replace("|", "/").split("/") if p.strip()]
    try:
        return tuple(tuple(parse_cards(p)) for p in parts)
    except CardError as error:
        raise ActionSyntaxError(str(error)) from None


def parse_action(text: str) -> Action:
    """Parse the text form of an action (case-insensitive; ``s``/``o`` abbreviate the sources).

    >>> parse_action("s"), parse_action("DISCARD jk")
    (Draw(source=<Source.STOCK: 'stock'>), Discard(card=Card('JK')))
    >>> parse_action("discard")
    Traceback (most recent call last):
    ...
    rummy21.game.errors.ActionSyntaxError: 'discard' needs a card, e.g. 'discard 7H'
    """
    words = text.strip().split(None, 1)
    if not words:
        raise ActionSyntaxError("empty action")
    verb, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
    if verb in _SOURCES and not rest:
        return Draw(_SOURCES[verb])
    if verb == "draw":
        source = _SOURCES.get(rest.lower() or "stock")
        if source is None:
            raise ActionSyntaxError(f"draw from 'stock' or 'open', not {rest!r}")
        return Draw(source)
    if verb in ("discard", "d"):
        if not rest:
            raise ActionSyntaxError("'discard' needs a card, e.g. 'discard 7H'")
        return Discard(as_card(rest))
    if verb == "declare":
        finish, sep, layout = rest.partition(":")
        if not finish.strip():
            raise ActionSyntaxError("'declare' needs the card to finish with, e.g. 'declare 7H'")
        return Declare(as_card(finish.strip()), parse_groups(layout) if sep else None)
    if verb == "drop" and not rest:
        return Drop()
    if verb in ("timeout", "time-out") and not rest:
        return TimeOut()
    raise ActionSyntaxError(
        f"unknown action {text.strip()!r}: expected draw stock, draw open, "
        "discard CARD, declare CARD, drop or timeout"
    )
