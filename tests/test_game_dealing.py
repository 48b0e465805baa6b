"""Dealing's own shuffle is ``random.Random.shuffle``, card for card and state for state."""

from __future__ import annotations

import random
import secrets

from rummy21.cards import Card, canonical_shoe
from rummy21.game.dealing import deal_shoe, dealing_order, shuffle, shuffled_shoe


def test_the_shuffle_is_randoms_for_every_seed_and_length() -> None:
    for seed in range(3000):
        length = seed % 170
        ours, theirs = list(canonical_shoe(3))[:length], list(canonical_shoe(3))[:length]
        mine, reference = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        reference.shuffle(theirs)
        assert ours == theirs
        assert mine.getstate() == reference.getstate()


def test_a_seeded_shoe_is_the_rules_shuffle() -> None:
    expected = canonical_shoe(3)
    random.Random(77).shuffle(expected)
    assert shuffled_shoe(3, random.Random(77)) == expected


def test_other_generators_shuffle_themselves() -> None:
    shoe = canonical_shoe(0)
    shuffle(shoe, secrets.SystemRandom())
    assert sorted(shoe) == sorted(canonical_shoe(0))


def test_each_seat_gets_the_cards_the_dealing_order_gives_it() -> None:
    """RULES §2: one card at a time to each player, starting after the dealer — the hands
    :func:`deal_shoe` slices out are those of dealing the shoe card by card."""
    for seed in range(20):
        shoe = shuffled_shoe(3, random.Random(seed))
        for players in range(2, 7):
            for dealer in range(players):
                layout = deal_shoe(shoe, players, dealer, 21)
                hands: list[list[Card]] = [[] for _ in range(players)]
                for seat, card in zip(dealing_order(players, dealer, 21), shoe, strict=False):
                    hands[seat].append(card)
                assert layout.hands == tuple(tuple(hand) for hand in hands)
                n = players * 21
                assert (layout.cut, layout.open_card) == (shoe[n], shoe[n + 1])
                assert layout.stock == (*shoe[n + 2 :], shoe[n])
