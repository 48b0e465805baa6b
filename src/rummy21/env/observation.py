"""The observation of one seat: a fixed-length vector read from its :class:`~rummy21.game.View`
and nothing else, so that what a seat may not see cannot reach it.

Seats are counted from the observer: relative seat 0 is the observer, 1 the next seat
clockwise, and so on. Card planes have one entry per card type (``Card.index``: S, H, D, C ×
A..K, then JK). :func:`fields` lists the layout (the documentation's table is this list).

>>> from rummy21.game import Table
>>> table = Table(players=2, seed=1)
>>> encoder = Encoder(players=2)
>>> obs = encoder.encode(table.view(0))
>>> obs.shape, obs.dtype.name, int(obs[:53].sum())
((656,), 'float32', 21)
>>> [f.name for f in fields(2)][:4]
['hand', 'drawn', 'blocked', 'cut']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rummy21.cards import DECKS, TYPE_COUNT
from rummy21.game.settlement import Standing
from rummy21.game.view import EventAction, OpenCard, Phase, PublicEvent, View
from rummy21.jokers import Jokers

Vector = npt.NDArray[np.float32]

STANDINGS = (Standing.ACTIVE, Standing.DECLARED, Standing.DROPPED, Standing.WRONG)
PHASES = (Phase.DRAW, Phase.DISCARD, Phase.OVER)
TURN_SCALE = 500
"""Turns completed are given as ``min(turns / TURN_SCALE, 1)``."""


@dataclass(frozen=True, slots=True)
class Field:
    """One part of the observation vector."""

    name: str
    start: int
    size: int
    meaning: str
    bound: float
    """The largest value an entry takes (``inf``: a count that grows with the deal)."""

    @property
    def stop(self) -> int:
        return self.start + self.size


def _layout(players: int, shoe_copies: int) -> tuple[Field, ...]:
    card, n = TYPE_COUNT, players
    copies = float(shoe_copies)
    parts = [
        (
            "hand",
            card,
            "copies of each card type in the own hand (21, or 22 after drawing)",
            copies,
        ),
        ("drawn", card, "one-hot: the card the observer drew this turn (own turn, drawn)", 1.0),
        ("blocked", card, "one-hot: the card just taken from the open pile, not releasable", 1.0),
        ("cut", card, "one-hot: the cut card", 1.0),
        ("jokers", card, "1 for every joker type (printed, wild rank, upper, lower)", 1.0),
        ("value", card, "1 for each value card type (the cut's role, upper, lower)", 1.0),
        ("open_top", card, "one-hot: the top card of the open pile", 1.0),
        ("open_dealt", 1, "1 if the open top is the card turned up at the deal", 1.0),
        ("open_pile", card, "copies of each card type in the open pile", copies),
        ("discards", n * card, "per relative seat: cards it discarded this deal", np.inf),
        ("taken", n * card, "per relative seat: cards it took from the open pile", np.inf),
        ("standing", n * 4, "per relative seat, one-hot: active, declared, dropped, wrong", 1.0),
        ("cards", n, "per relative seat: cards held / 22", 1.0),
        ("played", n, "per relative seat: 1 once it has completed a turn", 1.0),
        ("in_turn", n, "one-hot: the relative seat to act (all 0 once over)", 1.0),
        ("phase", 3, "one-hot: draw, discard, over", 1.0),
        ("stock", 1, "stock size / the shoe's size", 1.0),
        ("turns", 1, f"turns completed / {TURN_SCALE}, at most 1", 1.0),
    ]
    out, start = [], 0
    for name, size, meaning, bound in parts:
        out.append(Field(name, start, size, meaning, bound))
        start += size
    return tuple(out)


def fields(players: int, shoe_copies: int = 6) -> tuple[Field, ...]:
    """The observation's layout at a table of ``players`` (``shoe_copies``: the most copies of
    one card type the shoe holds, the bound of the count planes)."""
    return _layout(players, shoe_copies)


def size(players: int) -> int:
    """The observation's length at a table of ``players``: ``8·53 + 6 + 2·53·n + 7·n``."""
    last = _layout(players, 6)[-1]
    return last.stop


def bounds(players: int, shoe_copies: int) -> Vector:
    """The upper bound of every entry (the lower bound is 0)."""
    high = np.zeros(size(players), dtype=np.float32)
    for f in _layout(players, shoe_copies):
        high[f.start : f.stop] = f.bound
    return high


