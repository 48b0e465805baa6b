"""The distance to a valid declaration: the fewest cards to replace (rummy21.distance).

Every answer is checked by making its replacements and reading the new hand with the
independent reference of the tests; the count is checked against trying every single
replacement (a hand at distance 2 or more has none that works, one at distance 1 has one).
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummy21.analysis import HandError, Option, analyze_counts
from rummy21.cards import TYPE_COUNT, Card, CardError, Hand, check_copies, counts_of, parse_cards
from rummy21.distance import Distance, distance
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref
from handgen import near_complete, random_deal

CLASSIC = RuleSet()


def replaced(hand: list[Card], found: Distance) -> list[Card]:
    """The hand after ``found``'s replacements (checking that they can be made)."""
    left = Counter(hand)
    left.subtract(found.remove)
    assert min(left.values(), default=0) >= 0, "removes a card the hand does not hold"
    new = list(left.elements()) + list(found.add)
    assert len(found.remove) == len(found.add) == found.cards
    check_copies(new, CLASSIC.printed_jokers)
    return new


def assert_reaches(hand: list[Card], cut: Card, found: Distance, rules: RuleSet = CLASSIC) -> None:
    assert found.cards is not None
    new = replaced(hand, found)
    assert len(new) == rules.hand_size
    assert found.option in ref.analyse(new, cut, rules).options


def valid_after_one(hand: list[Card], cut: Card, rules: RuleSet = CLASSIC) -> bool:
    """Whether some single replacement makes ``hand`` valid (tried one by one)."""
    counts = counts_of(hand)
    jokers = Jokers.from_cut(cut)
    for out in {c.index for c in hand}:
        counts[out] -= 1
        for into in range(TYPE_COUNT):
            top = rules.printed_jokers if into == TYPE_COUNT - 1 else 3
            if into == out or counts[into] >= top:
                continue
            counts[into] += 1
            valid = analyze_counts(counts, jokers, rules).valid
            counts[into] -= 1
            if valid:
                counts[out] += 1
                return True
        counts[out] += 1
    return False


def test_a_tunnela_may_need_a_bought_card_after_the_pure_groups() -> None:
    """Jokers never complete a tunnela: 8C 8C needs a third 8C, pure groups or not."""
    rules = RuleSet.preset("adda52").with_(
        hand_size=6, pure_groups_needed=1, dublees_needed=4, jokers_needed=5, joker_groups=False
    )
    found = distance(Hand.parse("3H 3H 7D KD 8C 8C"), Jokers.from_cut("6H"), rules)
    assert (found.cards, found.remove, found.add) == (
        2,
        tuple(parse_cards("7D KD")),
        tuple(parse_cards("3H 8C")),
    )


@pytest.mark.parametrize(
    ("cards", "cut", "expected", "option"),
    [
        # already valid
        ("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C", "7D", 0, "A"),
        # one card away (QD goes, a joker comes in)
        ("5S KS AH 5H 6H 7H 8H JH QH KH AD 2D 3D 4D 5D 6D 7D QD 4C 5C 6C", "KC", 1, "A"),
        # two pure groups only: a bought 10D makes 9D-10D-JD pure (KS, a joker, goes out)
        ("2S 3S 4S 6H 7H 8H 9D JD KS 5C 5D 5H QC QD QH 8S 8D 8C 10H 10S 10C", "KC", 1, "A"),
        ("2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5D 5C QC KC 2H 3H 4D 9S 10C JH AC", "KH", 3, "A"),
        # eight jokers already: option D, though the rest is a mess
        ("5S 5H 5D 5C 5S 5H 4H 6H AS 3D 8C JD KS 2C 9H QC 7D 10S JH 3C KD", "5H", 0, "D"),
        # seven dublees and singles: one pair more
        ("2S 2S 4H 4H 6D 6D 8C 8C 10S 10S QH QH KD KD AC 3S 5H 7D 9C JS QS", "2C", 1, "C"),
    ],
)
def test_worked_hands(cards: str, cut: str, expected: int, option: str) -> None:
    found = distance(cards, cut)
    assert (found.cards, found.option) == (expected, option)
    assert_reaches(parse_cards(cards), Card.parse(cut), found)


def test_two_tunnelas_and_a_pair_are_one_card_from_option_b() -> None:
    hand = "9S 9S 9S 4H 4H 4H 7D 7D AS 3C 5C 8D JS KH 2D 6H 10C QS KC 3H 8S"
    found = distance(hand, "AD")
    assert found.cards == 1 and found.option in ("A", "B")
    assert_reaches(parse_cards(hand), Card.parse("AD"), found)


