"""The one place bots call the solver: cached readings of a 21-card hand — its penalty, and
its distance to a valid declaration.

The solver can take from well under a millisecond to seconds per hand, and a greedy turn reads
about 22 hands, many of them again on the next turn, so readings are cached on the count
vector, the cut card and the rule set.

>>> from rummy21.cards import counts_of, parse_cards
>>> hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
>>> penalty_after(counts_of(hand), Card.parse("7D"))
Reading(points=0, valid=True, pure=True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from rummy21.analysis import may_hold_valid, penalty_counts, valid_counts
from rummy21.cards import Card
from rummy21.distance import distance_counts
from rummy21.jokers import Jokers
from rummy21.ruleset import CLASSIC, RuleSet
from rummy21.solver import paused_collection


@dataclass(frozen=True, slots=True)
class Reading:
    """What a 21-card hand is worth to a bot."""

    points: int
    """The penalty it would pay if another player declared now (RULES §7)."""
    valid: bool
    """Whether it is a valid declaration."""
    pure: bool
    """Whether it can be arranged with enough pure groups (the pure save applies)."""


@lru_cache(maxsize=1 << 17)
def _read(counts: tuple[int, ...], cut: Card, rules: RuleSet) -> Reading:
    # A greedy turn reads about 22 hands: with the cycle collector paused, greedy games play
    # 3-9 % faster (see rummy21.solver.paused_collection).
    with paused_collection():
        points, valid, pure = penalty_counts(counts, _jokers(cut), rules)
    return Reading(points, valid, pure)


@cache
def _jokers(cut: Card) -> Jokers:
    return Jokers.from_cut(cut)


def penalty_after(counts: Sequence[int], cut: Card, rules: RuleSet = CLASSIC) -> Reading:
    """The cached :class:`Reading` of the hand with count vector ``counts``."""
    return _read(tuple(counts), cut, rules)


@lru_cache(maxsize=1 << 16)
def _valid(counts: tuple[int, ...], cut: Card, rules: RuleSet) -> bool:
    with paused_collection():
        return valid_counts(counts, _jokers(cut), rules)


def valid_release(
    counts: Sequence[int], cut: Card, rules: RuleSet = CLASSIC, blocked: int | None = None
) -> bool:
    """Whether letting go some card of the 22 ``counts`` (not the kind ``blocked``) leaves a
    valid declaration: each release read by :func:`~rummy21.analysis.valid_counts` (cached),
    none when the 22 cannot hold one (:func:`~rummy21.analysis.may_hold_valid`).

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KS")
    >>> valid_release(hand.counts, Card.parse("7D")), valid_release(hand.counts, Card.parse("2C"))
    (True, False)
    """
    if not may_hold_valid(counts, _jokers(cut), rules):
        return False
    held = list(counts)
    for index, n in enumerate(counts):
        if n and index != blocked:
            held[index] -= 1
            valid = _valid(tuple(held), cut, rules)
            held[index] += 1
            if valid:
                return True
    return False


FAR = 5
"""The farthest distance a bot reads: a hand further away is as good as lost, and the
solver's distance grows slow past it (:func:`distance_after` says ``FAR + 1``)."""


@lru_cache(maxsize=1 << 17)
def _distance(counts: tuple[int, ...], cut: Card, rules: RuleSet, limit: int) -> int | None:
    with paused_collection():
        return distance_counts(counts, _jokers(cut), rules, limit)


def distance_after(
    counts: Sequence[int], cut: Card, rules: RuleSet = CLASSIC, limit: int = FAR
) -> int:
    """The cached distance of the hand with count vector ``counts`` (the fewest cards to
    replace for a valid declaration, :mod:`rummy21.distance`), or ``limit + 1`` when more
    than ``limit`` are needed: a small ``limit`` answers "is it within ``limit``?" quickly.

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5D 5C QC KC 2H 3H 4D 9S 10C JH AC")
    >>> distance_after(hand.counts, Card.parse("KH")), distance_after(hand.counts,
    ...     Card.parse("KH"), limit=1)
    (3, 2)
    """
    found = _distance(tuple(counts), cut, rules, limit)
    return limit + 1 if found is None else found


def cache_info() -> str:
    """Hits and misses of the reading caches (for benchmarks)."""
    return f"penalty {_read.cache_info()}; distance {_distance.cache_info()}"
