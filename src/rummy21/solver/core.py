"""The hot path of the sweep: the positions of a sweep (:func:`sweep_positions`), each suit's
moves applied to a stage there, and the close of each position.

Most of a sweep's time is spent here, and everything here works on plain values: the
packed states of :mod:`.packing` as dict keys, entries ``(balance, cost, back)`` in lists,
the move rows of :func:`.moves.sweep_moves` and the pool splits of :func:`.pools.pool_splits`
as tuples, and what a sweep reads from the hand as the tuples of a :class:`SweepPlan`. This
is the boundary of the native core (``_native.c``, chosen by :mod:`.backend`), which does all
of it in C — the move rows included, as a twin of :mod:`.moves`, the pool splits, as a twin
of :mod:`.pools` (``_native_pools.c``), and what a suit's moves at a position depend on
(:func:`place_at`) — with the same states, entries and order; this module stays its twin and
the reference the tests compare it with. Before a sweep, what it reads of the hand
(:func:`hand_plan`, which ``sweep.plan_of`` keeps per hand); after it, the groups its
back-pointers lead to (:func:`rebuild_groups`, which ``rebuild.rebuild`` makes cards of):
both in C too (``_native_sweep.c``, ``_native_rebuild.c``). The quick first pass's greedy
arrangement is the other part in C: :func:`~.greedy.greedy_arrangement`, re-exported here
(its twin, in :mod:`.greedy`, on plain ints and tuples too). The rest of the solver — which
sweeps to run, bounds, what buying cards changes in a plan, cards and groups — is Python
for both.

A *stage* maps each packed state reached so far to its *entries*: the Pareto-best
(joker balance, loose points) pairs reaching it, each with a back-pointer to the state it
came from (the packed key, the balance there, and the move or split taken), for rebuilding.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import NamedTuple

from rummy21.cards import JOKER_INDEX
from rummy21.solver.bounds import RANK_POINTS, groups_after, loose_ahead
from rummy21.solver.bounds import max_pure_groups as max_pure_groups
from rummy21.solver.greedy import greedy_arrangement as greedy_arrangement
from rummy21.solver.moves import Place, RawMove, Role, SuitMove, SweepRow, sweep_moves
from rummy21.solver.packing import (
    AT_BOUGHT,
    AT_OWED,
    AT_POOL,
    AT_POOLS,
    AT_PURE,
    AT_SUIT,
    BOUGHT_MASK,
    EXTENDS,
    LAYER_BITS,
    OWED_MASK,
    PURE_MASK,
    PURITY,
    SUIT_MASK,
    forget_purity_of,
)
from rummy21.solver.pools import NO_SETS, PoolSplit, SetOf, pool_splits
from rummy21.solver.runs import (
    EMPTY,
    IMPURE_OF,
    NEXT_CLASSES,
    OPEN_PURE,
    P1,
    PHASE_AT,
    RUN_CLASSES,
    Phase,
)


class Start(NamedTuple):
    """The back-pointer of a state before the first position: how it began."""

    tunnelas: int
    """Tunnelas of printed jokers."""
    bought_groups: int
    """Pure groups of three bought cards (see :func:`~rummy21.solver.replacements`)."""


Back = tuple[int, int, RawMove] | tuple[int, int, PoolSplit] | Start
"""A back-pointer: (the packed state before, its balance, the suit move or pool split)."""
Entry = tuple[int, int, Back]
"""(joker balance, loose points, back-pointer): built in the innermost loop, where a named
tuple would cost several times more to build; always read by unpacking."""
Stage = dict[int, list[Entry]]
"""Packed states and their entries."""


SuitTableRow = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
    tuple[bool, ...],
    tuple[int, ...],
]
""":func:`suit_table`'s answer: at, line, reach, pure_ok, near, groups_after."""


def stage_from(layer: dict[int, list[Entry]]) -> Stage:
    """A stage holding ``layer``'s states (the first layer, built entry by entry with
    :func:`insert`)."""
    return layer


def marked(layer: Stage, need: int) -> Stage:
    """A layer's states as the first stage of a position: those with fewer than ``need`` pure
    groups flagged (:data:`~.packing.PURITY`: purity still matters)."""
    return {
        key | PURITY if key >> AT_PURE & PURE_MASK < need else key: entries
        for key, entries in layer.items()
    }


