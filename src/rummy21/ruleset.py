"""Rule-set parameters (RULES §9): every number the rules leave to the table, as data.

>>> classic = RuleSet.preset("classic")
>>> classic.middle_drop, RuleSet.preset("adda52").middle_drop
(70, 75)
>>> classic.value_points(cut=2, upper=1, lower=1)
(110, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any


class Judging(StrEnum):
    """How a declaration is judged (RULES §5)."""

    CARDS = "cards"
    """The 21 cards are valid if any arrangement of them is."""
    AS_SHOWN = "as_shown"
    """Only the groups the player submitted count."""


class DubleeSave(StrEnum):
    """What the dublee save charges (RULES §7)."""

    OUTSIDE = "outside"
    """The points of the cards outside dublees."""
    FLAT = "flat"
    """A flat charge (``dublee_save_flat`` points)."""


class DroppedValue(StrEnum):
    """Which dropped players take part in the value-card settlement."""

    NONE = "none"
    MIDDLE = "middle"
    """Middle-dropped players settle value cards with the hand held at the drop (Adda52)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every parameter of a table. Presets: ``classic`` (default) and ``adda52``."""

    name: str = "classic"
    min_players: int = 2
    max_players: int = 6
    hand_size: int = 21
    printed_jokers: int = 3
    max_set_size: int = 4
    joker_groups: bool = True
    judging: Judging = Judging.CARDS
    joker_pickup: bool = False
    discard_taken_card: bool = False
    turn_limit: int | None = None
    # Declaration options (RULES §5) and saves (§7).
    pure_groups_needed: int = 3
    tunnelas_needed: int = 3
    dublees_needed: int = 8
    jokers_needed: int = 8
    dublee_save_min: int = 6
    dublee_save: DubleeSave = DubleeSave.OUTSIDE
    dublee_save_flat: int = 2
    # Penalties (RULES §7).
    first_drop: int = 30
    middle_drop: int = 70
    wrong_declaration: int = 120
    full_count_cap: int = 120
    total_loss_cap: int | None = None
    first_turn_cap: int | None = None
    # Value cards: points for 1, 2, 3 cards of one kind, and for 1, 2, 3 marriages.
    value_card_points: tuple[int, ...] = (10, 30, 50)
    marriage_points: tuple[int, ...] = (100, 300, 500)
    value_needs_pure: bool = False
    dropped_value: DroppedValue = DroppedValue.NONE
    # Live tables.
    turn_seconds: int = 30
    timeouts_to_drop: int = 3

    def __post_init__(self) -> None:
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError("players must satisfy 2 <= min_players <= max_players")
        if self.max_set_size not in (3, 4):
            raise ValueError("max_set_size must be 3 or 4")
        if self.printed_jokers < 0:
            raise ValueError("printed_jokers must be >= 0")

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """A named preset (``classic`` or ``adda52``); unknown names are a clear error."""
        try:
            return PRESETS[name.lower()]
        except KeyError:
            raise ValueError(
                f"unknown rule set {name!r}; choose one of {', '.join(sorted(PRESETS))}"
            ) from None

    def with_(self, **changes: Any) -> RuleSet:
        """A copy with some parameters changed."""
        return replace(self, **changes)

    def value_points(self, cut: int, upper: int, lower: int) -> tuple[int, int]:
        """(points, marriages) for the numbers of cut, upper and lower cards held."""
        return _value_points(self.value_card_points, self.marriage_points, cut, upper, lower)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@lru_cache(maxsize=1 << 12)
def _value_points(
    card_points: tuple[int, ...], marriage_points: tuple[int, ...], cut: int, upper: int, lower: int
) -> tuple[int, int]:
    """:meth:`RuleSet.value_points` (kept: an analysis asks it for every card it might put
    aside, and a hand holds few value cards)."""
    marriages = min(cut, upper, lower)
    points = _points_for(marriage_points, marriages)
    for count in (cut, upper, lower):
        points += _points_for(card_points, count - marriages)
    return points, marriages


def _points_for(table: tuple[int, ...], count: int) -> int:
    if count <= 0:
        return 0
    if count <= len(table):
        return table[count - 1]
    # More than the table lists (only with non-standard shoes): extend by the last step.
    step = table[-1] - (table[-2] if len(table) > 1 else 0)
    return table[-1] + step * (count - len(table))


PRESETS: dict[str, RuleSet] = {
    "classic": RuleSet(),
    "adda52": RuleSet(
        name="adda52",
        middle_drop=75,
        total_loss_cap=240,
        value_card_points=(20, 40, 60),
        marriage_points=(100, 200, 300),
        dropped_value=DroppedValue.MIDDLE,
        first_turn_cap=75,
    ),
}
CLASSIC: RuleSet = PRESETS["classic"]
"""The default rule set (RULES §9's defaults)."""
