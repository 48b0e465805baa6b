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

What keeps the sweep small (each rule is argued where it is applied):

* states are compared on (joker balance, loose points) and only unbeaten ones are kept;
* jokers owed by open short runs, loose points no arrangement can avoid (isolated cards),
  and the pure groups the remaining cards could still form prune hopeless states early;
* joker cards play as themselves only where it matters (pure groups), and jokers bridge
  only gaps that padding could not close as cheaply;
* a greedy arrangement often proves Option A at once and otherwise bounds the loose points;
  a first sweep looks only at arrangements with nothing loose (when that seems likely).

The same sweep answers two more questions for bots, with one more number in its states:

* :func:`least_after_put_aside` — the best card to put aside from 22: exactly one card (a
  loose one, or a joker card) may be dropped at no cost;
* :func:`replacements` — the fewest cards to replace for Option A: every card is worth one
  point, a loose card is replaced and so supplies a joker, a card a pure run lacks may be
  bought as itself (owing one replacement), and every joker must be placed.

Mechanics that only make it faster: the cycle collector is paused during a solve (the memo
tables are large and a sweep allocates in bursts), suit states are interned as small ints and
a sweep's states are packed into one int each (a move adds a precomputed number), and a suit
with no open run and no card at a position is skipped there.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card
from rummy21.groups import classify, explain
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


def _open_pure(state: tuple[int, ...]) -> int:
    return state[P1] + state[P2] + state[P3] + state[LP3]


# Suit states are interned as small integers: the sweep's keys hold four of them, and a
# tuple of ints hashes several times faster than a tuple of tuples (hashes are not cached).
_STATE_IDS: dict[tuple[int, ...], int] = {}
_STATE_OF: list[tuple[int, ...]] = []
_CANONICAL_OF: list[int] = []
_OPEN_PURE_OF: list[int] = []
_INTERNING = threading.Lock()
_STATE_BITS = (1 << 16) - 1
"""Suit state numbers stay below this (the sweep packs four in a key, see ``_Partial``)."""


def _intern(state: tuple[int, ...]) -> int:
    """The number standing for a suit state (the same for equal states, in every thread)."""
    found = _STATE_IDS.get(state)
    if found is not None:
        return found
    canonical = _canonical(state)
    canonical_id = _intern(canonical) if canonical != state else None
    with _INTERNING:
        found = _STATE_IDS.get(state)
        if found is not None:
            return found
        number = len(_STATE_OF)
        if number > _STATE_BITS:        # a partial state packs each suit's in 16 bits
            raise RuntimeError("too many suit states for the sweep's packed keys")
        _STATE_OF.append(state)
        _CANONICAL_OF.append(number if canonical_id is None else canonical_id)
        _OPEN_PURE_OF.append(_open_pure(state))
        _STATE_IDS[state] = number
    return number


_EMPTY_ID = _intern(_EMPTY)


class SuitMove(NamedTuple):
    """What one suit does at one position (kept for rebuilding the groups).

    The move tables hold these as plain tuples, in this order (read them with
    ``SuitMove._make``): tens of thousands are kept, and the cycle collector stops tracking
    a plain tuple of numbers, not a named one — a full collection walks the rest each time."""

    state: tuple[int, ...]
    pool: int
    jokers: int
    """Jokers demanded minus joker cards supplied by this move."""
    pure: int
    extends: bool
    """Lengthens a complete run with a joker that fills no gap."""
    moves: tuple[tuple[int, int, int], ...]
    new_runs: int
    tunnela: bool
    reserve: int
    as_jokers: int
    extra_padding: int = 0


_IDLE = tuple(SuitMove(_EMPTY, 0, 0, 0, False, ((0, 0, 0),) * 7, 0, False, 0, 0))
"""The move of a suit with no open runs and no card at a position (the sweep skips it)."""


def _compositions(n: int, allowed: tuple[bool, bool, bool]) -> list[tuple[int, int, int]]:
    out = []
    for a in range(n + 1):
        for b in range(n - a + 1):
            e = n - a - b
            if (a and not allowed[0]) or (b and not allowed[1]) or (e and not allowed[2]):
                continue
            out.append((a, b, e))
    return out


# How the copies at a position may play (see _suit_moves).
NATURAL, EITHER, PURE_ONLY, TUNNELA_ONLY, JOKER_ONLY = range(5)


