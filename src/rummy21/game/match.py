"""A match: many deals at one table, the dealer moving one seat clockwise each deal (RULES §2),
with running totals and money at the table's point value (RULES §7).

>>> from decimal import Decimal
>>> match = Match(players=3, seed=5, point_value=Decimal("0.25"))
>>> table = match.new_deal()
>>> table.dealer, match.dealer
(2, 2)
>>> _ = table.drop(); _ = table.drop()
>>> record = match.record(table)
>>> record.scores, match.totals, match.money(2)
((-30, -30, 60), (-30, -30, 60), Decimal('15.00'))
>>> match.new_deal().dealer
0
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from rummy21.game.errors import GameError, SetupError
from rummy21.game.events import EndReason, Event
from rummy21.game.log import dump_log
from rummy21.game.table import Table
from rummy21.ruleset import RuleSet

CLASSIC = RuleSet()
MAX_POINT_VALUE = Decimal(1_000_000)
POINT_VALUE_PLACES = 4


def parse_point_value(text: str | Decimal) -> Decimal:
    """Money per point (RULES §7): a number from 0 to 1,000,000 with at most 4 decimal places;
    anything else is a :class:`ValueError` saying so. Every interface reads it with this.

    >>> parse_point_value(" 0.25 "), parse_point_value("1E2")
    (Decimal('0.25'), Decimal('100'))
    >>> parse_point_value("inf")
    Traceback (most recent call last):
    ...
    ValueError: the point value is a number from 0 to 1000000, not 'inf'
    """
    try:
        amount = text if isinstance(text, Decimal) else Decimal(str(text).strip())
    except InvalidOperation:
        raise ValueError(f"the point value is a number from 0 to 1000000, not {text!r}") from None
    if not amount.is_finite() or not 0 <= amount <= MAX_POINT_VALUE:
        raise ValueError(f"the point value is a number from 0 to 1000000, not {text!r}")
    if amount != amount.quantize(Decimal(1).scaleb(-POINT_VALUE_PLACES)):
        raise ValueError(f"the point value has at most {POINT_VALUE_PLACES} decimal places, "
                         f"not {text!r}")
    if amount == amount.to_integral_value():
        return abs(amount.quantize(Decimal(1)))
    return amount.normalize()


@dataclass(frozen=True, slots=True)
class DealRecord:
    """The outcome of one deal of a match, with its full log (replayable)."""

    number: int
    dealer: int
    seed: int | None
    winner: int | None
    reason: EndReason
    option: str | None
    turns: int
    scores: tuple[int, ...]
    log: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        """The summary line ``rummy21 simulate`` prints for a deal."""
        return {"deal": self.number, "seed": self.seed, "winner": self.winner,
                "reason": self.reason.value, "option": self.option, "turns": self.turns,
                "scores": list(self.scores)}

    def log_text(self) -> str:
        return dump_log(self.log)


class Match:
    """Deals at one table. With ``seed`` every deal's seed comes from ``random.Random(seed)``."""

    def __init__(self, players: int, rules: RuleSet = CLASSIC, *, seed: int | None = None,
                 point_value: Decimal | int | str = Decimal(1)) -> None:
        if not rules.min_players <= players <= rules.max_players:
            raise SetupError(f"the rule set {rules.name!r} seats {rules.min_players} to "
                             f"{rules.max_players} players, not {players}")
        self._players = players
        self._rules = rules
        self._seed = seed
        self._seeds = None if seed is None else random.Random(seed)
        self._point_value = Decimal(point_value)
        self._totals = [0] * players
        self._deals: list[DealRecord] = []
        self._current: Table | None = None
        self._recorded = False

    @property
    def players(self) -> int:
        return self._players

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def point_value(self) -> Decimal:
        return self._point_value

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress (between deals: of the next one)."""
        if self._current is not None and not self._recorded:
            return self._current.dealer
        return (self._players - 1 + len(self._deals)) % self._players

    @property
    def current(self) -> Table | None:
        """The deal in progress (or the last one, once finished)."""
        return self._current

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        return tuple(self._deals)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    def money(self, seat: int) -> Decimal:
        """``seat``'s running total in money: points × the point value."""
        return self._totals[seat] * self._point_value

    def new_deal(self) -> Table:
        """Shuffle and deal the next deal."""
        if self._current is not None and not self._recorded:
            raise GameError("record the current deal before dealing the next")
        dealer = (self._players - 1 + len(self._deals)) % self._players
        seed = None if self._seeds is None else self._seeds.getrandbits(32)
        self._current = Table(self._players, self._rules, seed=seed, dealer=dealer)
        self._recorded = False
        return self._current

    def record(self, table: Table | None = None) -> DealRecord:
        """Add a finished deal (by default the current one) to the running totals."""
        table = self._current if table is None else table
        if table is None or table is not self._current:
            raise GameError("only the current deal of this match can be recorded")
        if not table.over or table.scores is None or table.result is None:
            raise GameError("the deal is not over yet")
        if self._recorded:
            raise GameError("this deal is recorded already")
        result = table.result
        record = DealRecord(len(self._deals), table.dealer, table.seed, result.winner,
                            result.reason, result.option, table.turns, table.scores, table.log)
        self._deals.append(record)
        self._recorded = True
        for seat, score in enumerate(record.scores):
            self._totals[seat] += score
        return record
