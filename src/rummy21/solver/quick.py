"""The quick first pass: a greedy arrangement, and fitting loose cards into groups."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card
from rummy21.groups import classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import _may_group
from rummy21.solver.results import Arrangement
from rummy21.solver.runs import MAX_RUN


def _greedy(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> tuple[int, Arrangement] | None:
    """The better of two quick arrangements: pure groups as long as they go, or of three
    cards only (leaving more cards for sets and other runs). See :func:`_greedy_with`."""
    best = None
    for longest in (MAX_RUN, 3):
        found = _greedy_with(counts, jokers, rules, longest)
        if found is None:
            return None
        if not found[1].loose:
            return found
        if best is None or found[0] < best[0]:
            best = found
    return best


def _greedy_with(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
                 longest: int) -> tuple[int, Arrangement] | None:
    """A quick arrangement with enough pure groups, and the points it leaves loose.

    Pick enough pure groups ``G``, chosen per suit to weigh the most (each non-joker card in
    ``G`` weighs 2, each joker card -1: the cards a padded run would need); take natural sets
    and runs out of the rest; then give jokers to the other natural cards, pairs a joker can
    join first (one joker for two cards), then single cards (two jokers each), the most points
    per joker first. Spare jokers lengthen a padded run or make a joker group. When nothing
    is loose the arrangement proves Option A; otherwise its points bound the pure save.
    ``None`` if the cards cannot form enough pure groups.
    """
    need, mask = rules.pure_groups_needed, jokers.joker_mask
    printed = counts[JOKER_INDEX]
    table: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {0: (0, ())}
    for s in range(4):
        ranks = tuple(counts[s * 13:s * 13 + 13])
        weights = tuple(-1 if mask[s * 13 + r] else 2 for r in range(13))
        merged: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
        cores = _suit_cores(ranks, weights, need, longest)
        for k1, (w1, g1) in table.items():
            for k2, (w2, g2) in cores.items():
                k = min(need, k1 + k2)
                if k not in merged or w1 + w2 > merged[k][0]:
                    merged[k] = (w1 + w2, g1 + tuple(tuple(s * 13 + (p - 1) % 13 for p in g)
                                                     for g in g2))
        table = merged
    best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    for tunnelas in range(printed // 3 + 1):
        for k, (w, g) in table.items():
            if min(need, k + tunnelas) == need and (best is None or w - 3 * tunnelas > best[0]):
                best = (w - 3 * tunnelas, g + ((JOKER_INDEX,) * 3,) * tunnelas)
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
    groups: list[tuple[str, tuple[Card, ...]]] = [
        ("pure", tuple(ALL_CARDS[i] for i in g)) for g in best[1]]
    groups.extend(("meld", meld) for meld in melds)
    wants = [(float(sum(c.points for c in pair)), 1, pair) for pair in pairs] + \
        [(card.points / 2, 2, (card,)) for card in single]
    loose: list[Card] = []
    padded = False
    for _, cost, cards in sorted(wants, key=lambda w: -w[0]):
        if len(spare) >= cost:
            groups.append(("sequence", cards + tuple(spare.pop() for _ in range(cost))))
            padded = padded or cost == 2
        else:
            loose.extend(cards)
    if spare:
        if len(spare) >= 3 and rules.joker_groups:
            groups.append(("joker_group", tuple(spare)))
        elif padded and len(spare) <= MAX_RUN - 3:
            at = max(i for i, g in enumerate(groups) if g[0] == "sequence" and len(g[1]) == 3
                     and sum(not mask[c.index] for c in g[1]) == 1)
            groups[at] = ("sequence", groups[at][1] + tuple(spare))
        else:
            loose.extend(spare)
    return sum(c.points for c in loose), Arrangement(tuple(groups), tuple(sorted(loose)))



def _natural_melds(naturals: list[Card], max_set: int) -> list[tuple[Card, ...]]:
    """Take sets, then runs of three, of natural cards out of ``naturals`` (greedily).

    ``naturals`` keeps the cards left over.
    """
    left = [0] * JOKER_INDEX
    for card in naturals:
        left[card.index] += 1
    melds: list[tuple[Card, ...]] = []
    for kinds in _RANK_KINDS:
        while True:
            suits = [i for i in kinds if left[i]]
            if len(suits) < 3:
                break
            for i in suits[:max_set]:
                left[i] -= 1
            melds.append(tuple(ALL_CARDS[i] for i in suits[:max_set]))
    for a, b, c in _WINDOWS:
        while left[a] and left[b] and left[c]:
            left[a] -= 1
            left[b] -= 1
            left[c] -= 1
            melds.append((ALL_CARDS[a], ALL_CARDS[b], ALL_CARDS[c]))
    naturals[:] = [ALL_CARDS[i] for i, n in enumerate(left) for _ in range(n)]
    return melds


_RANK_KINDS = tuple(tuple(s * 13 + rank for s in range(4)) for rank in range(13))
"""The card kinds of each rank, by suit."""
_WINDOWS = tuple(tuple(suit * 13 + (start + k) % 13 for k in range(3))
                 for suit in range(4) for start in range(12))
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
def _suit_cores(ranks: tuple[int, ...], weights: tuple[int, ...],
                need: int, longest: int = MAX_RUN) -> dict[int, tuple[int, tuple[tuple[int, ...], ...]]]:
    """The heaviest ``k`` disjoint pure groups of one suit, for each ``k`` up to ``need``.

    Groups are tuples of positions (1 = Ace low .. 14 = Ace high); ``k == need`` means at least.
    """
    best: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
    aces = ranks[0]
    line_weights = weights + (weights[0],)
    for low in range(aces + 1):
        line = (low,) + ranks[1:] + (aces - low,)
        for k, found in _line_cores(line, line_weights, need, longest).items():
            if k not in best or found[0] > best[k][0]:
                best[k] = found
    return best


@lru_cache(maxsize=1 << 16)
def _line_cores(line: tuple[int, ...], weights: tuple[int, ...],
                need: int, longest: int = MAX_RUN) -> dict[int, tuple[int, tuple[tuple[int, ...], ...]]]:
    """:func:`_suit_cores` for one way of placing the Aces: the lowest copy left stays out
    of the groups, or makes a tunnela with its two twins, or begins a pure run."""
    if not _may_group(line):
        return _NO_CORES
    i = next(q for q, n in enumerate(line) if n)
    out: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
    rest = list(line)
    rest[i] -= 1
    _offer(out, _line_cores(tuple(rest), weights, need, longest), None, 0, need)
    if line[i] == 3:
        rest[i] = 0
        _offer(out, _line_cores(tuple(rest), weights, need, longest), (i + 1,) * 3,
               3 * weights[i], need)
    rest = list(line)
    end = i
    gain = 0
    while end < len(line) and line[end] and end - i < longest:
        rest[end] -= 1
        gain += weights[end]
        end += 1
        if end - i >= 3:                                   # a pure run i+1 .. end
            _offer(out, _line_cores(tuple(rest), weights, need, longest),
                   tuple(range(i + 1, end + 1)), gain, need)
    return out


def _offer(out: dict[int, tuple[int, tuple[tuple[int, ...], ...]]],
           found: dict[int, tuple[int, tuple[tuple[int, ...], ...]]],
           group: tuple[int, ...] | None, gain: int, need: int) -> None:
    """Keep, for each number of groups, the heavier of ``out``'s and ``found``'s plus
    ``group`` (of weight ``gain``)."""
    for k, (w, groups) in found.items():
        k2 = min(need, k + (group is not None))
        if k2 not in out or w + gain > out[k2][0]:
            out[k2] = (w + gain, groups + ((group,) if group else ()))


def _place_spare(arrangement: Arrangement, jokers: Jokers, rules: RuleSet) -> Arrangement | None:
    """Fit the loose cards of an arrangement into its groups, keeping enough pure ones.

    A quick way to prove Option A when the sweep kept one or two spare jokers, or the quick
    arrangement left a card or two out: add them one by one (natural cards first) to a group
    that stays valid (a longer run, a set below its size, a joker group) or that may turn
    impure (a pure group beyond the ones needed). ``None`` if that fails.
    """
    groups = [list(cards) for _, cards in arrangement.groups]
    mask = jokers.joker_mask
    spare = sorted(arrangement.loose, key=lambda c: mask[c.index])
    if not spare:
        return None
    pure = [classify(g, jokers, rules).is_pure for g in groups]
    for card in spare:
        for i in sorted(range(len(groups)), key=pure.__getitem__):     # impure groups first
            trial = groups[i] + [card]
            if explain(trial, jokers, rules) is None:
                now = classify(trial, jokers, rules).is_pure
                if sum(pure) - pure[i] + now >= rules.pure_groups_needed:
                    groups[i], pure[i] = trial, now
                    break
        else:
            return None
    return Arrangement(tuple(("group", tuple(g)) for g in groups), ())


_NO_CORES: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {0: (0, ())}
