"""The PettingZoo environment: PettingZoo's own checks, rewards that are the engine's deal
scores, clear errors, and the text picture."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from rummy21.env.aec import RummyAEC, env, raw_env
from rummy21.game import IllegalActionError, Match
from rummy21.game.events import EndReason
from rummy21.ruleset import RuleSet


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("players", "rules"), [(2, "classic"), (4, "adda52"), (6, "classic")])
def test_pettingzoo_api_test(players: int, rules: str) -> None:
    api_test(env(players=players, rules=rules, turn_limit=80), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3, turn_limit=80), num_cycles=100)


def play(e: RummyAEC, rng: random.Random) -> dict[str, float]:
    """Play one deal with uniformly random legal actions; the rewards each agent collected."""
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("players", [2, 3, 5])
def test_rewards_are_the_engines_deal_scores(players: int) -> None:
    rng = random.Random(players)
    e = raw_env(players=players, turn_limit=40)
    scaled = raw_env(players=players, turn_limit=40, normalize_rewards=True)
    reasons = set()
    for deal in range(25):
        e.reset(seed=deal if deal == 0 else None)
        scaled.reset(seed=deal if deal == 0 else None)
        state = rng.getstate()
        total = play(e, rng)
        rng.setstate(state)
        total_scaled = play(scaled, rng)
        scores = e.table.scores
        assert scores is not None and e.table.scores == scaled.table.scores
        assert [total[a] for a in e.possible_agents] == list(scores)
        assert sum(scores) == 0
        assert [total_scaled[a] * 120 for a in e.possible_agents] == pytest.approx(list(scores))
        assert e.agents == []
        reasons.add(e.table.result.reason)  # type: ignore[union-attr]
    assert EndReason.LAST_ACTIVE in reasons


def test_episodes_are_the_deals_of_a_match() -> None:
    e = raw_env(players=3, rules="adda52", turn_limit=50)
    match = Match(players=3, rules=e.rules, seed=11)
    e.reset(seed=11)
    for _ in range(3):
        table = match.new_deal()
        assert (e.table.seed, e.table.dealer) == (table.seed, table.dealer)
        assert e.table.hand(0) == table.hand(0)
        while not table.over:
            table.drop()
        match.record(table)
        e.reset()


def test_a_deal_washed_by_the_turn_limit_is_truncated() -> None:
    e = raw_env(players=2, turn_limit=4)
    e.reset(seed=3)
    for _ in range(4):
        drawn = 0
        e.step(drawn)  # draw from the stock
        card = e.table.drawn
        assert card is not None
        e.step(3 + card.index)  # discard it
    assert e.table.over and e.table.result.reason is EndReason.WASH  # type: ignore[union-attr]
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert set(e.rewards.values()) == {0.0}


def test_illegal_actions_are_clear_errors_and_change_nothing() -> None:
    e = raw_env(players=2)
    e.reset(seed=1)
    before = e.observe("player_0")["observation"].copy()
    for bad, why in [
        (3, r"action 3 \(discard AS\) is not legal now: draw a card first"),
        (109, r"an action is an integer 0\.\.108, not 109"),
        (-1, "an action is an integer"),
        ("draw", "an action is an integer"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            e.step(bad)  # type: ignore[arg-type]
    assert np.array_equal(e.observe("player_0")["observation"], before)
    assert e.agent_selection == "player_0"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 7}, "seats 2 to 6 players, not 7"),
        ({"rules": "gin"}, "unknown rule set 'gin'"),
        ({"turn_limit": 0}, "turn limit is a whole number"),
        ({"render_mode": "human"}, "render_mode is one of"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_a_rule_set_object_is_accepted() -> None:
    e = raw_env(players=2, rules=RuleSet().with_(max_set_size=3))
    e.reset(seed=1)
    assert e.rules.max_set_size == 3 and e.rules.turn_limit == 500


def test_ansi_render_tells_the_table_as_the_terminal_does() -> None:
    e = raw_env(players=3, render_mode="ansi")
    e.reset(seed=2)
    first = e.render()
    assert first is not None
    assert first.startswith("Cut card ") and "Stock 95   Open pile" in first
    assert "Seat 2: 21 cards   Seat 3: 21 cards" in first and "Seat 1's hand, 21 cards:" in first
    e.step(2)
    second = e.render()
    assert second is not None and second.startswith("Seat 1 drops (first drop, 30 points).")
    assert "Seat 1: dropped (first)" in second
    assert raw_env(players=2).render() is None
