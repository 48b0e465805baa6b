"""Declaring as the solver would: an optional narrowing of the legal actions for learners.

Any card may be finished with — a wrong declaration is legal and costs 120 points — so half
the legal actions after a draw are, nearly always, blunders a beginner makes at random. With
``declarations="valid"`` the Gymnasium environment lists a declaration only when the seat's
22 cards hold a valid one, and then only with the card the engine's analysis puts aside
(RULES §8, the card just taken from the open pile kept); a policy bot always plays so. This is
the analysis of the seat's own cards, asked of the engine, never a rule worked out here.

>>> from rummy21.game import Table
>>> from rummy21.game.actions import Declare
>>> table = Table(players=2, seed=1)
>>> _ = table.draw("stock")
>>> legal = table.legal_actions()
>>> sum(isinstance(a, Declare) for a in legal), sum(
...     isinstance(a, Declare) for a in sound_declarations(table.view(0), legal))
(18, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rummy21.analysis import Analysis, analyze
from rummy21.cards import Card
from rummy21.game.actions import Action, Declare
from rummy21.game.view import View
from rummy21.ruleset import RuleSet


@lru_cache(maxsize=64)
def hand_reading(hand: tuple[Card, ...], cut: Card, rules: RuleSet, keep: Card | None) -> Analysis:
    """The engine's analysis of a seat's hand (``keep``: the card just taken from the open
    pile), kept for the few hands a move asks about more than once."""
    return analyze(hand, cut, rules, keep=keep)


def sound_declarations(view: View, legal: Sequence[Action]) -> list[Action]:
    """``legal`` without the declarations the engine would judge wrong, and without the valid
    ones that put aside another card than the analysis does."""
    if not any(isinstance(a, Declare) for a in legal):
        return list(legal)
    reading = hand_reading(view.hand, view.cut, view.rules, view.blocked)
    finish = reading.discard if reading.valid else None
    return [a for a in legal if not isinstance(a, Declare) or a.finish == finish]
