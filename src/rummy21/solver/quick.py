"""The quick first pass: a greedy arrangement of a hand (it often proves Option A at once,
and otherwise bounds the sweep), and fitting a few loose cards into an arrangement's groups.

>>> from rummy21.cards import counts_of, parse_cards
>>> hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
>>> found = quick_arrangement(counts_of(hand), Jokers.from_cut(Card.parse("7D")), RuleSet())
>>> found.points, found.arrangement.loose
(4, (Card('4C'),))
>>> [meld.kind.value for meld in found.arrangement.groups]
['pure_sequence', 'pure_sequence', 'tunnela', 'pure_sequence', 'set', 'impure_sequence']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card
from rummy21.groups import MAX_SEQUENCE, GroupKind, classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import may_group
from rummy21.solver.results import Arrangement, meld_of


class Quick(NamedTuple):
    """A quick arrangement and the points it leaves loose."""

    points: int
    arrangement: Arrangement


_Group = tuple[GroupKind, tuple[Card, ...]]
"""A group of a greedy arrangement being built: its kind and cards (see :class:`Meld`; a
plain pair until one arrangement is chosen, where a named one would cost more to build than
the rest of a quick solve)."""


class _Greedy(NamedTuple):
    """A greedy arrangement: the points it leaves loose, its groups, its loose cards."""

    points: int
    groups: list[_Group]
    loose: list[Card]


class _Cores(NamedTuple):
    """The heaviest pure groups of a suit found for some number of groups: their weight,
    and the groups as tuples of places."""

    weight: int
    groups: tuple[tuple[int, ...], ...]


# Group kinds, read once: an enum member costs a slow class-attribute look-up each time.
_PURE_SEQUENCE, _IMPURE_SEQUENCE = GroupKind.PURE_SEQUENCE, GroupKind.IMPURE_SEQUENCE
_SET, _TUNNELA, _JOKER_GROUP = GroupKind.SET, GroupKind.TUNNELA, GroupKind.JOKER_GROUP


def quick_arrangement(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> Quick | None:
    """The better of two quick arrangements: pure groups as long as they go, or of three
    cards only (leaving more cards for sets and other runs). See :func:`_greedy_with`."""
    best = None
    for longest in (MAX_SEQUENCE, 3):
        found = _greedy_with(counts, jokers, rules, longest)
        if found is None:
            return None
        if best is None or found.points < best.points or not found.loose:
            best = found
        if not found.loose:
            break
    assert best is not None
    return Quick(
        best.points, Arrangement(tuple(map(meld_of, best.groups)), tuple(sorted(best.loose)))
    )


def _heaviest_pure_groups(
    counts: Sequence[int], mask: Sequence[bool], need: int, longest: int
) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """Enough pure groups to weigh the most (see :func:`_greedy_with`): (weight, groups as
    tuples of card kinds); printed-joker tunnelas weigh -3. ``None`` if the cards cannot
    form enough. (Plain pairs, not :class:`_Cores`: this runs for every hand.)"""
    table: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {0: (0, ())}
    for s in range(4):
        ranks = tuple(counts[s * 13 : s * 13 + 13])
        weights = tuple(-1 if mask[s * 13 + r] else 2 for r in range(13))
        merged: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
        cores = _suit_cores(ranks, weights, need, longest)
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
    for tunnelas in range(printed // 3 + 1):
        for k, (w, g) in table.items():
            if min(need, k + tunnelas) == need and (best is None or w - 3 * tunnelas > best[0]):
                best = (w - 3 * tunnelas, g + ((JOKER_INDEX,) * 3,) * tunnelas)
    return best


def _greedy_with(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, longest: int
) -> _Greedy | None:
    """A quick arrangement with enough pure groups, and the points it leaves loose.

    Pick enough pure groups ``G``, chosen per suit to weigh the most (each non-joker card in
    ``G`` weighs 2, each joker card -1: the cards a padded run would need); take natural sets
    and runs out of the rest; then give jokers to the other natural cards, pairs a joker can
    join first (one joker for two cards), then single cards (two jokers each), the most points
    per joker first. Spare jokers lengthen a padded run or make a joker group. When nothing
    is loose the arrangement proves Option A; otherwise its points bound the pure save.
    ``None`` if the cards cannot form enough pure groups.
    """
    mask = jokers.joker_mask
    best = _heaviest_pure_groups(counts, mask, rules.pure_groups_needed, longest)
    if best is None:
        return None
    left = list(counts)
    for group in best[1]:
        for i in group:
            left[i] -= 1
    spare = [ALL_CARDS[i] for i, n in enumerate(left) for _ in range(n) if mask[i]]
    naturals = [ALL_CARDS[i] for i, n in enumerate(left) for _ in range(n) if not mask[i]]
    melds = _natural_melds(naturals, rules.max_set_size)
    pairs: list[tuple[Card, ...]] = []
    single: list[Card] = []
    for card in naturals:
        mate = next((m for m in single if _one_joker_apart(m, card)), None)
        if mate is None:
            single.append(card)
        else:
            single.remove(mate)
            pairs.append((mate, card))
    groups: list[_Group] = [
        (_TUNNELA if g[0] == g[1] else _PURE_SEQUENCE, tuple(ALL_CARDS[i] for i in g))
        for g in best[1]
    ]
    groups.extend(melds)
    wants = [(float(sum(c.points for c in pair)), 1, pair) for pair in pairs] + [
        (card.points / 2, 2, (card,)) for card in single
    ]
    loose: list[Card] = []
    padded = False
    for _, cost, cards in sorted(wants, key=lambda w: -w[0]):
        if len(spare) >= cost:
            kind = _SET if len(cards) == 2 and cards[0].rank == cards[1].rank else _IMPURE_SEQUENCE
            groups.append((kind, cards + tuple(spare.pop() for _ in range(cost))))
            padded = padded or cost == 2
        else:
            loose.extend(cards)
    if spare:
        if len(spare) >= 3 and rules.joker_groups:
            groups.append((_JOKER_GROUP, tuple(spare)))
        elif padded and len(spare) <= MAX_SEQUENCE - 3:
            # A run padded around a single card (the last) takes them all.
            at = max(
                i
                for i, (kind, cards) in enumerate(groups)
                if kind is _IMPURE_SEQUENCE
                and len(cards) == 3
                and sum(not mask[c.index] for c in cards) == 1
            )
            groups[at] = (_IMPURE_SEQUENCE, groups[at][1] + tuple(spare))
        else:
            loose.extend(spare)
    return _Greedy(sum(c.points for c in loose), groups, loose)


def _natural_melds(naturals: list[Card], max_set: int) -> list[_Group]:
    """Take sets, then runs of three, of natural cards out of ``naturals`` (greedily).

    ``naturals`` keeps the cards left over.
    """
    left = [0] * JOKER_INDEX
    for card in naturals:
        left[card.index] += 1
    melds: list[_Group] = []
    for kinds in _RANK_KINDS:
        while True:
            suits = [i for i in kinds if left[i]]
            if len(suits) < 3:
                break
            for i in suits[:max_set]:
                left[i] -= 1
            melds.append((_SET, tuple(ALL_CARDS[i] for i in suits[:max_set])))
    for a, b, c in _WINDOWS:
        while left[a] and left[b] and left[c]:
            left[a] -= 1
            left[b] -= 1
            left[c] -= 1
            melds.append((_PURE_SEQUENCE, (ALL_CARDS[a], ALL_CARDS[b], ALL_CARDS[c])))
    naturals[:] = [ALL_CARDS[i] for i, n in enumerate(left) for _ in range(n)]
    return melds


_RANK_KINDS = tuple(tuple(s * 13 + rank for s in range(4)) for rank in range(13))
"""The card kinds of each rank, by suit."""
_WINDOWS = tuple(
    tuple(suit * 13 + (start + k) % 13 for k in range(3))
    for suit in range(4)
    for start in range(12)
)
"""Each suit's runs of three, A-2-3 to Q-K-A."""


