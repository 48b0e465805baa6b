"""Matches: dealer rotation, seeds, running totals, money."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from rummy21.bots import make_bots, play_match
from rummy21.game import GameError, Match, Table
from rummy21.game.match import deal_seed
from rummy21.ruleset import RuleSet

RULES = RuleSet().with_(turn_limit=60)


def test_dealer_rotates_and_totals_add_up() -> None:
    match = Match(4, RULES, seed=3, point_value="0.5")
    records = play_match(match, make_bots(["random"] * 4, seed=3), deals=6)
    assert [r.dealer for r in records] == [3, 0, 1, 2, 3, 0]
    assert [r.number for r in records] == list(range(6))
    assert list(match.totals) == [sum(r.scores[s] for r in records) for s in range(4)]
    assert sum(match.totals) == 0
    assert match.money(0) == Decimal(match.totals[0]) * Decimal("0.5")


def test_same_seed_same_match() -> None:
    def run() -> list[dict[str, object]]:
        match = Match(3, RULES, seed=42)
        return [r.to_dict() for r in play_match(match, make_bots(["random"] * 3, seed=42), 4)]

    assert run() == run()
    assert run()[0]["seed"] != run()[1]["seed"]


def test_records_replay() -> None:
    match = Match(3, RULES, seed=8)
    record = play_match(match, make_bots(["random"] * 3, seed=8), 1)[0]
    again = Table.replay(record.log_text())
    assert again.scores == record.scores and again.dealer == record.dealer


def test_match_refuses_out_of_order_calls() -> None:
    match = Match(2, RULES, seed=1)
    table = match.new_deal()
    with pytest.raises(GameError, match="not over"):
        match.record(table)
    with pytest.raises(GameError, match="record the current deal"):
        match.new_deal()
    table.drop()
    match.record(table)
    with pytest.raises(GameError, match="recorded already"):
        match.record(table)
    with pytest.raises(GameError, match="current deal"):
        match.record(Table(2, seed=1))
    assert match.dealer == 0 and match.new_deal().dealer == 0


def test_deal_seed_is_the_nth_draw_of_the_matchs_generator() -> None:
    """deal_seed(seed, n) skips ahead in one draw; it must be the (n + 1)-th 32-bit draw, as
    Match draws its deals' seeds one by one, past the generator's 624-word block too."""
    for seed in (0, 11, 2**40 + 3):
        rng = random.Random(seed)
        drawn = [rng.getrandbits(32) for _ in range(1300)]
        assert [deal_seed(seed, n) for n in range(1300)] == drawn