@pytest.mark.parametrize("seed", range(12))
def test_near_complete_hands(seed: int) -> None:
    rng = random.Random(seed)
    cut, hand = near_complete(rng, CLASSIC, None)
    found = distance(hand, cut, limit=3)
    if found.cards is None:
        assert found.more_than == 3 and not valid_after_one(hand, cut)
        return
    assert_reaches(hand, cut, found)
    if found.cards == 0:
        assert analyze_counts(counts_of(hand), Jokers.from_cut(cut), CLASSIC).valid
    else:
        assert not analyze_counts(counts_of(hand), Jokers.from_cut(cut), CLASSIC).valid
        assert valid_after_one(hand, cut) == (found.cards == 1)


@pytest.mark.parametrize("seed", range(4))
def test_random_deals(seed: int) -> None:
    cut, hand = random_deal(random.Random(100 + seed), CLASSIC)
    found = distance(hand, cut, limit=2)
    if found.cards is not None:
        assert_reaches(hand, cut, found)
    assert valid_after_one(hand, cut) == (found.cards is not None and found.cards <= 1)


def test_limit_says_more_than() -> None:
    hand = "2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5D 5C QC KC 2H 3H 4D 9S 10C JH AC"
    found = distance(hand, "KH", limit=2)
    assert found.cards is None and found.more_than == 2 and not found.remove


def test_to_dict() -> None:
    found = distance("5S KS AH 5H 6H 7H 8H JH QH KH AD 2D 3D 4D 5D 6D 7D QD 4C 5C 6C", "KC")
    assert found.to_dict()["cards"] == 1 and len(found.to_dict()["add"]) == 1


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        ("AS 2S 3S", HandError),
        ("AS AS AS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H", CardError),
        ("XX 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H 8H", CardError),
    ],
)
def test_bad_hands_are_refused(cards: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        distance(cards, "5H")


def test_negative_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        distance("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C", "7D", limit=-1)


# Small hands (six cards, one pure group needed) are tried exhaustively: every way to
# replace up to two cards.
SMALL = CLASSIC.with_(hand_size=6, pure_groups_needed=1, dublees_needed=4, jokers_needed=5)
SMALL_HANDS = int(__import__("os").environ.get("RUMMY21_DISTANCE_N", "8"))


def fewest_by_trying(counts: list[int], jokers: Jokers, rules: RuleSet, most: int) -> int | None:
    """The fewest replacements (up to ``most``) found by trying every one."""
    if analyze_counts(counts, jokers, rules).valid:
        return 0
    held = [i for i in range(TYPE_COUNT) if counts[i]]
    for d in range(1, most + 1):
        for outs in itertools.combinations_with_replacement(held, d):
            after = list(counts)
            for i in outs:
                after[i] -= 1
            if min(after) < 0:
                continue
            for ins in itertools.combinations_with_replacement(range(TYPE_COUNT), d):
                new = list(after)
                for i in ins:
                    new[i] += 1
                if max(new[:-1]) > 3 or new[-1] > rules.printed_jokers:
                    continue
                if analyze_counts(new, jokers, rules).valid:
                    return d
    return None


@pytest.mark.parametrize("seed", range(SMALL_HANDS))
def test_small_hands_against_trying_every_replacement(seed: int) -> None:
    rng = random.Random(seed)
    shoe = [i for i in range(52) for _ in range(3)] + [TYPE_COUNT - 1] * 3
    counts = [0] * TYPE_COUNT
    for i in rng.sample(shoe, SMALL.hand_size):
        counts[i] += 1
    cut = Card(rng.randrange(TYPE_COUNT))
    jokers = Jokers.from_cut(cut)
    found = distance(Hand(tuple(counts)), jokers, SMALL, limit=2)
    assert found.cards == fewest_by_trying(counts, jokers, SMALL, 2)
    if found.cards is not None:
        hand = [Card(i) for i, n in enumerate(counts) for _ in range(n)]
        assert_reaches(hand, cut, found, SMALL)


@pytest.mark.parametrize("seed", range(4))
def test_dropping_states_that_bought_more_keeps_the_fewest_replacements(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When replacing, a sweep drops each entry beaten by one of the same state with fewer
    cards bought (``core.drop_dearer_bought``): the fewest replacements must be those found
    keeping every state, and the arrangement found still valid."""
    from rummy21.solver import backend, core, replacements

    rng = random.Random(f"dearer-bought/{seed}")
    with backend.using("python"):
        for i in range(6):
            cut, hand = (
                random_deal(rng, CLASSIC) if i % 3 == 2 else near_complete(rng, CLASSIC, None)
            )
            counts, jokers = counts_of(hand), Jokers.from_cut(cut)
            found = replacements(counts, jokers, CLASSIC, 2)
            with monkeypatch.context() as patched:
                patched.setattr(core, "drop_dearer_bought", lambda stage, exact: None)
                every = replacements(counts, jokers, CLASSIC, 2)
            assert (found and len(found.remove)) == (every and len(every.remove)), str(cut)
            if found is not None:
                shown = Distance(len(found.remove), Option.A, found.remove, found.add)
                assert_reaches(hand, cut, shown)
