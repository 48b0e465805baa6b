"""The errors the game engine raises: all subclass :class:`ValueError` (as python-chess does).

>>> issubclass(IllegalActionError, ValueError)
True
"""

from __future__ import annotations


class GameError(ValueError):
    """Base of every error raised by :mod:`rummy21.game`."""


class SetupError(GameError):
    """A table that cannot be set up: wrong number of players, dealer, or shoe."""


class IllegalActionError(GameError):
    """An action the rules do not allow now. The message says why; the table is unchanged."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat that is not in turn; :attr:`turn` is the seat that is (so that an
    interface can name that player in its own words)."""

    def __init__(self, message: str, turn: int) -> None:
        super().__init__(message)
        self.turn = turn


class ReplayError(GameError):
    """An event log that is malformed or does not reproduce itself when replayed."""
