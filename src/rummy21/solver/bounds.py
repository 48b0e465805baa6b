"""Bounds: what the cards can still do — the pure groups they could form (with or without
buying cards) and the points no arrangement can keep from being loose. The sweep prunes with
them, and a hand that cannot form enough pure groups is not swept at all.

A suit's *line* is its copies by place, 0 (nothing) or 1 (the Ace low) to 13 (the King), then
the Ace high again at 14 where a search reads both ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rummy21.cards import JOKER_INDEX, Card

RANK_POINTS = tuple(Card(r).points for r in range(13))
"""The points of a loose card, by rank (Ace first)."""


@lru_cache(maxsize=1 << 14)
def bought_may_start(line: Sequence[int], start: int, budget: int) -> bool:
    """Whether a pure run may begin with a card bought at place ``start`` (see
    :func:`~rummy21.solver.replacements`).

    A pure run ``B x .. y`` beginning with a bought card can as well end with one instead,
    ``x .. y B'`` (B' the card after y: the same cards bought and held, as pure), unless y
    is the Ace high or the shoe has no copy of B' left — three in the new hand. So the run
    must reach such a place within the cards still to buy (``budget``, one of them B).
    """
    missing = 0
    for end in range(start + 1, 15):
        missing += not line[end]
        if missing > budget - 1:
            return False
        if end >= start + 2 and (end == 14 or line[end + 1] + budget - 1 - missing >= 3):
            return True
    return False


def groups_after(line: Sequence[int]) -> list[int]:
    """For each position p (0..15), the most disjoint pure groups (runs of three, tunnelas)
    the copies ``line`` holds at the places after p, the Aces again at 14 (for p >= 13: the
    Aces at 14 alone) — :func:`_line_groups` of each such suffix, all in one sweep down.
    A state that cannot reach the groups needed with these and its open pure runs is dead.

    ``best[a, b]`` is the most groups of the places from q on when ``a`` copies at q and
    ``b`` at q + 1 already sit in runs begun lower; at q, ``z`` more runs begin (taking a
    copy at q + 1 and q + 2 each), or its three copies make a tunnela.
    """
    out = [0] * 16
    after: dict[tuple[int, int], int] = {(0, 0): 0}
    padded = list(line[:15]) + [0, 0]
    for q in range(14, 0, -1):
        here, next1, next2 = padded[q], padded[q + 1], padded[q + 2]
        best: dict[tuple[int, int], int] = {}
        for a in range(here + 1):
            for b in range(next1 + 1):
                free = here - a
                most = max(after[b + z, z] + z for z in range(min(free, next1 - b, next2) + 1))
                if free == 3:
                    most = max(most, after[b, 0] + 1)
                best[a, b] = most
        after = best
        out[q - 1] = best[0, 0]
    out[14] = out[15] = out[13]
    return out


def line_after(at: Sequence[int], p: int) -> tuple[int, ...]:
    """A suit's copies at the places after ``p`` up to the King, then its Aces (Ace high)."""
    return tuple(at[q] for q in range(p + 1, 14)) + (at[1],)


def loose_ahead(
    counts: Sequence[int],
    mask: Sequence[bool],
    rank_points: Sequence[int] = RANK_POINTS,
    free: int = 0,
) -> list[int]:
    """For each position, a lower bound on the points left loose among the cards after it
    (``free``: cards that may be put aside at no cost).

    A card is *isolated* if no other card of its suit lies within two places of it and no
    card of its rank in another suit (and it is not one of three copies). A group holding
    one isolated card holds two jokers next to it, and a run holding ``k >= 2`` of them at
    least ``2 (k - 1)`` jokers (two between each two of them), so ``J`` joker cards save at
    most ``J`` isolated cards (none if ``J < 2``): the rest are loose whatever the arrangement.
    """
    jokers = sum(n for n, joker in zip(counts, mask, strict=True) if joker)
    saved = (jokers if jokers >= 2 else 0) + free  # ``free``: cards put aside
    isolated: list[tuple[int, int]] = []  # (position, points)
    held = counts.__getitem__
    for i in range(JOKER_INDEX):
        if not counts[i] or mask[i] or counts[i] == 3 or any(map(held, NEIGHBOURS[i])):
            continue
        rank = i % 13 + 1
        isolated.extend([(rank, rank_points[rank - 1])] * counts[i])
    bound = [0] * 17
    if len(isolated) <= saved:  # (the usual case: then none is sure to be loose)
        return bound
    for p in range(16):
        points = sorted((pts for pos, pts in isolated if pos > p), reverse=True)
        bound[p] = sum(points[saved:])
    return bound


