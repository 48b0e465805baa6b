"""How far a hand is from a valid declaration: the fewest cards to replace (RULES §5).

A *replacement* takes one card out of the 21 and puts one card in (a card the shoe still
holds: at most three copies of a card, ``printed_jokers`` printed jokers). The distance is
the fewest replacements after which the 21 cards are a valid declaration by any option; the
answer also names the option and one set of cards to take out and put in.

>>> d = distance("2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5D 5C QC KC 2H 3H 4D 9S 10C JH AC", "KH")
>>> d.cards, d.option
(3, 'A')
>>> distance("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C", "7D").cards
0

Options B, C and D depend on card counts only, so their distances are counted directly.
Option A needs the solver (see :func:`rummy21.solver.replacements`): it is exact, and quick
for hands a few cards away; hands far from any arrangement take longer, which ``limit``
caps (the answer then says only that more are needed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummy21.analysis import Cards, Cut, HandError, Option, checked_hand
from rummy21.cards import JOKER_INDEX, TYPE_COUNT, Card
from rummy21.jokers import Jokers
from rummy21.ruleset import CLASSIC, RuleSet
from rummy21.solver import replacements


@dataclass(frozen=True, slots=True)
class Distance:
    """The fewest replacements to a valid declaration, and one way to make them."""

    cards: int | None
    """Fewest replacements; ``None`` if more than the ``limit`` asked for."""
    option: Option | None
    """The option (A–D) the replacements reach; the first in order A, B, C, D on a tie."""
    remove: tuple[Card, ...]
    add: tuple[Card, ...]
    more_than: int | None = None
    """With ``cards`` ``None``: the distance is known to exceed this."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": self.cards,
            "option": self.option,
            "remove": [str(c) for c in self.remove],
            "add": [str(c) for c in self.add],
            "more_than": self.more_than,
        }


def distance(
    cards: Cards, cut: Cut, rules: RuleSet = CLASSIC, limit: int | None = None
) -> Distance:
    """The fewest cards to replace for ``cards`` (21: a :class:`~rummy21.cards.Hand`, or
    cards, or their text) to be a valid declaration, under the cut card ``cut`` (or its
    :class:`~rummy21.jokers.Jokers`).

    ``limit`` bounds the search: if more replacements than that are needed, the answer has
    ``cards=None`` and ``more_than=limit``.
    """
    hand = checked_hand(cards, rules)
    jokers = Jokers.from_cut(cut)
    if len(hand) != rules.hand_size:
        raise HandError(
            f"a distance is read from a hand of {rules.hand_size} cards, not {len(hand)}"
        )
    if limit is not None and limit < 0:
        raise ValueError("limit must be 0 or more")
    return _nearest(hand.counts, jokers, rules, rules.hand_size if limit is None else limit)


def distance_counts(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC, limit: int = 4
) -> int | None:
    """The distance of a 21-card count vector, if at most ``limit``; else ``None``: the one
    number a bot reads of the thousands of hands it tries, as
    :func:`~rummy21.analysis.penalty_counts` is for the penalty. No input checks.

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5D 5C QC KC 2H 3H 4D 9S 10C JH AC")
    >>> distance_counts(hand.counts, Jokers.from_cut("KH")), distance_counts(hand.counts,
    ...     Jokers.from_cut("KH"), limit=2)
    (3, None)
    """
    return _nearest(counts, jokers, rules, limit).cards


def _nearest(counts: Sequence[int], jokers: Jokers, rules: RuleSet, cap: int) -> Distance:
    """The distance of ``counts`` if at most ``cap``: options B, C and D by their counts,
    then option A by the solver, bounded by the best of them."""
    by_counts = [
        found
        for found in (
            _tunnelas(counts, rules),
            _dublees(counts, rules),
            _jokers(counts, jokers, rules),
        )
        if found is not None
    ]
    best = min(by_counts, key=lambda d: (d.cards, d.option), default=None)
    bound = cap if best is None or best.cards is None else min(cap, best.cards)
    found = replacements(counts, jokers, rules, bound)
    if found is not None:
        return Distance(
            len(found.remove), Option.A, tuple(sorted(found.remove)), tuple(sorted(found.add))
        )
    if best is not None and best.cards is not None and best.cards <= cap:
        return best
    return Distance(None, None, (), (), cap)


def _limit_of(index: int, rules: RuleSet) -> int:
    return rules.printed_jokers if index == JOKER_INDEX else 3


def _swap(
    counts: Sequence[int], wanted: Sequence[int], keep: Sequence[int], option: Option
) -> Distance:
    """The replacements from ``counts`` to a hand holding ``wanted`` (and, of the rest, what
    it needs out: the highest cards first), keeping at least ``keep`` of each kind."""
    add = [Card(i) for i in range(TYPE_COUNT) for _ in range(max(0, wanted[i] - counts[i]))]
    spare = sorted(
        (
            Card(i)
            for i in range(TYPE_COUNT)
            for _ in range(max(0, counts[i] - max(wanted[i], keep[i])))
        ),
        key=lambda c: (-c.points, c.index),
    )
    remove = spare[: len(add)]
    return Distance(len(add), option, tuple(sorted(remove)), tuple(sorted(add)))


def _tunnelas(counts: Sequence[int], rules: RuleSet) -> Distance | None:
    """Option B: the kinds nearest to three copies, completed."""
    need = rules.tunnelas_needed
    if 3 * need > rules.hand_size:
        return None
    kinds = sorted(
        (i for i in range(TYPE_COUNT) if _limit_of(i, rules) >= 3), key=lambda i: (3 - counts[i], i)
    )[:need]
    if len(kinds) < need:
        return None
    wanted = [3 if i in kinds else 0 for i in range(TYPE_COUNT)]
    return _swap(counts, wanted, wanted, Option.B)


def _dublees(counts: Sequence[int], rules: RuleSet) -> Distance | None:
    """Option C: pair single cards (one replacement each), then new pairs (two each)."""
    need = rules.dublees_needed
    if 2 * need > rules.hand_size:
        return None
    have = sum(n // 2 for n in counts)
    wanted = [n - n % 2 for n in counts]  # the pairs held stay
    short = need - have
    singles = [i for i in range(TYPE_COUNT) if counts[i] % 2 and counts[i] < _limit_of(i, rules)]
    for i in singles[: max(0, short)]:
        wanted[i] = counts[i] + 1
    short -= len(singles[: max(0, short)])
    for i in range(TYPE_COUNT):
        if short <= 0:
            break
        if counts[i] == 0 and _limit_of(i, rules) >= 2:
            wanted[i] = 2
            short -= 1
    if short > 0:
        return None
    return _swap(counts, wanted, wanted, Option.C)


def _jokers(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> Distance | None:
    """Option D: joker cards in for the highest other cards."""
    mask = jokers.joker_mask
    if rules.jokers_needed > rules.hand_size:
        return None
    short = rules.jokers_needed - sum(n for i, n in enumerate(counts) if mask[i])
    wanted = list(counts)
    for i in range(TYPE_COUNT):
        while short > 0 and mask[i] and wanted[i] < _limit_of(i, rules):
            wanted[i] += 1
            short -= 1
    if short > 0:
        return None
    keep = [n if mask[i] else 0 for i, n in enumerate(counts)]
    return _swap(counts, wanted, keep, Option.D)
