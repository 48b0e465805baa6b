"""What the solver returns: arrangements of a hand into groups, and what it finds for a hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from rummy21.cards import Card
from rummy21.groups import GroupKind


class Meld(NamedTuple):
    """One group of an arrangement: the kind the solver built it as, and its cards.

    The kind is a reading the rules accept; :func:`rummy21.groups.classify` may name a purer
    one (a run padded with the very card it lacks, three printed jokers as a joker group),
    and puts the cards in display order."""

    kind: GroupKind
    cards: tuple[Card, ...]


meld_of = Meld._make
"""A :class:`Meld` from a (kind, cards) pair, at half the cost of ``Meld(kind, cards)`` (a
solve builds one or two arrangements, often in less time than a hundred such calls take)."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Groups and the loose cards."""

    groups: tuple[Meld, ...]
    loose: tuple[Card, ...]


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Solution:
    """What the solver finds for one 21-card hand.

    The pure save's arrangement may be given as a function that builds it: it is then built
    the first time :attr:`pure_arrangement` is read (callers that want only the numbers, as
    bots and the put-aside candidates that lose, never pay for it)."""

    pure_save: int | None
    """Least points outside valid groups with enough pure groups; ``None`` if impossible."""
    _pure: Arrangement | Callable[[], Arrangement] | None
    option_a: Arrangement | None
    """An arrangement proving Option A, or ``None``."""

    @property
    def pure_arrangement(self) -> Arrangement | None:
        """An arrangement with the pure save (``None`` if impossible)."""
        pure = self._pure
        if pure is None or isinstance(pure, Arrangement):
            return pure
        built = pure()
        object.__setattr__(self, "_pure", built)
        return built

    def __repr__(self) -> str:
        return (
            f"Solution(pure_save={self.pure_save!r}, "
            f"pure_arrangement={self.pure_arrangement!r}, option_a={self.option_a!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Solution):
            return NotImplemented
        return (self.pure_save, self.pure_arrangement, self.option_a) == (
            other.pure_save,
            other.pure_arrangement,
            other.option_a,
        )

    def __hash__(self) -> int:
        return hash((self.pure_save, self.pure_arrangement, self.option_a))


@dataclass(frozen=True, slots=True)
class Replacement:
    """Cards to swap for a hand to prove Option A: ``remove`` go, ``add`` come in."""

    remove: tuple[Card, ...]
    add: tuple[Card, ...]
    arrangement: Arrangement
    """The groups the new hand then forms (every card in one)."""
