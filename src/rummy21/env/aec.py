"""The PettingZoo AEC environment: one deal an episode, every seat an agent.

Agents ``player_0`` … ``player_{n-1}`` are the seats; the agent selected is the seat in turn.
A seat that drops or declares wrongly stays among the agents (it is simply never in turn
again) until the deal ends; then every agent is terminated (truncated instead when the turn
limit washed the deal) and receives its deal score, which sum to zero
(``normalize_rewards``: divided by the rule set's full-count cap, 120 in ``classic``).
An action the rules refuse now raises :class:`~rummy21.game.IllegalActionError` naming it.

>>> e = env(players=3, turn_limit=100)
>>> e.reset(seed=7)
>>> e.agent_selection, e.observe("player_0")["action_mask"][:3].tolist()
('player_0', [1, 1, 1])
>>> e.step(2)                               # player_0 drops
>>> e.agent_selection
'player_1'
>>> e.step(60)
Traceback (most recent call last):
...
rummy21.game.errors.IllegalActionError: action 60 (declare 5S) is not legal now: draw a card ...
"""

from __future__ import annotations

from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummy21.env.deals import Deals
from rummy21.env.observation import Encoder
from rummy21.env.render import render
from rummy21.env.spaces import Observation, action_space, apply_index, observation_space, observe
from rummy21.game.events import EndReason
from rummy21.game.table import Table
from rummy21.ruleset import RuleSet

RENDER_MODES = ("ansi",)


class RummyAEC(AECEnv[str, Observation, int]):
    """21 Card Rummy for 2–6 seats under any rule set (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "rummy21_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: str | RuleSet = "classic",
        turn_limit: int | None = None,
        render_mode: str | None = None,
        normalize_rewards: bool = False,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}")
        self._deals = Deals(players, rules, turn_limit)
        self.rules = self._deals.rules
        self.render_mode = render_mode
        self._scale = float(self.rules.full_count_cap) if normalize_rewards else 1.0
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: observation_space(players, self.rules.printed_jokers) for a in self.possible_agents
        }
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self._encoder = Encoder(players)
        self._table: Table | None = None
        self._told = 0

    # ------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def table(self) -> Table:
        """The deal in play (full information: for tests and tools, never for agents)."""
        if self._table is None:
            raise RuntimeError("call reset() first")
        return self._table

    # ---------------------------------------------------------- the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the next deal (with ``seed``: the first deal of the match seeded with it)."""
        self._table = table = self._deals.next(seed)
        self._told = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        assert table.turn is not None
        self.agent_selection = self.possible_agents[table.turn]

    def observe(self, agent: str) -> Observation:
        return observe(self.table, self._seat[agent], self._encoder)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        apply_index(table, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if table.over:
            result = table.result
            assert result is not None
            washed = result.reason is EndReason.WASH and table.turns >= (self.rules.turn_limit or 0)
            for a, score in zip(self.agents, result.scores, strict=True):
                self.rewards[a] = score / self._scale
                self.terminations[a] = not washed
                self.truncations[a] = washed
        else:
            assert table.turn is not None
            self.agent_selection = self.possible_agents[table.turn]
        self._accumulate_rewards()

    # ---------------------------------------------------------------- output
    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table for the seat in turn (for seat 0 once the
        deal is over), after what happened since the last call."""
        if self.render_mode is None:
            return None
        table = self.table
        seat = table.turn if table.turn is not None else 0
        text, self._told = render(table.view(seat), self._told)
        return text

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> RummyAEC:
    """The environment without PettingZoo's wrappers."""
    return RummyAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment, wrapped as PettingZoo's classic games are (the order of calls is
    enforced): ``env(players=4, rules="classic", turn_limit=300, render_mode="ansi")``."""
    return wrappers.OrderEnforcingWrapper(RummyAEC(**kwargs))
