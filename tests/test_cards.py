"""Cards and notation (RULES §1): parsing, printing, copies, the canonical shoe; hands as
values that round-trip their text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy21.cards import (
    ALL_CARDS,
    Card,
    CardError,
    Hand,
    MissingCard,
    canonical_shoe,
    check_copies,
    counts_of,
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


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30), st.randoms())
def test_a_hand_round_trips_its_text_in_any_order(cards: list[Card], rng: random.Random) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    hand = Hand.of(shuffled)
    assert Hand.parse(str(hand)) == hand == Hand.of(cards) == Hand(tuple(counts_of(cards)))
    assert Hand.parse(hand.pretty()) == hand and repr(hand) == f"Hand({str(hand)!r})"
    assert list(hand) == sorted(cards) and len(hand) == len(cards)
    assert hand.counts == tuple(counts_of(cards)) and hash(hand) == hash(Hand.of(cards))
    for card in ALL_CARDS:
        assert hand.count(card) == cards.count(card) and (card in hand) == (card in cards)


def test_a_hand_adds_and_takes_cards() -> None:
    hand = Hand.parse("2S 3S 9H 9H")
    assert hand.plus(Card.parse("JK"), Card.parse("2S")) == Hand.parse("2S 2S 3S 9H 9H JK")
    assert hand.minus(parse_cards("9H 3S")) == Hand.parse("2S 9H")
    with pytest.raises(MissingCard, match=r"^9H is not there \(one copy too many\)$"):
        hand.minus(parse_cards("9H 9H 9H"))
    assert str(Hand.parse("")) == "" and len(Hand.parse("")) == 0 and not Hand.parse("")


@pytest.mark.parametrize(
    ("counts", "said"),
    [
        ((0,) * 52, "a count vector has 53 numbers, one per kind of card, not 52"),
        ((0,) * 52 + (-1,), "a count of copies is a whole number, not -1"),
        ((0,) * 52 + (1.0,), "a count of copies is a whole number, not 1.0"),
        ((True,) + (0,) * 52, "a count of copies is a whole number, not True"),
    ],
)
def test_a_hand_of_impossible_counts_is_refused(counts: tuple[int, ...], said: str) -> None:
    with pytest.raises(CardError) as refused:
        Hand(counts)
    assert str(refused.value) == said


def test_a_hand_of_many_copies_is_a_hand_the_rules_then_refuse() -> None:
    """A hand holds any multiset (a reading checks it against the shoe: check_copies)."""
    hand = Hand((20,) + (0,) * 52)
    assert len(hand) == 20 and str(hand) == " ".join(["AS"] * 20)
    with pytest.raises(CardError, match="20 copies of AS, but the shoe holds only 3"):
        check_copies(hand, 3)


def test_a_hand_is_frozen() -> None:
    hand = Hand.parse("AS")
    with pytest.raises(AttributeError):
        hand.counts = (0,) * 53  # type: ignore[misc]
