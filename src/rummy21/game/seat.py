"""Seats: numbered from 0 in data (the event log, views, JSON, the server's API), and said
"Seat N" from 1 in words, as the lobby counts them: seat 0 is Seat 1.

>>> seat = Seat(0)
>>> seat, str(seat), f"{seat} is to play", seat == 0, Seat.parse("seat 3")
(Seat(0), 'Seat 1', 'Seat 1 is to play', True, Seat(2))
"""

from __future__ import annotations

import re

__all__ = ["Seat", "SeatError", "seat_words"]


class SeatError(ValueError):
    """A seat number that is none (negative, not a whole number) or a text naming none."""


class Seat(int):
    """A seat's number (an ``int``, from 0) that says itself in words ("Seat 1")."""

    __slots__ = ()

    def __new__(cls, number: int) -> Seat:
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise SeatError(f"a seat is a whole number from 0, not {number!r}")
        return super().__new__(cls, number)

    @classmethod
    def parse(cls, text: str) -> Seat:
        """The seat a text names in words ("Seat 2", any case): the inverse of ``str``.

        >>> Seat.parse("Seat 0")
        Traceback (most recent call last):
        ...
        rummy21.game.seat.SeatError: seats are named from Seat 1, not 'Seat 0'
        """
        found = re.fullmatch(r"\s*seat\s+(\d{1,6})\s*", text, re.IGNORECASE)
        shown = text if len(text) <= 20 else text[:20] + "…"
        if found is None:
            raise SeatError(f"a seat is named 'Seat N' (N from 1), not {shown!r}")
        if int(found[1]) == 0:
            raise SeatError(f"seats are named from Seat 1, not {shown!r}")
        return cls(int(found[1]) - 1)

    def __str__(self) -> str:
        return f"Seat {int(self) + 1}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Seat({int(self)})"


def seat_words(seat: int | None) -> str:
    """A seat in words ("Seat 2" for seat 1; ``""`` for no seat): the namer of the narration
    when no player has a name.

    >>> seat_words(1), seat_words(None)
    ('Seat 2', '')
    """
    return "" if seat is None else str(Seat(seat))
