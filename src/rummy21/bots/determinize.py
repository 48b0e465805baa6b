"""Determinizations: full card layouts consistent with everything one seat has seen.

A :class:`World` gives every other active seat a hand of the right size — the copies it
visibly took from the open pile and still holds, then unseen cards — and orders the rest of
the unseen cards as the stock. It is drawn from the seat's :class:`~rummy21.game.view.View`
alone (through :func:`~rummy21.bots.tracking.read_public`), so two tables that show a seat the
same public facts give it the same worlds for the same generator.

>>> import random
>>> from rummy21.game import Table
>>> view = Table(players=3, seed=7).view(0)
>>> world = sample_world(view, random.Random(1))
>>> [sum(h) for h in world.hands], len(world.stock)
([21, 21, 21], 95)
>>> world.hands[0] == tuple(counts_of(view.hand))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummy21.bots.tracking import Public, read_public
from rummy21.cards import ALL_CARDS, Card, counts_of
from rummy21.game.settlement import Standing
from rummy21.game.view import View


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden cards: every seat's hand (count vectors; empty for seats out
    of the deal) and the stock, top card first (the cut card, when still there, last)."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[Card, ...]


def unseen_cards(public: Public) -> list[Card]:
    """Every live copy, in canonical order (the pool a world deals from)."""
    return [ALL_CARDS[i] for i, n in enumerate(public.live) for _ in range(n)]


def sample_world(view: View, rng: random.Random, public: Public | None = None) -> World:
    """A world consistent with ``view``, shuffled by ``rng``.

    Known pick-ups stay with the seat that took them; the hidden rest of each active hand and
    the stock are drawn from the unseen copies. When the pool runs short (cards out of play
    after drops or a reshuffle the seat cannot follow), the stock is shortened, never a hand.
    """
    public = read_public(view) if public is None else public
    pool = unseen_cards(public)
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for info in view.seats:
        if info.seat == view.seat:
            hands.append(tuple(counts_of(view.hand)))
            continue
        counts = list(public.taken[info.seat])
        if info.standing is not Standing.ACTIVE:
            hands.append(tuple([0] * len(counts)))
            continue
        hidden = max(0, info.cards - sum(counts))
        for card in pool[:hidden]:
            counts[card.index] += 1
        del pool[:hidden]
        hands.append(tuple(counts))
    size = view.stock_size
    # Until a reshuffle, the cut card lies face up at the bottom of the stock.
    stock = [*pool[: size - 1], view.cut] if not public.reshuffled and size else pool[:size]
    return World(tuple(hands), tuple(stock))
