"""The ``clairvoyant`` bot: the search, told the true deal — a research bound, never a player.

Every other bot sees only its seat's :class:`~rummy21.game.view.View`. This one is built on
the :class:`~rummy21.game.table.Table` itself: its one world is the deal as it really lies
(every other hand, the stock in its true order), and it plays the search's moves in that world
(:class:`~rummy21.bots.search.SearchBot`, the same candidates, playouts and rule for leaving
the expert's move). Its edge over the expert bounds what any honest bot could gain by guessing
the hidden cards better; the difference between it and the search is the headroom the search
leaves.

It is made only by the tournament (``--bots clairvoyant``), which builds it on each deal's
table: :func:`~rummy21.bots.check_bot_name` refuses its name, so no lobby, ``play`` or
``simulate`` seat, and no bot made by :func:`~rummy21.bots.make_bot`, can be one. This module
is the only one in :mod:`rummy21.bots` that reads a Table (``tests/test_bots_clairvoyant.py``
checks it).

>>> from rummy21.game import Table
>>> table = Table(players=3, seed=2)
>>> bot = ClairvoyantBot(table, seed=1)
>>> bot.choose(table.view(table.turn), table.legal_actions()) in table.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rummy21.bots.determinize import World
from rummy21.bots.search import SearchBot
from rummy21.cards import counts_of
from rummy21.game.actions import Action
from rummy21.game.table import Table
from rummy21.game.view import View

CLAIRVOYANT = "clairvoyant"
"""The research bot's name, known to the tournament alone."""


def true_world(table: Table) -> World:
    """The deal as it lies: every seat's hand (empty for seats out of it) and the stock, top
    card first — the :class:`~rummy21.bots.determinize.World` no View can give.

    >>> from rummy21.game import Table
    >>> table = Table(players=2, seed=4)
    >>> world = true_world(table)
    >>> [sum(h) for h in world.hands], world.stock[0] == table.zones()["stock"][0]
    ([21, 21], True)
    """
    hands = tuple(tuple(counts_of(table.hand(seat))) for seat in range(table.players))
    return World(hands, tuple(table.zones()["stock"]))


class ClairvoyantBot(SearchBot):
    """The search with the true deal as its one world; see the module docstring."""

    name = CLAIRVOYANT

    def __init__(self, table: Table, seed: int | None = None, **search: Any) -> None:
        super().__init__(samples=1, seed=seed, **search)
        self.table = table

    def _worlds(self, view: View) -> Iterator[World]:
        yield true_world(self.table)

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        if view.seat != self.table.turn:
            raise ValueError(
                f"the clairvoyant bot of this table plays the seat in turn, not Seat "
                f"{view.seat + 1}"
            )
        return super().choose(view, legal_actions)
