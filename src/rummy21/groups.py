"""Groups of cards (RULES §4): classify a list of cards, or say exactly why it is no group.

>>> from rummy21.ruleset import RuleSet
>>> jokers, rules = Jokers.from_cut(Card.parse("5H")), RuleSet()
>>> classify(parse_cards("2H 3H 4H"), jokers, rules).kind
<GroupKind.PURE_SEQUENCE: 'pure_sequence'>
>>> classify(parse_cards("QS KS AS"), jokers, rules).kind.value
'pure_sequence'
>>> explain(parse_cards("KS AS 2S"), jokers, rules)
'K-A-2 is not a sequence'
>>> explain(parse_cards("8S 8S 8H"), jokers, rules)
'a set needs different suits: 8S appears twice'
>>> group = classify(parse_cards("7D 5C 9D"), jokers, rules)
>>> str(group)
'impure_sequence: 7D 5C 9D'
>>> Group.parse(str(group), jokers, rules) == group == Group.parse("9d 7D 5c", jokers, rules)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter

from rummy21.cards import JOKER_INDEX, RANK_NAMES, Card, format_cards, parse_cards
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

__all__ = ["Group", "GroupKind", "InvalidGroup", "classify", "explain", "parse_cards"]

MAX_SEQUENCE = 13
_INDEX = attrgetter("index")  # (cards sort by index)


class GroupKind(StrEnum):
    """The kinds of group a hand may be split into."""

    PURE_SEQUENCE = "pure_sequence"
    IMPURE_SEQUENCE = "impure_sequence"
    SET = "set"
    TUNNELA = "tunnela"
    DUBLEE = "dublee"
    JOKER_GROUP = "joker_group"

    @property
    def is_pure(self) -> bool:
        """Pure sequences and tunnelas are the pure groups (RULES §4)."""
        return self in (GroupKind.PURE_SEQUENCE, GroupKind.TUNNELA)

    @property
    def is_meld(self) -> bool:
        """Groups that cover cards for Option A and the pure save (dublees do not)."""
        return self is not GroupKind.DUBLEE

    @property
    def label(self) -> str:
        """The kind in words, as players say it ("pure sequence").

        >>> GroupKind.JOKER_GROUP.label
        'joker group'
        """
        return self.value.replace("_", " ")


class InvalidGroup(ValueError):
    """The cards form no group; the message says why."""


@dataclass(frozen=True, slots=True)
class Group:
    """A valid group: its kind and its cards, in display order (jokers in their places)."""

    kind: GroupKind
    cards: tuple[Card, ...]
    jokers: tuple[Card, ...] = ()
    """The cards of the group that stand in for other cards."""

    @property
    def is_pure(self) -> bool:
        return self.kind.is_pure

    def __str__(self) -> str:
        return f"{self.kind.value}: {format_cards(self.cards)}"

    @classmethod
    def parse(cls, text: str, jokers: Jokers, rules: RuleSet) -> Group:
        """The group a text names under a cut (``jokers``) and ``rules``: its cards, in any
        order (``"9D 5C 7D"``), or its kind and cards as ``str`` writes them
        (``"impure_sequence: 7D 5C 9D"``), which it reads back exactly. Raises
        :class:`InvalidGroup` (saying why) if the cards form no group or not the kind named,
        and :class:`~rummy21.cards.CardError` for a token that is no card.

        >>> from rummy21.ruleset import RuleSet
        >>> jokers, rules = Jokers.from_cut(Card.parse("9S")), RuleSet()  # 8S is a joker
        >>> Group.parse("8S 8S 8H", jokers, rules).kind.value  # read with most naturals
        'set'
        >>> str(Group.parse("impure_sequence: 8S 8S 8H", jokers, rules))
        'impure_sequence: 8S 8S 8H'
        >>> Group.parse("tunnela: 2S 3S 4S", jokers, rules)
        Traceback (most recent call last):
        ...
        rummy21.groups.InvalidGroup: 2S 3S 4S form a pure sequence, not a tunnela
        >>> Group.parse("run: 2S 3S 4S", jokers, rules)
        Traceback (most recent call last):
        ...
        rummy21.groups.InvalidGroup: 'run' is no kind of group: pure_sequence, ...
        """
        named, colon, listed = text.rpartition(":")
        kind = None
        if colon:
            try:
                kind = GroupKind(named.strip().lower())
            except ValueError:
                shown = named.strip() if len(named.strip()) <= 20 else named.strip()[:20] + "…"
                kinds = ", ".join(k.value for k in GroupKind)
                raise InvalidGroup(f"{shown!r} is no kind of group: {kinds}") from None
        cards = tuple(parse_cards(listed))
        found = _classify(cards, jokers, rules.joker_groups, rules.max_set_size)
        if isinstance(found, str):
            raise InvalidGroup(found)
        if kind is None or found.kind is kind:
            return found
        other = _read_as(kind, list(cards), jokers, rules)
        if other is None:
            raise InvalidGroup(
                f"{format_cards(cards)} form {_a(found.kind.label)}, not {_a(kind.label)}"
            )
        return other

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "cards": [str(c) for c in self.cards]}


def classify(cards: Sequence[Card], jokers: Jokers, rules: RuleSet) -> Group:
    """The group ``cards`` form, preferring pure kinds; raise :class:`InvalidGroup` if none."""
    found = _classify(tuple(cards), jokers, rules.joker_groups, rules.max_set_size)
    if isinstance(found, str):
        raise InvalidGroup(found)
    return found


def explain(cards: Sequence[Card], jokers: Jokers, rules: RuleSet) -> str | None:
    """``None`` if ``cards`` form a group, else the reason they do not."""
    found = _classify(tuple(cards), jokers, rules.joker_groups, rules.max_set_size)
    return found if isinstance(found, str) else None


@lru_cache(maxsize=1 << 15)
def _classify(
    given: tuple[Card, ...], jokers: Jokers, joker_groups: bool, max_set: int
) -> Group | str:
    """Memoised: hands share groups, and every reading shows its groups (values are frozen).
    Keyed by the two rules that decide a group (a rule set hashes all of its fields)."""
    cards = list(given)
    n = len(cards)
    if n == 2:
        if cards[0] == cards[1]:
            return Group(GroupKind.DUBLEE, tuple(cards))
        return f"two cards form only a dublee, and {cards[0]} {cards[1]} are not identical"
    if n < 3:
        return "a group needs at least 3 cards" if n else "an empty group"
    if n == 3 and cards[0] == cards[1] == cards[2]:
        return Group(GroupKind.TUNNELA, tuple(cards))
    pure = _pure_sequence(cards)
    if pure is not None:
        return Group(GroupKind.PURE_SEQUENCE, pure)
    mask = jokers.joker_mask
    naturals = [c for c in cards if not mask[c.index]]
    if joker_groups and not naturals:
        return Group(GroupKind.JOKER_GROUP, tuple(cards), tuple(cards))
    # A reading whose natural cards differ in suit (a sequence) or rank (a set) fails, and
    # its reason would never be given: it is not worked out.
    one_suit = len({c.index // 13 for c in naturals}) <= 1
    one_rank = len({c.index % 13 for c in naturals}) <= 1
    sequence = _impure_sequence(cards, jokers) if one_suit else "(not one suit)"
    a_set = _set(cards, jokers, max_set) if one_rank else "(not one rank)"
    if not isinstance(sequence, str) and not isinstance(a_set, str):
        # Both readings hold: show the one with more natural cards (8S 8S 8H, 8S wild: a set).
        return a_set if len(a_set.jokers) < len(sequence.jokers) else sequence
    if not isinstance(sequence, str):
        return sequence
    if not isinstance(a_set, str):
        return a_set
    if not naturals:
        return "jokers alone do not form a group under these rules"
    if one_suit:
        return sequence
    if one_rank:
        return a_set
    return f"neither a sequence nor a set: {format_cards(naturals)} differ in both suit and rank"


def _a(words: str) -> str:
    return ("an " if words[0] in "aeiou" else "a ") + words


def _read_as(kind: GroupKind, cards: list[Card], jokers: Jokers, rules: RuleSet) -> Group | None:
    """The cards read as a group of ``kind`` when :func:`classify` reads them otherwise (both
    readings hold: it shows the one with more natural cards), or ``None``."""
    found: Group | str | None = None
    if kind is GroupKind.IMPURE_SEQUENCE:
        found = _impure_sequence(cards, jokers)
    elif kind is GroupKind.SET:
        found = _set(cards, jokers, rules.max_set_size)
    elif kind is GroupKind.JOKER_GROUP and all(jokers.joker_mask[c.index] for c in cards):
        found = Group(GroupKind.JOKER_GROUP, tuple(cards), tuple(cards))
    return found if isinstance(found, Group) else None


def _pure_sequence(cards: list[Card]) -> tuple[Card, ...] | None:
    n = len(cards)
    if n > MAX_SEQUENCE:
        return None
    indices = [c.index for c in cards]  # (read on indices: this runs for every group shown)
    suit = indices[0] // 13
    if JOKER_INDEX in indices or any(i // 13 != suit for i in indices):
        return None
    ranks = [i % 13 + 1 for i in indices]
    if len(set(ranks)) != n:
        return None
    if max(ranks) - min(ranks) == n - 1:  # Ace low
        return tuple(sorted(cards, key=_rank_order))
    if 1 in ranks and 14 - min(r for r in ranks if r != 1) == n - 1:  # Ace high
        return tuple(sorted(cards, key=_ace_high_order))
    return None


def _rank_order(card: Card) -> int:
    return card.index % 13


def _ace_high_order(card: Card) -> int:
    return (card.index - 1) % 13  # the Ace last


def _impure_sequence(cards: list[Card], jokers: Jokers) -> Group | str:
    n = len(cards)
    if n > MAX_SEQUENCE:
        return f"a sequence has at most {MAX_SEQUENCE} cards, not {n}"
    mask = jokers.joker_mask
    fixed = [c for c in cards if not mask[c.index]]
    flexible = [c for c in cards if mask[c.index]]
    fixed_indices = [c.index for c in fixed]  # (never a printed joker: it is always a joker)
    suits = {i // 13 for i in fixed_indices}
    if len(suits) > 1:
        return "a sequence needs one suit: " + format_cards(fixed) + " mix suits"
    if len(set(fixed_indices)) < len(fixed):
        repeated = [c for c, k in Counter(fixed).items() if k > 1]
        return f"a sequence cannot hold {repeated[0]} twice"
    candidate_suits = suits or {c.index // 13 for c in flexible if c.index != JOKER_INDEX}
    ranks = [i % 13 + 1 for i in fixed_indices]
    best_gap: tuple[int, str] | None = None
    for suit in sorted(candidate_suits):
        for ace_high in (False, True):
            low, high = (2, 14) if ace_high else (1, 13)
            fixed_pos = sorted(14 if ace_high and r == 1 else r for r in ranks)
            # The windows of n places holding every natural card, lowest first.
            starts = (
                range(max(low, fixed_pos[-1] - n + 1), min(fixed_pos[0], high - n + 1) + 1)
                if fixed_pos
                else range(low, high - n + 2)
            )
            for start in starts:
                end = start + n
                in_order = sorted(fixed, key=_ace_high_order if ace_high else _rank_order)
                by_pos = dict(zip(fixed_pos, in_order, strict=True))
                naturals = list(fixed)
                for card in flexible:  # a joker card in its own place plays as itself
                    i = card.index
                    if i != JOKER_INDEX and i // 13 == suit:
                        rank = i % 13 + 1
                        at = 14 if ace_high and rank == 1 else rank
                        if start <= at < end and at not in by_pos:
                            by_pos[at] = card
                            naturals.append(card)
                if not naturals:
                    continue
                stand_ins = _multiset_minus(cards, naturals)
                fill = iter(stand_ins)
                ordered = tuple(by_pos[p] if p in by_pos else next(fill) for p in range(start, end))
                return Group(GroupKind.IMPURE_SEQUENCE, ordered, stand_ins)
            if fixed_pos:
                span = fixed_pos[-1] - fixed_pos[0] + 1
                gap = (
                    span - len(fixed_pos),
                    f"{format_cards(fixed)} span {span} places but the group has {n} cards",
                )
                best_gap = gap if best_gap is None or gap < best_gap else best_gap
    rank_set = set(ranks)
    if 1 in rank_set and 13 in rank_set and 2 in rank_set:
        return "K-A-2 is not a sequence"
    if (
        1 in rank_set
        and 13 in rank_set
        and any(2 <= r <= 12 for r in rank_set - {13})
        and all(r in (1, 13) or r < 7 for r in rank_set)
    ):
        return (
            "the Ace is low or high, never both: "
            f"{'-'.join(RANK_NAMES[r - 1] for r in sorted(rank_set))} does not wrap"
        )
    if best_gap is not None:
        return "not enough jokers for a sequence: " + best_gap[1]
    return "no card can play as a natural card of the sequence"


def _set(cards: list[Card], jokers: Jokers, max_set: int) -> Group | str:
    n = len(cards)
    mask = jokers.joker_mask
    fixed = [c for c in cards if not mask[c.index]]
    flexible = [c for c in cards if mask[c.index]]
    fixed_indices = [c.index for c in fixed]
    ranks = {i % 13 + 1 for i in fixed_indices}
    if len(ranks) > 1:
        return "a set needs one rank: " + format_cards(fixed) + " mix ranks"
    if n > max_set:
        return f"a set has at most {max_set} cards, not {n}"
    if len(set(fixed_indices)) < len(fixed):
        repeated = [c for c, k in Counter(fixed).items() if k > 1]
        return f"a set needs different suits: {repeated[0]} appears twice"
    candidate_ranks = ranks or {c.index % 13 + 1 for c in flexible if c.index != JOKER_INDEX}
    for rank in sorted(candidate_ranks):
        suits = {i // 13 for i in fixed_indices}
        naturals = list(fixed)
        for card in flexible:
            i = card.index
            if i != JOKER_INDEX and i % 13 + 1 == rank and i // 13 not in suits:
                suits.add(i // 13)
                naturals.append(card)
        if naturals:
            stand_ins = _multiset_minus(cards, naturals)
            return Group(GroupKind.SET, tuple(sorted(naturals, key=_INDEX)) + stand_ins, stand_ins)
    return "a set needs at least one natural card"


def _multiset_minus(items: list[Card], remove: list[Card]) -> tuple[Card, ...]:
    """``items`` less one card equal to each of ``remove`` (those it holds), in order."""
    rest = list(items)
    indices = [c.index for c in rest]  # (compared by index: a card is its index)
    for card in remove:
        if card.index in indices:
            at = indices.index(card.index)
            del rest[at], indices[at]
    return tuple(rest)
