"""The sweep: what one sweep looks for (:class:`SweepSpec`), what it precomputes from the hand
(:func:`plan_of`), and its run over the positions in one call to the core
(:func:`~.core.sweep_positions`), keeping every stage for rebuilding (:func:`sweep`).

A layer holds the states between two positions; within a position the four suits move one
after the other (:func:`~.core.suit_step`), then the position closes (the pools split into
sets, :func:`~.core.close_position`). The first layer holds the printed-joker tunnelas and,
when cards may be bought, pure groups of three bought cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from types import ModuleType
from typing import NamedTuple

from rummy21.cards import JOKER_INDEX, check_counts
from rummy21.groups import MAX_SEQUENCE
from rummy21.ruleset import RuleSet
from rummy21.solver import backend
from rummy21.solver.bounds import (
    RANK_POINTS,
    bought_may_start,
    line_after,
    loose_ahead,
    pure_within,
)
from rummy21.solver.core import Stage, Start, SweepPlan, insert
from rummy21.solver.packing import MOST_BOUGHT, pack, unpack
from rummy21.solver.runs import EMPTY

ONE_POINT = (1,) * 13
"""Every card worth one point: the loose cards of :func:`~rummy21.solver.replacements`."""


class Variant(Enum):
    """What a sweep looks for."""

    PURE_SAVE = "pure save"
    """The least points outside groups with enough pure groups (and Option A)."""
    PUT_ASIDE = "put aside"
    """The same with exactly one card put aside at no cost: a loose one, or a joker card
    (:func:`~rummy21.solver.least_after_put_aside`; no rebuilding then)."""
    REPLACE = "replace"
    """The fewest cards to replace for Option A: every card worth one point, each loose card
    replaced and so supplying a joker (:func:`~rummy21.solver.replacements`)."""
    REPLACE_BUYING = "replace, buying"
    """:attr:`REPLACE`, where a card a pure run or tunnela lacks may also be bought as itself."""

    @property
    def replaces(self) -> bool:
        return self in (Variant.REPLACE, Variant.REPLACE_BUYING)


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """One sweep of one hand."""

    counts: Sequence[int]
    """The hand's count vector (see :func:`rummy21.cards.counts_of`)."""
    mask: tuple[bool, ...]
    """Which kinds are joker cards (:attr:`rummy21.jokers.Jokers.joker_mask`)."""
    rules: RuleSet
    bound: int
    """The most loose points looked for (with :attr:`Variant.REPLACE`: replacements)."""
    exact: bool = False
    """Option A: every spare joker must be placed, so each joker balance counts on its own,
    and moves that only place spare jokers are tried."""
    variant: Variant = Variant.PURE_SAVE

    def __post_init__(self) -> None:
        check_counts(self.counts, self.rules.printed_jokers)
        if self.variant.replaces and self.bound > MOST_BOUGHT:
            raise ValueError(f"at most {MOST_BOUGHT} replacements are looked for")


class Final(NamedTuple):
    """A state of the last layer with enough pure groups, and one of its entries."""

    cost: int
    """Loose points (with :attr:`Variant.REPLACE`: loose cards)."""
    balance: int
    """Jokers demanded minus joker cards supplied: 0 or less for a valid arrangement (less:
    spare jokers)."""
    bought: int
    """Cards bought or put aside."""
    key: int
    """The packed state (see :func:`~rummy21.solver.rebuild.rebuild`)."""

    def places_jokers(self, rules: RuleSet) -> bool:
        """Whether the arrangement has every joker in a group (as Option A needs): none
        spare, or three or more spare forming a joker group."""
        return self.balance == 0 or (self.balance <= -3 and rules.joker_groups)


@dataclass(slots=True)
class Sweep:
    """A sweep run: its layers (between positions) and stages (after each suit within a
    position, ``None`` where the suit had nothing to do), all kept for rebuilding."""

    spec: SweepSpec
    core: ModuleType
    """The core that ran it (:mod:`.core` or its native twin): its stages, its lookups."""
    layers: list[Stage] = field(default_factory=list)
    stages: list[list[Stage | None]] = field(default_factory=list)

    def finals(self) -> list[Final]:
        """The complete arrangements found (every entry with enough pure groups), in the
        order the sweep reached them."""
        need = self.spec.rules.pure_groups_needed
        out: list[Final] = []
        for key, entries in self.layers[-1].items():
            layer = unpack(key)
            if layer.pure >= need:
                out.extend(Final(cost, balance, layer.bought, key) for balance, cost, _ in entries)
        return out


class SuitTable(NamedTuple):
    """What a sweep precomputes for one suit, by position 0..16."""

    at: tuple[int, ...]
    """Copies (0 past the King; Aces high come from the state)."""
    line: tuple[int, ...]
    """Copies with the Aces again at 14."""
    reach: tuple[int, ...]
    """How far up the next card lies (4: not within three)."""
    pure_ok: tuple[bool, ...]
    """Whether a card could sit in a pure run of three."""
    near: tuple[bool, ...]
    """Whether a card may be bought there."""
    groups_after: tuple[int, ...]
    """The most pure groups the cards after it could still form."""


@lru_cache(maxsize=1 << 14)
def suit_table(ranks: tuple[int, ...]) -> SuitTable:
    """The :class:`SuitTable` of a suit holding ``ranks`` (copies of A..K), worked out by the
    core in use (:func:`~.core.suit_table`, or its twin in C)."""
    return SuitTable(*backend.current().suit_table(ranks))


