"""The layout a player is shown (rummy21.suggest) against the reference oracle.

For every generated hand: the groups are valid by the reference's own group rules and use
exactly the hand's cards; the loose points are the least any arrangement leaves with no pure
group required (the reference's pure save with ``pure_groups_needed=0``); no layout leaving
as few points holds more pure groups (up to the number the rules need); and a dublee layout
is shown only when the hand holds enough dublees for the dublee save and they leave fewer
points loose. Hands of every size are laid out (the player may ask for a part of the hand).
"""

from __future__ import annotations

import os
import random
import sys
import zlib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy21.cards import Card, canonical_shoe, parse_cards
from rummy21.ruleset import RuleSet
from rummy21.suggest import Route, suggest

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref
from handgen import near_complete, random_deal, rule_variants

CLASSIC = RuleSet()
VARIANTS = rule_variants("classic", "adda52", "sets-of-3", "no-joker-groups")
TOTAL = int(os.environ.get("RUMMY21_SUGGEST_N", "200"))


def problems(cut: Card, hand: list[Card], rules: RuleSet) -> list[str]:
    shown = suggest(hand, cut, rules)
    found: list[str] = []
    used = Counter([c for g in shown.groups for c in g.cards] + list(shown.loose))
    if used != Counter(hand):
        found.append(f"the layout's cards {sorted(used.elements())} are not the hand")
    table = ref.Cut(cut)
    kinds = [ref.group_kinds(list(g.cards), table, rules) for g in shown.groups]
    for group, kind in zip(shown.groups, kinds, strict=True):
        if group.kind.value not in kind:
            found.append(f"{group} is {sorted(kind) or 'no group'} for the reference")
    points = sum(table.points(c) for c in shown.loose)
    if points != shown.loose_points:
        found.append(f"loose points {shown.loose_points}, the cards count {points}")
    least = {
        k: ref.analyse(hand, cut, rules.with_(pure_groups_needed=k)).pure_save
        for k in range(rules.pure_groups_needed + 1)
    }
    if shown.route == Route.GROUPS:
        if shown.loose_points != least[0]:
            found.append(f"loose {shown.loose_points}, the least possible is {least[0]}")
        most = max(k for k, save in least.items() if save == least[0])
        pure = sum(
            bool(kind & ref.PURE_KINDS) and g.is_pure
            for g, kind in zip(shown.groups, kinds, strict=True)
        )
        if min(pure, rules.pure_groups_needed) < most:
            found.append(f"{pure} pure groups shown, {most} possible with as few loose")
    else:
        counts = Counter(hand)
        if (
            len(hand) != rules.hand_size
            or sum(n // 2 for n in counts.values()) < rules.dublee_save_min
        ):
            found.append("dublees shown for a hand that cannot use the dublee save")
        if least[0] is not None and shown.loose_points >= least[0]:
            found.append(f"dublees leave {shown.loose_points}, groups {least[0]}")
    return found


def hands(seed: int, count: int, rules: RuleSet) -> list[tuple[Card, list[Card]]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 3 == 0:
            out.append(random_deal(rng, rules))
        else:
            out.append(near_complete(rng, rules, None if i % 3 == 1 else "C"))
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_layouts_agree_with_the_reference(variant: str) -> None:
    rules = VARIANTS[variant]
    bad = []
    seed = zlib.crc32(variant.encode()) % 1000  # (hash() of a str differs between processes)
    for cut, hand in hands(seed, TOTAL // len(VARIANTS), rules):
        for problem in problems(cut, hand, rules):
            bad.append(f"cut {cut}: {' '.join(map(str, sorted(hand)))}: {problem}")
    assert not bad, "\n".join(bad[:10])


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 21))
def test_any_part_of_a_hand(rng: random.Random, size: int) -> None:
    """A part of a hand (what a player asks to arrange besides its own groups)."""
    shoe = list(canonical_shoe(3))
    rng.shuffle(shoe)
    cut, part = shoe[0], shoe[1 : size + 1]
    assert problems(cut, part, CLASSIC) == []


def test_a_hand_leaning_to_option_c_shows_dublees() -> None:
    hand = parse_cards("2S 2S 5H 5H 9D 9D KC KC QS QS 4H 4H 7C 8D JH 3S 6C 10D AH 2C 9S")
    shown = suggest(hand, "5C")
    assert shown.route == Route.DUBLEES and len(shown.groups) == 6
    assert shown.loose_points == 59  # the fives and 6C, 4C are jokers: 0 points


def test_three_pure_groups_are_shown_before_the_hand_can_use_them() -> None:
    """Early in a deal the penalty's own arrangement is empty; the layout is not."""
    shown = suggest("3C 4C 5C 9H 9S 9D 2S 2H 6S 8H AS AC 10H 10C 4D 5S 6H KH QD JS 7S", "KD")
    assert "pure_sequence: 3C 4C 5C" in [str(g) for g in shown.groups]
    assert shown.pure_groups == 2
