"""penalty_counts, the bots' numbers-only reading, says what score_counts says."""

from __future__ import annotations

import random

from rummy21.analysis import penalty_counts, score_counts
from rummy21.cards import ALL_CARDS, counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


def test_penalty_counts_matches_score_counts_on_seeded_hands() -> None:
    rng = random.Random(2026)
    shoe = [card for card in ALL_CARDS for _ in range(3)]
    for rules in (RuleSet.preset("classic"), RuleSet.preset("adda52")):
        for _ in range(1500):
            rng.shuffle(shoe)
            hand, cut = shoe[:21], shoe[21]
            counts, jokers = counts_of(hand), Jokers.from_cut(cut)
            score = score_counts(counts, jokers, rules)
            expected = (score.points, score.valid, score.pure_groups_possible)
            assert penalty_counts(counts, jokers, rules) == expected, hand


def test_penalty_counts_matches_on_hands_built_of_runs() -> None:
    """Hands of pure runs and sets with a few loose cards: the ones the solver is asked."""
    rng = random.Random(7)
    for _ in range(600):
        counts = [0] * len(counts_of([]))
        while sum(counts) < 21:
            if rng.random() < 0.7:
                suit, rank = rng.randrange(4), rng.randrange(12)
                group = [suit * 13 + (rank + k) % 13 for k in range(rng.choice((1, 3, 4)))]
            else:
                group = [rng.randrange(len(counts))] * rng.choice((2, 3))
            for index in group:
                if sum(counts) < 21 and counts[index] < 3:
                    counts[index] += 1
        jokers = Jokers.from_cut(ALL_CARDS[rng.randrange(52)])
        score = score_counts(counts, jokers)
        expected = (score.points, score.valid, score.pure_groups_possible)
        assert penalty_counts(counts, jokers) == expected


def test_valid_counts_is_penalty_counts_validity_on_near_complete_hands() -> None:
    """The bounded reading of validity says what the whole reading says, on hands built near
    every option (half of them valid) and on random ones, in both rule sets; and a 22-card
    hand that may_hold_valid rules out has no valid release."""
    from handgen import corpus, rule_variants

    from rummy21.analysis import may_hold_valid, valid_counts
    from rummy21.bots.evaluate import valid_release

    seen = {True: 0, False: 0}
    for name, rules in rule_variants("classic", "adda52").items():
        for cut, hand, _ in corpus(hash(name) % 1000, 150, 600, rules):
            counts, jokers = counts_of(hand), Jokers.from_cut(cut)
            valid = penalty_counts(counts, jokers, rules)[1]
            assert valid_counts(counts, jokers, rules) == valid, (cut, hand)
            seen[valid] += 1
            extra = list(counts)
            extra[ALL_CARDS.index(cut)] += extra[ALL_CARDS.index(cut)] < 3
            if sum(extra) == 22:
                any_valid = any(
                    penalty_counts([n - (i == k) for i, n in enumerate(extra)], jokers, rules)[1]
                    for k in range(len(extra))
                    if extra[k]
                )
                assert valid_release(extra, cut, rules) == any_valid
                assert may_hold_valid(extra, jokers, rules) or not any_valid
    assert seen[True] > 200 and seen[False] > 200
