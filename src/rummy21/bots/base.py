"""The bot interface: a bot sees a :class:`~rummy21.game.view.View` and picks a legal action;
one that wants to hear how each deal ended is also a :class:`DealWatcher`.

>>> from rummy21.bots.random_bot import RandomBot
>>> isinstance(RandomBot(seed=1), Bot)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rummy21.game.actions import Action
from rummy21.game.settlement import Settlement
from rummy21.game.view import View


@runtime_checkable
class Bot(Protocol):
    """Anything that can take a turn: ``choose`` returns one of ``legal_actions``."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        """Pick an action for ``view.seat`` (which is in turn) from ``legal_actions``."""
        ...


@runtime_checkable
class DealWatcher(Protocol):
    """A bot told the end of each deal it plays (:func:`~rummy21.bots.runner.tell_deal_over`),
    as a bot program is (:mod:`rummy21.bots.external`)."""

    def deal_over(self, view: View, result: Settlement) -> None:
        """The deal has ended: ``view`` is the seat's last view of it, ``result`` its
        settlement (of which the seat is shown :meth:`Settlement.public_dict`)."""
        ...
