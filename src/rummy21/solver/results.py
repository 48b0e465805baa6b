"""What the solver returns."""

from __future__ import annotations

from dataclasses import dataclass

from rummy21.cards import Card


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Groups (as card lists with the kind the solver built) and the loose cards."""

    groups: tuple[tuple[str, tuple[Card, ...]], ...]
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