def back_of(stage: Stage, key: int, balance: int) -> Back:
    """The back-pointer of ``key``'s entry with joker balance ``balance`` (rebuilding follows
    them); :class:`LookupError` if there is none."""
    for b, _, back in stage[key]:
        if b == balance:
            return back
    raise LookupError(f"no entry with balance {balance} at state {key:#x}")


def idle(stage: Stage, at_suit: int) -> bool:
    """Whether no state of ``stage`` has an open run in the suit at ``at_suit``."""
    return all(pkey >> at_suit & SUIT_MASK == EMPTY for pkey in stage)


def insert(entries: list[Entry], balance: int, cost: int, back: Back, exact: bool) -> None:
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
        entries[:] = [(b, c, e) for b, c, e in entries if not (balance <= b and cost <= c)]
    entries.append((balance, cost, back))


class SuitStep(NamedTuple):
    """One suit at one position of a sweep (see :func:`suit_step`)."""

    at_suit: int
    """Where the suit's state lies in a packed state."""
    at_pool: int
    """Where the copies it sends to the pool go."""
    place: Place
    """What its moves depend on (see :func:`~.moves.sweep_moves`)."""
    slack: int
    """Joker cards still to come: from the suits after it here, and after this position."""
    ahead: int
    """Points sure to be left loose after this position (see ``bounds.loose_ahead``)."""
    bound: int
    """The most loose points looked for."""
    replace: bool
    """Loose cards are replaced and so supply jokers (at most ``bound - cost`` more)."""
    exact: bool
    """Every balance counts (Option A)."""


def suit_step(stage: Stage, step: SuitStep) -> Stage:
    """The stage after one suit plays at this position, from every state of ``stage``.

    Equal partial states merge at once (a product of the four suits' moves per state would
    repeat the same work many times over). A move is dropped for an entry that would owe
    more jokers than can still come, or leave more points loose than the bound allows.
    """
    at_suit, at_pool, place = step.at_suit, step.at_pool, step.place
    slack, ahead, bound = step.slack, step.ahead, step.bound
    replace, exact = step.replace, step.exact
    out: Stage = {}
    # The moves of this suit here, by whether purity matters and by its state.
    known: tuple[dict[int, tuple[SweepRow, ...]], dict[int, tuple[SweepRow, ...]]] = ({}, {})
    for pkey, entries in stage.items():
        here = pkey >> at_suit & SUIT_MASK
        purity = bool(pkey & PURITY)
        rows = known[purity].get(here)
        if rows is None:
            rows = known[purity][here] = sweep_moves(here, purity, place)
        for change, pool, adds, extends, jokers, owed, loose, move in rows:
            new_pkey = -1  # worked out once an entry can take the move
            target = None
            for balance, cost, _ in entries:
                total = balance + jokers + owed
                cost += loose
                # Replaced cards supply jokers too: at most ``bound - cost`` more.
                if total > (slack if not replace else slack + bound - cost):
                    continue
                if loose and cost + ahead > bound:
                    continue
                if new_pkey < 0:
                    new_pkey = pkey + (change << at_suit) + (pool << at_pool) + adds | extends
                    target = out.get(new_pkey)
                if target is None:
                    target = out[new_pkey] = [(total, cost, (pkey, balance, move))]
                elif len(target) == 1 and not exact:
                    # insert's usual case, inlined (the hottest line of a solve)
                    b, c, _ = target[0]
                    if b <= total and c <= cost:
                        continue
                    if total <= b and cost <= c:
                        target[0] = (total, cost, (pkey, balance, move))
                    else:
                        target.append((total, cost, (pkey, balance, move)))
                else:
                    insert(target, total, cost, (pkey, balance, move), exact)
    if replace and place.buy:  # (where no suit buys, seldom worth its look-ups)
        drop_dearer_bought(out, exact)
    return out


