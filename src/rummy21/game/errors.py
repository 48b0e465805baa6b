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


class ReplayError(GameError):
    """An event log that is malformed or does not reproduce itself when replayed."""
