"""Groups (RULES §3–§4): every edge the rules name, with the reasons given for non-groups; a
group's text, read back."""

from __future__ import annotations

import random

import pytest
from handgen import near_complete, random_deal, rule_variants
from hypothesis import given
from hypothesis import strategies as st

from rummy21.analysis import analyze
from rummy21.cards import CardError, parse_cards
from rummy21.groups import Group, GroupKind, InvalidGroup, classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.suggest import suggest

RULES = RuleSet()


def kind(cards: str, cut: str, rules: RuleSet = RULES) -> str | None:
    try:
        return classify(parse_cards(cards), Jokers.from_cut(cut), rules).kind.value
    except InvalidGroup:
        return None


@pytest.mark.parametrize(
    "cards,cut,expected",
    [
        ("QS KS AS", "5H", "pure_sequence"),
        ("AS 2S 3S", "5H", "pure_sequence"),
        ("KS AS 2S", "5H", None),
        ("2H 3H 4H", "3C", "pure_sequence"),  # wild 3H in its own place
        ("2H 3H 4H", "3H", "pure_sequence"),  # the cut card itself, natural
        ("4H 5H 6H", "5H", "pure_sequence"),  # a marriage is also a pure run
        ("2H JK 4H", "9C", "impure_sequence"),
        ("2H 9C 4H", "9C", "impure_sequence"),  # 9C wild fills the gap
        ("JK QH KH", "9C", "impure_sequence"),
        ("QH KH JK", "9C", "impure_sequence"),  # joker as Ace high
        ("KH AH JK", "9C", "impure_sequence"),  # joker as Queen
        ("8S 8H 8D", "5H", "set"),
        ("8S 8H 8D 8C", "5H", "set"),
        ("8S 8H 8D 8C JK", "5H", None),  # at most 4 cards
        ("8S 8S 8H", "5H", None),  # identical cards never share a set
        ("8S 8S 8H", "7S", "set"),  # unless one 8S is a joker (upper)
        ("8S JK JK", "5H", "impure_sequence"),  # a set too: one natural is enough
        ("6D 6D 6D", "5H", "tunnela"),
        ("5H 5H 5H", "5H", "tunnela"),  # wild cards acting as themselves
        ("JK JK JK", "5H", "tunnela"),
        ("6D 6D KD", "KC", None),  # jokers never complete a tunnela
        ("6D 6D", "5H", "dublee"),
        ("5H 5H", "5H", "dublee"),
        ("JK JK", "5H", "dublee"),
        ("6D JK", "5H", None),  # a joker never completes a dublee
        ("5C 5D JK", "5H", "joker_group"),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "5H", "pure_sequence"),
    ],
)
def test_kinds(cards: str, cut: str, expected: str | None) -> None:
    assert kind(cards, cut) == expected


def test_joker_group_can_be_switched_off() -> None:
    rules = RULES.with_(joker_groups=False)
    assert kind("5C 5D JK", "5H", rules) in ("set", "impure_sequence")
    assert kind("JK JK 6H 5D", "5H", rules) == "impure_sequence"  # 6H plays as itself
    assert kind("JK JK JK JK", "5H", rules.with_(printed_jokers=6)) is None
    assert kind("JK JK JK", "5H", rules) == "tunnela"


def test_set_size_parameter() -> None:
    assert kind("8S 8H 8D 8C", "5H", RULES.with_(max_set_size=3)) is None


def test_printed_joker_cut_makes_aces_wild() -> None:
    jokers = Jokers.from_cut("JK")
    assert [str(c) for c in jokers.value_cards] == ["AS", "2S", "KS"]
    assert jokers.is_joker(parse_cards("AH")[0]) and jokers.is_joker(parse_cards("KS")[0])
    assert not jokers.is_joker(parse_cards("KH")[0])
    assert kind("AH 9C 10C", "JK") == "impure_sequence"


@pytest.mark.parametrize(
    "cards,reason",
    [
        ("KS AS 2S", "K-A-2 is not a sequence"),
        ("8S 8S 8H", "a set needs different suits: 8S appears twice"),
        ("2H 3H", "two cards form only a dublee"),
        ("2H", "at least 3 cards"),
        ("2H 7H 9H", "not enough jokers"),
        ("2H 3S 9D", "neither a sequence nor a set"),
        ("8S 8H 8D 8C 8S", "at most 4 cards"),
    ],
)
def test_reasons(cards: str, reason: str) -> None:
    text = explain(parse_cards(cards), Jokers.from_cut("5H"), RULES)
    assert text is not None and reason in text


def test_kinds_are_pure_or_not() -> None:
    assert GroupKind.TUNNELA.is_pure and GroupKind.PURE_SEQUENCE.is_pure
    assert not GroupKind.SET.is_pure and not GroupKind.DUBLEE.is_meld


# ------------------------------------------------------------------ the text of a group


def shown_groups_of(seed: int) -> list[tuple[Group, Jokers, RuleSet]]:
    """Every group an analysis or a suggestion shows for a few generated hands."""
    rng = random.Random(f"groups/text/{seed}")
    found = []
    for rules in rule_variants("classic", "adda52").values():
        for make in (random_deal, near_complete):
            cut, hand = make(rng, rules) if make is random_deal else near_complete(rng, rules, None)
            jokers = Jokers.from_cut(cut)
            reading = analyze(hand, jokers, rules)
            layout = suggest(hand, jokers, rules)
            for group in (*reading.groups, *reading.penalty.groups, *layout.groups):
                found.append((group, jokers, rules))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_every_group_shown_reads_back_from_its_text(seed: int) -> None:
    groups = shown_groups_of(seed)
    assert groups
    for group, jokers, rules in groups:
        assert Group.parse(str(group), jokers, rules) == group, str(group)
        shuffled = list(group.cards)
        random.Random(str(group)).shuffle(shuffled)
        again = Group.parse(" ".join(map(str, shuffled)), jokers, rules)
        assert again.kind is group.kind and sorted(again.cards) == sorted(group.cards)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("2S 3S", "two cards form only a dublee, and 2S 3S are not identical"),
        ("set: 2S 3S 4S", "2S 3S 4S form a pure sequence, not a set"),
        ("dublee: 9H 9H 9H", "9H 9H 9H form a tunnela, not a dublee"),
        ("pure_sequence: 2S 5H 4S", "2S 5H 4S form an impure sequence"),
        ("", "an empty group"),
        ("straight: 2S 3S 4S", "'straight' is no kind of group: pure_sequence, impure_sequence"),
    ],
)
def test_a_text_that_names_no_such_group_says_why(text: str, said: str) -> None:
    with pytest.raises(InvalidGroup) as refused:
        Group.parse(text, Jokers.from_cut("5H"), RULES)
    assert str(refused.value).startswith(said)


@given(st.text(max_size=40))
def test_any_text_is_a_group_or_a_reason(text: str) -> None:
    try:
        group = Group.parse(text, Jokers.from_cut("5H"), RULES)
    except (InvalidGroup, CardError) as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert Group.parse(str(group), Jokers.from_cut("5H"), RULES) == group