def drop_dearer_bought(stage: Stage, exact: bool) -> None:
    """Drop each entry of ``stage`` beaten by an entry of the same state with fewer cards
    bought; states left with no entry go (the others keep their order).

    When replacing (``Variant.REPLACE``), fewer cards bought is never worse: what is still to
    buy is only capped (``Closing.spend``; the pure groups the cards after could form, by
    cards bought, ``Closing.pure_left``, never grow with more bought), and an arrangement
    needs ``max(loose, bought)`` replacements. So an entry of the same state with fewer bought,
    no more loose cards and no higher balance (with ``exact``, the same balance) can go on as
    this one would, to an arrangement as good. The fewest replacements found stay the same;
    of several arrangements as good, another may be found. Checked against every state with
    fewer bought (an entry dropped from one of those is beaten by one with fewer still), the
    outcome does not depend on the order the states are read in. The sweep does it at the
    close of each position, and after each suit that may buy cards there.
    """
    dropped = []
    for key, entries in stage.items():
        bought = key >> AT_BOUGHT & BOUGHT_MASK
        if not bought:
            continue
        cheaper = [
            better
            for fewer in range(1, bought + 1)
            for better in stage.get(key - (fewer << AT_BOUGHT), ())
        ]
        if not cheaper:
            continue
        kept = [
            entry
            for entry in entries
            if not any(
                (b == entry[0] if exact else b <= entry[0]) and c <= entry[1] for b, c, _ in cheaper
            )
        ]
        if len(kept) < len(entries):
            entries[:] = kept
            if not kept:
                dropped.append(key)
    for key in dropped:
        del stage[key]


class Closing(NamedTuple):
    """The close of one position of a sweep (see :func:`close_position`)."""

    need: int
    """Pure groups the rules need."""
    spend: int
    """The most cards bought or put aside."""
    pure_left: Sequence[int]
    """By cards bought so far: the most pure groups the cards after this position could
    still form (buying what is left to buy)."""
    setless: bool
    """No set can form at this rank: the pool was counted loose by the suits' moves."""
    jokerish: tuple[bool, ...]
    """The suits whose copies here are joker cards."""
    points: int
    """Of a loose card of this rank."""
    max_set: int
    limit: int
    """Joker cards still to come after this position."""
    ahead: int
    """Points sure to be left loose after this position."""
    bound: int
    replace: bool
    aside: bool
    """Exactly one card is put aside: here, maybe a loose card of the pool."""
    exact: bool


def close_position(stage: Stage, closing: Closing) -> Stage:
    """The next layer: each state of the last stage with its pool split into sets and loose
    cards, the pure groups capped at the number needed (purity then forgotten), and the
    states that can no longer reach enough pure groups, or owe more jokers than can come,
    dropped."""
    need, spend, pure_left = closing.need, closing.spend, closing.pure_left
    points, limit, ahead, bound = closing.points, closing.limit, closing.ahead, closing.bound
    replace, aside, exact = closing.replace, closing.aside, closing.exact
    out: Stage = {}
    splits_of: dict[int, tuple[PoolSplit, ...]] = {}  # by the pool's bits
    for pkey, entries in stage.items():
        bought = pkey >> AT_BOUGHT & BOUGHT_MASK
        if bought > spend:
            continue
        pure = pkey >> AT_PURE & PURE_MASK
        owed = pkey >> AT_OWED & OWED_MASK
        ext = pkey & EXTENDS
        new_key = pkey & LAYER_BITS
        if pure > need:
            new_key -= (pure - need) << AT_PURE
            pure = need
        elif (
            pure < need
            and pure
            + pure_left[bought]
            + OPEN_PURE[pkey & 255]
            + OPEN_PURE[pkey >> _AT_SUIT1 & 255]
            + OPEN_PURE[pkey >> _AT_SUIT2 & 255]
            + OPEN_PURE[pkey >> _AT_SUIT3 & 255]
            < need
        ):
            continue  # it cannot reach enough pure groups (with its open pure runs)
        if pkey & PURITY and pure >= need:
            new_key = forget_purity_of(new_key)
        pool = pkey >> AT_POOLS & 255  # the four 2-bit pool fields
        splits = _SETLESS if closing.setless else splits_of.get(pool)
        if splits is None:
            splits = splits_of[pool] = pool_splits(
                (pool & 3, pool >> 2 & 3, pool >> 4 & 3, pool >> 6 & 3),
                closing.jokerish,
                points,
                closing.max_set,
                replace,
            )
        target = None
        for balance, loose, _ in entries:
            base = balance - owed  # owed was carried for pruning only
            for split in splits:
                total = base + split.jokers
                cost = loose + split.loose_points
                if replace:
                    total -= split.loose_points  # one point per loose card
                    if total + owed > limit + bound - cost:
                        continue
                elif total + owed > limit:
                    continue
                if (split.extension or ext) and not exact:
                    continue
                if aside and not bought and split.loose_points and cost - points + ahead <= bound:
                    # One of its loose cards may be the card put aside.
                    insert(
                        out.setdefault(new_key | 1 << AT_BOUGHT, []),
                        total,
                        cost - points,
                        (pkey, balance, split),
                        exact,
                    )
                if cost + ahead > bound:
                    continue
                if target is None:
                    target = out.get(new_key)
                    if target is None:
                        target = out[new_key] = [(total, cost, (pkey, balance, split))]
                        continue
                insert(target, total, cost, (pkey, balance, split), exact)
    out = {key: entries for key, entries in out.items() if entries}
    if replace:
        drop_dearer_bought(out, exact)
    return out