def _one_joker_apart(a: Card, b: Card) -> bool:
    """Whether natural cards ``a`` and ``b`` plus one joker make a group of three."""
    if a.rank == b.rank:
        return a.suit != b.suit
    if a.suit != b.suit:
        return False
    gap = abs(a.rank - b.rank)
    return gap <= 2 or (1 in (a.rank, b.rank) and 14 - max(a.rank, b.rank) <= 2)


@lru_cache(maxsize=1 << 16)
def _suit_cores(
    ranks: tuple[int, ...], weights: tuple[int, ...], need: int, longest: int
) -> dict[int, tuple[int, tuple[tuple[int, ...], ...]]]:
    """The heaviest ``k`` disjoint pure groups of one suit, for each ``k`` up to ``need``:
    (weight, groups) as plain pairs (see :func:`_heaviest_pure_groups`).

    Groups are tuples of positions (1 = Ace low .. 14 = Ace high); ``k == need`` means at least.
    """
    best: dict[int, _Cores] = {}
    aces = ranks[0]
    line_weights = weights + (weights[0],)
    for low in range(aces + 1):
        line = (low,) + ranks[1:] + (aces - low,)
        for k, found in _line_cores(line, line_weights, need, longest).items():
            if k not in best or found.weight > best[k].weight:
                best[k] = found
    return {k: (found.weight, found.groups) for k, found in best.items()}


