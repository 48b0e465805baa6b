"""What a seat can know about the cards it does not hold, read from its View's public history.

Every card type has three copies (``printed_jokers`` printed jokers). A copy is *seen* when it
is in the seat's own hand, in the open pile, or in another seat's hand because that seat took
it from the open pile (and has not discarded a copy of it since). The cut card, face up at the
bottom of the stock, is seen too until the first reshuffle. The rest are *live*: in the stock
or in a hidden hand, as far as this seat can tell. Nothing here looks beyond the View.

>>> from rummy21.game import Table
>>> view = Table(players=3, seed=7).view(0)
>>> public = read_public(view)
>>> sum(public.live) == 159 - 21 - 1 - 1   # own hand, the open card, the cut card
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy21.cards import DECKS, JOKER_INDEX, TYPE_COUNT
from rummy21.game.settlement import Standing
from rummy21.game.view import EventAction, View
from rummy21.jokers import Jokers
from rummy21.solver.bounds import NEIGHBOURS

NEAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((i, *NEIGHBOURS[i]))) for i in range(JOKER_INDEX)
)
"""For each suited card kind, the kinds that can share a group with it, itself included
(a dublee, a tunnela): :data:`~rummy21.solver.bounds.NEIGHBOURS` and the card."""
NEAR_SETS: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in NEAR)


@dataclass(frozen=True, slots=True)
class Public:
    """Live copies of each card type, and what each seat visibly collects."""

    live: tuple[int, ...]
    """Per card type: copies this seat has not seen (in the stock or a hidden hand)."""
    taken: tuple[tuple[int, ...], ...]
    """Per seat, per card type: copies it took from the open pile and still holds."""
    reshuffled: bool
    """Whether the open pile was reshuffled into a new stock (the cut card is then in it)."""

    def fed(self, seat: int, index: int) -> int:
        """How many cards near card kind ``index`` (:data:`NEAR`) ``seat`` visibly collects,
        at most two: what discarding ``index`` would feed it."""
        taken = self.taken[seat]
        return min(2, sum(taken[x] for x in NEAR[index]))


def next_draws(jokers: Jokers, public: Public) -> list[tuple[int, float]]:
    """Every card that may come next (card type, probability by live copies); jokers once,
    as the joker type with the most live copies (they all fill any group alike)."""
    live = public.live
    total = sum(live)
    if not total:
        return []
    mask = jokers.joker_mask
    draws = [(d, live[d] / total) for d in range(TYPE_COUNT) if live[d] and not mask[d]]
    joker_live = sum(n for i, n in enumerate(live) if mask[i])
    if joker_live:
        stand_in = max((i for i in range(TYPE_COUNT) if mask[i]), key=lambda i: live[i])
        draws.append((stand_in, joker_live / total))
    return draws


def active_after(view: View) -> list[int]:
    """The other seats still in the deal, in turn order after ``view``'s."""
    return [
        seat
        for step in range(1, view.players)
        if view.seats[seat := (view.seat + step) % view.players].standing is Standing.ACTIVE
    ]


def next_active(view: View) -> int | None:
    """The next seat after ``view``'s still in the deal (``None``: none is)."""
    after = active_after(view)
    return after[0] if after else None


def read_public(view: View) -> Public:
    """Live copies and open-pile pick-ups, from ``view`` alone (a pure function of it)."""
    taken = [[0] * TYPE_COUNT for _ in range(view.players)]
    reshuffled = False
    for event in view.history:
        if event.action is EventAction.RESHUFFLED:
            reshuffled = True
        if event.seat is None or event.seat == view.seat:
            continue
        if event.action is EventAction.DREW and event.card is not None:
            taken[event.seat][event.card.index] += 1
        elif event.action is EventAction.DISCARDED and event.card is not None:
            held = taken[event.seat]
            if held[event.card.index]:
                held[event.card.index] -= 1
    seen = [0] * TYPE_COUNT
    for card in view.hand:
        seen[card.index] += 1
    for open_card in view.open_pile:
        seen[open_card.card.index] += 1
    for held in taken:
        for index, n in enumerate(held):
            seen[index] += n
    if not reshuffled:
        seen[view.cut.index] += 1
    live = tuple(
        max(0, (view.rules.printed_jokers if i == JOKER_INDEX else DECKS) - seen[i])
        for i in range(TYPE_COUNT)
    )
    return Public(live, tuple(tuple(t) for t in taken), reshuffled)
