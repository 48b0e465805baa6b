"""Cards as rich text for the terminal: the suit symbol, coloured by suit, and marks.

>>> from rummy21.cards import Card
>>> cut = Jokers.from_cut(Card.parse("5S"))
>>> [str(card_text(Card.parse(c), cut)) for c in ("5S", "5H", "6S", "KD", "JK")]
['5♠*$', '5♥*', '6♠*$', 'K♦', 'JK*']
>>> str(cards_text([Card.parse("5H"), Card.parse("KD")], cut, values=False))
'5♥* K♦'
>>> pretty_cards("you hold no 10H; 9C 9H 6D differ (AS, JK), e.g. 'discard 7H'")
"you hold no 10♥; 9♣ 9♥ 6♦ differ (A♠, JK), e.g. 'discard 7H'"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from rummy21.cards import Card, CardError
from rummy21.game.picture import JOKER_MARK, VALUE_MARK, card_marks
from rummy21.jokers import Jokers

_SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold"}
_MARK_STYLE = {JOKER_MARK: "yellow", VALUE_MARK: "green"}

_QUOTED = re.compile(r"('[^']*')")
_TOKEN = re.compile(r"\b(?:10|[2-9AJQKT])[SHDC]\b")


def pretty_cards(text: str) -> str:
    """``text`` with every card written in notation (``10H``) given its suit symbol (``10♥``),
    except inside single quotes (what the player typed, or is shown to type)."""

    def symbol(match: re.Match[str]) -> str:
        try:
            return Card.parse(match.group(0)).pretty()
        except CardError:
            return match.group(0)

    parts = _QUOTED.split(text)
    return "".join(part if i % 2 else _TOKEN.sub(symbol, part) for i, part in enumerate(parts))


def card_text(card: Card, jokers: Jokers | None, drawn: bool = False, values: bool = True) -> Text:
    """One card; with ``jokers``, its marks (:func:`~rummy21.game.picture.card_marks`: ``*`` a
    joker, with ``values`` ``$`` a value card); ``drawn``: marked ``◀`` as the card just drawn."""
    style = "bold magenta" if card.suit is None else _SUIT_STYLE[int(card.suit)]
    text = Text(card.pretty(), style=style)
    if jokers is not None:
        for mark in card_marks(card, jokers, values):
            text.append(mark, style=_MARK_STYLE[mark])
    if drawn:
        text.append("◀", style="cyan")
    return text


def cards_text(
    cards: Sequence[Card], jokers: Jokers, drawn: Card | None = None, values: bool = True
) -> Text:
    """Cards separated by spaces, the first copy of ``drawn`` marked as just drawn."""
    line = Text()
    marked = False
    for i, card in enumerate(cards):
        if i:
            line.append(" ")
        mark = not marked and card == drawn
        marked = marked or mark
        line.append_text(card_text(card, jokers, mark, values))
    return line


def sentence_text(sentence: Sequence[str | Card], jokers: Jokers, style: str = "") -> Text:
    """A sentence of text and cards (:mod:`rummy21.game.narration`,
    :mod:`rummy21.game.picture`) with its cards drawn by :func:`card_text`."""
    line = Text(style=style)
    for part in sentence:
        if isinstance(part, Card):
            line.append_text(card_text(part, jokers))
        else:
            line.append(part)
    return line
