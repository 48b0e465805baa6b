"""A bot that plays random legal moves, seeded: the baseline and the engine's fuzzer.

It draws from the stock or the open pile at random, sometimes drops (``drop_chance`` per turn),
sometimes declares — almost always wrongly — (``declare_chance``), and otherwise discards a
random card. It never looks at the solver, so it is fast.

>>> from rummy21.game import Table
>>> table = Table(players=2, seed=9)
>>> bot = RandomBot(seed=1)
>>> str(bot.choose(table.view(0), table.legal_actions()))
'draw stock'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummy21.game.actions import Action, Declare, Discard, Draw, Drop
from rummy21.game.view import View


class RandomBot:
    """Uniformly random among draws, then among discards; drops and declares now and then."""

    name = "random"

    def __init__(
        self, seed: int | None = None, drop_chance: float = 0.02, declare_chance: float = 0.01
    ) -> None:
        self._rng = random.Random(seed)
        self.drop_chance = drop_chance
        self.declare_chance = declare_chance

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        draws = [a for a in legal_actions if isinstance(a, Draw)]
        if draws:
            if (
                any(isinstance(a, Drop) for a in legal_actions)
                and self._rng.random() < self.drop_chance
            ):
                return Drop()
            return self._rng.choice(draws)
        declares = [a for a in legal_actions if isinstance(a, Declare)]
        if declares and self._rng.random() < self.declare_chance:
            return self._rng.choice(declares)
        discards = [a for a in legal_actions if isinstance(a, Discard)]
        return self._rng.choice(discards or list(legal_actions))
