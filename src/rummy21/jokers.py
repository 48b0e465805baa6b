"""Jokers and value cards from a cut card (RULES §3).

>>> j = Jokers.from_cut(Card.parse("5H"))
>>> j.wild_rank, str(j.upper), str(j.lower)
(5, '6H', '4H')
>>> j.is_joker(Card.parse("5C")), j.is_joker(Card.parse("6C"))
(True, False)
>>> ace = Jokers.from_cut(Card.parse("AC"))
>>> str(ace.upper), str(ace.lower)
('2C', 'KC')
>>> printed = Jokers.from_cut(Card.parse("JK"))
>>> printed.wild_rank, str(printed.cut_role), str(printed.upper), str(printed.lower)
(1, 'AS', '2S', 'KS')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rummy21.cards import (
    JOKER_INDEX,
    RANK_NAMES,
    TYPE_COUNT,
    Card,
    CardError,
    Hand,
    Suit,
)


@dataclass(frozen=True, slots=True)
class Jokers:
    """What a cut card makes wild, and which cards are value cards."""

    cut: Card
    """The card that was cut (may be the printed joker)."""
    cut_role: Card
    """The card that plays the part of the cut card: the cut itself, or A♠ for a printed-joker
    cut."""
    upper: Card
    lower: Card
    joker_mask: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """For each card index, whether that card is a joker (worked out once: read per card)."""

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "joker_mask", _joker_mask(self.cut_role.index, self.upper.index, self.lower.index)
        )

    def __hash__(self) -> int:  # (the cut decides the rest; jokers key the group memo)
        return self.cut.index

    @classmethod
    def from_cut(cls, cut: Card | str | Jokers) -> Jokers:
        """What the cut card ``cut`` makes (a card or its text; the jokers of a cut, as
        they are: every reader of a hand takes either)."""
        if isinstance(cut, Jokers):
            return cut
        card = Card.parse(cut) if isinstance(cut, str) else cut
        if not isinstance(card, Card):
            raise CardError(f"not a cut card: {cut!r}")
        made = _BY_CUT.get(card.index)
        if made is None:  # (a value, made once per cut card: hands are read by the thousand)
            made = _BY_CUT[card.index] = cls._made_from(card)
        return made

    @classmethod
    def _made_from(cls, card: Card) -> Jokers:
        role = Card.of(1, Suit.S) if card.is_printed_joker else card
        suit = role.suit
        assert suit is not None
        upper_rank = role.rank % 13 + 1  # K -> A
        lower_rank = (role.rank - 2) % 13 + 1  # A -> K
        return cls(card, role, Card.of(upper_rank, suit), Card.of(lower_rank, suit))

    @property
    def wild_rank(self) -> int:
        return self.cut_role.rank

    @property
    def wild_rank_name(self) -> str:
        return RANK_NAMES[self.wild_rank - 1]

    def is_joker(self, card: Card) -> bool:
        """Printed jokers, every card of the wild rank, the upper and the lower joker."""
        return self.joker_mask[card.index]

    @property
    def value_cards(self) -> tuple[Card, Card, Card]:
        """(cut, upper, lower): the value cards (RULES §3)."""
        return (self.cut_role, self.upper, self.lower)

    def value_counts(self, cards: Iterable[Card]) -> tuple[int, int, int]:
        """How many cut, upper and lower cards ``cards`` hold."""
        return self.value_counts_of(Hand.of(cards).counts)

    def value_counts_of(self, counts: Sequence[int]) -> tuple[int, int, int]:
        """How many cut, upper and lower cards a hand holds, from its count vector
        (:attr:`~rummy21.cards.Hand.counts`).

        >>> from rummy21.cards import Hand
        >>> Jokers.from_cut("7D").value_counts_of(Hand.parse("7D 7D 8D 2S").counts)
        (2, 1, 0)
        """
        return counts[self.cut_role.index], counts[self.upper.index], counts[self.lower.index]

    def points(self, card: Card) -> int:
        """Penalty points of a card: every joker counts 0 (RULES §1)."""
        return 0 if self.is_joker(card) else card.points

    def to_dict(self) -> dict[str, str]:
        return {
            "cut": str(self.cut),
            "wild_rank": self.wild_rank_name,
            "upper": str(self.upper),
            "lower": str(self.lower),
        }


_MASKS: dict[tuple[int, int, int], tuple[bool, ...]] = {}
_BY_CUT: dict[int, Jokers] = {}


def _joker_mask(cut_index: int, upper_index: int, lower_index: int) -> tuple[bool, ...]:
    key = (cut_index, upper_index, lower_index)
    mask = _MASKS.get(key)
    if mask is None:
        wild = cut_index % 13
        mask = tuple(
            i == JOKER_INDEX or i % 13 == wild or i in (upper_index, lower_index)
            for i in range(TYPE_COUNT)
        )
        _MASKS[key] = mask
    return mask
