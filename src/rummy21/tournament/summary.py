"""A tournament's result: per bot, its mean score with its interval, rating, wins, drops,
wrong declarations, declarations by option, turns and move times; per pair of bots, the
difference of their means.

Everything but the move times is a function of the shoe records alone, summed in shoe order:
the same shoes give an equal :class:`Summary` (the times are not compared), whichever process
played them and in whatever order they came back.

>>> from rummy21.tournament.play import play_shoe
>>> from rummy21.tournament.settings import Settings
>>> settings = Settings(("random", "random"), players=2, deals=2, seed=3, turn_limit=30)
>>> summary = summarize(settings, [play_shoe(settings, n) for n in (1, 0)])
>>> summary.shoes, summary.deals, [b.label for b in summary.bots]
(2, 4, ['random#1', 'random#2'])
>>> round(sum(b.score.mean for b in summary.bots), 9)  # the game is zero-sum
0.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from statistics import fmean
from typing import Any

from rummy21.game.events import EndReason
from rummy21.game.settlement import Standing
from rummy21.tournament.records import Faults, MoveTimes, ShoeRecord
from rummy21.tournament.settings import Settings
from rummy21.tournament.stats import Interval, bradley_terry, mean_interval

OPTIONS = ("A", "B", "C")


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's results over the shoes (a seat-play is one seat of one deal)."""

    label: str
    score: Interval
    """Mean score per deal, with its interval over the shoe means."""
    rating: float
    """Bradley–Terry rating, Elo points, the field averaging 0."""
    plays: int
    wins: int
    drops: int
    wrong: int
    """Wrong declarations."""
    declarations: tuple[tuple[str, int], ...]
    """Valid declarations by option."""
    turns: float
    """Mean turns taken per seat-play."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.label,
            "score": self.score.to_dict(),
            "rating": round(self.rating, 1),
            "plays": self.plays,
            "wins": self.wins,
            "drops": self.drops,
            "wrong_declarations": self.wrong,
            "declarations": dict(self.declarations),
            "mean_turns": round(self.turns, 3),
        }


@dataclass(frozen=True, slots=True)
class PairResult:
    """``first``'s mean minus ``second``'s, paired by shoe; in how many shoes each did
    better."""

    first: str
    second: str
    difference: Interval
    ahead: int
    behind: int

    def better_first(self) -> PairResult:
        """The same pair with the bot that did better first (the difference not below 0).

        >>> pair = PairResult("a", "b", Interval(-2.0, -3.0, -1.0, 5), 1, 4)
        >>> flipped = pair.better_first()
        >>> flipped.first, flipped.difference, flipped.ahead
        ('b', Interval(mean=2.0, low=1.0, high=3.0, n=5), 4)
        """
        d = self.difference
        if d.mean >= 0:
            return self
        flipped = Interval(
            -d.mean, None if d.high is None else -d.high, None if d.low is None else -d.low, d.n
        )
        return PairResult(self.second, self.first, flipped, self.behind, self.ahead)

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "difference": self.difference.to_dict(),
            "significant": self.difference.excludes_zero,
            "ahead": self.ahead,
            "behind": self.behind,
        }


@dataclass(frozen=True, slots=True)
class Timing:
    """A bot's time per move (seconds): median and 99th percentile."""

    label: str
    moves: int
    median: float | None
    p99: float | None

    def to_dict(self) -> dict[str, Any]:
        def ms(value: float | None) -> float | None:
            return None if value is None else round(value * 1000, 3)

        return {
            "bot": self.label,
            "moves": self.moves,
            "median_ms": ms(self.median),
            "p99_ms": ms(self.p99),
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """The whole result; :attr:`timing` and :attr:`faults` are not compared (they vary from
    run to run)."""

    settings: Settings
    shoes: int
    deals: int
    reasons: tuple[tuple[str, int], ...]
    turns: float
    """Mean turns a deal."""
    bots: tuple[BotResult, ...]
    pairs: tuple[PairResult, ...]
    timing: tuple[Timing, ...] = field(default=(), compare=False)
    faults: tuple[tuple[str, Faults], ...] = field(default=(), compare=False)
    """The protocol faults of the bots that made some (``exec:`` bots), by label, by kind."""

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` summary line: ``{"summary": {…}}``; its ``timing`` key is the part
        that changes from run to run (and ``faults``, there when a bot made some)."""
        summary: dict[str, Any] = {
            "summary": {
                "settings": self.settings.to_dict(),
                "shoes": self.shoes,
                "tables": self.deals,
                "reasons": dict(self.reasons),
                "mean_turns": round(self.turns, 3),
                "level": 0.95,
                "rating": "bradley-terry, elo points, field mean 0",
                "bots": [b.to_dict() for b in self.bots],
                "pairs": [p.to_dict() for p in self.pairs],
                "timing": [t.to_dict() for t in self.timing],
            }
        }
        if self.faults:
            summary["summary"]["faults"] = {label: dict(kinds) for label, kinds in self.faults}
        return summary


def summarize(settings: Settings, records: Iterable[ShoeRecord]) -> Summary:
    """The summary of ``records`` (at least one shoe, any order)."""
    shoes = sorted(records, key=lambda r: r.number)
    if not shoes:
        raise ValueError("no shoe has been played")
    k, labels = len(settings.bots), settings.labels
    means = [record.means(k) for record in shoes]
    deals = [deal for record in shoes for deal in record.deals]
    plays, wins, drops, wrong, turns = ([0] * k for _ in range(5))
    declared: list[Counter[str]] = [Counter() for _ in range(k)]
    for deal in deals:
        for seat, bot in enumerate(deal.lineup):
            plays[bot] += 1
            turns[bot] += deal.seat_turns[seat]
            drops[bot] += deal.standings[seat] is Standing.DROPPED
            wrong[bot] += deal.standings[seat] is Standing.WRONG
        if deal.winner is not None:
            winner = deal.lineup[deal.winner]
            wins[winner] += 1
            if deal.reason is EndReason.DECLARED and deal.option is not None:
                declared[winner][deal.option] += 1
    better = [[0.0] * k for _ in range(k)]
    for row in means:
        for a, b in combinations(range(k), 2):
            if row[a] == row[b]:
                better[a][b] += 0.5
                better[b][a] += 0.5
            else:
                better[a if row[a] > row[b] else b][a if row[a] < row[b] else b] += 1
    ratings = bradley_terry(better)
    reasons = Counter(deal.reason.value for deal in deals)
    times = [sum((r.times[bot] for r in shoes if r.times), MoveTimes()) for bot in range(k)]
    faults: list[Counter[str]] = [Counter() for _ in range(k)]
    for record in shoes:
        for bot, kinds in enumerate(record.faults):
            faults[bot].update(dict(kinds))
    return Summary(
        settings,
        len(shoes),
        len(deals),
        tuple((reason.value, reasons[reason.value]) for reason in EndReason),
        fmean(deal.turns for deal in deals),
        tuple(
            BotResult(
                labels[bot],
                mean_interval([row[bot] for row in means]),
                ratings[bot],
                plays[bot],
                wins[bot],
                drops[bot],
                wrong[bot],
                tuple((option, declared[bot][option]) for option in OPTIONS),
                turns[bot] / plays[bot],
            )
            for bot in range(k)
        ),
        tuple(
            PairResult(
                labels[a],
                labels[b],
                mean_interval([row[a] - row[b] for row in means]),
                sum(row[a] > row[b] for row in means),
                sum(row[a] < row[b] for row in means),
            )
            for a, b in combinations(range(k), 2)
        ),
        tuple(
            Timing(labels[bot], t.moves, t.quantile(0.5), t.quantile(0.99))
            for bot, t in enumerate(times)
        ),
        tuple((labels[bot], tuple(sorted(f.items()))) for bot, f in enumerate(faults) if f),
    )