@lru_cache(maxsize=None)
def _suit_moves(state: tuple[int, ...], count: int, role: int, phase: int,
                purity: bool, reach: int, padding: int) -> tuple[tuple[Any, ...], ...]:
    """Every way one suit can play the ``count`` copies at a position, given its open runs.

    ``role`` says how the copies may play: ``NATURAL`` (not joker cards) or ``EITHER``
    (joker cards when jokers may not form groups of their own). When they may, a joker card
    gains nothing by playing as itself outside a pure group — it can stand in for itself,
    and a group whose natural cards are all jokers is a joker group — so it plays as itself
    only in pure runs and tunnelas (``PURE_ONLY``), only in a tunnela where no pure run of
    three could hold it (``TUNNELA_ONLY``), and never once purity no longer matters
    (``JOKER_ONLY``).

    ``reach`` is how many places up the suit's next card lies (4: none within three). A run
    takes jokers only to bridge to that card, and only where that beats padding the run
    and starting a new one there (at most 4 more jokers): a run of one across at most three
    places, of two across at most two, a complete run across one. Any other joker
    lengthening a run only places spare jokers (Option A): such moves are marked
    ``extends``, and so are those where a short run that ends takes up to ``padding`` more
    jokers than it needs (at its front, where no later place is left). At position 1,
    ``reach`` is 1 when keeping Aces for Ace-high runs can help.
    """
    later = reach == 1
    joker = role != NATURAL
    fixed = 0                        # copies that can only be jokers
    if phase not in (LAST, CLOSE) and (role == JOKER_ONLY or (
            role == TUNNELA_ONLY and count != 3)):
        fixed, count = count, 0
    bridges = {P1: reach <= 3, P2: reach <= 2, I2: reach <= 2}
    # Per class of open run, each way its runs can go, with what that way contributes:
    # (naturals, moves, [(class, runs) they become], jokers demanded, pure groups ended,
    # extends, ends a short run). Only classes holding runs take part in the product.
    choices = []
    for k in _RUN_CLASSES:
        if not state[k]:
            continue
        if phase == CLOSE or (phase == LAST and k in (LP3, LI3)):
            allowed = (False, False, True)
        elif role == TUNNELA_ONLY and phase != LAST:
            allowed = (False, True, True)
        elif role == PURE_ONLY and phase != LAST and k in (I2, I3, LI3):
            allowed = (False, True, True)   # a joker card continues only pure runs as itself
        else:
            allowed = (True, True, True)
        ways = []
        for n_nat, n_jok, n_end in _compositions(state[k], allowed):
            into = []
            if n_nat:
                target = _NEXT_N[k]
                into.append((_LOW.get(target, target) if phase == LOWMARK and k in (P2, I2)
                             else target, n_nat))
            if n_jok:
                target = _NEXT_J[k]
                into.append((_LOW.get(target, target) if phase == LOWMARK and k in (P2, I2)
                             else target, n_jok))
            extends = bool(n_jok) and ((k in (P3, I3, LP3, LI3) and not later) or
                                       (k in bridges and not bridges[k]))
            ways.append((n_nat, k, (n_nat, n_jok, n_end), into,
                         n_jok + _PAD.get(k, 0) * n_end, n_end if k in _PURE_END else 0,
                         extends, bool(n_end) and k in (P1, P2, I2)))
        choices.append(ways)
    available = state[HIGH] if phase == LAST else count
    out: list[tuple[Any, ...]] = []
    for combo in product(*choices):
        naturals = 0
        for way in combo:
            naturals += way[0]
        if naturals > available or (phase == LAST and naturals != available):
            continue
        new = [0] * 8
        demand = pure = 0
        extends = short_ends = False
        moves_by_class = [(0, 0, 0)] * 7
        for _, k, moves_k, into, demand_k, pure_k, extends_k, short_k in combo:
            moves_by_class[k] = moves_k
            for target, n in into:
                new[target] += n
            demand += demand_k
            pure += pure_k
            extends = extends or extends_k
            short_ends = short_ends or short_k
        moves = tuple(moves_by_class)
        rest = available - naturals
        for extra in range(padding + 1 if short_ends else 1):
            _grow(out, state, new, count, rest, role, phase, purity, later, joker, fixed,
                  demand + extra, pure, extends or extra > 0, moves, extra)
    return tuple(out)


def _grow(out: list[tuple[Any, ...]], state: tuple[int, ...], new: list[int], count: int, rest: int,
          role: int, phase: int, purity: bool, later: bool, joker: bool, fixed: int,
          demand: int, pure: int, extends: bool, moves: tuple[tuple[int, int, int], ...],
          extra: int) -> None:
    """The ways to play the copies left once the open runs have moved (see _suit_moves)."""
    if phase in (LAST, CLOSE):
        st = tuple(new) if purity else _canonical(tuple(new))
        out.append((st, 0, demand, pure, extends, moves, 0, False, 0, 0, extra))
        return
    new[HIGH] = state[HIGH]
    for tunnela in (False, True):
        if tunnela and not (rest == 3 and count == 3):
            continue
        left = rest - 3 * tunnela
        starts = 0 if role == TUNNELA_ONLY else left
        for new_runs in range(starts + 1):
            keep = left - new_runs if phase == FIRST and later and role in (
                NATURAL, EITHER, PURE_ONLY) else 0
            for reserve in range(keep + 1):
                free = left - new_runs - reserve
                lowest = free if role in (PURE_ONLY, TUNNELA_ONLY) else 0
                grown = list(new)
                grown[P1] += new_runs
                grown[HIGH] += reserve
                key = tuple(grown) if purity else _canonical(tuple(grown))
                for as_jokers in range(lowest, free + 1 if joker else 1):
                    out.append((key, free - as_jokers, demand - as_jokers - fixed,
                                pure + tunnela, extends, moves, new_runs,
                                tunnela, reserve, as_jokers + fixed, extra))


