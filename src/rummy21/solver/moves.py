"""What one suit does at one position: every way to play its copies there given its open
runs (:func:`suit_moves`), and those moves as the sweep adds them to a packed state
(:func:`sweep_moves`). Both depend on small values only and are memoised across hands."""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from functools import cache, lru_cache
from itertools import product
from typing import NamedTuple

from rummy21.solver.packing import AT_BOUGHT, AT_OWED, AT_PURE, EXTENDS
from rummy21.solver.runs import (
    HIGH,
    I2,
    I3,
    LI3,
    LP3,
    P1,
    P2,
    P3,
    PADDING,
    PURE_END,
    RUN_CLASSES,
    SLOTS,
    Phase,
    RunClass,
    decode,
    encode,
    forget_purity,
    next_class,
)


class Role(IntEnum):
    """How the copies at a position may play.

    A joker card gains nothing by playing as itself outside a pure group when jokers may form
    groups of their own — it can stand in for itself, and a group whose natural cards are all
    jokers is a joker group — so then it plays as itself only where purity counts."""

    NATURAL = 0
    """Not joker cards."""
    EITHER = 1
    """Joker cards, when jokers may not form groups of their own: as themselves or jokers."""
    PURE_ONLY = 2
    """Joker cards: as themselves only in pure runs and tunnelas."""
    TUNNELA_ONLY = 3
    """Joker cards: as themselves only in a tunnela (no pure run of three could hold them)."""
    JOKER_ONLY = 4
    """Joker cards once purity no longer matters: jokers only."""


class RunMoves(NamedTuple):
    """What the open runs of one class do: continue with a natural card, continue with a
    joker, or end."""

    naturals: int
    jokers: int
    ends: int


NO_RUN_MOVES = ((0, 0, 0),) * 7


class SuitMove(NamedTuple):
    """One way a suit plays at one position (kept in the back-pointers, to rebuild groups)."""

    state: int
    """The suit's state after the move (see :mod:`.runs`)."""
    pool: int
    """Copies sent to the pool of the rank (sets or loose)."""
    jokers: int
    """Jokers demanded minus joker cards supplied by this move."""
    pure: int
    """Pure groups completed."""
    extends: bool
    """Lengthens a complete run with a joker that fills no gap."""
    moves: tuple[tuple[int, int, int], ...]
    """By run class, as :class:`RunMoves` reads them."""
    new_runs: int
    tunnela: bool
    reserve: int
    """Aces set aside for the Ace-high place."""
    as_jokers: int
    """Copies playing as jokers."""
    extra_padding: int = 0
    """Jokers a short run that ends takes beyond the ones it needs."""


RawMove = tuple[
    int, int, int, int, bool, tuple[tuple[int, int, int], ...], int, bool, int, int, int
]
"""A :class:`SuitMove` as a plain tuple, in its order (read it with ``SuitMove._make``). The
move tables keep tens of thousands of moves, and the sweep's back-pointers hold them: the
cycle collector stops tracking a plain tuple of numbers after its first look, never a named
one, and each collection would walk them all again (measured: a sixth more time per solve
with the collector running)."""


class Play(NamedTuple):
    """What a suit's moves at a position depend on, beside its state."""

    copies: int
    role: Role
    phase: Phase
    purity: bool
    """Purity still matters (fewer pure groups done than needed)."""
    reach: int
    """How many places up the suit's next card lies (4: none within three); at position 1,
    1 when keeping Aces for Ace-high runs can help."""
    padding: int
    """The most jokers beyond the ones it needs a short run may take when it ends."""

    @property
    def only_jokers(self) -> bool:
        """The copies can only be jokers here (outside the last places, where none are)."""
        return self.phase not in (Phase.LAST, Phase.CLOSE) and (
            self.role == Role.JOKER_ONLY or (self.role == Role.TUNNELA_ONLY and self.copies != 3)
        )


