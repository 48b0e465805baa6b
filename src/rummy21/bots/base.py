"""The bot interface: a bot sees a :class:`~rummy21.game.view.View` and picks a legal action.

>>> from rummy21.bots.random_bot import RandomBot
>>> isinstance(RandomBot(seed=1), Bot)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rummy21.game.actions import Action
from rummy21.game.view import View


@runtime_checkable
class Bot(Protocol):
    """Anything that can take a turn: ``choose`` returns one of ``legal_actions``."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        """Pick an action for ``view.seat`` (which is in turn) from ``legal_actions``."""
        ...