@lru_cache(maxsize=1 << 16)
def _options(state_id: int, count: int, role: int, phase: int, purity: bool,
             reach: int, padding: int, exact: bool, next1: int, next2: int,
             setless: int | None, buy: int = 0, replace: bool = False,
             aside: bool = False, bought_starts: bool = True) -> tuple[tuple[Any, ...], ...]:
    """The moves of :func:`_suit_moves` as the sweep uses them: (change of the suit's state
    number, copies to the pool (0 where no set can form), what the move adds to the rest of a
    partial state (pure groups, jokers owed, copies bought: see ``_Partial``), ``_EXTENDS`` or
    0, jokers, jokers owed, loose points, move).

    ``next1`` and ``next2`` are the copies at the next two places (-1: the Ace-high place,
    whose copies are the Aces set aside). Each short run needs the next card or a joker, a
    run of one also the card after: what the cards cannot give is owed, for pruning only.
    ``setless`` is, where no set can form at this rank, the points of a loose pool card
    (-1 for joker cards: they may go to the pool only to sit in a set); else ``None``.

    For the distance to a declaration (``replace``, see :func:`replacements`), up to ``buy``
    more copies may be bought to play as natural cards (each owes one replacement, like a
    joker), and each loose card supplies one replacement. With ``aside``, a move whose copies
    supply jokers may also put one of them aside (it then supplies one joker fewer, and
    counts as the card put aside).
    """
    out = []
    state = _STATE_OF[state_id]
    for bought in range(buy + 1 if role != JOKER_ONLY else 1):
        for raw in _suit_moves(state, count + bought, role, phase, purity, reach, padding):
            move = SuitMove._make(raw)
            if move.extends and not exact:
                continue
            if bought and move.pool + move.as_jokers + move.moves[I2][0] + move.moves[I3][0] + \
                    move.moves[LI3][0] + (0 if bought_starts else move.new_runs) > count:
                continue    # a bought copy plays as itself in a pure run or tunnela, or else
                            # a joker could stand where it does (and see _bought_may_start)
            if bought and not purity and not move.tunnela:
                continue    # once purity no longer matters, only a tunnela needs one
            loose = 0
            if setless is not None and move.pool:
                if setless < 0:
                    continue
                loose = move.pool * setless
            st = move.state
            owed = 0
            short = st[P1] + st[P2] + st[I2]
            if short:
                owed = max(0, short - (next1 if next1 >= 0 else st[HIGH]))
                if st[P1]:
                    owed += max(0, st[P1] - (next2 if next2 >= 0 else st[HIGH]))
            jokers = move.jokers + bought - (loose if replace else 0)
            change = _intern(st) - state_id
            pool = 0 if setless is not None else move.pool
            step = move.pure << _AT_PURE | owed << _AT_OWED
            extends = _EXTENDS if move.extends else 0
            out.append((change, pool, step | bought << _AT_BOUGHT, extends, jokers, owed, loose,
                        raw))
            if aside and move.as_jokers:
                out.append((change, pool, step | 1 << _AT_BOUGHT, extends, jokers + 1, owed,
                            loose, raw))
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
            # A set of one natural and two jokers is the same cards as a padded run: skip it.
            if len(subset) < 2 or len(subset) > max_set or any(rest[s] == 0 for s in subset):
                continue
            walk(tuple(r - (s in subset) for s, r in enumerate(rest)), i, chosen + [subset])

    walk(y, 0, [])
    return found


@lru_cache(maxsize=None)
def _pool_splits(x: tuple[int, ...], jokerish: tuple[bool, ...], points: int,
                 max_set: int, every: bool = False) -> tuple[PoolSplit, ...]:
    """Pareto-best splits of a rank's pool (plus, for Option A, splits absorbing spare jokers).

    With ``every``, one split for each (jokers, loose points) there is: when loose cards are
    replaced (see :func:`replacements`) they supply jokers, so no split is sure to be worse.
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


_NO_SETS = (PoolSplit(0, 0, False, (), (0, 0, 0, 0)),)
"""The pool split of a rank where no set can form: its pool was counted loose already."""


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


_Struct = tuple[Any, ...]
"""A state of the sweep between positions: the four suit states, the pure groups done
(capped at the number needed) and the cards bought or put aside."""
_Partial = int
"""A state part-way through a position, packed in one int (a move adds a number to it, and
an int hashes at once: building and hashing a tuple per move cost most of a sweep): the four
suit states (those of the suits done updated), pool copies by suit, pure groups done, jokers
owed, cards bought, and two flags — see the ``_AT_*`` fields. No field can overflow into the
next: a suit holds at most three copies of a card, so a position adds at most a few pure
groups or owed jokers per suit, and no more than 21 cards are ever bought."""
_AT_SUIT = (0, 16, 32, 48)          # 16 bits each: a suit state's number
_AT_POOL = (64, 66, 68, 70)         # 2 bits each: copies a suit sends to the pool (0..3)
_AT_PURE = 72                       # 6 bits: pure groups done
_AT_OWED = 78                       # 7 bits: jokers owed by short runs (for pruning)
_AT_BOUGHT = 85                     # 7 bits: cards bought or put aside
_EXTENDS = 1 << 92                  # a move placed spare jokers only (Option A)
_PURITY = 1 << 93                   # purity still matters (fewer pure groups than needed)


_LAYER_BITS = (1 << 64) - 1 | 63 << _AT_PURE | 127 << _AT_BOUGHT
"""The fields of a state between positions (suit states, pure groups, bought): inside the
sweep a layer's keys are packed the same way, the other fields zero."""


def _pack(key: _Struct) -> int:
    """A state between positions, ``(four suit states, pure groups, bought)``, packed."""
    return int(key[0] | key[1] << 16 | key[2] << 32 | key[3] << 48
               | key[4] << _AT_PURE | key[5] << _AT_BOUGHT)


def _unpack(packed: int) -> _Struct:
    """The inverse of :func:`_pack`."""
    return (packed & _STATE_BITS, packed >> 16 & _STATE_BITS, packed >> 32 & _STATE_BITS,
            packed >> 48 & _STATE_BITS, packed >> _AT_PURE & 63, packed >> _AT_BOUGHT & 127)


# One reachable state: (joker balance, loose points, back-pointer to the state before it).
_Entry = tuple[int, int, Any]


