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
    bought_may_start,
    line_after,
    pure_within,
)
from rummy21.solver.core import Stage, Start, SweepPlan, insert
from rummy21.solver.packing import MOST_BOUGHT, pack, unpack
from rummy21.solver.runs import EMPTY


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
    """The hand's count vector (:attr:`rummy21.cards.Hand.counts`)."""
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
    without Option A: the core in use works it out (:func:`~.core.hand_plan`, or its twin
    in C), as if no card were bought; buying changes two tables, worked out here."""
    replace, buy = variant.replaces, variant is Variant.REPLACE_BUYING
    plan = SweepPlan._make(
        backend.current().hand_plan(
            counts, mask, need, joker_groups, max_set, replace, variant is Variant.PUT_ASIDE, bound
        )
    )
    if not buy:
        return plan
    tables = [suit_table(counts[s * 13 : s * 13 + 13]) for s in range(4)]
    # The most pure groups the cards after each position could still form, by what is left
    # to buy (at most the bound).
    pure_bought = [
        pure_within([line_after(t.at, p) for t in tables], bound, need) for p in range(16)
    ]
    return plan._replace(
        buy=True,
        pure_left=tuple(
            tuple(pure_bought[p][bound - b] for b in range(plan.spend + 1)) for p in range(16)
        ),
        bought_starts=tuple(
            tuple(bought_may_start(t.line, p, bound) for p in range(16)) for t in tables
        ),
    )
