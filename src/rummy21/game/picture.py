"""The table as every text interface draws it: the line of stock, open pile and cut, the other
seats' standing, a hand laid out in labelled rows, and the marks a card carries.

The terminal game (in colour, :mod:`rummy21.cli.play`) and the research environment's
``render_mode="ansi"`` (:mod:`rummy21.env.render`) both draw from here, so they say the same
thing in the same layout. As in :mod:`.narration`, a line is a tuple of parts — text and cards
— and each interface draws the cards its own way.

>>> from rummy21.game.narration import plain
>>> from rummy21.game.table import Table
>>> table = Table(players=3, seed=3)
>>> view = table.view(0)
>>> from rummy21.game.seat import seat_words
>>> plain(table_line(view, seat_words))
'Stock 95   Open pile QD (dealt)   Cut 2H'
>>> others_line(view, seat_words)
'Seat 2: 21 cards   Seat 3: 21 cards'
>>> card_marks(view.jokers.cut, view.jokers), card_marks(view.top.card, view.jokers)
('*$', '')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rummy21.cards import Card
from rummy21.game.narration import Sentence
from rummy21.game.settlement import Standing
from rummy21.game.view import SeatInfo, View
from rummy21.groups import Group
from rummy21.jokers import Jokers

LABEL_WIDTH = 17
"""The width of a row's label (the longest group name, "impure sequence", and two spaces)."""

JOKER_MARK = "*"
VALUE_MARK = "$"


def card_marks(card: Card, jokers: Jokers, values: bool = True) -> str:
    """What follows a card's face: :data:`JOKER_MARK` if it is a joker, then (with ``values``)
    :data:`VALUE_MARK` if it is a value card (RULES §4)."""
    joker = JOKER_MARK if jokers.is_joker(card) else ""
    return joker + (VALUE_MARK if values and card in jokers.value_cards else "")


def table_line(view: View, name: Callable[[int], str]) -> Sentence:
    """Stock size, the open pile's top card and who let it go, the cut card."""
    top = view.top
    pile: tuple[str | Card, ...] = ("(empty)",)
    if top is not None:
        by = "dealt" if top.discarded_by is None else f"from {name(top.discarded_by)}"
        pile = (top.card, f" ({by})")
    return (f"Stock {view.stock_size}   Open pile ", *pile, "   Cut ", view.jokers.cut)


def seat_state(info: SeatInfo) -> str:
    """A seat's standing in a few words: its cards while it plays, else how it left.

    >>> from rummy21.game.settlement import DropKind
    >>> seat_state(SeatInfo(1, 0, Standing.DROPPED, DropKind.FIRST, 0, 0))
    'dropped (first)'
    """
    if info.standing is Standing.ACTIVE:
        return f"{info.cards} cards"
    if info.drop is not None:
        return f"dropped ({info.drop.value})"
    return info.standing.value.replace("_", " ")


def others_line(view: View, name: Callable[[int], str]) -> str:
    """Every other seat's name and :func:`seat_state`."""
    return "   ".join(f"{name(s.seat)}: {seat_state(s)}" for s in view.seats if s.seat != view.seat)


class Row(NamedTuple):
    """One row of a laid-out hand."""

    label: str
    cards: tuple[Card, ...]
    loose: bool
    """Cards in no group (drawn dimmer where colour is available)."""


def layout_rows(
    groups: Sequence[Group], loose: Sequence[Card], loose_label: str = "loose"
) -> list[Row]:
    """A hand laid out: each group under its kind's name, then the cards in no group one suit
    a row (jokers last), the first of those rows labelled ``loose_label``.

    >>> from rummy21.cards import parse_cards
    >>> rows = layout_rows((), parse_cards("JK 2H AS 3H"))
    >>> [(r.label, " ".join(map(str, r.cards))) for r in rows]
    [('loose', 'AS'), ('', '2H 3H'), ('', 'JK')]
    """
    rows = [Row(group.kind.label, tuple(group.cards), False) for group in groups]
    by_suit: dict[int, list[Card]] = {}
    for card in sorted(loose):
        by_suit.setdefault(4 if card.suit is None else int(card.suit), []).append(card)
    for i, suit in enumerate(sorted(by_suit)):
        rows.append(Row(loose_label if i == 0 else "", tuple(by_suit[suit]), True))
    return rows