@lru_cache(maxsize=1 << 16)
def _line_cores(
    line: tuple[int, ...], weights: tuple[int, ...], need: int, longest: int
) -> dict[int, _Cores]:
    """:func:`_suit_cores` for one way of placing the Aces: the lowest copy left stays out
    of the groups, or makes a tunnela with its two twins, or begins a pure run."""
    if not may_group(line):
        return _NO_CORES
    i = next(q for q, n in enumerate(line) if n)
    out: dict[int, _Cores] = {}
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


def _offer(
    out: dict[int, _Cores],
    found: dict[int, _Cores],
    group: tuple[int, ...] | None,
    gain: int,
    need: int,
) -> None:
    """Keep, for each number of groups, the heavier of ``out``'s and ``found``'s plus
    ``group`` (of weight ``gain``)."""
    for k, (w, groups) in found.items():
        k2 = min(need, k + (group is not None))
        if k2 not in out or w + gain > out[k2].weight:
            out[k2] = _Cores(w + gain, groups + ((group,) if group else ()))


def place_spare(arrangement: Arrangement, jokers: Jokers, rules: RuleSet) -> Arrangement | None:
    """Fit the loose cards of an arrangement into its groups, keeping enough pure ones.

    A quick way to prove Option A when the sweep kept one or two spare jokers, or the quick
    arrangement left a card or two out: add them one by one (natural cards first) to a group
    that stays valid (a longer run, a set below its size, a joker group) or that may turn
    impure (a pure group beyond the ones needed). ``None`` if that fails. The groups are
    named as the rules read them (:func:`~rummy21.groups.classify`).
    """
    groups = [list(meld.cards) for meld in arrangement.groups]
    mask = jokers.joker_mask
    spare = sorted(arrangement.loose, key=lambda c: mask[c.index])
    if not spare:
        return None
    kinds = [classify(g, jokers, rules).kind for g in groups]
    pure = [kind.is_pure for kind in kinds]
    for card in spare:
        for i in sorted(range(len(groups)), key=pure.__getitem__):  # impure groups first
            trial = groups[i] + [card]
            if explain(trial, jokers, rules) is None:
                kind = classify(trial, jokers, rules).kind
                if sum(pure) - pure[i] + kind.is_pure >= rules.pure_groups_needed:
                    groups[i], kinds[i], pure[i] = trial, kind, kind.is_pure
                    break
        else:
            return None
    return Arrangement(
        tuple(meld_of((kind, tuple(g))) for kind, g in zip(kinds, groups, strict=True)), ()
    )


_NO_CORES: dict[int, _Cores] = {0: _Cores(0, ())}
