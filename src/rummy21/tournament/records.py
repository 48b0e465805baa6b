"""What one shoe of a tournament leaves behind: each line-up's deal, and the bots' move times.

A :class:`ShoeRecord` is a JSON line (the ``--json`` output and the ``--resume`` file) and
reads back equal. Move times (:class:`MoveTimes`) and the protocol faults of ``exec:`` bots
(a time-out depends on the machine) are kept apart, not compared: they vary from run to run,
and nothing else may.

>>> times = MoveTimes.of([0.001, 0.001, 0.002, 0.5])
>>> times.moves, round(times.quantile(0.5) * 1000, 2), times.quantile(0.99) > 0.4
(4, 1.06, True)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummy21.game.events import EndReason
from rummy21.game.settlement import Standing
from rummy21.tournament.scheme import Lineup, lineups
from rummy21.tournament.settings import Settings

BINS_PER_DECADE = 20
"""Move times are counted in logarithmic bins, 20 to a factor of ten: a quantile read from
them is within 6 % of the true one, and a shoe's times take a few dozen numbers."""

_SHORTEST = 1e-7

Faults = tuple[tuple[str, int], ...]
"""A bot's protocol faults in a shoe: ``(kind, count)`` pairs, by kind
(:class:`rummy21.bots.external.Fault`)."""