class _RunsMoved(NamedTuple):
    """The open runs' part of a move, before the copies left are played (see :func:`_grow`)."""

    runs: list[int]
    """The new state so far: the runs that continue, by class."""
    rest: int
    """Copies the runs did not take."""
    demand: int
    pure: int
    extends: bool
    moves: tuple[tuple[int, int, int], ...]
    extra: int


def _compositions(n: int, allowed: tuple[bool, bool, bool]) -> list[RunMoves]:
    out = []
    for a in range(n + 1):
        for b in range(n - a + 1):
            e = n - a - b
            if (a and not allowed[0]) or (b and not allowed[1]) or (e and not allowed[2]):
                continue
            out.append(RunMoves(a, b, e))
    return out


class _Way(NamedTuple):
    """What the runs of one class do, and what that contributes to the suit's move."""

    naturals: int
    run_class: RunClass
    moves: RunMoves
    into: list[tuple[RunClass, int]]
    """The classes the runs go to, and how many to each."""
    demand: int
    """Jokers demanded (those continuing with one, and padding for short runs that end)."""
    pure: int
    """Pure groups ended."""
    extends: bool
    short_end: bool
    """A short run ends (it may take more padding, see ``Play.padding``)."""


def _ways(state: tuple[int, ...], play: Play) -> list[list[_Way]]:
    """For each class holding runs, each way its runs can go.

    A run takes jokers only to bridge to the suit's next card, and only where that beats
    padding the run and starting a new one there (at most 4 more jokers): a run of one
    across at most three places, of two across at most two, a complete run across one.
    Any other joker lengthening a run only places spare jokers (Option A): such moves are
    marked ``extends``."""
    phase, role, reach = play.phase, play.role, play.reach
    later = reach == 1
    bridges = {P1: reach <= 3, P2: reach <= 2, I2: reach <= 2}
    choices = []
    for k in RUN_CLASSES:
        if not state[k]:
            continue
        if phase == Phase.CLOSE or (phase == Phase.LAST and k in (LP3, LI3)):
            allowed = (False, False, True)
        elif role == Role.TUNNELA_ONLY and phase != Phase.LAST:
            allowed = (False, True, True)
        elif role == Role.PURE_ONLY and phase != Phase.LAST and k in (I2, I3, LI3):
            allowed = (False, True, True)  # a joker card continues only pure runs as itself
        else:
            allowed = (True, True, True)
        ways = []
        for moves in _compositions(state[k], allowed):
            into = []
            if moves.naturals:
                into.append((next_class(k, True, phase), moves.naturals))
            if moves.jokers:
                into.append((next_class(k, False, phase), moves.jokers))
            extends = bool(moves.jokers) and (
                (k in (P3, I3, LP3, LI3) and not later) or (k in bridges and not bridges[k])
            )
            ways.append(
                _Way(
                    moves.naturals,
                    k,
                    moves,
                    into,
                    moves.jokers + PADDING.get(k, 0) * moves.ends,
                    moves.ends if k in PURE_END else 0,
                    extends,
                    bool(moves.ends) and k in (P1, P2, I2),
                )
            )
        choices.append(ways)
    return choices


@cache
def suit_moves(state: int, play: Play) -> tuple[RawMove, ...]:
    """Every way one suit can play the copies at a position, given its open runs (as plain
    tuples: see :data:`RawMove`).

    Each open run continues with a natural card, continues with a joker, or ends (see
    :func:`_ways`); the copies left start runs, make a tunnela, go to the pool of the rank or
    play as jokers (:func:`_grow`). A short run that ends may take up to ``play.padding``
    more jokers than it needs (at its front, where no later place is left): such moves are
    marked ``extends`` too.
    """
    runs = decode(state)
    copies = 0 if play.only_jokers else play.copies
    available = runs[HIGH] if play.phase == Phase.LAST else copies
    out: list[RawMove] = []
    for combo in product(*_ways(runs, play)):
        naturals = 0
        for way in combo:
            naturals += way.naturals
        if naturals > available or (play.phase == Phase.LAST and naturals != available):
            continue
        new = [0] * SLOTS
        demand = pure = 0
        extends = short_ends = False
        moves = list(NO_RUN_MOVES)
        for way in combo:
            moves[way.run_class] = (way.moves.naturals, way.moves.jokers, way.moves.ends)
            for target, n in way.into:
                new[target] += n
            demand += way.demand
            pure += way.pure
            extends = extends or way.extends
            short_ends = short_ends or way.short_end
        rest = available - naturals
        for extra in range(play.padding + 1 if short_ends else 1):
            out.extend(
                _plain_move(move)
                for move in _grow(
                    play,
                    runs[HIGH],
                    _RunsMoved(
                        new, rest, demand + extra, pure, extends or extra > 0, tuple(moves), extra
                    ),
                )
            )
    return tuple(out)