def sweep(spec: SweepSpec) -> Sweep:
    """Run one sweep over the 15 positions (:func:`~.core.sweep_positions`, in the core in
    use)."""
    core = backend.current()
    first = core.stage_from(_first_layer(spec))
    stages, layers = core.sweep_positions(first, plan_of(spec))
    return Sweep(spec, core, [first, *layers], stages)


def _first_layer(spec: SweepSpec) -> Stage:
    """The states before the first position: printed jokers in tunnelas or spare, and with
    :attr:`Variant.REPLACE_BUYING` pure groups of three bought cards (see ``near`` in
    :func:`suit_table`); with :attr:`Variant.PUT_ASIDE`, maybe a printed joker put aside."""
    need = spec.rules.pure_groups_needed
    printed = spec.counts[JOKER_INDEX]
    buying = spec.variant is Variant.REPLACE_BUYING
    layer: Stage = {}
    for tunnelas in range(printed // 3 + 1):
        for bought in range(need + 1 if buying else 1):
            key = pack((EMPTY,) * 4, min(tunnelas + bought, need), 3 * bought)
            insert(
                layer.setdefault(key, []),
                -(printed - 3 * tunnelas) + 3 * bought,
                0,
                Start(tunnelas, bought),
                spec.exact,
            )
        if spec.variant is Variant.PUT_ASIDE and printed - 3 * tunnelas > 0:
            key = pack((EMPTY,) * 4, min(tunnelas, need), 1)
            insert(
                layer.setdefault(key, []),
                -(printed - 3 * tunnelas - 1),
                0,
                Start(tunnelas, 0),
                spec.exact,
            )
    return layer


def plan_of(spec: SweepSpec) -> SweepPlan:
    """What the sweep of ``spec`` reads at its positions, as the core takes it: the hand's
    tables (kept for the hand's next sweeps), with the spec's bound and Option A."""
    rules, variant = spec.rules, spec.variant
    hand = _hand_plan(
        tuple(spec.counts),
        tuple(spec.mask),
        rules.pure_groups_needed,
        rules.joker_groups,
        rules.max_set_size,
        variant,
        spec.bound if variant.replaces else 0,
    )
    # Option A may need a short run to take spare jokers at its front: at most two when
    # three spare jokers could form a joker group, else up to a 13-card run.
    padding = (2 if rules.joker_groups else MAX_SEQUENCE - 3) if spec.exact else 0
    return hand._replace(bound=spec.bound, exact=spec.exact, padding=padding)


@lru_cache(maxsize=1 << 10)
def _hand_plan(
    counts: tuple[int, ...],
    mask: tuple[bool, ...],
    need: int,
    joker_groups: bool,
    max_set: int,
    variant: Variant,
    bound: int,
) -> SweepPlan:
    """:func:`plan_of` for a sweep of ``bound`` (read only with :attr:`Variant.REPLACE`'s),
    without Option A."""
    replace = variant.replaces
    buy = variant is Variant.REPLACE_BUYING
    aside = variant is Variant.PUT_ASIDE
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
    tables = [suit_table(counts[s * 13 : s * 13 + 13]) for s in range(4)]
    # At position 1: whether keeping an Ace for a run ending at Ace-high can help — only
    # if a natural card of the suit lies within joker reach of the King, and no lower
    # than the Ten: in a high run whose Ace is d >= 4 places above the nearest natural
    # (d - 1 jokers between), the Ace can go low with two of those jokers (A-?-?) and
    # the rest still makes a run, unless d == 4 and that natural is alone (10-?-?-?-A).
    most_jokers = counts[JOKER_INDEX] + sum(joker_cards[:JOKER_INDEX])
    lowest = 10 if replace else max(10, 13 - most_jokers)
    reach = tuple((t.reach[0], 1 if any(t.at[lowest:14]) else 4, *t.reach[2:]) for t in tables)
    ahead = [0] * 17 if replace else loose_ahead(counts, mask, rank_points, 1 if aside else 0)
    # The most pure groups the cards after each position could still form; when buying
    # cards (at most the bound), by what is left to buy.
    if buy:
        pure_bought = [
            pure_within([line_after(t.at, p) for t in tables], bound, need) for p in range(16)
        ]
        pure_left = tuple(
            tuple(pure_bought[p][bound - b] for b in range(spend + 1)) for p in range(16)
        )
    else:
        pure_left = tuple(
            (a + b + c + d,) * (spend + 1)
            for a, b, c, d in zip(*(t.groups_after for t in tables), strict=True)
        )
    return SweepPlan(
        need,
        spend,
        bound,
        max_set,
        0,
        False,
        replace,
        buy,
        aside,
        joker_groups,
        mask[:JOKER_INDEX],
        rank_points,
        tuple(supply_after),
        tuple(ahead),
        pure_left,
        tuple(t.at for t in tables),
        tuple(t.near for t in tables),
        reach,
        (_ALL_TRUE,) * 4 if replace else tuple(t.pure_ok for t in tables),
        tuple(
            tuple(bought_may_start(t.line, p, bound) for p in range(16)) if buy else _ALL_TRUE
            for t in tables
        ),
    )


_ALL_TRUE = (True,) * 16
