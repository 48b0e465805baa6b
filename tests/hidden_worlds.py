"""Tables that differ only in what a seat cannot see, for the bots' hidden-information tests:
seat 0's hand, the cut, the open card and the head of the stock are fixed; the other hands and
the rest of the stock are shuffled differently in each world."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rummy21.bots import Bot
from rummy21.cards import Card, canonical_shoe
from rummy21.game import Discard, Draw, Source, Table
from rummy21.game.actions import Action
from rummy21.game.dealing import arrange_shoe
from rummy21.game.view import View


def world(rng: random.Random, own: list[Card], head: list[Card], cut: Card, top: Card) -> Table:
    """A 3-seat table where seat 0 holds ``own`` and the stock starts with ``head``; the
    other hands and the rest of the stock are shuffled by ``rng``."""
    pool = canonical_shoe(3)
    for card in [*own, *head, cut, top]:
        pool.remove(card)
    rng.shuffle(pool)
    hands = [own, pool[:21], pool[21:42]]
    stock = head + pool[42:]
    shoe = arrange_shoe(hands, cut, top, dealer=2, printed_jokers=3, stock=stock)
    return Table(3, shoe=shoe, seed=0)


class Passer:
    """Draws from the stock and discards the card drawn: everything it does is public."""

    name = "passer"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if Draw(Source.STOCK) in legal:
            return Draw(Source.STOCK)
        assert view.drawn is not None
        return Discard(view.drawn)


def moves_in_worlds(
    make: Callable[[], Bot], turns: int, worlds: int = 3
) -> list[list[tuple[View, Action]]]:
    """Seat 0's views and moves, a bot from ``make`` against two passers, over the first
    ``turns`` turns of each of ``worlds`` tables that differ only in hidden cards."""
    shoe = canonical_shoe(3)
    random.Random(5).shuffle(shoe)
    own, cut, top, head = shoe[:21], shoe[21], shoe[22], shoe[23:53]
    runs = []
    for number in range(worlds):
        table = world(random.Random(number), own, head, cut, top)
        bots: list[Bot] = [make(), Passer(), Passer()]
        seen = []
        while not table.over and table.turns < turns:
            seat = table.turn
            assert seat is not None
            view = table.view(seat)
            action = bots[seat].choose(view, table.legal_actions())
            if seat == 0:
                seen.append((view, action))
            table.apply(action)
        runs.append(seen)
    return runs