def _insert(entries: list[_Entry], balance: int, cost: int, back: object, exact: bool) -> None:
    """Add a state unless another of the same structure beats it; drop those it beats.

    Fewer loose points and more spare jokers are better — except, with ``exact``, where
    every spare joker must be placed (Option A), so each balance counts on its own.
    """
    if not entries:
        entries.append((balance, cost, back))
        return
    if exact:
        for i, (b, c, _) in enumerate(entries):
            if b == balance:
                if cost < c:
                    entries[i] = (balance, cost, back)
                return
        entries.append((balance, cost, back))
        return
    beaten = False
    for b, c, _ in entries:
        if b <= balance and c <= cost:
            return
        if balance <= b and cost <= c:
            beaten = True
    if beaten:
        entries[:] = [e for e in entries if not (balance <= e[0] and cost <= e[1])]
    entries.append((balance, cost, back))


class _Table:
    """One solve: the sweep, its back-pointers and the rebuilding of groups.

    ``bound``: the most loose points looked for. ``option_a``: every balance counts (each
    spare joker must be placed; moves that only place spare jokers are tried).
    ``rank_points``: the points of a loose card by rank (the cards' own by default). ``replace`` / ``buy``: the fewest-replacements
    variant, with or without buying cards (see :func:`replacements`); ``aside``: exactly one
    card is put aside at no cost (see :func:`least_after_put_aside`; no rebuilding then).
    Slot 5 of a state counts the cards bought or put aside.
    """

    def __init__(self, counts: Sequence[int], mask: tuple[bool, ...], rules: RuleSet,
                 bound: int, option_a: bool,
                 rank_points: Sequence[int] = (), replace: bool = False,
                 buy: bool = False, aside: bool = False) -> None:
        self.counts = counts
        self.replace = replace
        self.buy = buy
        self.aside = aside
        self.removed: tuple[Card, ...] = ()
        """After rebuilding with ``replace``: the cards that go out."""
        self.mask = mask
        self.rules = rules
        self.need = rules.pure_groups_needed
        self.bound = bound
        self.option_a = option_a
        self.rank_points = rank_points or _RANK_POINTS
        self.layers: list[dict[int, list[_Entry]]] = []      # keys packed (_LAYER_BITS)
        self.stages: list[list[dict[_Partial, list[_Entry]] | None]] = []

    def run(self) -> dict[_Struct, list[_Entry]]:
        counts, mask, need = self.counts, self.mask, self.need
        bound, exact, replace, buy = self.bound, self.option_a, self.replace, self.buy
        aside = self.aside
        # Key slot 5 counts cards bought (``replace``) or put aside (``aside``: exactly one).
        spend = bound if replace else 1 if aside else 0
        printed = counts[JOKER_INDEX]
        layer: dict[int, list[_Entry]] = {}      # keys packed (see _LAYER_BITS)
        for tunnelas in range(printed // 3 + 1):
            # With ``replace``, also pure groups of three bought cards (see ``near`` below).
            for bought in range(need + 1 if buy else 1):
                key = _pack((_EMPTY_ID,) * 4 + (min(tunnelas + bought, need), 3 * bought))
                _insert(layer.setdefault(key, []), -(printed - 3 * tunnelas) + 3 * bought, 0,
                        tunnelas + 100 * bought, exact)
            if aside and printed - 3 * tunnelas > 0:     # a printed joker put aside
                key = _pack((_EMPTY_ID,) * 4 + (min(tunnelas, need), 1))
                _insert(layer.setdefault(key, []), -(printed - 3 * tunnelas - 1), 0, tunnelas,
                        exact)
        self.layers.append(layer)
        # Joker cards still to come after each position (Aces are all decided at position 1).
        supply_after = [0] * 16
        for p in range(13, 1, -1):
            supply_after[p - 1] = supply_after[p] + sum(
                counts[s * 13 + p - 1] for s in range(4) if mask[s * 13 + p - 1])
        # Per suit: natural copies by position (0 past the King; Aces high come from the
        # state), and the tables below, which depend on that suit's cards alone.
        suit_tables = [_suit_tables(tuple(counts[s * 13:s * 13 + 13])) for s in range(4)]
        at = [t[0] for t in suit_tables]
        line = [t[1] for t in suit_tables]
        reach = [list(t[2]) for t in suit_tables]
        # At position 1: whether keeping an Ace for a run ending at Ace-high can help — only
        # if a natural card of the suit lies within joker reach of the King, and no lower
        # than the Ten: in a high run whose Ace is d >= 4 places above the nearest natural
        # (d - 1 jokers between), the Ace can go low with two of those jokers (A-?-?) and
        # the rest still makes a run, unless d == 4 and that natural is alone (10-?-?-?-A).
        most_jokers = printed + sum(n for i, n in enumerate(counts[:JOKER_INDEX]) if mask[i])
        for s in range(4):
            reach[s][1] = 1 if any(at[s][q] for q in range(
                10 if replace else max(10, 13 - most_jokers), 14)) else 4
        pure_ok = [[True] * 16] * 4 if replace else [t[3] for t in suit_tables]
        near = [t[4] for t in suit_tables]
        ahead = [0] * 17 if replace else _loose_ahead(counts, mask, self.rank_points,
                                                      1 if aside else 0)
        pure_after = [sum(t[5][p] for t in suit_tables) for p in range(16)]
        if buy:     # ... buying cards (at most the bound): by what is left to buy
            pure_bought = [_pure_within([_line_after(at[s], p) for s in range(4)], bound, need)
                           for p in range(16)]
        max_set = self.rules.max_set_size
        joker_groups = self.rules.joker_groups
        # Option A may need a short run to take spare jokers at its front: at most two when
        # three spare jokers could form a joker group, else up to a 13-card run.
        padding = (2 if joker_groups else MAX_RUN - 3) if exact else 0
        for p in range(1, 16):
            phase = FIRST if p == 1 else LOWMARK if p == 3 else LAST if p == 14 \
                else CLOSE if p == 15 else MID
            rank = p if p <= 13 else 1
            idx = [s * 13 + rank - 1 for s in range(4)]
            cnt = [counts[i] if p <= 13 else 0 for i in idx]
            jok = [mask[i] for i in idx]
            jokerish = tuple(jok)
            points = 0 if p > 13 else self.rank_points[rank - 1]
            limit = supply_after[p] if p <= 13 else 0
            # Suit by suit, merging equal partial states as we go (a product of the four
            # suits' moves per state would repeat the same work many times over).
            # (The layer's entries themselves: rebuilding reads their key back from ``_Partial``.)
            stage: dict[_Partial, list[_Entry]] = {
                key | _PURITY if key >> _AT_PURE & 63 < need else key: entries
                for key, entries in layer.items()}
            stages: list[dict[_Partial, list[_Entry]] | None] = [stage]
            # With cards of fewer than two suits here no set can form: the pool is loose at
            # once (and a joker card, which may go to the pool only to sit in a set, may not).
            setless = sum(1 for n in cnt if n) < 2 and not aside
            for s in range(4):
                at_suit, at_pool = _AT_SUIT[s], _AT_POOL[s]
                if not cnt[s] and not (buy and near[s][p]) and \
                        all(pkey >> at_suit & _STATE_BITS == _EMPTY_ID for pkey in stage):
                    stages.append(None)     # this suit has nothing to do here
                    continue
                # Joker cards the suits after this one could still supply at this position.
                slack = limit + sum(cnt[t] for t in range(s + 1, 4) if jok[t])
                nxt_stage: dict[_Partial, list[_Entry]] = {}
                # The moves of this suit here, by purity matters and open runs: each with the
                # jokers its short runs are sure to owe at the next two places, and as what it
                # adds to a partial state.
                known: tuple[dict[int, tuple[tuple[Any, ...], ...]], ...] = ({}, {})
                for pkey, entries in stage.items():
                    here = pkey >> at_suit & _STATE_BITS
                    purity = bool(pkey & _PURITY)
                    options = known[purity].get(here)
                    if options is None:
                        if not jok[s]:
                            role = NATURAL
                        elif not joker_groups:
                            role = EITHER
                        elif not purity:
                            role = JOKER_ONLY
                        else:
                            role = PURE_ONLY if pure_ok[s][p] else TUNNELA_ONLY
                        options = known[purity][here] = _options(
                            here, cnt[s], role, phase, purity, reach[s][p], padding, exact,
                            at[s][p + 1] if p + 1 != 14 else -1,
                            at[s][p + 2] if p + 2 not in (14, 17) else -1,
                            (points if not jok[s] else -1) if setless else None,
                            3 - cnt[s] if buy and near[s][p] else 0, replace,
                            aside, not buy or _bought_may_start(line[s], p, bound))
                    for change, pool_, step, extends, jokers_, owed, loose_, move in options:
                        new_pkey = -1           # worked out once an entry can take the move
                        target = None
                        for balance, cost, _ in entries:
                            total = balance + jokers_ + owed
                            cost += loose_
                            # Replaced cards supply jokers too: at most ``bound - cost`` more.
                            if total > (slack if not replace else slack + bound - cost):
                                continue
                            if loose_ and cost + ahead[p] > bound:
                                continue
                            if new_pkey < 0:
                                new_pkey = pkey + (change << at_suit) + (pool_ << at_pool) + step \
                                    | extends
                                target = nxt_stage.get(new_pkey)
                            if target is None:
                                target = nxt_stage[new_pkey] = [(total, cost, (pkey, balance, move))]
                            elif len(target) == 1 and not exact:
                                # _insert's usual case, inlined (the hottest line of a solve)
                                b_, c_, _ = target[0]
                                if b_ <= total and c_ <= cost:
                                    continue
                                if total <= b_ and cost <= c_:
                                    target[0] = (total, cost, (pkey, balance, move))
                                else:
                                    target.append((total, cost, (pkey, balance, move)))
                            else:
                                _insert(target, total, cost, (pkey, balance, move), exact)
                stage = nxt_stage
                stages.append(stage)
            self.stages.append(stages)
            nxt: dict[int, list[_Entry]] = {}
            splits_of: dict[int, tuple[PoolSplit, ...]] = {}    # by the pool's bits
            for pkey, entries in stage.items():
                bought = pkey >> _AT_BOUGHT & 127
                if bought > spend:
                    continue
                pure = pkey >> _AT_PURE & 63
                owed = pkey >> _AT_OWED & 127
                ext = pkey & _EXTENDS
                new_key = pkey & _LAYER_BITS
                if pure > need:
                    new_key -= (pure - need) << _AT_PURE
                    pure = need
                elif pure < need and pure + _OPEN_PURE_OF[pkey & _STATE_BITS] \
                        + _OPEN_PURE_OF[pkey >> 16 & _STATE_BITS] \
                        + _OPEN_PURE_OF[pkey >> 32 & _STATE_BITS] \
                        + _OPEN_PURE_OF[pkey >> 48 & _STATE_BITS] + (
                        pure_after[p] if not buy else pure_bought[p][bound - bought]) < need:
                    continue
                if pkey & _PURITY and pure >= need:
                    new_key = _pack((*map(_CANONICAL_OF.__getitem__, _unpack(new_key)[:4]),
                                     pure, bought))
                pool = pkey >> _AT_POOL[0] & 255      # the four 2-bit pool fields
                splits = _NO_SETS if setless else splits_of.get(pool)
                if splits is None:
                    splits = splits_of[pool] = _pool_splits(
                        (pool & 3, pool >> 2 & 3, pool >> 4 & 3, pool >> 6 & 3), jokerish, points,
                        max_set, replace)
                target = None
                for balance, loose, _ in entries:
                    base = balance - owed  # owed was carried for pruning only
                    for split in splits:
                        total = base + split.jokers
                        cost = loose + split.loose_points
                        if replace:
                            total -= split.loose_points     # one point per loose card
                            if total + owed > limit + bound - cost:
                                continue
                        elif total + owed > limit:
                            continue
                        if (split.extension or ext) and not exact:
                            continue
                        if aside and not bought and split.loose_points and \
                                cost - points + ahead[p] <= bound:
                            # One of its loose cards may be the card put aside.
                            _insert(nxt.setdefault(new_key | 1 << _AT_BOUGHT, []), total,
                                    cost - points, (pkey, balance, split), exact)
                        if cost + ahead[p] > bound:
                            continue
                        if target is None:
                            target = nxt.get(new_key)
                            if target is None:
                                target = nxt[new_key] = [(total, cost, (pkey, balance, split))]
                                continue
                        _insert(target, total, cost, (pkey, balance, split), exact)
            layer = {k: v for k, v in nxt.items() if v}
            self.layers.append(layer)
        return {_unpack(key): entries for key, entries in layer.items()}

    def rebuild(self, final: _Struct, balance: int) -> Arrangement:
        """Replay the moves leading to a final state with concrete runs to get the groups."""
        path: list[object] = []
        keys: list[int] = []
        key = _pack(final)
        for p in range(len(self.layers) - 1, -1, -1):
            back = next(e[2] for e in self.layers[p][key] if e[0] == balance)
            keys.append(key)
            if not isinstance(back, tuple):
                path.append(back)          # the first layer: how many JK tunnelas
                break
            pkey: _Partial
            pkey, balance, split = back
            moves: list[object] = []
            for stage in reversed(self.stages[p - 1][1:]):
                if stage is None:           # the suit had nothing to do
                    moves.append(_IDLE)
                    continue
                pkey, balance, move = next(e[2] for e in stage[pkey] if e[0] == balance)
                moves.append(move)
            key = pkey & _LAYER_BITS
            path.append((*reversed(moves), split))
        path.reverse()
        keys.reverse()
        assert isinstance(path[0], int)
        virtual, tunnelas = divmod(path[0], 100)
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
            for s, raw in enumerate(suit_moves):
                if raw == _IDLE:
                    continue
                move = SuitMove._make(raw)
                card = ALL_CARDS[(s * 13 + rank - 1)]
                new_runs: list[list[object]] = []
                classes = runs[s]
                moved: list[list[list[object]]] = [[] for _ in range(7)]
                extra = move.extra_padding
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
                        if len(run) < 3:
                            run.extend([JOKER] * (3 - len(run) + extra))
                            extra = 0
                        groups.append(("sequence", run))
                if keys[p] >> _AT_PURE & 63 >= self.need:   # the sweep forgot purity here: so do we
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
            if split is _NO_SETS[0]:
                for s, raw in enumerate(suit_moves):
                    move = SuitMove._make(raw)
                    loose.extend([ALL_CARDS[s * 13 + rank - 1]] * move.pool)
            elif isinstance(split, PoolSplit):
                for subset, n_jokers in split.sets:
                    members: list[object] = [ALL_CARDS[s * 13 + rank - 1] for s in subset]
                    groups.append(("set", members + [JOKER] * n_jokers))
                for s, n in enumerate(split.loose):
                    loose.extend([ALL_CARDS[s * 13 + rank - 1]] * n)
        if self.replace:
            for _ in range(virtual):       # pure groups of bought cards: kinds nobody holds
                used = {m.index for _, members in groups for m in members if isinstance(m, Card)}
                absent = next(i for i in range(JOKER_INDEX)
                              if not counts[i] and not mask[i] and i not in used)
                groups.append(("tunnela", [ALL_CARDS[absent]] * 3))
            held, bought = self._new_hand(groups, loose, spare)
            # More cards bought than loose: spare joker cards go out for them.
            for _ in range(bought - len(loose)):
                loose.append(spare.pop())
            spare.extend(self._fresh_jokers(held, len(loose) - bought))
            self.removed = tuple(sorted(loose))
            loose = []
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

    def _new_hand(self, groups: list[tuple[str, list[object]]], loose: list[Card],
                  spare: list[Card]) -> tuple[list[int], int]:
        """(copies of each card kind in the new hand so far, cards bought)."""
        held = list(self.counts)
        for card in loose:
            held[card.index] -= 1
        natural = [0] * len(held)
        for _, members in groups:
            for m in members:
                if isinstance(m, Card):
                    natural[m.index] += 1
        for card in spare:
            natural[card.index] += 1
        bought = 0
        for i, n in enumerate(natural):
            if n > held[i]:
                bought += n - held[i]
                held[i] = n
        return held, bought

    def _fresh_jokers(self, held: list[int], wanted: int) -> list[Card]:
        """For :func:`replacements`: ``wanted`` joker cards to add (one for each loose card
        that no bought card replaces), of kinds the shoe still holds beside the new hand
        ``held``."""
        kinds = [i for i in range(JOKER_INDEX) if self.mask[i]] + [JOKER_INDEX]
        fresh: list[Card] = []
        for i in kinds:
            room = (self.rules.printed_jokers if i == JOKER_INDEX else 3) - held[i]
            while room > 0 and len(fresh) < wanted:
                fresh.append(ALL_CARDS[i])
                room -= 1
        if len(fresh) < wanted:
            raise ValueError("the shoe holds too few jokers for these replacements")
        return fresh


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


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while a solve runs.

    A sweep allocates tens of thousands of small tuples and lists (none in reference
    cycles: back-pointers only point to earlier states, so reference counting frees them
    all). Each allocation burst would otherwise trigger collections that walk every object
    alive — the memo tables included — which measured as most of the slowest solves.
    Process-wide, but only for the length of one solve; re-enabled only if it was on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def solve(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
          bound: int | None = None) -> Solution:
    """Solve a hand given as a count vector (see :func:`rummy21.cards.counts_of`).

    A quick greedy arrangement comes first: often it proves Option A outright (at once, or
    once its one or two loose cards fit into its groups), else its loose points bound the
    search. When it leaves few cards loose, a sweep keeping only
    arrangements with nothing loose then decides Option A and finds a pure save of 0.
    Otherwise one sweep bounded by the quick arrangement's points finds the least (and, if
    that is 0, settles Option A the same way). With ``bound``, a pure save above it is not looked
    for (reported as ``None``): callers pass the full count or dublee save that beats it.
    """
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need:
        return Solution(None, None, None)
    with _no_cycle_collection():
        return _solve(counts, jokers, rules, bound)


def _solve(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
           bound: int | None) -> Solution:
    need = rules.pure_groups_needed

    def finals(table: _Table) -> list[tuple[int, int, _Struct]]:
        """(loose points, joker balance, state) of the complete arrangements found."""
        return [(cost, balance, key) for key, entries in table.run().items() if key[4] >= need
                for balance, cost, _ in entries if balance <= 0]

    quick = _greedy(counts, jokers, rules)
    if quick is not None and not quick[1].loose:
        return Solution(0, quick[1], quick[1])
    if quick is not None and len(quick[1].loose) <= _FIT_LOOSE:
        placed = _place_spare(quick[1], jokers, rules)
        if placed is not None:
            return Solution(0, placed, placed)
    mask = jokers.joker_mask
    limit = (1 << 30) if bound is None else bound
    if quick is not None and quick[0] < limit:
        limit = quick[0]        # the sweep need not look beyond the quick arrangement
    if quick is None or sum(not mask[c.index] for c in quick[1].loose) <= _FEW_LOOSE:
        # Nothing loose is likely: a sweep keeping only such arrangements is quick.
        zero = _Table(counts, mask, rules, 0, False)
        found = finals(zero)
        if found:
            return _nothing_loose(zero, found, counts, jokers, rules)
    # The bounded sweep also finds every arrangement with nothing loose (the zero sweep's),
    # when that sweep was skipped.
    table = _Table(counts, mask, rules, limit, False)
    complete = finals(table)
    found = [f for f in complete if f[0] == 0]
    if found:
        return _nothing_loose(table, found, counts, jokers, rules)
    best = min(complete, default=None, key=lambda f: f[0])
    if best is None:
        return Solution(None, None, None)
    return Solution(best[0], table.rebuild(best[2], best[1]), None)


_FIT_LOOSE = 2
"""The most loose cards of the quick arrangement worth trying to fit into its groups."""
_FEW_LOOSE = 1
"""When the quick arrangement leaves more natural cards loose than this, a solution with
nothing loose is rare, so the sweep for one alone is skipped. On the benchmark corpora, with
two or three natural cards loose the solution has nothing loose in 8 hands of 113, with one
in 19 of 40 (a loose joker card often only shows a poor quick arrangement)."""


def _places_jokers(balance: int, rules: RuleSet) -> bool:
    """Whether an arrangement with this joker balance has every joker in a group."""
    return balance == 0 or (balance <= -3 and rules.joker_groups)


def _nothing_loose(table: _Table, found: list[tuple[int, int, _Struct]], counts: Sequence[int],
                   jokers: Jokers, rules: RuleSet) -> Solution:
    """The solution when arrangements with nothing loose exist (``found``: cost 0 finals).

    Option A also needs every spare joker placed; a sweep that keeps the most spare jokers
    usually settles it, else an exact sweep tracks each balance.
    """
    _, balance, key = found[0]
    pure_arrangement = table.rebuild(key, balance)
    proof = next(((b, k) for _, b, k in found if _places_jokers(b, rules)), None)
    if proof is not None:
        same = proof == (balance, key)
        return Solution(0, pure_arrangement,
                        pure_arrangement if same else table.rebuild(proof[1], proof[0]))
    for _, b, k in found[:4]:       # one or two spare jokers: try to fit them in
        placed = _place_spare(table.rebuild(k, b), jokers, rules)
        if placed is not None:
            return Solution(0, pure_arrangement, placed)
    exact = _Table(counts, jokers.joker_mask, rules, 0, True)
    need = rules.pure_groups_needed
    proof = next(((b, k) for k, entries in exact.run().items() if k[4] >= need
                  for b, _, _ in entries if _places_jokers(b, rules)), None)
    return Solution(0, pure_arrangement,
                    exact.rebuild(proof[1], proof[0]) if proof is not None else None)


@dataclass(frozen=True, slots=True)
class Replacement:
    """Cards to swap for a hand to prove Option A: ``remove`` go, ``add`` come in."""

    remove: tuple[Card, ...]
    add: tuple[Card, ...]
    arrangement: Arrangement
    """The groups the new hand then forms (every card in one)."""


_ONE_POINT = (1,) * 13


def replacements(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
                 bound: int) -> Replacement | None:
    """The fewest cards to replace (one out, one in) for the hand to prove Option A, if no
    more than ``bound`` are needed; ``None`` otherwise.

    The sweep above, with every card worth one point and three changes: a loose card is
    replaced, so it supplies a joker (any joker card the shoe still holds can come in); a
    card a run or tunnela lacks may be bought as itself, which owes one replacement like a
    joker does (so runs stay pure); and, as for Option A, every joker must be placed, so each
    balance counts. An arrangement needs as many replacements as it has loose cards or bought
    cards, whichever is more (spare joker cards go out for bought ones).

    >>> from rummy21.cards import counts_of, parse_cards
    >>> hand = counts_of(parse_cards("2S 3S 4S 6H 7H 8H 9D 10D JD QC KC AC 5S 5D 5C 2H 3H 4D 9S 10C JH"))
    >>> found = replacements(hand, Jokers.from_cut("KH"), RuleSet(), 21)
    >>> len(found.remove), len(found.add)
    (3, 3)
    """
    arrangement: Arrangement | None = None
    removed: tuple[Card, ...] = ()
    with _no_cycle_collection():
        # One bounded sweep per number of replacements, fewest first: a sweep is the
        # smaller the fewer cards it may replace, since they are all the jokers it can add.
        # Buying cards to make runs pure multiplies the states many times over, so a first
        # round buys none; a second, only needed below what the first found, does.
        # Each sweep keeps the most spare jokers; when some are left that no group takes, a
        # sweep that tells each balance apart settles it.
        # Every card bought is a replacement: so at least as many as the pure groups need.
        lines = [_line_after(_suit_tables(tuple(counts[s * 13:s * 13 + 13]))[0], 0)
                 for s in range(4)]
        pure = _pure_within(lines, bound, rules.pure_groups_needed)
        printed_tunnelas = counts[JOKER_INDEX] // 3
        fewest_bought = next((k for k in range(bound + 1)
                              if pure[k] + printed_tunnelas >= rules.pure_groups_needed), None)
        first = None
        if fewest_bought == 0:
            first = _fewest(counts, jokers, rules, 0, bound, False)
            if first is not None:
                bound = first[0] - 1
        second = None
        if fewest_bought is not None and max(1, fewest_bought) <= bound:
            second = _fewest(counts, jokers, rules, max(1, fewest_bought), bound, True)
        best = second or first
        if best is not None:
            _, removed, arrangement = best
    if arrangement is None:
        return None
    kept = list(counts)
    for card in removed:
        kept[card.index] -= 1
    final = [0] * len(kept)
    for _, cards in arrangement.groups:
        for card in cards:
            final[card.index] += 1
    added = tuple(ALL_CARDS[i] for i, n in enumerate(final) for _ in range(n - kept[i]))
    assert not arrangement.loose and len(added) == len(removed)
    return Replacement(removed, added, arrangement)


def _fewest(counts: Sequence[int], jokers: Jokers, rules: RuleSet, start: int, bound: int,
            buy: bool) -> tuple[int, tuple[Card, ...], Arrangement] | None:
    """(replacements, cards removed, new arrangement) for :func:`replacements`: fewest first,
    from ``start`` (none fewer can do) to ``bound``."""
    need, mask = rules.pure_groups_needed, jokers.joker_mask
    for limit in range(start, bound + 1):
        table = _Table(counts, mask, rules, limit, False, rank_points=_ONE_POINT,
                       replace=True, buy=buy)
        found = sorted((max(cost, key[5]), balance, key) for key, entries in table.run().items()
                       if key[4] >= need for balance, cost, _ in entries
                       if balance <= 0 and max(cost, key[5]) <= limit)
        if not found:
            continue
        for count, balance, key in found[:4]:
            built = table.rebuild(key, balance)
            placed = _place_spare(built, jokers, rules) if built.loose else built
            if placed is not None:
                return count, table.removed, placed
        exact = _Table(counts, mask, rules, limit, True, rank_points=_ONE_POINT,
                       replace=True, buy=buy)
        proof = min(((max(cost, key[5]), balance, key) for key, entries in exact.run().items()
                     if key[4] >= need for balance, cost, _ in entries
                     if _places_jokers(balance, rules) and max(cost, key[5]) <= limit),
                    default=None)
        if proof is not None:
            built = exact.rebuild(proof[2], proof[1])
            return proof[0], exact.removed, built
    return None


def least_after_put_aside(counts: Sequence[int], jokers: Jokers, rules: RuleSet,
                          bound: int) -> int | None:
    """The least pure save (points outside groups, enough pure groups) of the hands left by
    putting any one card of ``counts`` aside, if at most ``bound``; else ``None``.

    One sweep instead of one per card: the sweep above, where one card (a loose one, or a
    joker card) may be put aside at no cost, and exactly one must be.
    """
    need = rules.pure_groups_needed
    if max_pure_groups(counts) < need or bound < 0:
        return None
    with _no_cycle_collection():
        table = _Table(counts, jokers.joker_mask, rules, bound, False, aside=True)
        return min((cost for key, entries in table.run().items()
                    if key[4] >= need and key[5] == 1
                    for balance, cost, _ in entries if balance <= 0), default=None)


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


MAX_RUN = 13


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


_NO_CORES: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {0: (0, ())}


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
