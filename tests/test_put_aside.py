"""22 cards (RULES §8): the card put aside is the best of all candidates, tried one by one."""

from __future__ import annotations

import random

import pytest
from handgen import corpus

from rummy21.analysis import analyze, analyze_counts
from rummy21.cards import ALL_CARDS, Card, counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


def hands_of_22(seed: int, n: int) -> list[tuple[Card, list[Card]]]:
    rng = random.Random(seed)
    out = []
    for cut, hand, _ in corpus(seed, n // 2, n - n // 2):
        counts = counts_of(hand)
        extra = rng.choice([c for c in ALL_CARDS if counts[c.index] < 3])
        out.append((cut, hand + [extra]))
    return out


def naive_choice(cut: Card, hand: list[Card], rules: RuleSet) -> tuple[bool, int, int, int]:
    """RULES §8 literally: every distinct card, fully analysed; the best rank wins."""
    counts = counts_of(hand)
    ranks = []
    for index in sorted({c.index for c in hand}):
        counts[index] -= 1
        result = analyze_counts(counts, Jokers.from_cut(cut), rules)
        counts[index] += 1
        ranks.append((not result.valid, result.penalty.points, -result.value.points, index))
    return min(ranks)


@pytest.mark.parametrize("chunk", range(4))
def test_bounded_search_matches_trying_every_card(chunk: int) -> None:
    rules = RuleSet()
    for cut, hand in hands_of_22(100 + chunk, 16):
        result = analyze(hand, cut, rules)
        assert result.discard is not None
        valid_first, penalty, value, index = naive_choice(cut, hand, rules)
        assert (
            result.discard.index,
            not result.valid,
            result.penalty.points,
            -result.value.points,
        ) == (index, valid_first, penalty, value), (str(cut), [str(c) for c in hand])
        shown = sorted(result.cards.plus(result.discard))
        assert shown == sorted(hand)
