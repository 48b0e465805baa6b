"""The quick first pass's greedy arrangement on plain data: card kinds as ints, groups as
(kind code, card kinds) pairs.

This is the reference twin of ``_native_quick.c`` (the native core's
``greedy_arrangement``, chosen by :mod:`.backend` and re-exported by :mod:`.core`): both give
the same groups, in the same order, with their cards in the same order. :mod:`.quick` turns
the answer into cards and melds, and chooses between the tries.

>>> from rummy21.cards import Hand
>>> from rummy21.jokers import Jokers
>>> hand = Hand.parse("AS 2S 3S 4H 5H 6H 9C 9D 9H KD QD 7D 8S")
>>> mask = Jokers.from_cut("7D").joker_mask  # 7D, 6D and 8D are jokers
>>> points, groups, loose = greedy_arrangement(hand.counts, mask, 2, 13, 4, True, 13)
>>> groups  # A-2-3S, 4-5-6H, 9H 9D 9C, QD KD and a joker
((0, (0, 1, 2)), (0, (16, 17, 18)), (2, (21, 34, 47)), (1, (37, 38, 32)))
>>> points, loose  # 8S is loose
(8, (7,))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rummy21.cards import ALL_CARDS, JOKER_INDEX
from rummy21.solver.bounds import may_group

# Group kind codes, as the native core numbers them (quick.py names them).
PURE_SEQUENCE, IMPURE_SEQUENCE, SET, TUNNELA, JOKER_GROUP = range(5)

NATURAL_WEIGHT = 2
"""The weight of a natural card in a pure group: two jokers a padded run would need."""
JOKER_WEIGHT = -1
"""The weight of a joker card in a pure group: a joker the rest of the hand goes without."""

Group = tuple[int, tuple[int, ...]]
"""A group: its kind code and its card kinds (:attr:`~rummy21.cards.Card.index`)."""
Greedy = tuple[int, tuple[Group, ...], tuple[int, ...]]
"""A greedy arrangement: the points it leaves loose, its groups, its loose cards (sorted)."""
Cores = dict[int, tuple[int, tuple[tuple[int, ...], ...]]]
"""The heaviest pure groups found for each number of groups: (weight, groups)."""

_POINTS = tuple(card.points for card in ALL_CARDS)
_RANK = tuple(card.rank for card in ALL_CARDS)
_SUIT = tuple(i // 13 for i in range(len(ALL_CARDS)))
_NO_CORES: Cores = {0: (0, ())}


def greedy_arrangement(
    counts: Sequence[int],
    mask: Sequence[bool],
    need: int,
    longest: int,
    max_set: int,
    joker_groups: bool,
    max_sequence: int,
) -> Greedy | None:
    """A quick arrangement with ``need`` pure groups (runs of at most ``longest`` cards), sets
    of at most ``max_set`` cards and joker groups if ``joker_groups``; runs of jokers around a
    single card have at most ``max_sequence`` cards. ``None`` if the cards cannot form enough
    pure groups.

    Pick enough pure groups ``G``, chosen per suit to weigh the most (each non-joker card in
    ``G`` weighs 2, each joker card -1: the cards a padded run would need); take natural sets
    and runs out of the rest; then give jokers to the other natural cards, pairs a joker can
    join first (one joker for two cards), then single cards (two jokers each), the most points
    per joker first. Spare jokers lengthen a padded run or make a joker group. When nothing
    is loose the arrangement proves Option A; otherwise its points bound the pure save.
    """
    best = heaviest_pure_groups(counts, mask, need, longest)
    if best is None:
        return None
    left = list(counts)
    for group in best[1]:
        for i in group:
            left[i] -= 1
    spare = [i for i, n in enumerate(left) for _ in range(n) if mask[i]]
    naturals = [i for i, n in enumerate(left) for _ in range(n) if not mask[i]]
    groups: list[Group] = [(TUNNELA if g[0] == g[1] else PURE_SEQUENCE, g) for g in best[1]]
    groups.extend(natural_melds(naturals, max_set))
    pairs, single = _pairs_and_singles(naturals)
    # The most points per joker first (doubled: a pair takes one joker, a single card two).
    wants = [(2 * (_POINTS[a] + _POINTS[b]), 1, (a, b)) for a, b in pairs] + [
        (_POINTS[i], 2, (i,)) for i in single
    ]
    loose: list[int] = []
    padded = False
    for _, cost, cards in sorted(wants, key=lambda w: -w[0]):
        if len(spare) >= cost:
            same_rank = len(cards) == 2 and _RANK[cards[0]] == _RANK[cards[1]]
            kind = SET if same_rank else IMPURE_SEQUENCE
            groups.append((kind, cards + tuple(spare.pop() for _ in range(cost))))
            padded = padded or cost == 2
        else:
            loose.extend(cards)
    if spare:
        if len(spare) >= 3 and joker_groups:
            groups.append((JOKER_GROUP, tuple(spare)))
        elif padded and len(spare) <= max_sequence - 3:
            # A run padded around a single card (the last) takes them all.
            at = max(
                i
                for i, (kind, cards) in enumerate(groups)
                if kind == IMPURE_SEQUENCE
                and len(cards) == 3
                and sum(not mask[c] for c in cards) == 1
            )
            groups[at] = (IMPURE_SEQUENCE, groups[at][1] + tuple(spare))
        else:
            loose.extend(spare)
    return sum(_POINTS[i] for i in loose), tuple(groups), tuple(sorted(loose))


def _pairs_and_singles(naturals: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """The natural cards paired, in order, with the first earlier card left single that one
    joker completes into a group; and the cards left single."""
    pairs: list[tuple[int, int]] = []
    single: list[int] = []
    for card in naturals:
        mate = next((m for m in single if one_joker_apart(m, card)), None)
        if mate is None:
            single.append(card)
        else:
            single.remove(mate)
            pairs.append((mate, card))
    return pairs, single


def heaviest_pure_groups(
    counts: Sequence[int], mask: Sequence[bool], need: int, longest: int
) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """Enough pure groups to weigh the most (see :func:`greedy_arrangement`): (weight, groups
    as tuples of card kinds); printed-joker tunnelas weigh three joker cards. ``None`` if the
    cards cannot form enough."""
    table: Cores = {0: (0, ())}
    for s in range(4):
        ranks = tuple(counts[s * 13 : s * 13 + 13])
        weights = tuple(JOKER_WEIGHT if mask[s * 13 + r] else NATURAL_WEIGHT for r in range(13))
        merged: Cores = {}
        cores = suit_cores(ranks, weights, need, longest)
        for k1, (w1, g1) in table.items():
            for k2, (w2, g2) in cores.items():
                k = min(need, k1 + k2)
                heaviest = merged.get(k)
                if heaviest is None or w1 + w2 > heaviest[0]:
                    merged[k] = (
                        w1 + w2,
                        g1 + tuple(tuple(s * 13 + (p - 1) % 13 for p in g) for g in g2),
                    )
        table = merged
    best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    printed = counts[JOKER_INDEX]
    tunnela = 3 * JOKER_WEIGHT
    for tunnelas in range(printed // 3 + 1):
        for k, (w, g) in table.items():
            weight = w + tunnela * tunnelas
            if min(need, k + tunnelas) == need and (best is None or weight > best[0]):
                best = (weight, g + ((JOKER_INDEX,) * 3,) * tunnelas)
    return best


def natural_melds(naturals: list[int], max_set: int) -> list[Group]:
    """Take sets, then runs of three, of natural cards out of ``naturals`` (greedily).

    ``naturals`` keeps the cards left over.
    """
    left = [0] * JOKER_INDEX
    for card in naturals:
        left[card] += 1
    melds: list[Group] = []
    for kinds in _RANK_KINDS:
        while True:
            suits = [i for i in kinds if left[i]]
            if len(suits) < 3:
                break
            for i in suits[:max_set]:
                left[i] -= 1
            melds.append((SET, tuple(suits[:max_set])))
    for a, b, c in _WINDOWS:
        while left[a] and left[b] and left[c]:
            left[a] -= 1
            left[b] -= 1
            left[c] -= 1
            melds.append((PURE_SEQUENCE, (a, b, c)))
    naturals[:] = [i for i, n in enumerate(left) for _ in range(n)]
    return melds


_RANK_KINDS = tuple(tuple(s * 13 + rank for s in range(4)) for rank in range(13))
"""The card kinds of each rank, by suit."""
_WINDOWS = tuple(
    tuple(suit * 13 + (start + k) % 13 for k in range(3))
    for suit in range(4)
    for start in range(12)
)
"""Each suit's runs of three, A-2-3 to Q-K-A."""


