"""Cards and notation (RULES §1): parsing, printing, copies, the canonical shoe."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy21.cards import (
    ALL_CARDS,
    Card,
    CardError,
    canonical_shoe,
    check_copies,
    format_cards,
    parse_cards,
)


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30))
def test_print_parse_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, pretty=True)) == cards


@given(st.sampled_from(ALL_CARDS), st.sampled_from([str.lower, str.upper, str.title]))
def test_parse_is_case_insensitive(card: Card, case: object) -> None:
    assert Card.parse(case(str(card))) == card  # type: ignore[operator]


@pytest.mark.parametrize(
    "token,expected", [("T♠", "10S"), ("10h", "10H"), ("jk", "JK"), ("q♦", "QD"), ("a♣", "AC")]
)
def test_accepted_forms(token: str, expected: str) -> None:
    assert str(Card.parse(token)) == expected


@pytest.mark.parametrize("token", ["1S", "11H", "ZZ", "AX", "", "JKK", "10", "S"])
def test_bad_tokens_name_the_token(token: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(token)
    with pytest.raises(ValueError):  # typed errors are ValueErrors
        Card.parse(token)


def test_error_names_the_bad_token_in_a_list() -> None:
    with pytest.raises(CardError, match="'QX'"):
        parse_cards("AS 2S QX 4S")


def test_points() -> None:
    assert [Card.parse(t).points for t in ["AS", "2H", "9D", "10C", "JS", "QS", "KS", "JK"]] == [
        10,
        2,
        9,
        10,
        10,
        10,
        10,
        0,
    ]


def test_copies() -> None:
    check_copies(parse_cards("AS AS AS JK JK JK"), 3)
    with pytest.raises(CardError, match="4 copies of AS"):
        check_copies(parse_cards("AS AS AS AS"), 3)
    with pytest.raises(CardError, match="copies of JK"):
        check_copies(parse_cards("JK JK JK JK"), 3)
    check_copies(parse_cards("JK JK JK JK JK JK"), 6)


def test_canonical_shoe_order() -> None:
    shoe = canonical_shoe(3)
    assert len(shoe) == 159
    assert [str(c) for c in shoe[:3]] == ["AS", "2S", "3S"]
    assert str(shoe[13]) == "AH" and str(shoe[52]) == "AS" and str(shoe[-1]) == "JK"
    assert shoe[:52] == sorted(shoe[:52])
