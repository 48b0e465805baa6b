"""The statistics against values computed by hand (and tables of Student's t)."""

from __future__ import annotations

import math

import pytest

from rummy21.game.events import EndReason
from rummy21.game.settlement import Standing
from rummy21.tournament import (
    DealOutcome,
    MoveTimes,
    Settings,
    ShoeRecord,
    bradley_terry,
    mean_interval,
    summarize,
    t_quantile,
)
from rummy21.tournament.stats import t_cdf


@pytest.mark.parametrize(
    ("p", "df", "table"),
    [
        (0.975, 1, 12.7062),
        (0.975, 3, 3.1824),
        (0.975, 9, 2.2622),
        (0.975, 29, 2.0452),
        (0.975, 120, 1.9799),
        (0.95, 5, 2.0150),
        (0.995, 10, 3.1693),
    ],
)
def test_t_quantiles_match_the_tables(p: float, df: int, table: float) -> None:
    assert t_quantile(p, df) == pytest.approx(table, abs=1e-4)
    assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-12)


def test_t_tends_to_the_normal() -> None:
    assert t_quantile(0.975, 100_000) == pytest.approx(1.95996, abs=1e-4)


def test_an_interval_by_hand() -> None:
    # 10, 20, 30, 40: mean 25, s = sqrt(500/3) = 12.9099, s/√4 = 6.4550, t(0.975, 3) = 3.1824
    interval = mean_interval([10, 20, 30, 40])
    assert interval.mean == 25
    assert interval.low == pytest.approx(25 - 3.182446 * 6.454972, abs=1e-4)
    assert interval.high == pytest.approx(25 + 3.182446 * 6.454972, abs=1e-4)
    assert interval.n == 4 and interval.excludes_zero  # 4.46 to 45.54


def test_one_shoe_has_no_interval_and_none_is_an_error() -> None:
    assert mean_interval([7.0]).low is None
    with pytest.raises(ValueError):
        mean_interval([])


def test_bradley_terry_by_hand() -> None:
    # 3 wins to 1, no prior: strengths 3 : 1, 400·log10(3) Elo points apart
    first, second = bradley_terry([[0, 3], [1, 0]], prior=0)
    assert first - second == pytest.approx(400 * math.log10(3))
    assert first + second == pytest.approx(0)
    # a bot that always wins is finite with the prior; a transitive field is ordered
    assert all(math.isfinite(r) for r in bradley_terry([[0, 10], [0, 0]]))
    a, b, c = bradley_terry([[0, 6, 9], [4, 0, 6], [1, 4, 0]])
    assert a > b > c and a + b + c == pytest.approx(0, abs=1e-9)


def _deal(lineup: tuple[int, ...], scores: tuple[int, ...], winner: int | None) -> DealOutcome:
    standings = tuple(
        Standing.DECLARED if seat == winner else Standing.ACTIVE for seat in range(len(scores))
    )
    reason = EndReason.WASH if winner is None else EndReason.DECLARED
    return DealOutcome(
        lineup, reason, winner, None if winner is None else "A", 10, scores, standings, (5, 5)
    )


def test_a_summary_by_hand() -> None:
    """Two bots on two seats, three shoes (given in reverse): greedy's shoe means are 10,
    30 and 0 (zero-sum: random's are their negatives)."""
    settings = Settings(("greedy", "random"), players=2, deals=3, seed=0)
    shoes = [
        ShoeRecord(0, 1, 1, (_deal((0, 1), (20, -20), 0), _deal((1, 0), (0, 0), None))),
        ShoeRecord(1, 2, 0, (_deal((0, 1), (30, -30), 0), _deal((1, 0), (-30, 30), 1))),
        ShoeRecord(2, 3, 1, (_deal((0, 1), (-40, 40), 1), _deal((1, 0), (-40, 40), 1))),
    ]
    summary = summarize(settings, reversed(shoes))
    greedy, random = summary.bots
    assert (greedy.score.mean, random.score.mean) == pytest.approx((40 / 3, -40 / 3))
    # shoe means 10, 30, 0: s = 15.275, s/√3 = 8.819, t(0.975, 2) = 4.3027
    assert greedy.score.high == pytest.approx(40 / 3 + 4.302653 * 8.819171, abs=1e-4)
    assert (greedy.wins, random.wins, greedy.plays) == (4, 1, 6)
    assert dict(greedy.declarations) == {"A": 4, "B": 0, "C": 0}
    (pair,) = summary.pairs
    assert pair.difference.mean == pytest.approx(80 / 3)
    assert (pair.ahead, pair.behind) == (2, 0)  # shoe 2 is even
    assert greedy.rating > 0 > random.rating
    assert dict(summary.reasons) == {"declared": 5, "last_active": 0, "wash": 1}


def test_move_times_quantiles_and_sums() -> None:
    fast, slow = MoveTimes.of([0.001] * 99), MoveTimes.of([1.0])
    both = fast + slow
    assert both.moves == 100
    median, p99, top = both.quantile(0.5), both.quantile(0.99), both.quantile(1.0)
    assert median is not None and p99 is not None and top is not None
    assert median == pytest.approx(0.001, rel=0.06) and p99 == pytest.approx(0.001, rel=0.06)
    assert top == pytest.approx(1.0, rel=0.06)
    assert MoveTimes.from_dict(both.to_dict()) == both
