"""The Gymnasium environment: Gymnasium's checker, vector environments, rewards that are the
learner's deal score, seeded bots, and clear errors."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from rummy21.bots import RandomBot
from rummy21.env import ENV_ID, RummyEnv
from rummy21.env.actions import ACTIONS, DECLARE
from rummy21.game import IllegalActionError


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env() -> None:
    made = gymnasium.make(ENV_ID, players=3, opponents="random", illegal_action="penalize")
    check_env(made.unwrapped)


def test_sync_vector_env_runs_deals() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(ENV_ID, players=2, opponents="random") for _ in range(3)]
    )
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=[1, 2, 3])
    assert obs["observation"].shape[0] == 3 and obs["action_mask"].shape == (3, 109)
    ended = 0
    for _ in range(60):
        # After a deal's last step the mask is empty: the next step only resets (its action
        # is not read), as Gymnasium's default autoreset does.
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, _rewards, terminated, truncated, _ = envs.step(np.array(actions))
        ended += int((terminated | truncated).sum())
    envs.close()
    assert ended > 3


def play(e: RummyEnv, rng: random.Random) -> float:
    e.reset()
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(e.action_masks())))
        _obs, reward, terminated, truncated, _ = e.step(action)
        total += reward
        done = terminated or truncated
    return total


def test_the_reward_is_the_learners_deal_score_and_bots_are_seeded() -> None:
    rng = random.Random(1)
    e = RummyEnv(players=3, opponents="greedy,random", seat=1, turn_limit=60)
    twin = RummyEnv(players=3, opponents=["greedy", "random"], seat=1, turn_limit=60)
    e.reset(seed=9)
    twin.reset(seed=9)
    for _ in range(8):
        state = rng.getstate()
        total = play(e, rng)
        rng.setstate(state)
        assert play(twin, rng) == total
        scores = e.table.scores
        assert scores is not None and total == scores[1] and sum(scores) == 0
        assert e.table.log == twin.table.log


def test_illegal_actions_raise_or_cost_the_penalty() -> None:
    e = RummyEnv(players=2, opponents="random")
    e.reset(seed=4)
    with pytest.raises(IllegalActionError, match="not legal now"):
        e.step(60)
    soft = RummyEnv(players=2, opponents="random", illegal_action="penalize", illegal_penalty=2)
    obs, _ = soft.reset(seed=4)
    again, reward, terminated, truncated, info = soft.step(60)
    assert (reward, terminated, truncated, info) == (-2.0, False, False, {"illegal": True})
    assert np.array_equal(obs["observation"], again["observation"])


def test_deals_over_before_the_learners_turn_are_dealt_again() -> None:
    class Dropper(RandomBot):
        def __init__(self) -> None:
            super().__init__(seed=0, drop_chance=1.0)

    e = RummyEnv(players=3, opponents=[Dropper(), Dropper()], seat=2)
    _, info = e.reset(seed=1)
    assert info["skipped"] >= 1 and e.table.turn == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": "clever"}, "unknown bot 'clever'"),
        ({"seat": 2}, r"learner's seat is one of 0\.\.1"),
        ({"illegal_action": "ignore"}, "illegal_action is 'raise' or 'penalize'"),
        ({"opponents": [RandomBot(), RandomBot()]}, "give 1 bots"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RummyEnv(players=2, **kwargs)  # type: ignore[arg-type]


def test_ansi_render_shows_the_learners_hand() -> None:
    e = RummyEnv(players=2, opponents="random", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert text is not None and "Seat 1's hand" in text and "Stock " in text


def test_valid_declarations_only_offers_no_wrong_declaration() -> None:
    """With declarations="valid" a declaration is offered only when the engine would judge it
    valid; one the mask does not offer is refused, though the rules allow it."""
    e = RummyEnv(players=2, opponents="random", declarations="valid", turn_limit=60)
    rng = random.Random(3)
    offered = 0
    for deal in range(6):
        obs, _ = e.reset(seed=deal if deal == 0 else None)
        done = False
        while not done:
            mask = obs["action_mask"]
            for index in np.flatnonzero(mask[DECLARE:]):
                trial = copy.deepcopy(e.table)
                trial.declare(ACTIONS[DECLARE + index].finish)  # type: ignore[union-attr]
                assert trial.result is not None, "a declaration offered was wrong"
                offered += 1
            action = int(rng.choice(np.flatnonzero(mask)))
            obs, _, terminated, truncated, _ = e.step(action)
            done = terminated or truncated
    e.reset(seed=1)
    e.step(0)
    assert e.table.can_declare(e.table.hand(0)[0])
    with pytest.raises(IllegalActionError, match="only a valid declaration is"):
        e.step(DECLARE + e.table.hand(0)[0].index)
