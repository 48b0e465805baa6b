"""What the solver returns: arrangements of a hand into groups, and what it finds for a hand."""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True)
class Solution:
    """What the solver finds for one 21-card hand."""

    pure_save: int | None
    """Least points outside valid groups with enough pure groups; ``None`` if impossible."""
    pure_arrangement: Arrangement | None
    option_a: Arrangement | None
    """An arrangement proving Option A, or ``None``."""


@dataclass(frozen=True, slots=True)
class Replacement:
    """Cards to swap for a hand to prove Option A: ``remove`` go, ``add`` come in."""

    remove: tuple[Card, ...]
    add: tuple[Card, ...]
    arrangement: Arrangement
    """The groups the new hand then forms (every card in one)."""
