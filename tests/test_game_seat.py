"""Seats: from 0 in data, "Seat N" from 1 in words, and a seat's words read back."""

from __future__ import annotations

import json

import pytest

from rummy21.env.render import seat_name
from rummy21.game import Seat, SeatError, Table
from rummy21.game.errors import NotYourTurnError
from rummy21.review import default_name


@pytest.mark.parametrize("number", range(6))
def test_a_seat_reads_back_from_its_words(number: int) -> None:
    seat = Seat(number)
    assert Seat.parse(str(seat)) == seat == number and str(seat) == f"Seat {number + 1}"
    assert json.dumps([seat]) == f"[{number}]"  # data: the number


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Seat 0", "seats are named from Seat 1, not 'Seat 0'"),
        ("seat", "a seat is named 'Seat N' (N from 1), not 'seat'"),
        ("Seat -1", "a seat is named 'Seat N' (N from 1), not 'Seat -1'"),
        ("Seat " + "9" * 30, "a seat is named 'Seat N' (N from 1), not 'Seat 999999999999999…'"),
    ],
)
def test_words_that_name_no_seat_say_why(text: str, said: str) -> None:
    with pytest.raises(SeatError) as refused:
        Seat.parse(text)
    assert str(refused.value) == said


@pytest.mark.parametrize("number", [-1, True, 1.0, "1"])
def test_a_seat_is_a_whole_number_from_0(number: object) -> None:
    with pytest.raises(SeatError):
        Seat(number)  # type: ignore[arg-type]


def test_every_interface_names_seat_0_seat_1() -> None:
    table = Table(players=2, seed=1)
    assert table.turn == 0
    with pytest.raises(NotYourTurnError, match="Seat 1 is to play"):
        table.draw("stock", seat=1)
    assert seat_name(0) == default_name(0) == "Seat 1"