def _grow(play: Play, high: int, moved: _RunsMoved) -> Iterator[SuitMove]:
    """The ways to play the copies left once the open runs have moved (see suit_moves)."""
    role, phase, purity = play.role, play.phase, play.purity
    if phase in (Phase.LAST, Phase.CLOSE):
        state = encode(moved.runs)
        yield SuitMove(
            state if purity else forget_purity(state),
            0,
            moved.demand,
            moved.pure,
            moved.extends,
            moved.moves,
            0,
            False,
            0,
            0,
            moved.extra,
        )
        return
    fixed = play.copies if play.only_jokers else 0  # copies that can only be jokers
    copies = play.copies - fixed
    keeps_aces = (
        phase == Phase.FIRST
        and play.reach == 1
        and role in (Role.NATURAL, Role.EITHER, Role.PURE_ONLY)
    )
    for tunnela in (False, True):
        if tunnela and not (moved.rest == 3 and copies == 3):
            continue
        left = moved.rest - 3 * tunnela
        starts = 0 if role == Role.TUNNELA_ONLY else left
        for new_runs in range(starts + 1):
            keep = left - new_runs if keeps_aces else 0
            for reserve in range(keep + 1):
                free = left - new_runs - reserve
                lowest = free if role in (Role.PURE_ONLY, Role.TUNNELA_ONLY) else 0
                grown = list(moved.runs)
                grown[P1] += new_runs
                grown[HIGH] = high + reserve
                state = encode(grown)
                if not purity:
                    state = forget_purity(state)
                for as_jokers in range(lowest, free + 1 if role != Role.NATURAL else 1):
                    yield SuitMove(
                        state,
                        free - as_jokers,
                        moved.demand - as_jokers - fixed,
                        moved.pure + tunnela,
                        moved.extends,
                        moved.moves,
                        new_runs,
                        tunnela,
                        reserve,
                        as_jokers + fixed,
                        moved.extra,
                    )


def _plain_move(move: SuitMove) -> RawMove:
    return (
        move.state,
        move.pool,
        move.jokers,
        move.pure,
        move.extends,
        move.moves,
        move.new_runs,
        move.tunnela,
        move.reserve,
        move.as_jokers,
        move.extra_padding,
    )


class Place(NamedTuple):
    """What one suit's moves at one position depend on in a sweep, beside its state and
    whether purity still matters (see :func:`sweep_moves`)."""

    copies: int
    roles: tuple[Role, Role]
    """The role of the copies when purity no longer matters, and when it does."""
    phase: Phase
    reach: int
    padding: int
    exact: bool
    """Moves that only place spare jokers are kept (Option A, every balance counts)."""
    next1: int
    """Copies at the next place (-1: the Ace-high place, whose copies are the Aces set aside)."""
    next2: int
    """Copies at the place after (-1 as for ``next1``)."""
    setless: int | None
    """Where no set can form at this rank: the points of a loose pool card (-1 for joker
    cards: they may go to the pool only to sit in a set); else ``None``."""
    buy: int
    """More copies that may be bought to play as natural cards (:func:`~.replacements`)."""
    replace: bool
    """Loose cards are replaced, each supplying a joker (:func:`~.replacements`)."""
    aside: bool
    """A copy supplying a joker may be put aside instead (:func:`~.least_after_put_aside`)."""
    bought_starts: bool
    """A pure run may begin with a bought copy here (see ``bounds.bought_may_start``)."""


