"""The arrangement a player is shown: the best groups a hand holds, from its first turn.

The penalty (RULES §7) only counts groups once the hand holds enough pure ones, so early in a
deal the penalty's own arrangement is empty. A player wants to see the groups anyway: this
module lays out any number of cards so that the fewest points are left loose *as if* the
pure condition were met (pure and impure sequences, tunnelas, sets, joker groups), and among
such layouts the one with the most pure groups. A full hand that leans to Option C — at
least ``rules.dublee_save_min`` dublees, which leave fewer points loose — is shown as dublees.
A valid declaration is shown as the arrangement proving it (see :mod:`rummy21.analysis`).

The penalty the hand would really pay is not this: callers show it beside the layout.

>>> s = suggest("3C 4C 5C 9H 9S 9D KD QD JD 2S 2H 6S 8H AS AC 10H 10C 4D 5S 6H 7H", "7D")
>>> [str(g) for g in s.groups]
['pure_sequence: 8H 9H 10H', 'pure_sequence: JD QD KD', 'pure_sequence: 3C 4C 5C', 'set: AS AC 7H']
>>> s.loose_points, s.pure_groups, s.route
(53, 3, 'groups')
>>> suggest("9H 9H 9H 2C", "5S").groups[0].kind.value, suggest("9H 9H 9H 2C", "5S").loose
('tunnela', (Card('2C'),))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rummy21.analysis import (
    Cards,
    Cut,
    cards_outside,
    checked_hand,
    dublee_groups,
    dublee_save,
    shown_groups,
)
from rummy21.cards import ALL_CARDS, Card
from rummy21.groups import Group, GroupKind
from rummy21.jokers import Jokers
from rummy21.ruleset import CLASSIC, RuleSet
from rummy21.solver import max_pure_groups, solve


class Route:
    """Which way a layout groups the cards (plain strings: they travel as JSON)."""

    GROUPS = "groups"
    """Sequences, tunnelas, sets and joker groups (towards Option A)."""
    DUBLEES = "dublees"
    """Pairs of identical cards (towards Option C and the dublee save)."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A layout of some cards: groups, checked and named by the rules, and what is left."""

    groups: tuple[Group, ...]
    loose: tuple[Card, ...]
    loose_points: int
    """Points of the loose cards (jokers count 0)."""
    pure_groups: int
    """Pure sequences and tunnelas among the groups."""
    route: str
    """:attr:`Route.GROUPS` or :attr:`Route.DUBLEES`."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": [g.to_dict() for g in self.groups],
            "loose": [str(c) for c in self.loose],
            "loose_points": self.loose_points,
            "pure_groups": self.pure_groups,
            "route": self.route,
        }


def suggest(cards: Cards, cut: Cut, rules: RuleSet = CLASSIC) -> Suggestion:
    """The layout to show for ``cards`` (a :class:`~rummy21.cards.Hand`, or cards, or their
    text: any number of them; see the module docstring), under the cut card ``cut`` (or its
    :class:`~rummy21.jokers.Jokers`). Memoised: the screens ask it of every hand they draw."""
    return _suggest(checked_hand(cards, rules).counts, Jokers.from_cut(cut), rules)


@lru_cache(maxsize=4096)
def _suggest(counts: tuple[int, ...], jokers: Jokers, rules: RuleSet) -> Suggestion:
    layout = _best_groups(counts, jokers, rules)
    if sum(counts) == rules.hand_size:
        dublees = _dublee_layout(counts, jokers, rules)
        if dublees is not None and dublees.loose_points < layout.loose_points:
            return dublees
    return layout


@lru_cache(maxsize=16)
def _needing(rules: RuleSet, pure: int) -> RuleSet:
    return rules.with_(pure_groups_needed=pure)


def _best_groups(counts: tuple[int, ...], jokers: Jokers, rules: RuleSet) -> Suggestion:
    """The fewest loose points with no pure group required, then the most pure groups (up
    to the number the rules need) that still leave no more loose."""
    least = solve(counts, jokers, _needing(rules, 0))
    assert least.pure_save is not None and least.pure_arrangement is not None
    arrangement = least.pure_arrangement
    for pure in range(min(rules.pure_groups_needed, max_pure_groups(counts)), 0, -1):
        found = solve(counts, jokers, _needing(rules, pure), bound=least.pure_save)
        if found.pure_save is not None and found.pure_save <= least.pure_save:
            assert found.pure_arrangement is not None
            arrangement = found.pure_arrangement
            break
    groups, loose = shown_groups(arrangement, jokers, rules)
    return Suggestion(
        groups,
        loose,
        sum(jokers.points(c) for c in loose),
        sum(g.is_pure for g in groups),
        Route.GROUPS,
    )


def _dublee_layout(counts: tuple[int, ...], jokers: Jokers, rules: RuleSet) -> Suggestion | None:
    """Every dublee of a hand holding enough for the dublee save, or ``None``."""
    if dublee_save(counts, jokers, rules) is None:
        return None
    groups = dublee_groups(counts)
    loose = cards_outside([ALL_CARDS[i] for i, n in enumerate(counts) for _ in range(n)], groups)
    return Suggestion(
        groups,
        loose,
        sum(jokers.points(c) for c in loose),
        sum(g.kind is GroupKind.TUNNELA for g in groups),
        Route.DUBLEES,
    )