_SETLESS = (NO_SETS,)
_AT_SUIT1, _AT_SUIT2, _AT_SUIT3 = AT_SUIT[1:]


class SweepPlan(NamedTuple):
    """What a sweep's positions read from the hand and the sweep's spec, worked out once per
    sweep (``sweep.plan_of``): plain values and tuples; tables of four are by suit, then by
    position 0..15 (``at``: 0..16)."""

    need: int
    """Pure groups the rules need."""
    spend: int
    """The most cards bought or put aside."""
    bound: int
    max_set: int
    padding: int
    """The most jokers beyond the ones it needs a short run may take when it ends."""
    exact: bool
    replace: bool
    buy: bool
    """Cards may be bought as themselves (``Variant.REPLACE_BUYING``)."""
    aside: bool
    joker_groups: bool
    mask: tuple[bool, ...]
    """Which of the 52 kinds (suit by suit, Ace first) are joker cards."""
    rank_points: tuple[int, ...]
    """The points of a loose card, by rank (Ace first)."""
    supply_after: tuple[int, ...]
    """Joker cards still to come after each position."""
    ahead: tuple[int, ...]
    """Points sure to be left loose after each position (17)."""
    pure_left: tuple[tuple[int, ...], ...]
    """By position, then by cards bought so far (``spend + 1``): the most pure groups the
    cards after the position could still form."""
    at: tuple[tuple[int, ...], ...]
    """Copies by place (``sweep.SuitTable.at``)."""
    near: tuple[tuple[bool, ...], ...]
    """Whether a card may be bought there (only read when buying)."""
    reach: tuple[tuple[int, ...], ...]
    """How far up the suit's next card lies (see ``moves.Play.reach``)."""
    pure_ok: tuple[tuple[bool, ...], ...]
    """Whether a joker card there could sit in a pure run of three."""
    bought_starts: tuple[tuple[bool, ...], ...]
    """Whether a pure run may begin with a card bought there (``bounds.bought_may_start``;
    all true when not buying)."""


def suit_table(ranks: Sequence[int]) -> SuitTableRow:
    """What a sweep reads of one suit holding ``ranks`` (copies of A..K), by position: the
    fields of ``sweep.SuitTable`` (which says what each one is), as plain tuples.

    >>> at, line, reach, pure_ok, near, groups = suit_table((1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1))
    >>> line[11:15], groups[0], reach[:3], pure_ok[1], near[5]
    ((1, 1, 1, 1), 1, (1, 4, 4), True, False)
    """
    at = (0, *ranks, 0, 0, 0)  # (ranks: a suit's 13 counts, 0..3 each)
    line = (*at[:14], at[1], 0, 0)
    padded = line + (0, 0)  # (places past 14 hold nothing)
    reach = tuple(
        1 if padded[p + 1] else 2 if padded[p + 2] else 3 if padded[p + 3] else 4 for p in range(16)
    )
    # Whether a card at a position could sit in a pure run of three (naturals around it);
    # Aces, all decided at position 1, may also end Q-K-A.
    held = [bool(n) for n in line]
    pure_ok = tuple(
        (3 <= p <= 14 and held[p - 2] and held[p - 1])
        or (2 <= p <= 13 and held[p - 1] and held[p + 1])
        or (1 <= p <= 12 and held[p + 1] and held[p + 2])
        or (p == 1 and held[12] and held[13])
        for p in range(16)
    )
    # Where a card may be bought (``replace``): within two places of a card of the suit held.
    # A pure group of bought cards only costs three wherever it is (it is looked for as a
    # tunnela of a kind nobody holds, at the start); a bought card further from the held
    # ones splits off with its neighbours into such a group at no cost.
    near = tuple(
        (1 <= p <= 13 and any(held[max(1, p - 2) : min(14, p + 2) + 1]))
        or (p in (12, 13) and held[1])
        for p in range(16)
    )
    # The most pure groups the cards after each position could still form (an Ace counts at
    # both ends; printed-joker tunnelas were settled at the start).
    return at, line, reach, pure_ok, near, tuple(groups_after(line))


