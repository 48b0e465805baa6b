"""Dealing's own shuffle is ``random.Random.shuffle``, card for card and state for state."""

from __future__ import annotations

import random
import secrets

from rummy21.cards import canonical_shoe
from rummy21.game.dealing import shuffle, shuffled_shoe


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
