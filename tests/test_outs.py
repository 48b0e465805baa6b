"""Outs: what each drawable card would lower the penalty by — checked against trying all."""

from __future__ import annotations

import pytest
from handgen import corpus

from rummy21.analysis import analyze_counts, outs
from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card, counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

RULES = RuleSet()
HANDS = corpus(33, 3, 3)


def naive_outs(cut: Card, hand: list[Card]) -> dict[Card, int]:
    jokers = Jokers.from_cut(cut)
    counts = counts_of(hand)
    base = analyze_counts(counts, jokers, RULES).penalty.points
    found = {}
    for drawn in ALL_CARDS:
        if counts[drawn.index] >= (RULES.printed_jokers if drawn.index == JOKER_INDEX else 3):
            continue
        counts[drawn.index] += 1
        best = min(
            analyze_counts(_without(counts, aside), jokers, RULES).penalty.points
            for aside in range(len(counts))
            if counts[aside]
        )
        counts[drawn.index] -= 1
        if best < base:
            found[drawn] = base - best
    return found


def _without(counts: list[int], index: int) -> list[int]:
    rest = list(counts)
    rest[index] -= 1
    return rest


@pytest.mark.parametrize(
    "cut,hand,kind", HANDS, ids=[f"{k}-{i}" for i, (_, _, k) in enumerate(HANDS)]
)
def test_outs_match_trying_every_draw_and_put_aside(cut: Card, hand: list[Card], kind: str) -> None:
    assert outs(hand, cut, RULES) == naive_outs(cut, hand)


def test_outs_of_a_hand_one_card_short() -> None:
    # 5D 5D plus a third 5D makes a tunnela: drawing it lowers the penalty.
    hand = "7S 8S 9S 2H 3H 4H JC QC KC 5D 5D AH AD AC 9C 9H KS 2C 6S 10H 3D"
    found = outs(hand, "7D")
    assert found and all(points > 0 for points in found.values())
    assert Card.parse("5D") in found


@pytest.mark.parametrize("seed", range(6))
def test_one_sweep_finds_the_best_card_to_put_aside(seed: int) -> None:
    """least_after_put_aside == the least pure save over every card put aside, one by one."""
    import random

    from handgen import near_complete, random_deal

    from rummy21.solver import least_after_put_aside, solve

    rng = random.Random(seed)
    for _ in range(8):
        cut, hand = (
            near_complete(rng, RULES, None) if rng.random() < 0.7 else random_deal(rng, RULES)
        )
        counts = counts_of(hand)
        extra = rng.choice(
            [
                i
                for i in range(len(counts))
                if counts[i] < (RULES.printed_jokers if i == JOKER_INDEX else 3)
            ]
        )
        counts[extra] += 1
        jokers = Jokers.from_cut(cut)
        saves = [
            solve(_without(counts, i), jokers, RULES).pure_save
            for i in range(len(counts))
            if counts[i]
        ]
        best = min((p for p in saves if p is not None), default=None)
        limit = best if best is not None else 60
        assert least_after_put_aside(counts, jokers, RULES, limit) == best
        if best:
            assert least_after_put_aside(counts, jokers, RULES, best - 1) is None


def test_a_tally_moved_by_one_card_is_the_tally_of_the_new_counts() -> None:
    """outs reads each draw and put-aside from the hand's tally moved by one card
    (``_tally_moved``); it must equal reading the new count vector in full."""
    from rummy21.analysis import _tally, _tally_moved

    for cut, hand, _ in HANDS:
        jokers = Jokers.from_cut(cut)
        counts = counts_of(hand)
        tally = _tally(counts, jokers)
        for i in range(len(counts)):
            for step in (1, -1):
                moved = list(counts)
                moved[i] += step
                if moved[i] < 0:
                    continue
                assert _tally_moved(tally, counts[i], i, jokers.joker_mask, step) == _tally(
                    moved, jokers
                ), (str(cut), i, step)


def test_the_least_save_over_a_card_put_aside_is_read_from_a_few_cards() -> None:
    """outs reads the least full count or dublee save over every card put aside from a few
    cards only (``_least_saves_aside``); it must equal trying every card."""
    from rummy21.analysis import _least_saves_aside, _saves_of, _tally, _tally_moved
    from rummy21.ruleset import DubleeSave

    flat = RuleSet(dublee_save=DubleeSave.FLAT)
    few = RuleSet(dublee_save_min=3)  # (the dublee save applies to more of the hands)
    for rules in (RULES, RuleSet.preset("adda52"), flat, few):
        for cut, hand, _ in HANDS:
            jokers = Jokers.from_cut(cut)
            mask = jokers.joker_mask
            counts = counts_of(hand)
            for drawn in range(len(counts)):
                if counts[drawn] >= (rules.printed_jokers if drawn == JOKER_INDEX else 3):
                    continue
                counts[drawn] += 1
                tally = _tally(counts, jokers)
                every = min(
                    _saves_of(_tally_moved(tally, counts[i], i, mask, -1), rules)[2]
                    for i in range(len(counts))
                    if counts[i]
                )
                held = [i for i in range(len(counts)) if counts[i]]
                assert _least_saves_aside(tally, counts, held, mask, rules) == every
                counts[drawn] -= 1


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_put_aside_is_a_pure_save_some_hand_left_has(seed: int) -> None:
    """``quick_put_aside`` bounds the one sweep of ``least_after_put_aside``: it must never be
    below the least pure save over every card put aside, and the card it names, put aside,
    must leave a hand with a pure save no higher than it says."""
    import random

    from handgen import near_complete, random_deal

    from rummy21.solver import least_after_put_aside, quick_put_aside, solve

    rng = random.Random(f"quick-put-aside/{seed}")
    for _ in range(12):
        cut, hand = (
            near_complete(rng, RULES, None) if rng.random() < 0.5 else random_deal(rng, RULES)
        )
        counts = counts_of(hand)
        extra = rng.choice([i for i in range(len(counts)) if counts[i] < 3 and i != JOKER_INDEX])
        counts[extra] += 1
        jokers = Jokers.from_cut(cut)
        quick = quick_put_aside(counts, jokers, RULES)
        if quick is None:
            continue
        least = least_after_put_aside(counts, jokers, RULES, 200)
        assert least is not None and least <= quick.points
        counts[quick.kind] -= 1
        left = solve(counts, jokers, RULES).pure_save
        assert left is not None and least <= left <= quick.points