ONE_POINT = (1,) * 13
"""Every card worth one point: the loose cards of :func:`~rummy21.solver.replacements`."""
_ALL_TRUE = (True,) * 16


def hand_plan(
    counts: Sequence[int],
    mask: Sequence[bool],
    need: int,
    joker_groups: bool,
    max_set: int,
    replace: bool,
    aside: bool,
    bound: int,
) -> SweepPlan:
    """What a sweep reads of the hand (``sweep.plan_of``), as if no card were bought (the
    sweep adds what buying changes), without Option A: ``bound`` is read only with
    ``replace``, ``aside``: one card is put aside."""
    rank_points = ONE_POINT if replace else RANK_POINTS
    # The cards bought (``replace``) or put aside (``aside``: exactly one) at most.
    spend = bound if replace else 1 if aside else 0
    # Joker cards still to come after each position (Aces are all decided at position 1).
    joker_cards = [n if joker else 0 for n, joker in zip(counts, mask, strict=True)]
    supply_after = [0] * 16
    for p in range(13, 1, -1):
        supply_after[p - 1] = (
            supply_after[p]
            + joker_cards[p - 1]
            + joker_cards[13 + p - 1]
            + joker_cards[26 + p - 1]
            + joker_cards[39 + p - 1]
        )
    tables = [_suit_table_of(tuple(counts[s * 13 : s * 13 + 13])) for s in range(4)]
    at, _, reaches, pure_oks, nears, groups = zip(*tables, strict=True)
    # At position 1: whether keeping an Ace for a run ending at Ace-high can help — only
    # if a natural card of the suit lies within joker reach of the King, and no lower
    # than the Ten: in a high run whose Ace is d >= 4 places above the nearest natural
    # (d - 1 jokers between), the Ace can go low with two of those jokers (A-?-?) and
    # the rest still makes a run, unless d == 4 and that natural is alone (10-?-?-?-A).
    most_jokers = counts[JOKER_INDEX] + sum(joker_cards[:JOKER_INDEX])
    lowest = 10 if replace else max(10, 13 - most_jokers)
    reach = tuple(
        (r[0], 1 if any(a[lowest:14]) else 4, *r[2:]) for a, r in zip(at, reaches, strict=True)
    )
    ahead = [0] * 17 if replace else loose_ahead(counts, mask, rank_points, 1 if aside else 0)
    # The most pure groups the cards after each position could still form.
    pure_left = tuple((a + b + c + d,) * (spend + 1) for a, b, c, d in zip(*groups, strict=True))
    return SweepPlan(
        need,
        spend,
        bound,
        max_set,
        0,
        False,
        replace,
        False,
        aside,
        joker_groups,
        tuple(mask[:JOKER_INDEX]),
        rank_points,
        tuple(supply_after),
        tuple(ahead),
        pure_left,
        at,
        nears,
        reach,
        (_ALL_TRUE,) * 4 if replace else pure_oks,
        (_ALL_TRUE,) * 4,
    )


@lru_cache(maxsize=1 << 14)
def _suit_table_of(ranks: tuple[int, ...]) -> SuitTableRow:
    """:func:`suit_table`, kept (hands share suits)."""
    return suit_table(ranks)


def sweep_positions(layer: Stage, plan: SweepPlan) -> tuple[list[list[Stage | None]], list[Stage]]:
    """The 15 positions of a sweep from its first ``layer``: for each position its stages
    (the first from the layer, then one per suit: ``None`` where the suit had nothing to do)
    and the next layer."""
    stages: list[list[Stage | None]] = []
    layers: list[Stage] = []
    for p in range(1, 16):
        here, layer = _position(plan, p, layer)
        stages.append(here)
        layers.append(layer)
    return stages, layers