class SweepMove(NamedTuple):
    """A suit move as the sweep adds it to a packed state (see :mod:`.packing`).

    :func:`sweep_moves` returns these as plain tuples, in this order: the sweep's innermost
    loop unpacks them, and a plain tuple unpacks twice as fast as a named one."""

    change: int
    """Added to the suit's state number."""
    pool: int
    """Copies to the pool (0 where no set can form), at the suit's pool field."""
    step: int
    """Added to the rest of the packed state: pure groups, jokers owed, cards bought."""
    extends: int
    """``EXTENDS`` or 0."""
    jokers: int
    """Jokers demanded minus joker cards supplied (loose cards replaced supply one each)."""
    owed: int
    """Jokers the suit's short runs are sure to owe at the next two places (for pruning)."""
    loose: int
    """Points left loose."""
    move: RawMove


SweepRow = tuple[int, int, int, int, int, int, int, RawMove]
"""A :class:`SweepMove` as a plain tuple."""


@lru_cache(maxsize=1 << 16)
def sweep_moves(state: int, purity: bool, place: Place) -> tuple[SweepRow, ...]:
    """The moves of :func:`suit_moves` as the sweep adds them to a packed state.

    Each short run needs the next card or a joker, a run of one also the card after: what the
    cards cannot give is owed, for pruning only. For the distance to a declaration
    (``place.replace``), up to ``place.buy`` more copies may be bought to play as natural cards
    (each owes one replacement, like a joker), and each loose card supplies one replacement.
    With ``place.aside``, a move whose copies supply jokers may also put one of them aside (it
    then supplies one joker fewer, and counts as the card put aside).
    """
    role = place.roles[purity]
    out: list[SweepRow] = []
    for bought in range(place.buy + 1 if role != Role.JOKER_ONLY else 1):
        play = Play(place.copies + bought, role, place.phase, purity, place.reach, place.padding)
        for raw in suit_moves(state, play):
            move = SuitMove._make(raw)
            if move.extends and not place.exact:
                continue
            if (
                bought
                and move.pool
                + move.as_jokers
                + sum(RunMoves._make(move.moves[k]).naturals for k in (I2, I3, LI3))
                + (0 if place.bought_starts else move.new_runs)
                > place.copies
            ):
                continue  # a bought copy plays as itself in a pure run or tunnela, or else
                # a joker could stand where it does (and see bought_may_start)
            if bought and not purity and not move.tunnela:
                continue  # once purity no longer matters, only a tunnela needs one
            loose = 0
            if place.setless is not None and move.pool:
                if place.setless < 0:
                    continue
                loose = move.pool * place.setless
            after = decode(move.state)
            owed = 0
            short = after[P1] + after[P2] + after[I2]
            if short:
                owed = max(0, short - (place.next1 if place.next1 >= 0 else after[HIGH]))
                if after[P1]:
                    owed += max(0, after[P1] - (place.next2 if place.next2 >= 0 else after[HIGH]))
            step = move.pure << AT_PURE | owed << AT_OWED
            row = SweepMove(
                move.state - state,
                0 if place.setless is not None else move.pool,
                step | bought << AT_BOUGHT,
                EXTENDS if move.extends else 0,
                move.jokers + bought - (loose if place.replace else 0),
                owed,
                loose,
                raw,
            )
            out.append(_plain(row))
            if place.aside and move.as_jokers:
                out.append(_plain(row._replace(step=step | 1 << AT_BOUGHT, jokers=row.jokers + 1)))
    return tuple(out)


def _plain(row: SweepMove) -> SweepRow:
    return (row.change, row.pool, row.step, row.extends, row.jokers, row.owed, row.loose, row.move)
