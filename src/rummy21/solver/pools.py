"""Splitting the pool of one rank — the copies no run or tunnela took — into sets and loose
cards. A split depends on the pool's copies by suit alone, so splits are memoised across hands.
The native core splits pools in C (``_native_pools.c``, making the same objects); this module
is its reference, and the pure-Python core's.

>>> for split in pool_splits((1, 1, 0, 0), (False,) * 4, 5, 4):    # a five of spades and of hearts
...     split.jokers, split.loose_points, split.sets, split.extension
(0, 10, (), False)
(1, 0, (SetOf(suits=(0, 1), jokers=1),), False)
(2, 0, (SetOf(suits=(0, 1), jokers=2),), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import NamedTuple


class SetOf(NamedTuple):
    """One set of a split: the suits of its natural cards, and the jokers that complete it."""

    suits: tuple[int, ...]
    jokers: int


@dataclass(frozen=True, slots=True)
class PoolSplit:
    """How the pool of one rank is split: sets and loose cards per suit."""

    jokers: int
    loose_points: int
    extension: bool
    """Uses more jokers than needed (only useful to place spare jokers for Option A)."""
    sets: tuple[SetOf, ...]
    loose: tuple[int, ...]


_SUBSETS = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(1, 16))


@cache
def _partitions(y: tuple[int, ...], max_set: int) -> dict[int, tuple[SetOf, ...]]:
    """Ways to cover pool ``y`` exactly by sets, by total jokers used: jokers -> sets."""
    found: dict[int, tuple[SetOf, ...]] = {}

    def walk(rest: tuple[int, ...], start: int, chosen: list[tuple[int, ...]]) -> None:
        if not any(rest):
            lows = [max(0, 3 - len(s)) for s in chosen]
            highs = [max_set - len(s) for s in chosen]
            for total in range(sum(lows), sum(highs) + 1):
                if total in found:
                    continue
                extra, sets = total - sum(lows), []
                for subset, low, high in zip(chosen, lows, highs, strict=True):
                    add = min(extra, high - low)
                    extra -= add
                    sets.append(SetOf(subset, low + add))
                found[total] = tuple(sets)
            return
        for i in range(start, len(_SUBSETS)):
            subset = _SUBSETS[i]
            # A set of one natural and two jokers is the same cards as a padded run: skip it.
            if len(subset) < 2 or len(subset) > max_set or any(rest[s] == 0 for s in subset):
                continue
            walk(tuple(r - (s in subset) for s, r in enumerate(rest)), i, chosen + [subset])

    walk(y, 0, [])
    return found


@cache
def pool_splits(
    x: tuple[int, ...], jokerish: tuple[bool, ...], points: int, max_set: int, every: bool = False
) -> tuple[PoolSplit, ...]:
    """Pareto-best splits of a rank's pool ``x`` (copies by suit), by (jokers used, loose
    points), plus, for Option A, splits absorbing spare jokers. ``jokerish``: the suits whose
    copies are joker cards (they go to the pool only to sit in a set). ``points``: of a
    loose card.

    With ``every``, one split for each (jokers, loose points) there is: when loose cards are
    replaced (see :func:`~rummy21.solver.replacements`) they supply jokers, so no split is
    sure to be worse.
    """
    if not any(x):
        return (PoolSplit(0, 0, False, (), (0, 0, 0, 0)),)
    ranges = [range(x[s], x[s] + 1) if jokerish[s] else range(x[s] + 1) for s in range(4)]
    if every:
        found: dict[tuple[int, int], PoolSplit] = {}
        for y in product(*ranges):
            loose = tuple(x[s] - y[s] for s in range(4))
            parts = _partitions(tuple(y), max_set)
            for jokers, sets in parts.items():
                split = PoolSplit(jokers, sum(loose) * points, jokers > min(parts), sets, loose)
                found.setdefault((jokers, split.loose_points), split)
        return tuple(found[k] for k in sorted(found))
    best: dict[int, PoolSplit] = {}
    extensions: list[PoolSplit] = []
    for y in product(*ranges):
        loose = tuple(x[s] - y[s] for s in range(4))
        loose_points = sum(loose) * points
        parts = _partitions(tuple(y), max_set)
        if not parts:
            continue
        fewest = min(parts)
        for jokers, sets in parts.items():
            split = PoolSplit(jokers, loose_points, jokers > fewest, sets, loose)
            if jokers == fewest:
                old = best.get(jokers)
                if old is None or loose_points < old.loose_points:
                    best[jokers] = split
            elif loose_points == 0:
                extensions.append(split)
    pareto: list[PoolSplit] = []
    for jokers in sorted(best):
        split = best[jokers]
        if not pareto or split.loose_points < pareto[-1].loose_points:
            pareto.append(split)
    zero = {s.jokers for s in pareto if s.loose_points == 0}
    extra = {}
    for split in extensions:
        if split.jokers not in zero and split.jokers not in extra:
            extra[split.jokers] = split
    return tuple(pareto) + tuple(extra[j] for j in sorted(extra))


NO_SETS = PoolSplit(0, 0, False, (), (0, 0, 0, 0))
"""The pool split of a rank where no set can form: its pool was counted loose already."""
