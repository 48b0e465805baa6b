"""The table as text (``render_mode="ansi"``), in the terminal game's words and layout.

What happened since the last picture is told with the narration every table uses
(:func:`rummy21.game.narration.narrate`); then the stock, the open card and the cut, the other
seats, and the hand of the seat in turn laid out in its best groups (:mod:`rummy21.suggest`,
the layout the terminal and the browser show), jokers marked ``*`` and value cards ``$`` as
in the terminal. Everything shown is read from one seat's view.

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

from rummy21.cards import Card, counts_of
from rummy21.game.narration import narrate, plain
from rummy21.game.settlement import Standing
from rummy21.game.view import View
from rummy21.jokers import Jokers
from rummy21.suggest import suggest_counts

LABEL_WIDTH = 15


def seat_name(seat: int | None) -> str:
    return "" if seat is None else f"Seat {seat}"


def card_text(card: Card, jokers: Jokers) -> str:
    """A card as the terminal writes it: suit symbol, ``*`` for a joker, ``$`` for a value
    card."""
    marks = ("*" if jokers.is_joker(card) else "") + ("$" if card in jokers.value_cards else "")
    return card.pretty() + marks


def _cards(cards: Sequence[Card], jokers: Jokers) -> str:
    return " ".join(card_text(c, jokers) for c in cards)


def render(view: View, seen: int = 0) -> tuple[str, int]:
    """The picture of the table for ``view.seat``, telling the public events from number
    ``seen`` on; returns it and the number of events told."""
    j = view.jokers

    def say(card: Card) -> str:
        return card_text(card, j)

    lines = [plain(narrate(e, seat_name, view.rules), say) for e in view.history[seen:]]
    top = view.top
    pile = "(empty)"
    if top is not None:
        by = "dealt" if top.discarded_by is None else f"from {seat_name(top.discarded_by)}"
        pile = f"{say(top.card)} ({by})"
    lines.append(f"Stock {view.stock_size}   Open pile {pile}   Cut {say(j.cut)}")
    others = []
    for s in view.seats:
        if s.seat == view.seat:
            continue
        if s.standing is Standing.ACTIVE:
            state = f"{s.cards} cards"
        elif s.drop is not None:
            state = f"dropped ({s.drop.value})"
        else:
            state = s.standing.value.replace("_", " ")
        others.append(f"{seat_name(s.seat)}: {state}")
    lines.append("   ".join(others))
    if view.scores is not None:
        lines.append(
            "Scores: " + "   ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(view.scores))
        )
    elif view.hand:
        layout = suggest_counts(counts_of(view.hand), j, view.rules)
        lines.append(f"{seat_name(view.seat)}'s hand, {len(view.hand)} cards:")
        for group in layout.groups:
            lines.append(f"  {group.kind.label:{LABEL_WIDTH}} {_cards(group.cards, j)}")
        if layout.loose:
            lines.append(f"  {'loose':{LABEL_WIDTH}} {_cards(sorted(layout.loose), j)}")
        if view.drawn is not None:
            lines.append(f"  {'drawn':{LABEL_WIDTH}} {say(view.drawn)}")
    return "\n".join(lines), len(view.history)