def _neighbours(i: int) -> tuple[int, ...]:
    """The card kinds whose presence keeps kind ``i`` from being isolated (see
    :func:`loose_ahead`): its rank in the other suits, its suit within two places."""
    suit, rank = divmod(i, 13)
    rank += 1
    places = {rank, 14} if rank == 1 else {rank}
    near = {q for p in places for q in range(p - 2, p + 3) if 1 <= q <= 14 and q not in places}
    return tuple(t * 13 + rank - 1 for t in range(4) if t != suit) + tuple(
        sorted(suit * 13 + (q - 1) % 13 for q in near)
    )


NEIGHBOURS = tuple(_neighbours(i) for i in range(JOKER_INDEX))
"""For each suited card kind, the other kinds that can share a group with it: its rank in the
other suits, its suit within two places (an Ace at both ends)."""


def max_pure_groups(counts: Sequence[int]) -> int:
    """The most disjoint pure groups (pure runs, tunnelas) the cards could ever form.

    >>> from rummy21.cards import Hand
    >>> max_pure_groups(Hand.parse("QS KS AS 2S 3S 5H 5H 5H JK JK JK").counts)
    3
    >>> max_pure_groups(Hand.parse("QS KS AS AS 2S 3S 5H 5H 5H JK JK JK").counts)
    4
    """
    total = counts[JOKER_INDEX] // 3
    for s in range(4):
        total += _suit_pure_groups(tuple(counts[s * 13 : s * 13 + 13]))
    return total


@lru_cache(maxsize=1 << 16)
def _suit_pure_groups(ranks: tuple[int, ...]) -> int:
    aces = ranks[0]
    best = 0
    for low in range(aces + 1):
        line = (low,) + ranks[1:] + (aces - low,)
        best = max(best, _line_groups(line))
    return best


def pure_within(lines: Sequence[tuple[int, ...]], budget: int, need: int) -> list[int]:
    """For each budget up to ``budget``: the most pure groups (capped at ``need``) the suits'
    ``lines`` can form buying at most that many cards (see :func:`_line_groups_buying`)."""
    best = [0] * (budget + 1)
    for line in lines:
        mine = [_line_groups_buying(line, k, need) for k in range(budget + 1)]
        best = [
            min(need, max(best[k - j] + mine[j] for j in range(k + 1))) for k in range(budget + 1)
        ]
    return best


@lru_cache(maxsize=1 << 16)
def _line_groups_buying(line: tuple[int, ...], budget: int, need: int) -> int:
    """The most disjoint pure groups (capped at ``need``) in a suit's line of copies
    buying at most ``budget`` cards: a run of three takes what its places lack, a tunnela
    what its place lacks. An upper bound for pruning: copy limits are not checked."""
    i = next((q for q, n in enumerate(line) if n), None)
    if i is None:
        return min(need, budget // 3)
    rest = list(line)
    rest[i] -= 1
    best = _line_groups_buying(tuple(rest), budget, need)  # this copy joins no group
    if best >= need:
        return need
    for start in (i - 2, i - 1, i):  # a run of three through it
        if start < 0 or start + 2 >= len(line):
            continue
        places = (start, start + 1, start + 2)
        lack = sum(1 for q in places if q != i and not line[q])
        if lack <= budget:
            rest = list(line)
            for q in places:
                if rest[q]:
                    rest[q] -= 1
            best = max(best, 1 + _line_groups_buying(tuple(rest), budget - lack, need))
    lack = 3 - line[i]  # a tunnela of it
    if lack <= budget:
        rest = list(line)
        rest[i] = 0
        best = max(best, 1 + _line_groups_buying(tuple(rest), budget - lack, need))
    return min(best, need)


def may_group(line: tuple[int, ...]) -> bool:
    """Whether a suit's line of copies holds any pure group (a run of three, a tunnela):
    the searches for pure groups stop at once where none is left."""
    run = 0
    for n in line:
        if n == 3:
            return True
        run = run + 1 if n else 0
        if run == 3:
            return True
    return False


@lru_cache(maxsize=1 << 16)
def _line_groups(line: tuple[int, ...]) -> int:
    """The most disjoint pure groups in a suit's line of copies."""
    if not may_group(line):
        return 0
    i = 0
    while not line[i]:
        i += 1
    rest = list(line)
    rest[i] -= 1
    best = _line_groups(tuple(rest))  # this copy joins no pure group
    if line[i] == 3:
        rest[i] = 0
        best = max(best, 1 + _line_groups(tuple(rest)))  # a tunnela
    if i + 2 < len(line) and line[i + 1] and line[i + 2]:
        rest = list(line)
        for q in (i, i + 1, i + 2):
            rest[q] -= 1
        best = max(best, 1 + _line_groups(tuple(rest)))  # a pure run of three
    return best