def _position(plan: SweepPlan, p: int, layer: Stage) -> tuple[list[Stage | None], Stage]:
    """The stages of position ``p`` (the first from ``layer``), and the next layer."""
    rank = p if p <= 13 else 1
    copies = [plan.at[s][p] for s in range(4)]
    jokerish = tuple(plan.mask[s * 13 + rank - 1] for s in range(4))
    points = 0 if p > 13 else plan.rank_points[rank - 1]
    limit = plan.supply_after[p]
    stage = marked(layer, plan.need)
    stages: list[Stage | None] = [stage]
    # With cards of fewer than two suits here no set can form: the pool is loose at once
    # (and a joker card, which may go to the pool only to sit in a set, may not).
    setless = sum(1 for n in copies if n) < 2 and not plan.aside
    for s in range(4):
        if not copies[s] and not (plan.buy and plan.near[s][p]) and idle(stage, AT_SUIT[s]):
            stages.append(None)  # this suit has nothing to do here
            continue
        # Joker cards the suits after this one could still supply at this position.
        slack = limit + sum(copies[t] for t in range(s + 1, 4) if jokerish[t])
        place = place_at(plan, p, s, jokerish[s], points if setless else None)
        stage = suit_step(
            stage,
            SuitStep(
                AT_SUIT[s],
                AT_POOL[s],
                place,
                slack,
                plan.ahead[p],
                plan.bound,
                plan.replace,
                plan.exact,
            ),
        )
        stages.append(stage)
    return stages, close_position(
        stage,
        Closing(
            plan.need,
            plan.spend,
            plan.pure_left[p],
            setless,
            jokerish,
            points,
            plan.max_set,
            limit,
            plan.ahead[p],
            plan.bound,
            plan.replace,
            plan.aside,
            plan.exact,
        ),
    )


def place_at(plan: SweepPlan, p: int, s: int, jokers: bool, setless: int | None) -> Place:
    """What suit ``s``'s moves at position ``p`` depend on (``jokers``: its copies here are
    joker cards; ``setless``: the points of a loose card where no set can form here)."""
    at = plan.at[s]
    copies = at[p]
    if not jokers:
        roles = _NATURAL
    elif not plan.joker_groups:
        roles = _EITHER
    else:
        roles = _PURE_ONLY if plan.pure_ok[s][p] else _TUNNELA_ONLY
    return Place(
        copies,
        roles,
        PHASE_AT[p],
        plan.reach[s][p],
        plan.padding,
        plan.exact,
        at[p + 1] if p != 13 else -1,
        at[p + 2] if p not in (12, 15) else -1,
        None if setless is None else -1 if jokers else setless,
        3 - copies if plan.buy and plan.near[s][p] else 0,
        plan.replace,
        plan.aside,
        plan.bought_starts[s][p],
    )


# The roles of a suit's copies (when purity no longer matters, when it does).
_NATURAL = (Role.NATURAL, Role.NATURAL)
_EITHER = (Role.EITHER, Role.EITHER)
_PURE_ONLY = (Role.JOKER_ONLY, Role.PURE_ONLY)
_TUNNELA_ONLY = (Role.JOKER_ONLY, Role.TUNNELA_ONLY)


PURE_RUN, IMPURE_RUN, SET, TUNNELA = range(4)
"""The kinds of group :func:`rebuild_groups` finds, as numbers."""
RebuiltGroup = tuple[int, tuple[int, ...]]
"""A group found by :func:`rebuild_groups`: its kind and its cards by index (-1: a joker's
place, filled later)."""


