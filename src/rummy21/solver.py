"""The exact hand solver: the best arrangement of a hand into groups (RULES §4, §5 A, §7).

Algorithm
---------
A dynamic programme sweeps the 14 *positions* of a suit — 1 (Ace low), 2..13, 14 (Ace
high) — over all four suits at once, as van Rijn, Takes and Vis do for Rummikub. Its state is

* for each suit, the multiset of *open runs* (sequences still growing), each described only
  by its length capped at 3, whether it is still pure, and whether it started at the Ace-low
  position (such a run may not also take the Ace-high place), plus how many Aces of the suit
  were set aside at position 1 to end Q-K-A runs at position 14;
* the number of pure groups completed so far, capped at the number the rules need;
* the *joker balance*: jokers demanded so far minus joker cards supplied so far.

At each position every copy of the card there is either a natural card (continuing or
starting a run, in a tunnela, or in the *pool* of its rank), or — if it is a joker card — a
joker; each open run continues with a natural card, continues with a joker, or ends (a run
shorter than 3 ends by taking 1 or 2 jokers as padding). The pool of a rank is split into
sets (one natural per suit, jokers making up 3..max) or left loose. The value kept per state
is the least number of points left loose. Jokers are interchangeable, so only their count
matters; printed jokers supply jokers from the start (or form tunnelas).

At the end a state with enough pure groups and a non-positive balance is an arrangement for
the *pure save*; one with nothing loose and every joker placed (balance zero, or three or more
spare jokers forming a joker group) proves *Option A*. Back-pointers rebuild the groups.
Per-suit transitions and pool splits depend only on small tuples and are memoised across
hands, so the work per hand is a few dictionary operations per reachable state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from rummy21.cards import JOKER_INDEX, Card
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet

# Suit-state layout: counts of open runs by class, then the Aces set aside for position 14.
P1, P2, P3, I2, I3, LP3, LI3, HIGH = range(8)
#: Run classes: (length capped at 3, pure?, started at Ace-low?).
_RUN_CLASSES = range(7)
_EMPTY = (0,) * 8
FIRST, LOWMARK, MID, LAST, CLOSE = range(5)
_MOVES_N, _MOVES_J, _MOVES_E = 0, 1, 2
# Where a run of each class goes when it continues with a natural card / a joker, by phase.
_NEXT_N = {P1: P2, P2: P3, P3: P3, I2: I3, I3: I3, LP3: LP3, LI3: LI3}
_NEXT_J = {P1: I2, P2: I3, P3: I3, I2: I3, I3: I3, LP3: LI3, LI3: LI3}
# At position 3, runs of length 2 started at position 1: they become "low" runs.
_LOW = {P3: LP3, I3: LI3}
_PAD = {P1: 2, P2: 1, I2: 1}
_PURE_END = {P3, LP3}
_IMPURE_OF = {P2: I2, P3: I3, LP3: LI3}


def _canonical(state: tuple[int, ...]) -> tuple[int, ...]:
    """Forget purity (once enough pure groups are complete it no longer matters)."""
    if not (state[P2] or state[P3] or state[LP3]):
        return state
    s = list(state)
    for pure, impure in _IMPURE_OF.items():
        s[impure] += s[pure]
        s[pure] = 0
    return tuple(s)


@dataclass(frozen=True, slots=True)
class SuitMove:
    """What one suit does at one position (kept for rebuilding the groups)."""

    state: tuple[int, ...]
    pool: int
    jokers: int
    """Jokers demanded minus joker cards supplied by this move."""
    pure: int
    moves: tuple[tuple[int, int, int], ...]
    new_runs: int
    tunnela: bool
    reserve: int
    as_jokers: int


def _compositions(n: int, allowed: tuple[bool, bool, bool]) -> list[tuple[int, int, int]]:
    out = []
    for a in range(n + 1):
        for b in range(n - a + 1):
            e = n - a - b
            if (a and not allowed[0]) or (b and not allowed[1]) or (e and not allowed[2]):
                continue
            out.append((a, b, e))
    return out


@lru_cache(maxsize=None)
def _suit_moves(state: tuple[int, ...], count: int, joker: bool, phase: int,
                purity: bool) -> tuple[SuitMove, ...]:
    """Every way one suit can play the ``count`` copies at a position, given its open runs."""
    choices = []
    for k in _RUN_CLASSES:
        if phase == CLOSE or (phase == LAST and k in (LP3, LI3)):
            allowed = (False, False, True)
        else:
            allowed = (True, True, True)
        choices.append(_compositions(state[k], allowed))
    available = state[HIGH] if phase == LAST else count
    out: list[SuitMove] = []
    for moves in product(*choices):
        naturals = sum(m[0] for m in moves)
        if naturals > available or (phase == LAST and naturals != available):
            continue
        new = [0] * 8
        demand = pure = 0
        for k, (n_nat, n_jok, n_end) in enumerate(moves):
            if n_nat:
                target = _NEXT_N[k]
                new[_LOW.get(target, target) if phase == LOWMARK and k in (P2, I2) else target] += n_nat
            if n_jok:
                target = _NEXT_J[k]
                new[_LOW.get(target, target) if phase == LOWMARK and k in (P2, I2) else target] += n_jok
                demand += n_jok
            if n_end:
                demand += _PAD.get(k, 0) * n_end
                if k in _PURE_END:
                    pure += n_end
        rest = available - naturals
        if phase in (LAST, CLOSE):
            st = tuple(new) if purity else _canonical(tuple(new))
            out.append(SuitMove(st, 0, demand, pure, moves, 0, False, 0, 0))
            continue
        new[HIGH] = state[HIGH]
        for tunnela in (False, True):
            if tunnela and not (rest == 3 and count == 3):
                continue
            left = rest - 3 * tunnela
            for new_runs in range(left + 1):
                for reserve in range(left - new_runs + 1 if phase == FIRST else 1):
                    free = left - new_runs - reserve
                    for as_jokers in range(free + 1 if joker else 1):
                        st = list(new)
                        st[P1] += new_runs
                        st[HIGH] += reserve
                        key = tuple(st) if purity else _canonical(tuple(st))
                        out.append(SuitMove(key, free - as_jokers, demand - as_jokers,
                                            pure + tunnela, moves, new_runs, tunnela,
                                            reserve, as_jokers))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PoolSplit:
    """How the pool of one rank is split: sets (suits + jokers) and loose cards per suit."""

    jokers: int
    loose_points: int
    extension: bool
    """Uses more jokers than needed (only useful to place spare jokers for Option A)."""
    sets: tuple[tuple[tuple[int, ...], int], ...]
    loose: tuple[int, ...]


_SUBSETS = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(1, 16))


@lru_cache(maxsize=None)
def _partitions(y: tuple[int, ...], max_set: int) -> dict[int, tuple[tuple[tuple[int, ...], int], ...]]:
    """Ways to cover pool ``y`` exactly by sets, by total jokers used: jokers -> sets."""
    found: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {}

    def walk(rest: tuple[int, ...], start: int, chosen: list[tuple[int, ...]]) -> None:
        if not any(rest):
            lows = [max(0, 3 - len(s)) for s in chosen]
            highs = [max_set - len(s) for s in chosen]
            for total in range(sum(lows), sum(highs) + 1):
                if total in found:
                    continue
                extra, sets = total - sum(lows), []
                for subset, low, high in zip(chosen, lows, highs):
                    add = min(extra, high - low)
                    extra -= add
                    sets.append((subset, low + add))
                found[total] = tuple(sets)
            return
        for i in range(start, len(_SUBSETS)):
            subset = _SUBSETS[i]
            if len(subset) > max_set or any(rest[s] == 0 for s in subset):
                continue
            walk(tuple(r - (s in subset) for s, r in enumerate(rest)), i, chosen + [subset])

    walk(y, 0, [])
    return found


@lru_cache(maxsize=None)
def _pool_splits(x: tuple[int, ...], jokerish: tuple[bool, ...], points: int,
                 max_set: int) -> tuple[PoolSplit, ...]:
    """Pareto-best splits of a rank's pool (plus, for Option A, splits absorbing spare jokers)."""
    if not any(x):
        return (PoolSplit(0, 0, False, (), (0, 0, 0, 0)),)
    best: dict[int, PoolSplit] = {}
    extensions: list[PoolSplit] = []
    ranges = [range(x[s], x[s] + 1) if jokerish[s] else range(x[s] + 1) for s in range(4)]
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
    pareto = []
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


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Groups (as card lists with the kind the solver built) and the loose cards."""

    groups: tuple[tuple[str, tuple[Card, ...]], ...]
    loose: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Solution:
    """What the solver finds for one 21-card hand."""

    pure_save: int | None
    """Least points outside valid groups with enough pure groups; ``None`` if impossible."""
    pure_arrangement: Arrangement | None
    option_a: Arrangement | None
    """An arrangement proving Option A, or ``None``."""


_Key = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]


class _Table:
    """One solve: the sweep, its back-pointers and the rebuilding of groups."""

    def __init__(self, counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> None:
        self.counts = counts
        self.mask = jokers.joker_mask
        self.rules = rules
        self.need = rules.pure_groups_needed
        self.layers: list[dict[_Key, tuple[int, _Key | None, object]]] = []

    def run(self) -> dict[_Key, tuple[int, _Key | None, object]]:
        counts, mask, need = self.counts, self.mask, self.need
        printed = counts[JOKER_INDEX]
        layer: dict[_Key, tuple[int, _Key | None, object]] = {}
        for tunnelas in range(printed // 3 + 1):
            key = (_EMPTY, _EMPTY, _EMPTY, _EMPTY, min(tunnelas, need), -(printed - 3 * tunnelas))
            layer[key] = (0, None, tunnelas)
        self.layers.append(layer)
        # Joker cards still to come after each position (Aces are all decided at position 1).
        supply_after = [0] * 16
        for p in range(13, 1, -1):
            supply_after[p - 1] = supply_after[p] + sum(
                counts[s * 13 + p - 1] for s in range(4) if mask[s * 13 + p - 1])
        max_set = self.rules.max_set_size
        for p in range(1, 16):
            phase = FIRST if p == 1 else LOWMARK if p == 3 else LAST if p == 14 \
                else CLOSE if p == 15 else MID
            rank = p if p <= 13 else 1
            idx = [s * 13 + rank - 1 for s in range(4)]
            cnt = [counts[i] if p <= 13 else 0 for i in idx]
            jok = [mask[i] for i in idx]
            jokerish = tuple(jok)
            points = 0 if p > 13 else Card(idx[0]).points
            limit = supply_after[p] if p <= 13 else 0
            nxt: dict[_Key, tuple[int, _Key | None, object]] = {}
            for key, (loose, _, _) in layer.items():
                pure_done, balance = key[4], key[5]
                purity = pure_done < need
                options = [_suit_moves(key[s], cnt[s], jok[s], phase, purity) for s in range(4)]
                for m0 in options[0]:
                    for m1 in options[1]:
                        for m2 in options[2]:
                            for m3 in options[3]:
                                bal = balance + m0.jokers + m1.jokers + m2.jokers + m3.jokers
                                pure = pure_done + m0.pure + m1.pure + m2.pure + m3.pure
                                if pure > need:
                                    pure = need
                                states = (m0.state, m1.state, m2.state, m3.state)
                                if purity and pure >= need:
                                    states = tuple(_canonical(s) for s in states)  # type: ignore[assignment]
                                x = (m0.pool, m1.pool, m2.pool, m3.pool)
                                for split in _pool_splits(x, jokerish, points, max_set):
                                    total = bal + split.jokers
                                    if total > limit:
                                        continue
                                    cost = loose + split.loose_points
                                    if split.extension and cost:
                                        continue
                                    new_key = (*states, pure, total)
                                    old = nxt.get(new_key)
                                    if old is None or cost < old[0]:
                                        nxt[new_key] = (cost, key, (m0, m1, m2, m3, split))  # type: ignore[index]
            layer = nxt
            self.layers.append(layer)
        return layer

    def rebuild(self, key: _Key) -> Arrangement:
        """Replay the moves leading to ``key`` with concrete runs to get the groups."""
        path, keys = [], []
        for layer in reversed(self.layers):
            _, prev, choice = layer[key]
            path.append(choice)
            keys.append(key)
            if prev is None:
                break
            key = prev
        path.reverse()
        keys.reverse()
        tunnelas = path[0]
        assert isinstance(tunnelas, int)
        counts, mask = self.counts, self.mask
        groups: list[tuple[str, list[object]]] = []
        loose: list[Card] = []
        spare: list[Card] = [Card.joker()] * (counts[JOKER_INDEX] - 3 * tunnelas)
        for _ in range(tunnelas):
            groups.append(("tunnela", [Card.joker()] * 3))
        JOKER = "?"   # placeholder for a joker slot, filled at the end
        runs: list[list[list[list[object]]]] = [[[] for _ in range(7)] for _ in range(4)]
        for p, choice in enumerate(path[1:], start=1):
            assert isinstance(choice, tuple)
            *suit_moves, split = choice
            rank = p if p <= 13 else 1
            for s, move in enumerate(suit_moves):
                card = Card((s * 13 + rank - 1))
                new_runs: list[list[object]] = []
                classes = runs[s]
                moved: list[list[list[object]]] = [[] for _ in range(7)]
                for k, (n_nat, n_jok, n_end) in enumerate(move.moves):
                    pool = classes[k]
                    for _ in range(n_nat):
                        run = pool.pop()
                        run.append(card)
                        target = _NEXT_N[k]
                        moved[_LOW.get(target, target) if p == 3 and k in (P2, I2) else target].append(run)
                    for _ in range(n_jok):
                        run = pool.pop()
                        run.append(JOKER)
                        target = _NEXT_J[k]
                        moved[_LOW.get(target, target) if p == 3 and k in (P2, I2) else target].append(run)
                    for _ in range(n_end):
                        run = pool.pop()
                        run.extend([JOKER] * (3 - len(run)) if len(run) < 3 else [])
                        groups.append(("sequence", run))
                if keys[p][4] >= self.need:   # the sweep forgot purity here: so do we
                    for pure, impure in _IMPURE_OF.items():
                        moved[impure].extend(moved[pure])
                        moved[pure] = []
                for _ in range(move.new_runs):
                    new_runs.append([card])
                moved[P1].extend(new_runs)
                # Purity is re-derived from the cards, so classes only need to stay distinct.
                runs[s] = [moved[k] for k in range(7)]
                if move.tunnela:
                    groups.append(("tunnela", [card] * 3))
                spare.extend([card] * move.as_jokers)
            if isinstance(split, PoolSplit):
                for subset, n_jokers in split.sets:
                    members: list[object] = [Card(s * 13 + rank - 1) for s in subset]
                    groups.append(("set", members + [JOKER] * n_jokers))
                for s, n in enumerate(split.loose):
                    loose.extend([Card(s * 13 + rank - 1)] * n)
        # Fill joker slots with joker cards; what is left is spare.
        built: list[tuple[str, tuple[Card, ...]]] = []
        for kind, members in groups:
            filled = []
            for m in members:
                if m == JOKER:
                    filled.append(spare.pop())
                else:
                    assert isinstance(m, Card)
                    filled.append(m)
            built.append((kind, tuple(filled)))
        if len(spare) >= 3 and self.rules.joker_groups:
            built.append(("joker_group", tuple(spare)))
            spare = []
        return Arrangement(tuple(built), tuple(sorted(loose + spare)))


def solve(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> Solution:
    """Solve a hand given as a count vector (see :func:`rummy21.cards.counts_of`)."""
    table = _Table(counts, jokers, rules)
    final = table.run()
    need = table.need
    best_key = None
    best_cost = None
    a_key = None
    for key, (cost, _, _) in final.items():
        pure, balance = key[4], key[5]
        if pure < need or balance > 0:
            continue
        if best_cost is None or cost < best_cost:
            best_cost, best_key = cost, key
        if cost == 0 and a_key is None and (
                balance == 0 or (balance <= -3 and rules.joker_groups)):
            a_key = key
    if best_key is None:
        return Solution(None, None, None)
    return Solution(best_cost, table.rebuild(best_key),
                    table.rebuild(a_key) if a_key is not None else None)
