"""What one suit does at one position: its moves, and the moves as the sweep adds them."""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from rummy21.solver.packing import _AT_BOUGHT, _AT_OWED, _AT_PURE, _EXTENDS, _STATE_OF, _intern
from rummy21.solver.runs import (CLOSE, FIRST, HIGH, I2, I3, LAST, LI3, LOWMARK, LP3, P1, P2, P3, _EMPTY,
                                 _LOW, _NEXT_J, _NEXT_N, _PAD, _PURE_END, _RUN_CLASSES, _canonical)


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
