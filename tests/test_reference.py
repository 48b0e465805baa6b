"""Tests of the reference oracle itself: the worked examples, every edge RULES.md names, and
its search against a brute force over all partitions of small hands."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import worked_examples
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy21.cards import ALL_CARDS, Card, parse_cards
from rummy21.jokers import Jokers
from rummy21.ruleset import DubleeSave, RuleSet

if str(Path(__file__).resolve().parent) not in sys.path:  # pytest's pythonpath may lack it
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref

CLASSIC = RuleSet.preset("classic")
EXAMPLES_PATH = Path(__file__).resolve().parents[2] / "shared" / "examples" / "analysis.jsonl"
EXAMPLES = worked_examples()  # shared/examples, or the copy kept in tests/data


def read(cards: str, cut: str, rules: RuleSet = CLASSIC) -> ref.Reading:
    hand = parse_cards(cards)
    return ref.analyse(hand, Card.parse(cut), rules)


def kinds(cards: str, cut: str, rules: RuleSet = CLASSIC) -> frozenset[str]:
    return ref.group_kinds(parse_cards(cards), Card.parse(cut), rules)


# --- the worked examples ----------------------------------------------------------------------


@pytest.mark.skipif(not EXAMPLES, reason=f"{EXAMPLES_PATH} is missing")
@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{i}-{e['note']}" for i, e in enumerate(EXAMPLES)]
)
def test_worked_example(example: dict[str, Any]) -> None:
    hand = parse_cards(example["cards"])
    assert len(hand) == 21
    reading = ref.analyse(hand, Card.parse(example["cut"]), CLASSIC)
    assert list(reading.options) == example["options"]
    assert bool(reading.options) == example["valid"]
    assert reading.penalty == example["penalty"]
    assert reading.value_points == example["value_points"]


# --- jokers and value cards (RULES §3) --------------------------------------------------------


@pytest.mark.parametrize("cut", ALL_CARDS, ids=str)
def test_cut_agrees_with_production_jokers(cut: Card) -> None:
    """The reference derives jokers on its own; both readings of RULES §3 must agree."""
    mine, theirs = ref.Cut(cut), Jokers.from_cut(cut)
    assert (mine.cut_card, mine.upper, mine.lower) == (theirs.cut_role, theirs.upper, theirs.lower)
    assert [mine.is_joker(c) for c in ALL_CARDS] == [theirs.is_joker(c) for c in ALL_CARDS]


def test_printed_joker_cut_makes_aces_wild_and_spades_value_cards() -> None:
    cut = ref.Cut(Card.joker())
    assert cut.cut_card == Card.parse("AS")
    assert (str(cut.upper), str(cut.lower)) == ("2S", "KS")
    assert cut.joker_cards == frozenset(parse_cards("JK AS AH AD AC 2S KS"))


def test_ace_cut_makes_king_and_two_of_its_suit_jokers() -> None:
    cut = ref.Cut(Card.parse("AC"))
    assert (str(cut.upper), str(cut.lower)) == ("2C", "KC")
    assert cut.joker_cards == frozenset(parse_cards("JK AS AH AD AC 2C KC"))


def test_king_cut_upper_joker_is_the_ace() -> None:
    cut = ref.Cut(Card.parse("KD"))
    assert (str(cut.upper), str(cut.lower)) == ("AD", "QD")


def test_every_joker_is_worth_zero() -> None:
    cut = ref.Cut(Card.parse("5H"))
    assert [cut.points(c) for c in parse_cards("JK 5S 5H 5D 5C 6H 4H 6S 4S KC AD")] == [
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        6,
        4,
        10,
        10,
    ]


@pytest.mark.parametrize(
    ("cards", "cut", "rules", "points", "marriages"),
    [
        ("4S 5S 5S 6S", "5S", CLASSIC, 110, 1),  # RULES §7: 100 + 10
        ("4S 5S 6S", "5S", CLASSIC, 100, 1),
        ("4S 4S 5S 5S 6S 6S", "5S", CLASSIC, 300, 2),
        ("4S 4S 4S 5S 5S 5S 6S 6S 6S", "5S", CLASSIC, 500, 3),
        ("5S 5S 5S", "5S", CLASSIC, 50, 0),
        ("5S 5S 6S", "5S", CLASSIC, 40, 0),  # 30 + 10
        ("5H 5D 4H", "5S", CLASSIC, 0, 0),  # wild cards are not value cards
        ("KC AC 2C", "AC", CLASSIC, 100, 1),  # K-A-2 is still a marriage
        ("AS 2S KS AH", "JK", CLASSIC, 100, 1),  # printed-joker cut: A♠ plays the cut
        ("JK JK", "JK", CLASSIC, 0, 0),
        ("4S 5S 5S 6S", "5S", RuleSet.preset("adda52"), 120, 1),  # 100 + 20
        ("5S 5S 5S 6S", "5S", RuleSet.preset("adda52"), 80, 0),  # 60 + 20
    ],
)
def test_value_points(cards: str, cut: str, rules: RuleSet, points: int, marriages: int) -> None:
    assert ref.value_points(parse_cards(cards), Card.parse(cut), rules) == (points, marriages)


# --- groups (RULES §4) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "cut", "expected"),
    [
        ("QS KS AS", "5H", {"pure_sequence", "impure_sequence"}),  # Ace high
        ("AS 2S 3S", "5H", {"pure_sequence", "impure_sequence"}),  # Ace low
        ("KS AS 2S", "5H", set()),  # never both: no wrapping
        ("QS KS AS 2S", "5H", set()),
        ("JK KS AS 2S", "5H", set()),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "5H", {"pure_sequence", "impure_sequence"}),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "5H", {"pure_sequence", "impure_sequence"}),
        ("2H 3H 4H", "3S", {"pure_sequence", "impure_sequence"}),  # wild 3H in its own place
        ("2H 3D 4H", "3S", {"impure_sequence"}),  # 3D wild, standing in
        ("2H 3H 4H", "3H", {"pure_sequence", "impure_sequence", "set", "joker_group"}),
        ("2H 3H 4H", "JK", {"pure_sequence", "impure_sequence"}),
        ("2H JK 4H", "3C", {"impure_sequence"}),
        ("JK 2H 3H", "9C", {"impure_sequence"}),  # joker below: A♥ place
        ("QH KH JK", "5C", {"impure_sequence"}),  # joker as the Ace high
        ("KH JK JK", "5C", {"impure_sequence", "set"}),
        ("JK JK JK", "5C", {"tunnela", "joker_group"}),  # JK JK JK is a tunnela
        ("5H 5H 5H", "5C", {"tunnela", "joker_group", "impure_sequence", "set"}),
        ("6D 6D KD", "KS", set()),  # jokers never complete it
        ("6D 6D 6D", "KS", {"tunnela"}),
        ("8S 8S 8H", "5C", set()),  # identical cards: no set
        ("8S 8S 8H", "7S", {"set", "impure_sequence"}),  # unless one 8♠ is a joker
        ("8S 8H 8D 8C", "5C", {"set"}),
        ("8S 8H 8D 8C JK", "5C", set()),  # a set has at most 4 cards
        ("8S JK JK", "5C", {"set", "impure_sequence"}),
        ("8S 9H JK", "5C", set()),
        ("5S 5H 5D", "5C", {"set", "joker_group", "impure_sequence"}),  # wild cards as naturals
        ("6D 6D", "KS", {"dublee"}),
        ("5H 5H", "5C", {"dublee"}),  # wild cards as themselves
        ("JK JK", "5C", {"dublee"}),
        ("6D JK", "5C", set()),  # a joker never completes one
        ("6D 6H", "5C", set()),
        ("6D 7D", "5C", set()),
    ],
)
def test_group_kinds(cards: str, cut: str, expected: set[str]) -> None:
    assert kinds(cards, cut) == expected


def test_group_rule_parameters() -> None:
    no_joker_groups = CLASSIC.with_(joker_groups=False, printed_jokers=6)
    assert kinds("JK JK JK JK", "5C", CLASSIC.with_(printed_jokers=6)) == {"joker_group"}
    assert kinds("JK JK JK JK", "5C", no_joker_groups) == set()
    assert kinds("JK JK JK", "5C", no_joker_groups) == {"tunnela"}
    assert kinds("5H 5D JK", "5C", no_joker_groups) == {"set", "impure_sequence"}
    small_sets = CLASSIC.with_(max_set_size=3)
    assert kinds("8S 8H 8D 8C", "5C", small_sets) == set()
    assert kinds("8S 8H 8D", "5C", small_sets) == {"set"}


def test_check_groups_names_the_bad_group() -> None:
    jokers = Jokers.from_cut(Card.parse("5C"))
    good = [parse_cards("AS 2S 3S"), parse_cards("JK JK JK")]
    assert [sorted(k) for k in ref.check_groups(good, jokers, CLASSIC)] == [
        ["impure_sequence", "pure_sequence"],
        ["joker_group", "tunnela"],
    ]
    with pytest.raises(ValueError, match="KS AS 2S"):
        ref.check_groups([*good, parse_cards("KS AS 2S")], jokers, CLASSIC)


# --- declarations (RULES §5) ------------------------------------------------------------------

# Six groups of three with no jokers for cut 6C (its jokers: sixes, 7C, 5C and JK).
_SETS = "9C 9D 9H  4C 4D 4S  KC KD KH  8S 8H 8D"


def test_printed_joker_tunnela_is_a_pure_group() -> None:
    assert read(f"JK JK JK  AS 2S 3S  5H 6H 7H  {_SETS}", "10C").options == ("A",)
    # Without it only two pure groups: no declaration, and no pure save either.
    reading = read(f"QC QD QH  AS 2S 3S  5H 6H 7H  {_SETS}", "10C")
    assert reading.options == ()
    assert reading.pure_save is None


def test_wild_card_in_its_own_place_keeps_a_sequence_pure() -> None:
    # 3H is wild; 2H 3H 4H is the third pure group.
    assert read(f"2H 3H 4H  AS 2S 3S  10D JD QD  {_SETS}", "3S").options == ("A",)
    # 3S instead of 3H: 2H 3S 4H is impure.
    assert read(f"2H 3S 4H  AS 2S 3S  10D JD QD  {_SETS}", "3C").options == ()


def test_q_k_a_and_a_2_3_are_pure_but_k_a_2_is_no_sequence() -> None:
    assert read(f"QS KS AS  AH 2H 3H  5D 6D 7D  {_SETS}", "10C").options == ("A",)
    assert read(f"KS AS 2S  AH 2H 3H  5D 6D 7D  {_SETS}", "10C").options == ()


def test_every_card_must_be_in_a_group_for_option_a() -> None:
    reading = read("AS 2S 3S  5H 6H 7H  10D JD QD  9C 9D 9H  4C 4D 4S  KC KD KH  8S 8H 2D", "6C")
    assert reading.options == ()
    assert reading.pure_save == 10  # 8S 8H 2D
    assert reading.penalty == 10 and reading.penalty_rule == "pure_save"


def test_spare_jokers_need_a_joker_group_or_room() -> None:
    # A tunnela cannot take the fourth printed joker: only a joker group can.
    rules = CLASSIC.with_(printed_jokers=6, pure_groups_needed=1)
    assert read("2C 2C 2C  JK JK JK JK", "5C", rules).options == ("A",)
    assert read("2C 2C 2C  JK JK JK JK", "5C", rules.with_(joker_groups=False)).options == ()
    # A sequence can always take more jokers (up to 13 cards).
    assert read("2C 3C 4C  JK JK JK JK", "5H", rules.with_(joker_groups=False)).options == ("A",)


def test_option_b_needs_real_tunnelas() -> None:
    hand = "2C 2C 2C  3H 3H 3H  6D 6D KD  AS 5S 9S JH 4D 8C QC 7H 10D 2S 3C 8D"
    assert "B" not in read(hand, "KS").options  # K wild: no tunnela of 6D 6D KD
    assert "B" in read(hand.replace("KD", "6D"), "KS").options


def test_option_b_with_wild_cards_acting_as_themselves() -> None:
    hand = "5H 5H 5H  3H 3H 3H  JK JK JK  AS 9S JH 4D 8C QC 7H 10D 2S 3C 8D KD"
    assert read(hand, "5C").options == ("B",)


def test_option_c_counts_dublees_and_jokers_never_complete_one() -> None:
    dublees = "2S 2S  4H 4H  6D 6D  8C 8C  10S 10S  QH QH  KD KD"
    assert read(f"{dublees}  9C 9C  JS 3H 5D 7C AH", "JC").options == ("C",)
    assert read(f"{dublees}  9C JK  JS 3H 5D 7C AH", "JC").options == ()
    # Three identical cards give one dublee.
    assert read(f"{dublees}  9C 9C 9C  3H 5D 7C AH", "JC").options == ("C",)
    assert read(f"{dublees}  9C 9H 9D  3H 5D 7C AH", "JC").options == ()


def test_option_d_needs_eight_jokers() -> None:
    # Cut 3C: jokers are threes, 4C, 2C and JK.
    seven = "3S 3H 3D 3C 4C 2C JK"
    assert read(f"{seven} 3S  AH 5D 7S 9H JD KS 6C 8D 10H QS QD 5S 7H", "3C").options == ("D",)
    assert read(f"{seven} 5S  AH 5D 7S 9H JD KS 6C 8D 10H QS QD 5S 7H", "3C").options == ()


# --- penalties (RULES §7) ---------------------------------------------------------------------


def test_pure_save_counts_only_cards_outside_groups() -> None:
    reading = read("AS 2S 3S  8H 9H 10H  JD QD KD  4C 4D 4H  9S 9S KC 2D 8C 10S QH 7D 5S", "6C")
    assert reading.options == ()
    assert reading.pure_save == 70
    assert reading.dublee_save is None
    assert reading.full_count == 154
    assert (reading.penalty, reading.penalty_rule, reading.penalty_uncapped) == (
        70,
        "pure_save",
        70,
    )


def test_both_saves_pure_lower() -> None:
    reading = read("2S 2S 3H 3H 4D 4D 2C 2C 3D 3D 4H 4H  KH QH JH  KS QS JS  KD QD JD", "9C")
    assert (reading.pure_save, reading.dublee_save) == (36, 90)
    assert (reading.penalty, reading.penalty_rule) == (36, "pure_save")


def test_both_saves_dublee_lower() -> None:
    reading = read("KS KS QH QH JD JD KC KC 10S 10S 9D 9D  2S 3S 4S  2H 3H 4H  2D 3D 4D", "5C")
    assert (reading.pure_save, reading.dublee_save) == (118, 27)
    assert (reading.penalty, reading.penalty_rule) == (27, "dublee_save")


def test_tie_prefers_pure_save() -> None:
    reading = read("2S 3S 4S 2S 3S 4S  7H 8H 9H 7H 8H 9H  10D JD QD 10D JD QD  JK JK JK", "5C")
    assert reading.options == ("A", "C")
    assert (reading.pure_save, reading.dublee_save) == (0, 0)
    assert (reading.penalty, reading.penalty_rule) == (0, "pure_save")


def test_dublee_save_needs_six_dublees() -> None:
    five = "KS KS QH QH JD JD KC KC 10S 10S"
    hand = f"{five}  2S 3S 4S  2H 3H 4H  2D 3D 4D  9D 8C"
    reading = read(hand, "5C")
    assert reading.dublee_save is None
    assert (reading.penalty, reading.penalty_rule) == (117, "pure_save")
    flat = CLASSIC.with_(dublee_save=DubleeSave.FLAT)
    assert read(f"{five} 9D 9D  2S 3S 4S  2H 3H 4H  2D 3D 4D", "5C", flat).dublee_save == 2


def test_full_count_is_capped_at_120() -> None:
    hand = "KS JS 9S 7S 5S 3S  QH 10H 8H 6H 4H 2H  KD JD 9D 7D 5D  QC 10C 8C 6C"
    reading = read(hand, "AC")
    assert reading.full_count == reading.penalty_uncapped == 159
    assert (reading.penalty, reading.penalty_rule) == (120, "full_count")
    assert read(hand, "AC", CLASSIC.with_(full_count_cap=300)).penalty == 159


def test_valid_hand_pays_through_its_saves() -> None:
    # An Option-B hand pays for what its saves leave out (RULES §8).
    reading = read("KH KH KH  8S 8S 8S  6H 6H 6H  9H 9C 9S 9D  7S 7C 7D  KC KC KS KS KD", "JC")
    assert reading.options == ("B",)
    assert (reading.penalty, reading.penalty_rule) == (20, "pure_save")


# --- the search against a brute force over every partition ------------------------------------


def brute_force(hand: Sequence[Card], cut: Card, rules: RuleSet) -> tuple[bool, int | None]:
    """(Option A, pure save) by trying every partition of the hand into groups and loose
    cards, judging each group with ``group_kinds`` alone."""
    cards = sorted(hand)
    table = ref.Cut(cut)
    need = rules.pure_groups_needed
    best_loose: int | None = None
    cover = False

    def walk(rest: list[Card], pure: int, loose: int, loose_cards: int) -> None:
        nonlocal best_loose, cover
        if not rest:
            if pure >= need:
                best_loose = loose if best_loose is None else min(best_loose, loose)
                cover = cover or loose_cards == 0
            return
        first, others = rest[0], rest[1:]
        walk(others, pure, loose + table.points(first), loose_cards + 1)
        seen: set[tuple[Card, ...]] = set()
        for mask in range(1, 1 << len(others)):
            chosen = [c for k, c in enumerate(others) if mask >> k & 1]
            if len(chosen) < 2 or tuple(chosen) in seen:
                continue
            seen.add(tuple(chosen))
            found = ref.group_kinds([first, *chosen], table, rules) & ref.MELD_KINDS
            if found:
                left = [c for k, c in enumerate(others) if not mask >> k & 1]
                walk(left, pure + bool(found & ref.PURE_KINDS), loose, loose_cards)

    walk(cards, 0, 0, 0)
    return cover, best_loose


_POOL = parse_cards("AS 2S 3S 4S 5S QS KS 3H 4H 5H 4D 4C 5C JK")


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[list[Card], Card, RuleSet]:
    cut = draw(st.sampled_from(parse_cards("4S 5H 3C AS KS JK 9D")))
    size = draw(st.integers(3, 9))
    hand = draw(
        st.lists(st.sampled_from(_POOL), min_size=size, max_size=size).filter(
            lambda h: max(Counter(h).values()) <= 3
        )
    )
    rules = CLASSIC.with_(
        pure_groups_needed=draw(st.integers(0, 2)),
        joker_groups=draw(st.booleans()),
        max_set_size=draw(st.sampled_from((3, 4))),
    )
    return hand, cut, rules


@settings(max_examples=300, deadline=None)
@given(small_hands())
def test_search_matches_brute_force(case: tuple[list[Card], Card, RuleSet]) -> None:
    hand, cut, rules = case
    reading = ref.analyse(hand, cut, rules)
    assert ("A" in reading.options, reading.pure_save) == brute_force(hand, cut, rules)


@pytest.mark.parametrize(
    ("cards", "cut", "need"),
    [
        ("2S 2S 2S 2S 2S 2S", "9D", 2),  # (only 3 copies in a shoe, but the search is general)
        ("AS 5S JK JK JK", "9D", 1),
        ("AS 2S 3S 4S 5S QS KS", "9D", 2),
        ("AS 5S KS JK JK JK 4S", "JK", 1),
        ("4S 5S 3H 4H 5H 4D 4C 5C", "4S", 2),
        ("AS JK JK JK JK JK", "9D", 0),
    ],
)
def test_search_matches_brute_force_on_chosen_hands(cards: str, cut: str, need: int) -> None:
    for joker_groups in (True, False):
        rules = CLASSIC.with_(pure_groups_needed=need, joker_groups=joker_groups, printed_jokers=6)
        hand = parse_cards(cards)
        reading = ref.analyse(hand, Card.parse(cut), rules)
        assert ("A" in reading.options, reading.pure_save) == brute_force(
            hand, Card.parse(cut), rules
        )