def rebuild_groups(
    layers: Sequence[Stage],
    stages: Sequence[Sequence[Stage | None]],
    key: int,
    balance: int,
    need: int,
) -> tuple[Start, list[RebuiltGroup], list[int], list[int]]:
    """The groups of the arrangement a sweep (its ``layers`` and ``stages``) reached at the
    final state ``key`` with joker balance ``balance``: follow the back-pointers to the first
    layer, then replay the moves with concrete runs of cards (``rebuild.rebuild`` makes cards
    of them). Answers (how the first layer began, the groups in the order they formed, the
    loose cards, the cards played as jokers in the order they came).

    Printed jokers are not here: the :class:`Start` says how many form tunnelas.
    """
    path: list[tuple[list[RawMove | None], PoolSplit, bool]] = []
    for p in range(len(layers) - 1, 0, -1):
        forgot = key >> AT_PURE & PURE_MASK >= need
        back = back_of(layers[p], key, balance)
        assert not isinstance(back, Start)
        pkey, balance, split = back
        assert isinstance(split, PoolSplit)
        moves: list[RawMove | None] = []
        for stage in reversed(stages[p - 1][1:]):
            if stage is None:  # the suit had nothing to do
                moves.append(None)
                continue
            back = back_of(stage, pkey, balance)
            assert not isinstance(back, Start)
            pkey, balance, move = back
            assert not isinstance(move, PoolSplit)
            moves.append(move)
        key = pkey & LAYER_BITS
        moves.reverse()
        path.append((moves, split, forgot))
    start = back_of(layers[0], key, balance)
    assert isinstance(start, Start)
    path.reverse()
    groups: list[RebuiltGroup] = []
    loose: list[int] = []
    spare: list[int] = []
    runs: list[list[list[list[int]]]] = [[[] for _ in RUN_CLASSES] for _ in range(4)]
    for p, (moves, split, forgot) in enumerate(path, start=1):
        rank = p if p <= 13 else 1
        for s, raw in enumerate(moves):
            if raw is not None:
                move, card = SuitMove._make(raw), s * 13 + rank - 1
                runs[s] = _replay(runs[s], move, card, PHASE_AT[p], forgot, groups)
                if move.tunnela:
                    groups.append((TUNNELA, (card,) * 3))
                spare.extend([card] * move.as_jokers)
        if split is NO_SETS:  # the moves counted the pool loose
            for s, raw in enumerate(moves):
                if raw is not None:
                    loose.extend([s * 13 + rank - 1] * SuitMove._make(raw).pool)
        else:
            for a_set in split.sets:
                members = tuple(s * 13 + rank - 1 for s in a_set.suits) + (-1,) * a_set.jokers
                groups.append((SET, members))
            for s, n in enumerate(split.loose):
                loose.extend([s * 13 + rank - 1] * n)
    return start, groups, loose, spare


def _replay(
    classes: list[list[list[int]]],
    move: SuitMove,
    card: int,
    phase: Phase,
    forgot_purity: bool,
    groups: list[RebuiltGroup],
) -> list[list[list[int]]]:
    """One suit's open runs by class after ``move`` at a position holding ``card``; the runs
    that end go to ``groups``."""
    moved: list[list[list[int]]] = [[] for _ in RUN_CLASSES]
    extra = move.extra_padding
    by_joker, by_natural = NEXT_CLASSES[phase]
    for k, (naturals, jokers, ends) in enumerate(move.moves):
        runs = classes[k]
        for _ in range(naturals):
            run = runs.pop()
            run.append(card)
            moved[by_natural[k]].append(run)
        for _ in range(jokers):
            run = runs.pop()
            run.append(-1)
            moved[by_joker[k]].append(run)
        for _ in range(ends):
            run = runs.pop()
            if len(run) < 3:
                run.extend([-1] * (3 - len(run) + extra))
                extra = 0
            groups.append((IMPURE_RUN if -1 in run else PURE_RUN, tuple(run)))
    if forgot_purity:  # the sweep forgot purity here: so do we
        for pure, impure in IMPURE_OF.items():
            moved[impure].extend(moved[pure])
            moved[pure] = []
    moved[P1].extend([card] for _ in range(move.new_runs))
    # Purity is re-derived from the cards, so classes only need to stay distinct.
    return moved


def configure_native(native: ModuleType) -> None:
    """Tell the native core the Python classes it makes its answers of (the pool splits, which
    it works out as :func:`.pools.pool_splits` does), so that each stays defined once, in
    :mod:`.pools`. Everything else it knows of the rules and of this module's layout it was
    compiled with, from the Python definitions (:mod:`._native_tables`)."""
    native.configure(pool_split=PoolSplit, set_of=SetOf, setless=_SETLESS)
