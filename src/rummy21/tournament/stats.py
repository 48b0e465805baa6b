"""The numbers a tournament proves: means with Student-t confidence intervals, paired
differences, and a Bradley–Terry rating of the field.

The unit is the shoe: a bot's score for a shoe is its mean over the shoe's line-ups (they
share the cards, so they are not independent), and the shoes are independent draws. A 95 %
interval is ``mean ± t(0.975, m − 1) · s / √m`` over the ``m`` shoe means — Student's t rather
than a bootstrap, so it is exact arithmetic on the records, with no resampling seed. A
difference between two bots is the same interval on their per-shoe differences (paired by
shoe: the luck of the deal cancels a second time).

>>> interval = mean_interval([1, 2, 3, 4, 5])
>>> interval.mean, round(interval.low, 4), round(interval.high, 4)
(3.0, 1.0368, 4.9632)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, stdev

LEVEL = 0.95
"""The confidence level of every interval."""

ELO_SCALE = 400 / math.log(10)
"""A Bradley–Terry log-strength in Elo points: 400 points is odds of 10 to 1."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean over ``n`` shoes with its confidence interval (``None`` ends: fewer than 2
    shoes say nothing about the spread)."""

    mean: float
    low: float | None
    high: float | None
    n: int

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0 (the difference is significant
        at the level).

        >>> mean_interval([0.9, 1.0, 1.1]).excludes_zero, mean_interval([-1, 1]).excludes_zero
        (True, False)
        """
        if self.low is None or self.high is None:
            return False
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, float | int | None]:
        return {
            "mean": round(self.mean, 3),
            "low": None if self.low is None else round(self.low, 3),
            "high": None if self.high is None else round(self.high, 3),
            "shoes": self.n,
        }


def mean_interval(values: Sequence[float], level: float = LEVEL) -> Interval:
    """The mean of ``values`` (one per shoe) and its Student-t interval at ``level``.

    >>> mean_interval([4.0])
    Interval(mean=4.0, low=None, high=None, n=1)
    """
    if not values:
        raise ValueError("an interval needs at least one value")
    mean = fmean(values)
    if len(values) < 2:
        return Interval(mean, None, None, len(values))
    half = t_quantile(0.5 + level / 2, len(values) - 1) * stdev(values) / math.sqrt(len(values))
    return Interval(mean, mean - half, mean + half, len(values))


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``p`` ≥ 0.5), by
    bisection on its distribution function.

    >>> [round(t_quantile(0.975, df), 4) for df in (1, 2, 4, 10, 30)]
    [12.7062, 4.3027, 2.7764, 2.2281, 2.0423]
    """
    if not 0.5 <= p < 1 or df < 1:
        raise ValueError(f"need 0.5 <= p < 1 and df >= 1, not p={p}, df={df}")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12:
            break
    return (low + high) / 2


def t_cdf(t: float, df: int) -> float:
    """P(T ≤ t) for Student's t with ``df`` degrees of freedom.

    >>> t_cdf(0.0, 5), round(t_cdf(2.7764451, 4), 6)
    (0.5, 0.975)
    """
    tail = 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (its continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), by Lentz's method."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.5) -> tuple[float, ...]:
    """Bradley–Terry ratings in Elo points (averaging 0) from ``wins[a][b]``, the shoes ``a``
    did better than ``b`` in (a tie: half to each). Every pair also gets ``prior`` virtual
    wins each way, so that a bot that always wins has a finite rating. Fitted by Hunter's
    MM iterations: the same wins, the same ratings, whatever order the shoes came in.

    >>> [round(r) for r in bradley_terry([[0, 9.5], [0.5, 0]])]
    [200, -200]
    >>> bradley_terry([[0, 3], [3, 0]])
    (0.0, 0.0)
    """
    k = len(wins)
    games = [
        [wins[a][b] + wins[b][a] + 2 * prior if a != b else 0.0 for b in range(k)] for a in range(k)
    ]
    won = [sum(wins[a][b] + prior for b in range(k) if b != a) for a in range(k)]
    strength = [1.0] * k
    for _ in range(10_000):
        new = [
            won[a] / sum(games[a][b] / (strength[a] + strength[b]) for b in range(k) if b != a)
            for a in range(k)
        ]
        centre = fmean(math.log(s) for s in new)
        new = [s / math.exp(centre) for s in new]
        done = max(abs(n - s) for n, s in zip(new, strength, strict=True)) < 1e-13
        strength = new
        if done:
            break
    return tuple(ELO_SCALE * math.log(s) + 0.0 for s in strength)
