"""The reference reading of a hand: a deliberately simple, exhaustive oracle (RULES §3-§7).

It shares no group or search code with the production solver: only the card vocabulary
(``rummy21.cards``) and the rule-set parameters (``rummy21.ruleset``) are imported, and even
the jokers a cut card makes are worked out again here from RULES §3.

How it searches (RULES §4–§5, §7):

1. A card playing as a joker is an interchangeable *stand-in*: only their number counts.
   Printed jokers are stand-ins, except three of them that may form a tunnela. Every other
   joker card may play naturally or as a stand-in (RULES §3): both are tried.
2. The textbook exhaustive search: take the lowest card left and either leave it loose,
   cast it as a stand-in (joker cards only), or put it as a natural card in every group
   that can hold it, with every possible number of stand-ins; then recurse. Results are
   memoised on (the cards left, the stand-ins in hand, the pure groups still missing).
3. A stand-in left over is loose (0 points), or, for Option A, must join a joker group.

Three shortcuts keep a hand well under a second, each argued where it is made: sequences
are built at most ``SPLIT_FREE`` cards long, a state that cannot make enough pure groups
is dropped (``_pure_bound``), and for the pure save a group takes only the stand-ins it
needs. ``tests/test_reference.py`` checks the search against a brute force over every
partition of small hands, judged by :func:`group_kinds` alone.

>>> from rummy21.cards import parse_cards
>>> ref = analyse(parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"),
...               Card.parse("7D"), RuleSet())
>>> ref.options, ref.penalty, ref.penalty_rule, ref.value_points
(('A',), 0, 'pure_save', 20)
>>> sorted(group_kinds(parse_cards("QS KS AS"), Card.parse("5H"), RuleSet()))
['impure_sequence', 'pure_sequence']
>>> group_kinds(parse_cards("KS AS 2S"), Card.parse("5H"), RuleSet())
frozenset()
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from rummy21.cards import Card, Suit
from rummy21.ruleset import DubleeSave, RuleSet

PRINTED_JOKER = Card.joker()
INF = 10**9
#: A sequence covers at most the 13 places A..K or 2..A (RULES §4).
LONGEST_SEQUENCE = 13

TUNNELA = "tunnela"
PURE_SEQUENCE = "pure_sequence"
IMPURE_SEQUENCE = "impure_sequence"
SET = "set"
JOKER_GROUP = "joker_group"
DUBLEE = "dublee"
PURE_KINDS = frozenset({TUNNELA, PURE_SEQUENCE})
MELD_KINDS = frozenset({TUNNELA, PURE_SEQUENCE, IMPURE_SEQUENCE, SET, JOKER_GROUP})


# --- RULES §1 and §3: points, jokers and value cards -------------------------------------


def face_points(card: Card) -> int:
    """A, K, Q, J = 10; 2..10 = face value; the printed joker = 0 (RULES §1)."""
    if card == PRINTED_JOKER:
        return 0
    rank = card.index % 13 + 1
    return 10 if rank == 1 or rank >= 11 else rank


def _rank(card: Card) -> int:
    return card.index % 13 + 1


def _suit(card: Card) -> int:
    return card.index // 13


@dataclass(frozen=True)
class Cut:
    """What a cut card makes of the other cards (RULES §3)."""

    cut: Card

    @cached_property
    def cut_card(self) -> Card:
        """The card playing the part of the cut: A♠ for a printed-joker cut."""
        return Card.of(1, Suit.S) if self.cut == PRINTED_JOKER else self.cut

    @cached_property
    def upper(self) -> Card:
        rank = _rank(self.cut_card)
        return Card.of(1 if rank == 13 else rank + 1, _suit(self.cut_card))

    @cached_property
    def lower(self) -> Card:
        rank = _rank(self.cut_card)
        return Card.of(13 if rank == 1 else rank - 1, _suit(self.cut_card))

    @cached_property
    def joker_cards(self) -> frozenset[Card]:
        """Printed jokers, all four cards of the wild rank, the upper and the lower joker."""
        wild = [Card.of(_rank(self.cut_card), suit) for suit in Suit]
        return frozenset([PRINTED_JOKER, *wild, self.upper, self.lower])

    def is_joker(self, card: Card) -> bool:
        return card in self.joker_cards

    def points(self, card: Card) -> int:
        """Every joker is worth 0, held loose or melded (RULES §1)."""
        return 0 if self.is_joker(card) else face_points(card)


class _HasCut(Protocol):
    @property
    def cut(self) -> Card: ...


def _as_cut(cut: Card | Cut | _HasCut) -> Cut:
    if isinstance(cut, Cut):
        return cut
    if isinstance(cut, Card):
        return Cut(cut)
    return Cut(cut.cut)  # e.g. a rummy21.jokers.Jokers: we only take its cut card


def _table_points(table: Sequence[int], count: int) -> int:
    """Points for holding ``count`` (0..3) of something, by a 1/2/3 table."""
    return 0 if count == 0 else table[count - 1]


def value_points(hand: Sequence[Card], cut: Card | Cut, rules: RuleSet) -> tuple[int, int]:
    """(value points, marriages) of a hand (RULES §7): marriages first, then each kind."""
    table = _as_cut(cut)
    held = Counter(hand)
    kinds = [held[table.cut_card], held[table.upper], held[table.lower]]
    marriages = min(kinds)
    points = _table_points(rules.marriage_points, marriages)
    points += sum(_table_points(rules.value_card_points, n - marriages) for n in kinds)
    return points, marriages


# --- RULES §4: is a given list of cards a group? ------------------------------------------


def _places(card: Card, ace_high: bool) -> int:
    rank = _rank(card)
    return 14 if ace_high and rank == 1 else rank


def _is_pure_sequence(cards: Sequence[Card]) -> bool:
    """3..13 natural cards of one suit in consecutive places, Ace low or high."""
    if not 3 <= len(cards) <= LONGEST_SEQUENCE or PRINTED_JOKER in cards:
        return False
    if len({_suit(c) for c in cards}) != 1:
        return False
    for ace_high in (False, True):
        places = sorted(_places(c, ace_high) for c in cards)
        if places == list(range(places[0], places[0] + len(cards))):
            return True
    return False


def _is_impure_sequence(cards: Sequence[Card], table: Cut) -> bool:
    """3..13 places of one suit in A..K or 2..A: the non-joker cards in their own places,
    at least one natural card, and jokers (any joker may stand anywhere) in the rest."""
    n = len(cards)
    if not 3 <= n <= LONGEST_SEQUENCE:
        return False
    fixed = [c for c in cards if not table.is_joker(c)]
    wild = [c for c in cards if table.is_joker(c)]
    for suit in range(4):
        for ace_high in (False, True):
            first, last = (2, 14) if ace_high else (1, 13)
            for start in range(first, last - n + 2):
                window = range(start, start + n)
                if any(_suit(c) != suit for c in fixed):
                    continue
                places = [_places(c, ace_high) for c in fixed]
                if len(set(places)) != len(places) or any(p not in window for p in places):
                    continue
                if fixed:
                    return True
                # Only joker cards: one of them must play naturally, in its own place.
                if any(
                    c != PRINTED_JOKER and _suit(c) == suit and _places(c, ace_high) in window
                    for c in wild
                ):
                    return True
    return False


def _is_set(cards: Sequence[Card], table: Cut, rules: RuleSet) -> bool:
    """3..max_set_size cards: natural cards of one rank in different suits (at least one),
    jokers in the other places."""
    if not 3 <= len(cards) <= rules.max_set_size:
        return False
    fixed = [c for c in cards if not table.is_joker(c)]
    if fixed:
        return len({_rank(c) for c in fixed}) == 1 and len(set(fixed)) == len(fixed)
    # Only joker cards: any suited one can play as itself and the others stand in.
    return any(c != PRINTED_JOKER for c in cards)


def group_kinds(cards: Sequence[Card], cut: Card | Cut | _HasCut, rules: RuleSet) -> frozenset[str]:
    """Every kind of group ``cards`` can be (empty if they form no group)."""
    table = _as_cut(cut)
    kinds: set[str] = set()
    if len(cards) == 2 and cards[0] == cards[1]:
        kinds.add(DUBLEE)
    if len(cards) == 3 and cards[0] == cards[1] == cards[2]:
        kinds.add(TUNNELA)
    if _is_pure_sequence(cards):
        kinds.add(PURE_SEQUENCE)
    if _is_impure_sequence(cards, table):
        kinds.add(IMPURE_SEQUENCE)
    if _is_set(cards, table, rules):
        kinds.add(SET)
    if rules.joker_groups and len(cards) >= 3 and all(table.is_joker(c) for c in cards):
        kinds.add(JOKER_GROUP)
    return frozenset(kinds)


def check_groups(
    groups: Sequence[Sequence[Card]], jokers: Card | Cut | _HasCut, rules: RuleSet
) -> list[frozenset[str]]:
    """The kinds each group can be; raise ``ValueError`` naming the first invalid group.

    ``jokers`` is the cut card (or anything with a ``cut`` attribute, like
    :class:`rummy21.jokers.Jokers`); the jokers are derived here, independently.
    """
    found = []
    for group in groups:
        kinds = group_kinds(list(group), jokers, rules)
        if not kinds:
            raise ValueError(f"not a valid group: {' '.join(map(str, group))}")
        found.append(kinds)
    return found


# --- RULES §5 A and the pure save: the exhaustive search ----------------------------------

Naturals = tuple[int, ...]  # copies of each of the 52 suited cards not yet placed

#: A sequence of 6+ cards with two or more natural cards can always be cut, between two of
#: its natural cards, into two valid sequences of 3+ cards that are each at least as pure
#: (spare stand-ins pad either piece). One natural card with 5+ stand-ins can shed 3+ of
#: them as a joker group, where joker groups are allowed. So the search builds sequences
#: of at most this many cards, except one natural card with stand-ins and no joker groups.
SPLIT_FREE = 5


def _spreads(start: int, places: list[int], stand_ins: int) -> Iterator[tuple[int, ...]]:
    """Every choice of ``places`` (all on one side of ``start``) that, with ``start``, fits a
    sequence: at most ``SPLIT_FREE`` places long, with no more gaps than ``stand_ins``."""
    ahead = sorted((p for p in places if p != start), key=lambda p: abs(p - start))

    def extend(last: int, chosen: tuple[int, ...], gaps: int) -> Iterator[tuple[int, ...]]:
        yield chosen
        for place in ahead:
            distance = abs(place - start)
            if distance <= last:
                continue
            if distance >= SPLIT_FREE or gaps + distance - last - 1 > stand_ins:
                break
            yield from extend(distance, (*chosen, place), gaps + distance - last - 1)

    return extend(0, (), 0)


class _Search:
    """Best groupings of the natural cards with a pool of interchangeable stand-ins.

    A joker card, when it is the lowest card left, may also be cast as a stand-in. The
    pool may go into debt: a group may use stand-ins that joker cards still to come will
    repay; a state that can no longer repay its debt is a dead end.
    """

    def __init__(self, table: Cut, rules: RuleSet) -> None:
        self.table = table
        self.rules = rules
        self.points = [table.points(Card(i)) for i in range(52)]
        self.is_joker = [table.is_joker(Card(i)) for i in range(52)]
        self._least: dict[tuple[Naturals, int, int], int] = {}
        self._cover: dict[tuple[Naturals, int, int], bool] = {}

    def groups_with(
        self, naturals: Naturals, low: int, stand_ins: int, padded: bool
    ) -> Iterator[tuple[list[int], int, bool]]:
        """Every group holding natural card ``low`` (the lowest one left), using at most
        ``stand_ins``, as (its other natural cards, stand-ins used, pure?). Unless ``padded``,
        each group takes only the stand-ins it cannot do without."""
        rank, suit = low % 13 + 1, low // 13
        # Tunnela: three identical natural cards.
        if naturals[low] >= 3:
            yield [low, low], 0, True
        # Sequences: ``low`` in place ``rank`` (or 14 for an Ace high), other natural cards
        # of the suit in distinct places, stand-ins filling the gaps and maybe the ends.
        # All cards below ``low`` are placed, so the others lie above it (or, for an Ace
        # high, below it).
        others = [r for r in range(2, 14) if r != rank and naturals[suit * 13 + r - 1] > 0]
        for start in [1, 14] if rank == 1 else [rank]:
            for chosen in _spreads(start, others, stand_ins):
                places = [start, *chosen]
                span = max(places) - min(places) + 1
                longest = SPLIT_FREE if chosen or self.rules.joker_groups else LONGEST_SEQUENCE
                least = max(span - len(places), 3 - len(places), 0)
                most = min(stand_ins, longest - len(places))
                for used in range(least, (most if padded else min(most, least)) + 1):
                    yield [suit * 13 + r - 1 for r in chosen], used, used == 0
        # Sets: natural cards of ``rank`` in other suits, and stand-ins.
        suits = [s for s in range(4) if s != suit and naturals[s * 13 + rank - 1] > 0]
        for size in range(len(suits) + 1):
            for chosen_suits in itertools.combinations(suits, size):
                cards = [s * 13 + rank - 1 for s in chosen_suits]
                least = max(0, 3 - 1 - len(cards))
                most = min(stand_ins, self.rules.max_set_size - 1 - len(cards))
                for used in range(least, (most if padded else min(most, least)) + 1):
                    yield cards, used, False

    @staticmethod
    def _without(naturals: Naturals, low: int, others: list[int]) -> Naturals:
        left = list(naturals)
        for i in (low, *others):
            left[i] -= 1
        return tuple(left)

    def _to_come(self, naturals: Naturals) -> int:
        """Joker cards not yet placed: the most stand-ins still to be cast."""
        return sum(n for i, n in enumerate(naturals) if self.is_joker[i])

    def _too_few_pure(self, naturals: Naturals, pure_missing: int) -> bool:
        return pure_missing > 0 and self._pure_bound(naturals) < pure_missing

    @staticmethod
    def _pure_bound(naturals: Naturals) -> int:
        """At most this many pure groups can still be made: each takes 3+ cards of one suit,
        each of them three times over or in 3 consecutive places."""
        bound = 0
        for suit in range(4):

            def held(place: int, suit: int = suit) -> int:  # place 1..14, Ace at 1 and 14
                return naturals[suit * 13 + (place - 1) % 13]

            useful = 0
            for rank in range(1, 14):
                places = (1, 14) if rank == 1 else (rank,)
                if held(rank) >= 3 or any(
                    held(start) and held(start + 1) and held(start + 2)
                    for place in places
                    for start in (place - 2, place - 1, place)
                    if 1 <= start <= 12
                ):
                    useful += held(rank)
            bound += useful // 3
        return bound

    def least_loose(self, naturals: Naturals, stand_ins: int, pure_missing: int) -> int:
        """Least points left outside groups with ``pure_missing`` more pure groups made
        (``INF`` if impossible). Spare stand-ins stay loose, worth 0."""
        key = (naturals, stand_ins, pure_missing)
        if key in self._least:
            return self._least[key]
        to_come = self._to_come(naturals)
        low = next((i for i, n in enumerate(naturals) if n), None)
        if stand_ins + to_come < 0 or self._too_few_pure(naturals, pure_missing):
            best = INF
        elif low is None:
            best = 0 if pure_missing == 0 else INF
        else:
            best = INF
            budget = stand_ins + to_come - self.is_joker[low]
            # A spare stand-in may as well stay loose: groups take no more than they need.
            for others, used, pure in self.groups_with(naturals, low, budget, padded=False):
                best = min(
                    best,
                    self.least_loose(
                        self._without(naturals, low, others),
                        stand_ins - used,
                        max(0, pure_missing - pure),
                    ),
                )
                if best == 0:
                    break
            else:
                rest = self._without(naturals, low, [])
                if self.is_joker[low]:  # rather than loose: a spare stand-in is 0 points too
                    best = min(best, self.least_loose(rest, stand_ins + 1, pure_missing))
                else:
                    best = min(
                        best, self.points[low] + self.least_loose(rest, stand_ins, pure_missing)
                    )
        self._least[key] = best
        return best

    def can_cover(self, naturals: Naturals, stand_ins: int, pure_missing: int) -> bool:
        """Whether every card can go into a group, with ``pure_missing`` more pure groups
        made. Spare stand-ins must form a joker group."""
        key = (naturals, stand_ins, pure_missing)
        if key in self._cover:
            return self._cover[key]
        to_come = self._to_come(naturals)
        low = next((i for i, n in enumerate(naturals) if n), None)
        if stand_ins + to_come < 0 or self._too_few_pure(naturals, pure_missing):
            ok = False
        elif low is None:
            ok = pure_missing == 0 and (
                stand_ins == 0 or (self.rules.joker_groups and stand_ins >= 3)
            )
        else:
            ok = self.is_joker[low] and self.can_cover(
                self._without(naturals, low, []), stand_ins + 1, pure_missing
            )
            budget = stand_ins + to_come - self.is_joker[low]
            ok = ok or any(
                self.can_cover(
                    self._without(naturals, low, others),
                    stand_ins - used,
                    max(0, pure_missing - pure),
                )
                for others, used, pure in self.groups_with(naturals, low, budget, padded=True)
            )
        self._cover[key] = ok
        return ok


# --- RULES §5 and §7: the whole reading ---------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What the reference says about a 21-card hand."""

    options: tuple[str, ...]
    full_count: int
    pure_save: int | None
    """Least points outside valid groups with enough pure groups; None if impossible."""
    dublee_save: int | None
    """Charge under the dublee save; None if the hand holds too few dublees."""
    penalty: int
    """The lowest charge, capped at ``full_count_cap``."""
    penalty_uncapped: int
    penalty_rule: str
    value_points: int
    marriages: int


