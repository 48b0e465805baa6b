"""The Gymnasium environment: one seat learns, bots from the ladder play the others.

Registered as ``rummy21/Rummy21-v0`` when :mod:`rummy21.env` is imported. An episode is one
deal (the deals of a match, as in the PettingZoo environment); the bots move between the
learner's turns, and the reward, at the deal's end, is the learner's deal score
(``normalize_rewards``: divided by the full-count cap, 120 in ``classic``). A deal that ends
before the learner's first turn (every bot dropped) gives it no decision: it is dealt again,
and ``info["skipped"]`` counts such deals. ``action_masks()`` is the mask of the last
observation (what sb3-contrib's MaskablePPO reads).

``declarations="valid"`` offers a declaration only when the learner's cards hold a valid one,
and then with the card the engine's analysis puts aside (:mod:`.declaring`): wrong
declarations, legal but ruinous, are not offered. An index the rules refuse (or the mask does
not offer) raises :class:`~rummy21.game.IllegalActionError`; with
``illegal_action="penalize"`` it instead leaves the table as it is and costs
``illegal_penalty`` (``info["illegal"]`` is set) — for learners that do not read the mask.

>>> import gymnasium, rummy21.env
>>> e = gymnasium.make("rummy21/Rummy21-v0", players=3, opponents="greedy,random")
>>> obs, info = e.reset(seed=1)
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((769,), 3)
>>> obs, reward, terminated, truncated, info = e.step(2)   # drop at once: 30 points
>>> reward, terminated
(-30.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

import gymnasium
import numpy as np
import numpy.typing as npt

from rummy21.bots import Bot, make_bots, parse_bot_names
from rummy21.env.deals import Deals
from rummy21.env.observation import Encoder
from rummy21.env.render import render
from rummy21.env.spaces import Observation, action_space, apply_index, observation_space, observe
from rummy21.game.errors import IllegalActionError
from rummy21.game.events import EndReason
from rummy21.game.table import Table
from rummy21.ruleset import RuleSet

MAX_SKIPPED = 1000


class RummyEnv(gymnasium.Env[Observation, int]):
    """One learner at seat ``seat`` against ``opponents`` (bot names, repeated to fill the
    other seats, or :class:`~rummy21.bots.Bot` objects, one per other seat)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        opponents: str | Sequence[str | Bot] = "greedy",
        seat: int = 0,
        rules: str | RuleSet = "classic",
        turn_limit: int | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
        illegal_action: Literal["raise", "penalize"] = "raise",
        illegal_penalty: float = 1.0,
        declarations: Literal["all", "valid"] = "all",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action is 'raise' or 'penalize', not {illegal_action!r}")
        if declarations not in ("all", "valid"):
            raise ValueError(f"declarations is 'all' or 'valid', not {declarations!r}")
        self.declarations = declarations
        self._deals = Deals(players, rules, turn_limit)
        self.rules = self._deals.rules
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"the learner's seat is one of 0..{players - 1}, not {seat!r}")
        self.seat = seat
        self._names, self._bots = _opponents(opponents, players - 1)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self._scale = float(self.rules.full_count_cap) if normalize_rewards else 1.0
        self.observation_space = observation_space(players, self.rules.printed_jokers)
        self.action_space = cast("gymnasium.Space[int]", action_space())
        self._encoder = Encoder(players)
        self._table: Table | None = None
        self._last: Observation | None = None
        self._told = 0

    @property
    def table(self) -> Table:
        """The deal in play (full information: for tests and tools, never for the learner)."""
        if self._table is None:
            raise RuntimeError("call reset() first")
        return self._table

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal the next deal (with ``seed``: the first of the match seeded with it; named
        bots are made again, seeded from it) and let the bots play up to the learner's turn."""
        super().reset(seed=seed)
        if seed is not None and self._names is not None:
            others = make_bots(self._names, seed=seed)
            self._bots = others
        skipped = 0
        while True:
            self._table = self._deals.next(seed)
            seed = None
            self._told = 0
            self._play_bots()
            if not self.table.over:
                break
            skipped += 1
            if skipped >= MAX_SKIPPED:
                raise RuntimeError(f"{skipped} deals in a row ended before the learner's turn")
        return self._observe(), {"skipped": skipped}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.over:
            raise IllegalActionError("the deal is over: call reset()")
        try:
            if self.declarations == "valid" and self._offers(action) is False:
                raise IllegalActionError(
                    f"action {action} is not offered: with declarations='valid' only a valid "
                    "declaration is (see the mask)"
                )
            apply_index(table, action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            return self._observe(), -self.illegal_penalty, False, False, {"illegal": True}
        self._play_bots()
        reward, terminated, truncated = 0.0, False, False
        if table.over:
            result = table.result
            assert result is not None
            reward = result.scores[self.seat] / self._scale
            washed = result.reason is EndReason.WASH and table.turns >= (self.rules.turn_limit or 0)
            terminated, truncated = not washed, washed
        return self._observe(), reward, terminated, truncated, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (sb3-contrib's MaskablePPO asks for this)."""
        if self._last is None:
            raise RuntimeError("call reset() first")
        mask: npt.NDArray[np.int8] = self._last["action_mask"]
        return mask.astype(bool)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as the learner sees it, after what happened
        since the last call."""
        if self.render_mode is None:
            return None
        text, self._told = render(self.table.view(self.seat), self._told)
        return text

    # ------------------------------------------------------------------ inside
    def _play_bots(self) -> None:
        table = self.table
        while not table.over and table.turn != self.seat:
            seat = table.turn
            assert seat is not None
            bot = self._bots[(seat - self.seat - 1) % table.players]
            table.apply(bot.choose(table.view(seat), table.legal_actions()))

    def _observe(self) -> Observation:
        sound = self.declarations == "valid"
        self._last = observe(self.table, self.seat, self._encoder, sound)
        return self._last

    def _offers(self, action: Any) -> bool | None:
        """Whether the last mask offers ``action`` (``None``: no such index, which the engine
        refuses with its own message)."""
        if self._last is None or not isinstance(action, int | np.integer):
            return None
        if not 0 <= action < len(self._last["action_mask"]):
            return None
        return bool(self._last["action_mask"][action])


def _opponents(
    opponents: str | Sequence[str | Bot], seats: int
) -> tuple[list[str] | None, list[Bot]]:
    """The bots' names (``None`` when bots were given as objects) and the bots, in seat order
    after the learner."""
    if isinstance(opponents, str):
        names = parse_bot_names(opponents, seats)
        return names, make_bots(names)
    given = list(opponents)
    if all(isinstance(o, str) for o in given):
        names = parse_bot_names(",".join(str(o) for o in given), seats)
        return names, make_bots(names)
    if len(given) != seats or not all(isinstance(o, Bot) for o in given):
        raise ValueError(f"give {seats} bots (one per other seat) or bot names")
    return None, [o for o in given if isinstance(o, Bot)]
