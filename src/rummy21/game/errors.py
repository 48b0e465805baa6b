"""The errors the game engine raises: all subclass :class:`ValueError` (as python-chess does).

A text that is no action at all (:class:`ActionSyntaxError`, python-chess's
``InvalidMoveError``) is not a move the rules refuse (:class:`IllegalActionError`, its
``IllegalMoveError``); interfaces answer them differently. A refusal carries a ``code`` and
its ``values`` besides the sentence, so that an interface can say it in its own words
without reading the sentence.

>>> issubclass(IllegalActionError, ValueError), issubclass(ActionSyntaxError, IllegalActionError)
(True, False)
>>> NotYourTurnError("it is not your turn: Seat 3 is to play", 2).values
{'turn': 2}
"""

from __future__ import annotations

from typing import Any


class GameError(ValueError):
    """Base of every error raised by :mod:`rummy21.game`."""


class SetupError(GameError):
    """A table that cannot be set up: wrong number of players, dealer, or shoe."""


class ActionSyntaxError(GameError):
    """Action text that cannot be read: an unknown verb, a missing or unknown card. Not a
    move at all, so nothing the rules could allow."""

    code = "syntax"


class IllegalActionError(GameError):
    """An action the rules do not allow now. The message says why; the table is unchanged.
    ``code`` names the rule that refuses it (``"illegal"`` when no more precise one is
    given), ``values`` what the refusal is about."""

    def __init__(self, message: str, code: str = "illegal", **values: Any) -> None:
        super().__init__(message)
        self.code, self.values = code, values


class NotYourTurnError(IllegalActionError):
    """An action by a seat that is not in turn; :attr:`turn` is the seat that is (0-based,
    as the engine's data; "Seat N" from 1 in the sentence), so that an interface can name
    that player in its own words."""

    def __init__(self, message: str, turn: int) -> None:
        super().__init__(message, "not_your_turn", turn=turn)
        self.turn = turn


class ReplayError(GameError):
    """An event log that is malformed or does not reproduce itself when replayed."""
