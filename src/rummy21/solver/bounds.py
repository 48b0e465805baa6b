"""What the cards can still do: bounds on pure groups and loose points, and per-suit tables."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rummy21.cards import JOKER_INDEX, Card


_RANK_POINTS = tuple(Card(r).points for r in range(13))


@lru_cache(maxsize=1 << 14)
def _bought_may_start(line: Sequence[int], start: int, budget: int) -> bool:
    """Whether a pure run may begin with a card bought at place ``start`` (see replacements).

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


@lru_cache(maxsize=1 << 14)
def _suit_tables(ranks: tuple[int, ...]) -> tuple[Any, ...]:
    """What the sweep precomputes for one suit holding ``ranks`` (copies of A..K), by
    position 0..16: (copies, copies with the Aces again at 14, how far up the next card
    lies (4: not within three), whether a card could sit in a pure run of three, whether a
    card may be bought there, the most pure groups the cards after it could still form)."""
    at = [0, *ranks, 0, 0, 0]
    line = (*at[:14], at[1], 0, 0)
    padded = line + (0, 0)      # (places past 14 hold nothing)
    reach = tuple(1 if padded[p + 1] else 2 if padded[p + 2] else 3 if padded[p + 3] else 4
                  for p in range(16))
    # Whether a card at a position could sit in a pure run of three (naturals around it);
    # Aces, all decided at position 1, may also end Q-K-A.
    held = [bool(n) for n in line]
    pure_ok = [(3 <= p <= 14 and held[p - 2] and held[p - 1])
               or (2 <= p <= 13 and held[p - 1] and held[p + 1])
               or (1 <= p <= 12 and held[p + 1] and held[p + 2])
               or (p == 1 and held[12] and held[13]) for p in range(16)]
    # Where a card may be bought (``replace``): within two places of a card of the suit held.
    # A pure group of bought cards only costs three wherever it is (it is looked for as a
    # tunnela of a kind nobody holds, at the start); a bought card further from the held
    # ones splits off with its neighbours into such a group at no cost.
    near = [1 <= p <= 13 and any(held[max(1, p - 2):min(14, p + 2) + 1])
            or (p in (12, 13) and held[1]) for p in range(16)]
    # The most pure groups the cards after each position could still form (an Ace counts at
    # both ends; printed-joker tunnelas were settled at the start): a state that cannot
    # reach the groups needed with them and its open pure runs is dead.
    return at, line, reach, pure_ok, near, _groups_after(line)


def _groups_after(line: Sequence[int]) -> list[int]:
    """For each position p (0..15), the most disjoint pure groups (runs of three, tunnelas)
    the copies ``line`` holds at the places after p, the Aces again at 14 (for p >= 13: the
    Aces at 14 alone) — :func:`_line_groups` of each such suffix, all in one sweep down.

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


def _line_after(at: Sequence[int], p: int) -> tuple[int, ...]:
    """A suit's copies at the places after ``p`` up to the King, then its Aces (Ace high)."""
    return tuple(at[q] for q in range(p + 1, 14)) + (at[1],)


def _loose_ahead(counts: Sequence[int], mask: tuple[bool, ...],
                 rank_points: Sequence[int] = (), free: int = 0) -> list[int]:
    """For each position, a lower bound on the points left loose among the cards after it.

    A card is *isolated* if no other card of its suit lies within two places of it and no
    card of its rank in another suit (and it is not one of three copies). A group holding
    one isolated card holds two jokers next to it, and a run holding ``k >= 2`` of them at
    least ``2 (k - 1)`` jokers (two between each two of them), so ``J`` joker cards save at
    most ``J`` isolated cards (none if ``J < 2``): the rest are loose whatever the arrangement.
    """
    jokers = sum(n for i, n in enumerate(counts) if mask[i])
    saved = (jokers if jokers >= 2 else 0) + free   # ``free``: cards put aside
    isolated: list[tuple[int, int]] = []       # (position, points)
    for i in range(JOKER_INDEX):
        if not counts[i] or mask[i] or counts[i] == 3:
            continue
        suit, rank = divmod(i, 13)
        rank += 1
        if any(counts[t * 13 + rank - 1] for t in range(4) if t != suit):
            continue
        places = {rank, 14} if rank == 1 else {rank}
        near = {q for p in places for q in range(p - 2, p + 3) if 1 <= q <= 14 and q not in places}
        if any(counts[suit * 13 + (q - 1) % 13] for q in near):
            continue
        isolated.extend([(rank, (rank_points or _RANK_POINTS)[rank - 1])] * counts[i])
    bound = [0] * 17
    for p in range(16):
        points = sorted((pts for pos, pts in isolated if pos > p), reverse=True)
        bound[p] = sum(points[saved:])
    return bound



def max_pure_groups(counts: Sequence[int]) -> int:
    """The most disjoint pure groups (pure runs, tunnelas) the cards could ever form.

    >>> from rummy21.cards import counts_of, parse_cards
    >>> max_pure_groups(counts_of(parse_cards("QS KS AS 2S 3S 5H 5H 5H JK JK JK")))
    3
    >>> max_pure_groups(counts_of(parse_cards("QS KS AS AS 2S 3S 5H 5H 5H JK JK JK")))
    4
    """
    total = counts[JOKER_INDEX] // 3
    for s in range(4):
        total += _suit_pure_groups(tuple(counts[s * 13:s * 13 + 13]))
    return total


@lru_cache(maxsize=1 << 16)
def _suit_pure_groups(ranks: tuple[int, ...]) -> int:
    aces = ranks[0]
    best = 0
    for low in range(aces + 1):
        line = (low,) + ranks[1:] + (aces - low,)
        best = max(best, _line_groups(line))
    return best


def _pure_within(lines: list[tuple[int, ...]], budget: int, need: int) -> list[int]:
    """For each budget up to ``budget``: the most pure groups (capped at ``need``) the suits'
    ``lines`` can form buying at most that many cards (see :func:`_line_groups_buying`)."""
    best = [0] * (budget + 1)
    for line in lines:
        mine = [_line_groups_buying(line, k, need) for k in range(budget + 1)]
        best = [min(need, max(best[k - j] + mine[j] for j in range(k + 1)))
                for k in range(budget + 1)]
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
    best = _line_groups_buying(tuple(rest), budget, need)      # this copy joins no group
    if best >= need:
        return need
    for start in (i - 2, i - 1, i):                            # a run of three through it
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
    lack = 3 - line[i]                                          # a tunnela of it
    if lack <= budget:
        rest = list(line)
        rest[i] = 0
        best = max(best, 1 + _line_groups_buying(tuple(rest), budget - lack, need))
    return min(best, need)



def _may_group(line: tuple[int, ...]) -> bool:
    """Whether a suit's line of copies holds any pure group (a run of three, a tunnela):
    the searches below stop at once where none is left."""
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
    if not _may_group(line):
        return 0
    i = 0
    while not line[i]:
        i += 1
    rest = list(line)
    rest[i] -= 1
    best = _line_groups(tuple(rest))                      # this copy joins no pure group
    if line[i] == 3:
        rest[i] = 0
        best = max(best, 1 + _line_groups(tuple(rest)))   # a tunnela
    if i + 2 < len(line) and line[i + 1] and line[i + 2]:
        rest = list(line)
        for q in (i, i + 1, i + 2):
            rest[q] -= 1
        best = max(best, 1 + _line_groups(tuple(rest)))   # a pure run of three
    return best
