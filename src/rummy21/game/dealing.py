"""Shuffling and dealing (RULES §2), and its inverse: the shoe order that deals chosen hands.

Dealing a shoe (a list, index 0 first): one card at a time to each player, starting after the
dealer, until each holds ``hand_size``; the next card is the cut card (it goes face up to the
bottom of the stock); the next starts the open pile; the rest is the stock, top first.

>>> from rummy21.cards import canonical_shoe
>>> layout = deal_shoe(canonical_shoe(3), players=3, dealer=2, hand_size=21)
>>> [str(c) for c in layout.hands[0][:3]], str(layout.cut), str(layout.open_card)
(['AS', '4S', '7S'], 'QS', 'KS')
>>> len(layout.stock), str(layout.stock[0]), str(layout.stock[-1])
(95, 'AH', 'QS')
>>> shoe = arrange_shoe(layout.hands, layout.cut, layout.open_card, dealer=2, printed_jokers=3,
...                     stock=layout.stock[:-1])
>>> shoe == canonical_shoe(3)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummy21.cards import Card, canonical_shoe, format_cards
from rummy21.game.errors import SetupError


@dataclass(frozen=True, slots=True)
class Layout:
    """The cards of a fresh deal: each seat's hand, the cut card, the open card, the stock.

    ``stock`` lists the stock top card first; its last card is the cut card.
    """

    hands: tuple[tuple[Card, ...], ...]
    cut: Card
    open_card: Card
    stock: tuple[Card, ...]


def dealing_order(players: int, dealer: int, hand_size: int) -> list[int]:
    """The seat that receives each dealt card, in order.

    >>> dealing_order(3, 0, 2)
    [1, 2, 0, 1, 2, 0]
    """
    return [(dealer + 1 + k) % players for k in range(players * hand_size)]


def shuffled_shoe(printed_jokers: int, rng: random.Random) -> list[Card]:
    """The canonical shoe shuffled by ``rng.shuffle`` (RULES §2)."""
    shoe = canonical_shoe(printed_jokers)
    shuffle(shoe, rng)
    return shoe


def shuffle(items: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order and the same generator state after it, about
    twice as fast for a seeded :class:`random.Random` (every deal shuffles 159 cards).

    CPython's shuffle swaps each position from the last down with one drawn below it, each
    draw of ``getrandbits`` redrawn until under the bound; this is that loop, without a
    method call per card. Any other generator (``secrets.SystemRandom``) shuffles itself.

    >>> a, b = list(range(10)), list(range(10))
    >>> random.Random(4).shuffle(a); shuffle(b, random.Random(4)); a == b
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    draw = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = draw(bits)
        while j >= bound:
            j = draw(bits)
        items[i], items[j] = items[j], items[i]


def deal_shoe(shoe: Sequence[Card], players: int, dealer: int, hand_size: int) -> Layout:
    """Deal ``shoe`` (index 0 first) as RULES §2 describes."""
    n = players * hand_size
    if len(shoe) < n + 2:
        raise SetupError(f"a shoe of {len(shoe)} cards cannot deal {players} hands")
    dealt = tuple(shoe[:n])
    # Card k goes to seat (dealer + 1 + k) % players (:func:`dealing_order`): every
    # players-th card from that seat's first.
    hands = tuple(dealt[(seat - dealer - 1) % players :: players] for seat in range(players))
    cut, open_card = shoe[n], shoe[n + 1]
    stock = tuple(shoe[n + 2 :]) + (cut,)
    return Layout(hands, cut, open_card, stock)


def check_shoe(shoe: Sequence[Card], printed_jokers: int) -> None:
    """Raise :class:`SetupError` unless ``shoe`` holds exactly the cards of the full shoe."""
    have, want = Counter(shoe), Counter(canonical_shoe(printed_jokers))
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        parts = []
        if extra:
            parts.append(f"too many {format_cards(extra[:6])}")
        if missing:
            parts.append(f"missing {format_cards(missing[:6])}")
        raise SetupError(f"not a full shoe of {len(want)} cards: " + "; ".join(parts))


def arrange_shoe(
    hands: Sequence[Sequence[Card]],
    cut: Card,
    open_card: Card,
    *,
    dealer: int,
    printed_jokers: int,
    stock: Sequence[Card] = (),
) -> list[Card]:
    """The shoe order that deals ``hands``, ``cut`` and ``open_card`` with ``stock`` on top.

    The stock continues with every remaining card, sorted in canonical card order; the cut card
    then lies at its bottom. Used to build tables from hand-chosen cards (golden playthroughs).
    """
    players = len(hands)
    size = len(hands[0]) if hands else 0
    if any(len(h) != size for h in hands):
        raise SetupError("every hand must hold the same number of cards")
    queues = [list(h) for h in hands]
    dealt = [queues[seat].pop(0) for seat in dealing_order(players, dealer, size)]
    head = dealt + [cut, open_card] + list(stock)
    rest = Counter(canonical_shoe(printed_jokers))
    rest.subtract(head)
    if any(n < 0 for n in rest.values()):
        over = sorted(c for c, n in rest.items() if n < 0)
        raise SetupError(f"more copies than the shoe holds: {format_cards(over)}")
    shoe = head + sorted(rest.elements())
    check_shoe(shoe, printed_jokers)
    return shoe
