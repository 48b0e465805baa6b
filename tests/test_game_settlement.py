"""Scoring one deal (RULES §7), through :func:`rummy21.game.settlement.settle` directly."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rummy21.analysis import Option
from rummy21.cards import Card, Hand
from rummy21.game import DropKind, EndReason
from rummy21.game.settlement import SeatEnd, Standing, cap_losses, largest_remainder, settle
from rummy21.jokers import Jokers
from rummy21.ruleset import DroppedValue, RuleSet

CUT = Jokers.from_cut(Card.parse("7D"))  # sevens wild, upper 8D, lower 6D
VALID = Hand.parse("7S 8S 9S 10S JS 2H 3H 4H 5H JC QC KC 5D 5D 5D AH AD AC 9C 9H 9D")
# 147 points, no pure group, one upper joker (8D): value 10.
WITH_UPPER = Hand.parse("KS QS 9S 6S 3S KH JH 9H 6H 4H 2H KD JD 10D 8D 2D QC 10C 8C 5C 3C")


def declared(rules: RuleSet, *others: SeatEnd) -> tuple[int, ...]:
    seats = [SeatEnd(0, Standing.DECLARED, VALID, 3), *others]
    return settle(rules, CUT, len(seats) - 1, EndReason.DECLARED, 0, Option.A, seats).scores


def test_value_cards_are_settled_between_active_players() -> None:
    scores = declared(RuleSet(), SeatEnd(1, Standing.ACTIVE, WITH_UPPER, 3))
    assert scores == (120 - 10, -120 + 10)


def test_value_cards_can_need_three_pure_groups() -> None:
    scores = declared(RuleSet(value_needs_pure=True), SeatEnd(1, Standing.ACTIVE, WITH_UPPER, 3))
    assert scores == (120, -120)


def test_middle_dropped_players_can_take_part_in_the_value_settlement() -> None:
    rules = RuleSet(dropped_value=DroppedValue.MIDDLE)
    scores = declared(
        rules,
        SeatEnd(1, Standing.DROPPED, WITH_UPPER, 2, DropKind.MIDDLE),
        SeatEnd(2, Standing.DROPPED, WITH_UPPER, 0, DropKind.FIRST),
    )
    # 0 receives 70 + 30; values between seats 0 (0) and 1 (10) only: m = 2, nets -10 / +10.
    assert scores == (100 - 10, -70 + 10, -30)
    classic = declared(
        RuleSet(),
        SeatEnd(1, Standing.DROPPED, WITH_UPPER, 2, DropKind.MIDDLE),
        SeatEnd(2, Standing.DROPPED, WITH_UPPER, 0, DropKind.FIRST),
    )
    assert classic == (100, -70, -30)


def test_first_turn_cap_applies_only_to_players_who_never_played() -> None:
    rules = RuleSet(first_turn_cap=75)
    assert declared(rules, SeatEnd(1, Standing.ACTIVE, WITH_UPPER, 0)) == (75 - 10, -75 + 10)
    assert declared(rules, SeatEnd(1, Standing.ACTIVE, WITH_UPPER, 1)) == (120 - 10, -120 + 10)


def test_wash_scores_nothing() -> None:
    seats = [
        SeatEnd(0, Standing.DROPPED, WITH_UPPER, 0, DropKind.FIRST),
        SeatEnd(1, Standing.ACTIVE, VALID, 2),
    ]
    result = settle(RuleSet(), CUT, 1, EndReason.WASH, None, None, seats)
    assert result.scores == (0, 0) and result.winner is None


def test_largest_remainder_ties_go_to_the_seat_after_the_dealer() -> None:
    assert largest_remainder(101, {0: 50, 1: 50}, order=[1, 0]) == {0: 50, 1: 51}
    assert largest_remainder(101, {0: 50, 1: 50}, order=[0, 1]) == {0: 51, 1: 50}
    pay = [[0, 0, 0], [0, 0, 0], [150, 151, 0]]
    pay = [[pay[i][j] - pay[j][i] for j in range(3)] for i in range(3)]
    capped = cap_losses(pay, cap=200, dealer=0)  # 101 back: 50.3 / 50.7 of it
    assert [-sum(r) for r in capped] == [100, 100, -200]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 400), min_size=15, max_size=15), st.integers(50, 300), st.integers(0, 5)
)
@example(
    flows=[166, 128, 0, 170, 278, 9, 256, 315, 400, 1, 296, 1, 323, 400, 101], cap=63, dealer=5
)  # needed 148 rounds of refunds (once capped at 144)
def test_loss_cap_keeps_zero_sum_and_the_floor(flows: list[int], cap: int, dealer: int) -> None:
    n = 6
    pay = [[0] * n for _ in range(n)]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for (i, j), amount in zip(pairs, flows, strict=True):
        signed = amount - 200
        pay[i][j], pay[j][i] = signed, -signed
    capped = cap_losses(pay, cap, dealer)
    scores = [-sum(row) for row in capped]
    assert sum(scores) == 0
    assert min(scores) >= -cap
    for i in range(n):
        for j in range(n):
            assert capped[i][j] == -capped[j][i]
            if pay[i][j] >= 0:  # refunds only shrink what was received
                assert 0 <= capped[i][j] <= pay[i][j]