@dataclass(frozen=True, slots=True)
class MoveTimes:
    """A histogram of move times (seconds): ``(bin, count)`` pairs, bin ``b`` holding times
    from ``10 ** (b / 20)`` up to the next bin's."""

    bins: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, seconds: Iterable[float]) -> MoveTimes:
        counts = Counter(
            math.floor(math.log10(max(s, _SHORTEST)) * BINS_PER_DECADE) for s in seconds
        )
        return cls(tuple(sorted(counts.items())))

    @property
    def moves(self) -> int:
        return sum(count for _, count in self.bins)

    def __add__(self, other: MoveTimes) -> MoveTimes:
        counts = Counter(dict(self.bins))
        counts.update(dict(other.bins))
        return MoveTimes(tuple(sorted(counts.items())))

    def quantile(self, q: float) -> float | None:
        """The ``q`` quantile in seconds (the geometric middle of its bin); ``None`` if empty.

        >>> MoveTimes().quantile(0.5) is None
        True
        """
        total = self.moves
        if not total:
            return None
        seen = 0
        for index, count in self.bins:
            seen += count
            if seen >= q * total:
                return float(10 ** ((index + 0.5) / BINS_PER_DECADE))
        raise AssertionError("unreachable: the bins hold every move")

    def to_dict(self) -> dict[str, int]:
        return {str(index): count for index, count in self.bins}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MoveTimes:
        bins = tuple(sorted((int(k), v) for k, v in data.items()))
        if any(type(v) is not int or v < 1 for _, v in bins):
            raise ValueError("a move-time bin holds a positive count")
        return cls(bins)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One line-up's deal of a shoe, seat by seat."""

    lineup: Lineup
    """The bot (its index in the settings) at each seat."""
    reason: EndReason
    winner: int | None
    """The winning seat; ``None`` in a wash."""
    option: str | None
    """The option (RULES §5) of a valid declaration."""
    turns: int
    """The deal's turns (:attr:`~rummy21.game.table.Table.turns`)."""
    scores: tuple[int, ...]
    standings: tuple[Standing, ...]
    seat_turns: tuple[int, ...]
    """Turns each seat took (a draw, or a drop before it, begins one)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "lineup": list(self.lineup),
            "reason": self.reason.value,
            "winner": self.winner,
            "option": self.option,
            "turns": self.turns,
            "scores": list(self.scores),
            "standings": [s.value for s in self.standings],
            "seat_turns": list(self.seat_turns),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealOutcome:
        return cls(
            tuple(_ints(data["lineup"])),
            EndReason(data["reason"]),
            None if data["winner"] is None else _int(data["winner"]),
            None if data["option"] is None else str(data["option"]),
            _int(data["turns"]),
            tuple(_ints(data["scores"])),
            tuple(Standing(s) for s in data["standings"]),
            tuple(_ints(data["seat_turns"])),
        )


@dataclass(frozen=True, slots=True)
class ShoeRecord:
    """Shoe ``number``: its seed and dealer, one deal per line-up, and each bot's move times
    and protocol faults by kind (by bot index; left out of comparisons)."""

    number: int
    seed: int
    dealer: int
    deals: tuple[DealOutcome, ...]
    times: tuple[MoveTimes, ...] = field(default=(), compare=False)
    faults: tuple[Faults, ...] = field(default=(), compare=False)

    def means(self, bots: int) -> tuple[float, ...]:
        """Each bot's mean score per deal over its seat-plays of this shoe: the unit the
        statistics average (a bot plays each seat once per shoe).

        >>> deal = DealOutcome((0, 1), EndReason.WASH, None, None, 3, (0, 0), (), (2, 1))
        >>> ShoeRecord(0, 1, 1, (deal,)).means(2)
        (0.0, 0.0)
        """
        totals, plays = [0] * bots, [0] * bots
        for deal in self.deals:
            for bot, score in zip(deal.lineup, deal.scores, strict=True):
                totals[bot] += score
                plays[bot] += 1
        return tuple(t / p if p else 0.0 for t, p in zip(totals, plays, strict=True))

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        """The JSON line; ``labels`` name the bots (the per-bot means and times are keyed by
        them; the means are for a reader, and recomputed when read back; ``faults``, only
        when a bot made some, holds those bots' faults by kind)."""
        data: dict[str, Any] = {
            "shoe": self.number,
            "seed": self.seed,
            "dealer": self.dealer,
            "means": dict(zip(labels, self.means(len(labels)), strict=True)),
            "deals": [d.to_dict() for d in self.deals],
            "times": {label: t.to_dict() for label, t in zip(labels, self.times, strict=True)},
        }
        if any(self.faults):
            data["faults"] = {
                label: dict(f) for label, f in zip(labels, self.faults, strict=True) if f
            }
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], settings: Settings) -> ShoeRecord:
        """The record :meth:`to_dict` wrote for ``settings``; a :class:`ValueError` saying
        what is wrong if it is not one (a shoe out of range, line-ups not the scheme's)."""
        try:
            record = cls(
                _int(data["shoe"]),
                _int(data["seed"]),
                _int(data["dealer"]),
                tuple(DealOutcome.from_dict(d) for d in data["deals"]),
                tuple(MoveTimes.from_dict(data["times"][label]) for label in settings.labels),
                _faults(data.get("faults"), settings.labels),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a shoe record (at {error})") from None
        if not 0 <= record.number < settings.deals:
            raise ValueError(f"shoe {record.number} is not one of the {settings.deals} shoes")
        expected = lineups(len(settings.bots), settings.players)
        if tuple(d.lineup for d in record.deals) != expected:
            raise ValueError(f"shoe {record.number}'s line-ups are not the tournament's")
        if any(
            len(d.scores) != settings.players
            or len(d.standings) != settings.players
            or len(d.seat_turns) != settings.players
            for d in record.deals
        ):
            raise ValueError(f"shoe {record.number} has a deal of another table size")
        return record


def _faults(data: object, labels: Sequence[str]) -> tuple[Faults, ...]:
    if data is None:
        return ()
    if not isinstance(data, dict):
        raise ValueError(f"{data!r} is not the bots' faults")
    kinds = [data.get(label, {}) for label in labels]
    if not all(isinstance(k, dict) for k in kinds):
        raise ValueError(f"{data!r} is not the bots' faults")
    return tuple(tuple(sorted((str(kind), _int(n)) for kind, n in k.items())) for k in kinds)


def _int(value: object) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _ints(values: object) -> list[int]:
    if not isinstance(values, list):
        raise ValueError(f"{values!r} is not a list")
    return [_int(v) for v in values]