def one_joker_apart(a: int, b: int) -> bool:
    """Whether natural cards of kinds ``a`` and ``b`` plus one joker make a group of three."""
    rank_a, rank_b = _RANK[a], _RANK[b]
    if rank_a == rank_b:
        return _SUIT[a] != _SUIT[b]
    if _SUIT[a] != _SUIT[b]:
        return False
    gap = abs(rank_a - rank_b)
    return gap <= 2 or (1 in (rank_a, rank_b) and 14 - max(rank_a, rank_b) <= 2)


@lru_cache(maxsize=1 << 16)
def suit_cores(ranks: tuple[int, ...], weights: tuple[int, ...], need: int, longest: int) -> Cores:
    """The heaviest ``k`` disjoint pure groups of one suit, for each ``k`` up to ``need``:
    (weight, groups).

    Groups are tuples of positions (1 = Ace low .. 14 = Ace high); ``k == need`` means at least.
    """
    best: Cores = {}
    aces = ranks[0]
    line_weights = weights + (weights[0],)
    for low in range(aces + 1):
        line = (low,) + ranks[1:] + (aces - low,)
        for k, found in _line_cores(line, line_weights, need, longest).items():
            if k not in best or found[0] > best[k][0]:
                best[k] = found
    return best


@lru_cache(maxsize=1 << 16)
def _line_cores(line: tuple[int, ...], weights: tuple[int, ...], need: int, longest: int) -> Cores:
    """:func:`suit_cores` for one way of placing the Aces: the lowest copy left stays out
    of the groups, or makes a tunnela with its two twins, or begins a pure run."""
    if not may_group(line):
        return _NO_CORES
    i = next(q for q, n in enumerate(line) if n)
    out: Cores = {}
    rest = list(line)
    rest[i] -= 1
    _offer(out, _line_cores(tuple(rest), weights, need, longest), None, 0, need)
    if line[i] == 3:
        rest[i] = 0
        _offer(
            out,
            _line_cores(tuple(rest), weights, need, longest),
            (i + 1,) * 3,
            3 * weights[i],
            need,
        )
    rest = list(line)
    end = i
    gain = 0
    while end < len(line) and line[end] and end - i < longest:
        rest[end] -= 1
        gain += weights[end]
        end += 1
        if end - i >= 3:  # a pure run i+1 .. end
            _offer(
                out,
                _line_cores(tuple(rest), weights, need, longest),
                tuple(range(i + 1, end + 1)),
                gain,
                need,
            )
    return out


def _offer(out: Cores, found: Cores, group: tuple[int, ...] | None, gain: int, need: int) -> None:
    """Keep, for each number of groups, the heavier of ``out``'s and ``found``'s plus
    ``group`` (of weight ``gain``)."""
    for k, (w, groups) in found.items():
        k2 = min(need, k + (group is not None))
        if k2 not in out or w + gain > out[k2][0]:
            out[k2] = (w + gain, groups + ((group,) if group else ()))