def analyse(hand: Sequence[Card], cut: Card, rules: RuleSet) -> Reading:
    """Read a 21-card hand exactly as RULES §5 and §7 say."""
    table = Cut(cut)
    held = Counter(hand)
    search = _Search(table, rules)
    need = rules.pure_groups_needed

    naturals = tuple(held[Card(i)] for i in range(52))
    printed = held[PRINTED_JOKER]
    # Printed jokers are stand-ins, except three that may form a tunnela (a pure group).
    starts = [
        (printed - 3 * jk_tunnelas, max(0, need - jk_tunnelas))
        for jk_tunnelas in range(printed // 3 + 1)
    ]
    pure_save = min(
        search.least_loose(naturals, stand_ins, missing) for stand_ins, missing in starts
    )
    # Option A leaves nothing loose, so it needs a pure save of 0 to begin with.
    option_a = pure_save == 0 and any(
        search.can_cover(naturals, stand_ins, missing) for stand_ins, missing in starts
    )

    tunnelas = sum(n // 3 for n in held.values())
    dublees = sum(n // 2 for n in held.values())
    joker_count = sum(n for c, n in held.items() if table.is_joker(c))
    holds = {
        "A": option_a,
        "B": tunnelas >= rules.tunnelas_needed,
        "C": dublees >= rules.dublees_needed,
        "D": joker_count >= rules.jokers_needed,
    }
    options = tuple(o for o in "ABCD" if holds[o])

    full_count = sum(table.points(c) for c in hand)
    dublee_save: int | None = None
    if dublees >= rules.dublee_save_min:
        if rules.dublee_save == DubleeSave.FLAT:
            dublee_save = rules.dublee_save_flat
        else:  # the odd copy of each card is outside the dublees
            dublee_save = sum(table.points(c) * (n % 2) for c, n in held.items())
    charges = [
        ("pure_save", None if pure_save >= INF else pure_save),
        ("dublee_save", dublee_save),
        ("full_count", full_count),
    ]
    # The lowest charge; on a tie the first in this order (RULES §8).
    rule, lowest = min(((r, p) for r, p in charges if p is not None), key=lambda item: item[1])
    points, marriages = value_points(hand, table, rules)
    return Reading(
        options,
        full_count,
        None if pure_save >= INF else pure_save,
        dublee_save,
        min(lowest, rules.full_count_cap),
        lowest,
        rule,
        points,
        marriages,
    )