class Encoder:
    """Builds observations from views. It keeps a running count of the public history (each
    seat's discards and open-pile pick-ups) so a long deal costs no more per step than a short
    one; the result is always that of reading the view's whole history.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self._at = {f.name: f.start for f in _layout(players, 6)}
        self._size = size(players)
        self._first: PublicEvent | None = None
        self._seen = 0
        # Each seat's discards and pick-ups, by seat; the planes "discards" and "taken" follow
        # one another, so one gather per observation puts both in the observer's seat order.
        self._public = np.zeros((2, players, TYPE_COUNT), dtype=np.float32)
        self._discards, self._taken = self._public[0], self._public[1]
        flat = np.arange(self._public.size).reshape(self._public.shape)
        self._gather = [
            flat[:, np.roll(np.arange(players), -seat)].ravel() for seat in range(players)
        ]
        self._pile: tuple[OpenCard, ...] = ()
        self._pile_counts = np.zeros(TYPE_COUNT, dtype=np.float32)
        self._by_cut: dict[int, Vector] = {}

    def _catch_up(self, history: tuple[PublicEvent, ...]) -> None:
        if not history or history[0] is not self._first or len(history) < self._seen:
            self._first, self._seen = (history[0] if history else None), 0
            self._public[:] = 0
        discarded, drew = EventAction.DISCARDED, EventAction.DREW
        for event in history[self._seen :]:
            action, card = event.action, event.card
            if card is None or event.seat is None:
                continue
            if action is discarded:
                self._discards[event.seat, card.index] += 1
            elif action is drew:  # a public draw names its card only when taken from the pile
                self._taken[event.seat, card.index] += 1
        self._seen = len(history)

    def _count_pile(self, pile: tuple[OpenCard, ...]) -> Vector:
        """The open pile's counts, updated from the last pile read: the part both piles share
        (compared in C, at once) is counted already; a reshuffled pile is counted again."""
        old, counts = self._pile, self._pile_counts
        common = min(len(old), len(pile))
        if pile[:common] != old[:common]:
            old, common = (), 0
            counts[:] = 0
        for o in old[common:]:
            counts[o.card.index] -= 1
        for o in pile[common:]:
            counts[o.card.index] += 1
        self._pile = pile
        return counts

    def _cut_planes(self, jokers: Jokers) -> Vector:
        planes = self._by_cut.get(jokers.cut.index)
        if planes is None:
            planes = np.zeros(3 * TYPE_COUNT, dtype=np.float32)
            planes[jokers.cut.index] = 1.0
            planes[TYPE_COUNT : 2 * TYPE_COUNT] = jokers.joker_mask
            for v in jokers.value_cards:
                planes[2 * TYPE_COUNT + v.index] = 1.0
            self._by_cut[jokers.cut.index] = planes
        return planes

    def encode(self, view: View) -> Vector:
        """The observation of ``view.seat`` (a new array)."""
        n, at, card = self.players, self._at, TYPE_COUNT
        if view.players != n:
            raise ValueError(f"this encoder reads tables of {n}, not {view.players}")
        self._catch_up(view.history)
        obs = np.zeros(self._size, dtype=np.float32)
        counts = bytearray(card)  # (a buffer numpy reads at once: no Python int per entry)
        for c in view.hand:
            counts[c.index] += 1
        obs[:card] = np.frombuffer(counts, dtype=np.uint8)
        if view.drawn is not None:
            obs[at["drawn"] + view.drawn.index] = 1.0
        if view.blocked is not None:
            obs[at["blocked"] + view.blocked.index] = 1.0
        obs[at["cut"] : at["cut"] + 3 * card] = self._cut_planes(view.jokers)
        pile = view.open_pile
        if pile:
            top = pile[-1]
            obs[at["open_top"] + top.card.index] = 1.0
            obs[at["open_dealt"]] = top.discarded_by is None
            obs[at["open_pile"] : at["open_pile"] + card] = self._count_pile(pile)
        seat = view.seat
        start = at["discards"]
        self._public.take(self._gather[seat], out=obs[start : start + 2 * n * card])
        standing, cards, played = at["standing"], at["cards"], at["played"]
        seats = view.seats
        for k in range(n):
            info = seats[(seat + k) % n]
            obs[standing + 4 * k + STANDINGS.index(info.standing)] = 1.0
            obs[cards + k] = info.cards / 22
            if info.played:
                obs[played + k] = 1.0
        if view.turn is not None:
            obs[at["in_turn"] + (view.turn - seat) % n] = 1.0
        obs[at["phase"] + PHASES.index(view.phase)] = 1.0
        shoe = 52 * DECKS + view.rules.printed_jokers
        obs[at["stock"]] = min(view.stock_size / shoe, 1.0)
        obs[at["turns"]] = min(view.turns / TURN_SCALE, 1.0)
        return obs
