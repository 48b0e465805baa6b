"""The table as text (``render_mode="ansi"``), in the terminal game's words and layout.

What happened since the last picture is told with the narration every table uses
(:func:`rummy21.game.narration.narrate`); then the stock, the open card and the cut, the other
seats, and the hand of the seat in turn laid out as the coach lays it out
(:func:`rummy21.bots.advice.layout_of`,
the layout the terminal and the browser show) — each line as the terminal draws it
(:mod:`rummy21.game.picture`), without colour. Everything shown is read from one seat's view.

>>> from rummy21.game import Table
>>> table = Table(players=2, seed=1)
>>> text, seen = render(table.view(0), 0)
>>> print(text.splitlines()[0])
Cut card 6♥*$ (jokers: every 6, 7♥*$, 5♥*$ and JK); open card 8♣.
>>> seen
1
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.bots.advice import layout_of
from rummy21.cards import Card
from rummy21.game.narration import narrate, plain
from rummy21.game.picture import LABEL_WIDTH, card_marks, layout_rows, others_line, table_line
from rummy21.game.seat import seat_words
from rummy21.game.view import View
from rummy21.jokers import Jokers


def seat_name(seat: int | None) -> str:
    """A seat in words, from 1 ("Seat 1" for the agent ``player_0``), as every table says it."""
    return seat_words(seat)


def card_text(card: Card, jokers: Jokers) -> str:
    """A card as the terminal writes it: suit symbol, ``*`` for a joker, ``$`` for a value
    card."""
    return card.pretty() + card_marks(card, jokers)


def _row(label: str, cards: Sequence[Card], jokers: Jokers) -> str:
    return f"  {label:{LABEL_WIDTH}} " + " ".join(card_text(c, jokers) for c in cards)


def render(view: View, seen: int = 0) -> tuple[str, int]:
    """The picture of the table for ``view.seat``, telling the public events from number
    ``seen`` on; returns it and the number of events told."""
    j = view.jokers

    def say(card: Card) -> str:
        return card_text(card, j)

    lines = [plain(narrate(e, seat_name, view.rules), say) for e in view.history[seen:]]
    lines.append(plain(table_line(view, seat_name), say))
    lines.append(others_line(view, seat_name))
    if view.scores is not None:
        lines.append(
            "Scores: " + "   ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(view.scores))
        )
    elif view.hand:
        layout = layout_of(view.hand, j, view.rules)
        lines.append(f"{seat_name(view.seat)}'s hand, {len(view.hand)} cards:")
        lines += [_row(r.label, r.cards, j) for r in layout_rows(layout.groups, layout.loose)]
        if view.drawn is not None:
            lines.append(_row("drawn", (view.drawn,), j))
    return "\n".join(lines), len(view.history)
