"""A match: many deals at one table, the dealer moving one seat clockwise each deal (RULES §2),
with running totals and money at the table's point value (RULES §7).

The one place that knows a match's bookkeeping: who deals deal *n*, the seed it is dealt with,
the deal numbers and the running totals. ``rummy21 play``/``simulate`` and the bots' runner
deal with it; a browser table (:mod:`rummy21.server.room`) too, rebuilding it from its stored
deals after a restart (:meth:`Match.rebuild`), so that it deals on exactly as it would have.

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

A match rebuilt from its recorded deals deals the same next deal:

>>> again = Match.rebuild(3, seed=5, point_value=Decimal("0.25"), deals=match.deals[:1])
>>> again.totals, again.new_deal().hand(0) == match.current.hand(0)
((-30, -30, 60), True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from rummy21.game.errors import GameError, SetupError
from rummy21.game.events import EndReason, Event
from rummy21.game.log import dump_log
from rummy21.game.table import Table
from rummy21.ruleset import CLASSIC, RuleSet

MOST_DEALS = 1_000_000
"""The most deals a command plays in one run (``simulate``, ``play``, a tournament's shoes):
more is a slip of the keyboard — a million deals of the expert bot take days — and is refused
before any is dealt."""

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
        raise ValueError(
            f"the point value has at most {POINT_VALUE_PLACES} decimal places, not {text!r}"
        )
    if amount == amount.to_integral_value():
        return abs(amount.quantize(Decimal(1)))
    return amount.normalize()


DealFactory = Callable[[int, RuleSet, int, int, "int | None"], Table]
"""``(players, rules, dealer, number, seed) -> Table``: deals deal ``number`` some other way than
``Table(players, rules, seed=seed, dealer=dealer)`` (tests deal chosen cards with it)."""


def deal_dealer(players: int, number: int) -> int:
    """The dealer of deal ``number`` (from 0) of a match at ``players`` seats: the last seat
    deals first, then the deal moves one seat clockwise (RULES §2).

    >>> [deal_dealer(3, n) for n in range(4)]
    [2, 0, 1, 2]
    """
    return (players - 1 + number) % players


def deal_seed(match_seed: int | None, number: int) -> int | None:
    """The seed of deal ``number`` (from 0) of a match seeded with ``match_seed``: the
    ``number + 1``-th 32-bit draw of ``random.Random(match_seed)``, as :class:`Match` deals them.

    >>> deal_seed(5, 0) == Match(2, seed=5).new_deal().seed, deal_seed(None, 3)
    (True, None)
    """
    if match_seed is None:
        return None
    rng = random.Random(match_seed)
    # Skip the first ``number`` draws at once: a draw of 32·k bits takes the generator's next
    # k 32-bit words, as k draws of 32 bits do (a tournament's shoe 100,000 is one call).
    rng.getrandbits(32 * number)
    return rng.getrandbits(32)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """The outcome of one deal of a match: what its running totals and its history need.

    A match keeps these; a stored deal is read back as one (:meth:`Match.rebuild`)."""

    number: int
    dealer: int
    seed: int | None
    winner: int | None
    reason: EndReason
    option: str | None
    turns: int
    scores: tuple[int, ...]

    @classmethod
    def of(cls, number: int, table: Table) -> DealSummary:
        """The summary of ``table``'s finished deal, deal ``number`` of its match."""
        result = table.result
        if not table.over or result is None:
            raise GameError("the deal is not over yet")
        return cls(
            number,
            table.dealer,
            table.seed,
            result.winner,
            result.reason,
            result.option,
            table.turns,
            result.scores,
        )


@dataclass(frozen=True, slots=True)
class DealRecord(DealSummary):
    """The outcome of one deal of a match, with its full log (replayable)."""

    log: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        """The summary line ``rummy21 simulate`` prints for a deal."""
        return {
            "deal": self.number,
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason.value,
            "option": self.option,
            "turns": self.turns,
            "scores": list(self.scores),
        }

    def log_text(self) -> str:
        return dump_log(self.log)


class Match:
    """Deals at one table. With ``seed`` every deal's seed comes from ``random.Random(seed)``
    (:func:`deal_seed`); ``table_factory`` deals them some other way (tests)."""

    def __init__(
        self,
        players: int,
        rules: RuleSet = CLASSIC,
        *,
        seed: int | None = None,
        point_value: Decimal | int | str = Decimal(1),
        table_factory: DealFactory | None = None,
    ) -> None:
        if not rules.min_players <= players <= rules.max_players:
            raise SetupError(
                f"the rule set {rules.name!r} seats {rules.min_players} to "
                f"{rules.max_players} players, not {players}"
            )
        self._players = players
        self._rules = rules
        self._seed = seed
        self._seeds = None if seed is None else random.Random(seed)
        self._drawn: list[int] = []  # the deal seeds drawn so far, deal 0 first
        self._point_value = Decimal(point_value)
        self._factory = table_factory
        self._totals = [0] * players
        self._deals: list[DealSummary] = []
        self._current: Table | None = None
        self._recorded = False

    @classmethod
    def rebuild(
        cls,
        players: int,
        rules: RuleSet = CLASSIC,
        *,
        seed: int | None = None,
        point_value: Decimal | int | str = Decimal(1),
        deals: Iterable[DealSummary] = (),
        current: Table | None = None,
        recorded: bool = False,
        table_factory: DealFactory | None = None,
    ) -> Match:
        """The match as it stood after ``deals`` (its recorded deals, numbered from 0): it
        deals on with the seeds and dealers it would have used had it dealt them itself.

        ``current`` is the table of the last deal dealt, replayed from its log: with
        ``recorded``, the last of ``deals`` (over: shown until the next deal); without, the
        deal after them (in progress, or over and waiting for :meth:`record`).
        """
        match = cls(players, rules, seed=seed, point_value=point_value, table_factory=table_factory)
        for summary in deals:
            if summary.number != len(match._deals):
                raise GameError(
                    f"deal {summary.number + 1} follows deal "
                    f"{len(match._deals)}: the deals are not all there"
                )
            match._add(summary)
        if current is None:
            if recorded:
                raise GameError("a recorded current deal needs its table")
            return match
        number = len(match._deals) - 1 if recorded else len(match._deals)
        if number < 0:
            raise GameError("no deal is recorded yet")
        if recorded and not current.over:
            raise GameError("a recorded deal is over")
        if current.dealer != match._dealer_of(number) or current.players != players:
            raise GameError(
                f"deal {number + 1} is dealt by seat {match._dealer_of(number) + 1} "
                f"at a table of {players}"
            )
        match._current, match._recorded = current, recorded
        return match

    @property
    def players(self) -> int:
        return self._players

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def point_value(self) -> Decimal:
        return self._point_value

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress (between deals: of the next one)."""
        if self._current is not None and not self._recorded:
            return self._current.dealer
        return self._dealer_of(len(self._deals))

    @property
    def current(self) -> Table | None:
        """The deal in progress (or the last one, once finished)."""
        return self._current

    @property
    def number(self) -> int:
        """The number (from 0) of :attr:`current`'s deal; -1 before the first deal."""
        pending = self._current is not None and not self._recorded
        return len(self._deals) - (0 if pending else 1)

    @property
    def recorded(self) -> bool:
        """Whether :attr:`current` is recorded (or there is none): a new deal may be dealt."""
        return self._current is None or self._recorded

    @property
    def deals(self) -> tuple[DealSummary, ...]:
        """The recorded deals (:meth:`record` returned each with its log)."""
        return tuple(self._deals)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    def money(self, seat: int) -> Decimal:
        """``seat``'s running total in money: points × the point value."""
        return self._totals[seat] * self._point_value

    def new_deal(self) -> Table:
        """Shuffle and deal the next deal."""
        return self.begin(self.next_table())

    def next_table(self) -> Table:
        """The next deal, shuffled and dealt but not begun: the match is unchanged until
        :meth:`begin` (a browser table stores the deal first)."""
        if not self.recorded:
            raise GameError("record the current deal before dealing the next")
        number = len(self._deals)
        dealer = self._dealer_of(number)
        seed = self._seed_of(number)
        if self._factory is None:
            return Table(self._players, self._rules, seed=seed, dealer=dealer)
        return self._factory(self._players, self._rules, dealer, number, seed)

    def begin(self, table: Table) -> Table:
        """Make ``table`` (from :meth:`next_table`) the deal in progress."""
        if not self.recorded:
            raise GameError("record the current deal before dealing the next")
        if table.players != self._players or table.dealer != self.dealer:
            raise GameError(
                f"the next deal is dealt by seat {self.dealer + 1} at a table of {self._players}"
            )
        self._current, self._recorded = table, False
        return table

    def record(self, table: Table | None = None) -> DealRecord:
        """Add a finished deal (by default the current one) to the running totals."""
        table = self._current if table is None else table
        if table is None or table is not self._current:
            raise GameError("only the current deal of this match can be recorded")
        if not table.over or table.scores is None or table.result is None:
            raise GameError("the deal is not over yet")
        if self._recorded:
            raise GameError("this deal is recorded already")
        summary = DealSummary.of(len(self._deals), table)
        self._add(summary)
        self._recorded = True
        return DealRecord(
            summary.number,
            summary.dealer,
            summary.seed,
            summary.winner,
            summary.reason,
            summary.option,
            summary.turns,
            summary.scores,
            table.log,
        )

    def _dealer_of(self, number: int) -> int:
        return deal_dealer(self._players, number)

    def _seed_of(self, number: int) -> int | None:
        """:func:`deal_seed` of deal ``number``, drawing each seed once."""
        if self._seeds is None:
            return None
        while len(self._drawn) <= number:
            self._drawn.append(self._seeds.getrandbits(32))
        return self._drawn[number]

    def _add(self, summary: DealSummary) -> None:
        self._deals.append(summary)
        for seat, score in enumerate(summary.scores):
            self._totals[seat] += score
