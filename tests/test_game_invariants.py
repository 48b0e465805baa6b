"""Invariants over many random-bot deals, every player count and both presets.

At every step: the 159 cards are all somewhere, exactly once; hand sizes fit each seat's
standing. Every deal ends (turn limit); scores sum to zero; the log replays to the same deal.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rummy21.bots import RandomBot
from rummy21.cards import TYPE_COUNT, Card, canonical_shoe
from rummy21.game import (
    DealStarted,
    DropKind,
    EndReason,
    Phase,
    Reshuffled,
    Standing,
    Table,
    dump_log,
    load_log,
)
from rummy21.ruleset import RuleSet

PRESETS = ("classic", "adda52")
TURN_LIMIT = 240
SEEDS = range(5)


def index_counts(cards: list[Card]) -> list[int]:
    counts = [0] * TYPE_COUNT
    for card in cards:
        counts[card.index] += 1
    return counts


def check_cards(table: Table, shoe: list[int]) -> None:
    zones = table.zones()
    assert index_counts([c for cards in zones.values() for c in cards]) == shoe
    for seat in range(table.players):
        hand, out = len(zones[f"hand {seat}"]), len(zones[f"out {seat}"])
        standing = table.standing(seat)
        if standing is Standing.ACTIVE:
            drawing = table.turn == seat and table.phase is Phase.DISCARD
            assert (hand, out) == (22 if drawing else 21, 0)
        elif standing is Standing.DECLARED:
            assert (hand, out) == (21, 0) and len(zones["finish"]) == 1
        elif standing is Standing.DROPPED:
            assert hand == 0 and out in (21, 22)
        else:
            assert (hand, out) == (0, 22)
    view_sizes = [s.cards for s in table.view(0).seats]
    assert view_sizes == [len(zones[f"hand {s}"]) for s in range(table.players)]


def run_deal(preset: str, players: int, seed: int) -> tuple[Table, int]:
    rules = RuleSet.preset(preset).with_(turn_limit=TURN_LIMIT)
    table = Table(players, rules, seed=seed, dealer=seed % players)
    shoe = index_counts(canonical_shoe(rules.printed_jokers))
    # Low drop chances on some seats keep some deals long enough to reshuffle the stock.
    bots = [
        RandomBot(seed * 10 + s, drop_chance=0.004 * (seed % 3) * (s % 2), declare_chance=0.004)
        for s in range(players)
    ]
    check_cards(table, shoe)
    steps = 0
    while not table.over:
        seat = table.turn
        assert seat is not None and table.standing(seat) is Standing.ACTIVE
        table.apply(bots[seat].choose(table.view(seat), table.legal_actions()))
        check_cards(table, shoe)
        steps += 1
        assert steps <= 2 * TURN_LIMIT + 1
    return table, steps


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", range(2, 7))
def test_random_deals_keep_invariants(preset: str, players: int) -> None:
    for seed in SEEDS:
        table, _ = run_deal(preset, players, seed)
        result = table.result
        assert result is not None and table.scores is not None
        assert sum(table.scores) == 0
        assert table.turns <= TURN_LIMIT
        if result.reason is EndReason.WASH:
            assert set(table.scores) == {0}
        else:
            assert result.winner is not None
            assert table.standing(result.winner) in (Standing.ACTIVE, Standing.DECLARED)
        if result.reason is EndReason.LAST_ACTIVE:
            others = [s for s in range(players) if s != result.winner]
            assert all(table.standing(s) in (Standing.DROPPED, Standing.WRONG) for s in others)
            rules = table.rules
            for s in others:
                seat = result.seats[s]
                expected = {
                    DropKind.FIRST: rules.first_drop,
                    DropKind.MIDDLE: rules.middle_drop,
                    None: rules.wrong_declaration,
                }[seat.drop]
                assert seat.penalty == expected
        # The log, through JSON, replays to the same deal and the same scores.
        text = dump_log(table.log)
        assert load_log(text) == list(table.log)
        again = Table.replay(text)
        assert again.scores == table.scores and again.log == table.log


def test_random_deals_reach_every_ending_and_reshuffle() -> None:
    reasons: Counter[EndReason] = Counter()
    reshuffles = 0
    for players in (2, 4, 6):
        for seed in SEEDS:
            table, _ = run_deal("classic", players, seed)
            assert table.result is not None
            reasons[table.result.reason] += 1
            reshuffles += sum(isinstance(e, Reshuffled) for e in table.log)
    assert reasons[EndReason.LAST_ACTIVE] and reasons[EndReason.WASH]
    assert reshuffles > 0


def test_unseeded_deals_replay_from_their_recorded_shoe() -> None:
    rules = RuleSet().with_(turn_limit=300)
    table = Table(3, rules)
    head = table.log[0]
    assert isinstance(head, DealStarted) and head.shoe is not None
    bots = [RandomBot(s, drop_chance=0.0, declare_chance=0.0) for s in range(3)]
    while not table.over:
        seat = table.turn
        assert seat is not None
        table.apply(bots[seat].choose(table.view(seat), table.legal_actions()))
    assert any(isinstance(e, Reshuffled) for e in table.log)  # SystemRandom reshuffles, too
    again = Table.replay(dump_log(table.log))
    assert again.log == table.log
