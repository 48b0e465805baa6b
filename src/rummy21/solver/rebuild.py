"""Rebuilding an arrangement: the core in use follows a final state's back-pointers to the
first layer and replays the moves with concrete runs of cards
(:func:`~.core.rebuild_groups`, or its twin in C); here they become cards and groups.

A group is built as a list of cards where ``None`` marks a joker's place; the joker cards
(those played as jokers, and printed jokers not in tunnelas) fill those places at the end,
and what is left of them is spare: a joker group if the rules allow one, else loose.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card, sorted_cards
from rummy21.groups import GroupKind
from rummy21.ruleset import RuleSet
from rummy21.solver import core
from rummy21.solver.results import Arrangement, meld_of
from rummy21.solver.sweep import Final, Sweep

Slot = Card | None
"""A card of a group being built, or ``None``: a joker's place, filled at the end."""

# Group kinds, read once: an enum member costs a slow class-attribute look-up each time.
_PURE_SEQUENCE, _IMPURE_SEQUENCE = GroupKind.PURE_SEQUENCE, GroupKind.IMPURE_SEQUENCE
_SET, _TUNNELA, _JOKER_GROUP = GroupKind.SET, GroupKind.TUNNELA, GroupKind.JOKER_GROUP
_KINDS = {
    core.PURE_RUN: _PURE_SEQUENCE,
    core.IMPURE_RUN: _IMPURE_SEQUENCE,
    core.SET: _SET,
    core.TUNNELA: _TUNNELA,
}
"""The kinds of :func:`~.core.rebuild_groups`' groups."""


class Rebuilt(NamedTuple):
    """An arrangement rebuilt from a sweep."""

    arrangement: Arrangement
    removed: tuple[Card, ...] = ()
    """With :attr:`~.sweep.Variant.REPLACE`: the cards that go out (the arrangement is of
    the new hand)."""


def rebuild(run: Sweep, final: Final) -> Rebuilt:
    """The groups of the arrangement a sweep reached at ``final``."""
    spec = run.spec
    counts = spec.counts
    start, found, loose_at, spare_at = run.core.rebuild_groups(
        run.layers, run.stages, final.key, final.balance, spec.rules.pure_groups_needed
    )
    groups: list[tuple[GroupKind, list[Slot]]] = [
        (_TUNNELA, [Card.joker()] * 3) for _ in range(start.tunnelas)
    ]
    groups += [(_KINDS[kind], [ALL_CARDS[i] if i >= 0 else None for i in at]) for kind, at in found]
    loose = [ALL_CARDS[i] for i in loose_at]
    spare = [Card.joker()] * (counts[JOKER_INDEX] - 3 * start.tunnelas)
    spare += [ALL_CARDS[i] for i in spare_at]
    removed: tuple[Card, ...] = ()
    if spec.variant.replaces:
        removed = _replace(
            spec.counts, spec.mask, spec.rules, start.bought_groups, groups, loose, spare
        )
        loose = []
    # Fill joker places with joker cards; what is left is spare.
    built = [
        meld_of((kind, tuple(spare.pop() if m is None else m for m in members)))
        for kind, members in groups
    ]
    if len(spare) >= 3 and spec.rules.joker_groups:
        built.append(meld_of((_JOKER_GROUP, tuple(spare))))
        spare = []
    return Rebuilt(Arrangement(tuple(built), sorted_cards(loose + spare)), removed)


def _replace(
    counts: Sequence[int],
    mask: Sequence[bool],
    rules: RuleSet,
    bought_groups: int,
    groups: list[tuple[GroupKind, list[Slot]]],
    loose: list[Card],
    spare: list[Card],
) -> tuple[Card, ...]:
    """For :func:`~rummy21.solver.replacements`: turn the groups into those of the new hand
    (adding the pure groups of bought cards, and joker cards for the loose cards no bought
    card replaces); the cards that go out."""
    for _ in range(bought_groups):  # pure groups of bought cards: kinds nobody holds
        used = {m.index for _, members in groups for m in members if m is not None}
        absent = next(
            i for i in range(JOKER_INDEX) if not counts[i] and not mask[i] and i not in used
        )
        groups.append((_TUNNELA, [ALL_CARDS[absent]] * 3))
    held, bought = _new_hand(counts, groups, loose, spare)
    # More cards bought than loose: spare joker cards go out for them.
    for _ in range(bought - len(loose)):
        loose.append(spare.pop())
    spare.extend(_fresh_jokers(mask, rules, held, len(loose) - bought))
    return sorted_cards(loose)


def _new_hand(
    counts: Sequence[int],
    groups: list[tuple[GroupKind, list[Slot]]],
    loose: list[Card],
    spare: list[Card],
) -> tuple[list[int], int]:
    """(copies of each card kind in the new hand so far, cards bought)."""
    held = list(counts)
    for card in loose:
        held[card.index] -= 1
    natural = [0] * len(held)
    for _, members in groups:
        for m in members:
            if m is not None:
                natural[m.index] += 1
    for card in spare:
        natural[card.index] += 1
    bought = 0
    for i, n in enumerate(natural):
        if n > held[i]:
            bought += n - held[i]
            held[i] = n
    return held, bought


def _fresh_jokers(mask: Sequence[bool], rules: RuleSet, held: list[int], wanted: int) -> list[Card]:
    """``wanted`` joker cards to add (one for each loose card that no bought card replaces),
    of kinds the shoe still holds beside the new hand ``held``."""
    kinds = [i for i in range(JOKER_INDEX) if mask[i]] + [JOKER_INDEX]
    fresh: list[Card] = []
    for i in kinds:
        room = (rules.printed_jokers if i == JOKER_INDEX else 3) - held[i]
        while room > 0 and len(fresh) < wanted:
            fresh.append(ALL_CARDS[i])
            room -= 1
    if len(fresh) < wanted:
        raise ValueError("the shoe holds too few jokers for these replacements")
    return fresh
