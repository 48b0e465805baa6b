"""Rebuilding an arrangement: follow a final state's back-pointers to the first layer, then
replay the moves with concrete runs of cards to get the groups.

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
from rummy21.solver.core import Start
from rummy21.solver.moves import SuitMove
from rummy21.solver.packing import AT_PURE, LAYER_BITS, PURE_MASK
from rummy21.solver.pools import NO_SETS, PoolSplit
from rummy21.solver.results import Arrangement, meld_of
from rummy21.solver.runs import IMPURE_OF, NEXT_CLASSES, P1, PHASE_AT, RUN_CLASSES, Phase
from rummy21.solver.sweep import Final, Sweep

Slot = Card | None
"""A card of a group being built, or ``None``: a joker's place, filled at the end."""

# Group kinds, read once: an enum member costs a slow class-attribute look-up each time.
_PURE_SEQUENCE, _IMPURE_SEQUENCE = GroupKind.PURE_SEQUENCE, GroupKind.IMPURE_SEQUENCE
_SET, _TUNNELA, _JOKER_GROUP = GroupKind.SET, GroupKind.TUNNELA, GroupKind.JOKER_GROUP


class Rebuilt(NamedTuple):
    """An arrangement rebuilt from a sweep."""

    arrangement: Arrangement
    removed: tuple[Card, ...] = ()
    """With :attr:`~.sweep.Variant.REPLACE`: the cards that go out (the arrangement is of
    the new hand)."""


class _Position(NamedTuple):
    """What the path to a final state did at one position."""

    moves: tuple[SuitMove | None, ...]
    """By suit (``None``: the suit had nothing to do)."""
    split: PoolSplit
    forgot_purity: bool
    """Enough pure groups were done after it: the sweep stopped telling pure runs apart."""


def rebuild(run: Sweep, final: Final) -> Rebuilt:
    """The groups of the arrangement a sweep reached at ``final``."""
    start, path = _path(run, final)
    spec = run.spec
    counts = spec.counts
    groups: list[tuple[GroupKind, list[Slot]]] = []
    loose: list[Card] = []
    spare: list[Card] = [Card.joker()] * (counts[JOKER_INDEX] - 3 * start.tunnelas)
    for _ in range(start.tunnelas):
        groups.append((_TUNNELA, [Card.joker()] * 3))
    runs: list[list[list[list[Slot]]]] = [[[] for _ in RUN_CLASSES] for _ in range(4)]
    for p, position in enumerate(path, start=1):
        rank = p if p <= 13 else 1
        for s, move in enumerate(position.moves):
            if move is not None:
                card = ALL_CARDS[s * 13 + rank - 1]
                runs[s] = _replay(runs[s], move, card, PHASE_AT[p], position.forgot_purity, groups)
                if move.tunnela:
                    groups.append((_TUNNELA, [card] * 3))
                spare.extend([card] * move.as_jokers)
        if position.split is NO_SETS:  # the moves counted the pool loose
            for s, move in enumerate(position.moves):
                if move is not None:
                    loose.extend([ALL_CARDS[s * 13 + rank - 1]] * move.pool)
        else:
            for a_set in position.split.sets:
                members: list[Slot] = [ALL_CARDS[s * 13 + rank - 1] for s in a_set.suits]
                groups.append((_SET, members + [None] * a_set.jokers))
            for s, n in enumerate(position.split.loose):
                loose.extend([ALL_CARDS[s * 13 + rank - 1]] * n)
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


def _path(run: Sweep, final: Final) -> tuple[Start, list[_Position]]:
    """How the sweep reached ``final``: where it began, and each position's moves."""
    need = run.spec.rules.pure_groups_needed
    back_of = run.core.back_of
    path: list[_Position] = []
    key, balance = final.key, final.balance
    for p in range(len(run.layers) - 1, 0, -1):
        forgot = key >> AT_PURE & PURE_MASK >= need
        back = back_of(run.layers[p], key, balance)
        assert not isinstance(back, Start)
        pkey, balance, split = back
        assert isinstance(split, PoolSplit)
        moves: list[SuitMove | None] = []
        for stage in reversed(run.stages[p - 1][1:]):
            if stage is None:  # the suit had nothing to do
                moves.append(None)
                continue
            back = back_of(stage, pkey, balance)
            assert not isinstance(back, Start)
            pkey, balance, move = back
            assert not isinstance(move, PoolSplit)
            moves.append(SuitMove._make(move))
        key = pkey & LAYER_BITS
        path.append(_Position(tuple(reversed(moves)), split, forgot))
    start = back_of(run.layers[0], key, balance)
    assert isinstance(start, Start)
    path.reverse()
    return start, path


def _replay(
    classes: list[list[list[Slot]]],
    move: SuitMove,
    card: Card,
    phase: Phase,
    forgot_purity: bool,
    groups: list[tuple[GroupKind, list[Slot]]],
) -> list[list[list[Slot]]]:
    """One suit's open runs by class after ``move`` at a position holding ``card``; the runs
    that end go to ``groups``."""
    moved: list[list[list[Slot]]] = [[] for _ in RUN_CLASSES]
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
            run.append(None)
            moved[by_joker[k]].append(run)
        for _ in range(ends):
            run = runs.pop()
            if len(run) < 3:
                run.extend([None] * (3 - len(run) + extra))
                extra = 0
            groups.append((_IMPURE_SEQUENCE if None in run else _PURE_SEQUENCE, run))
    if forgot_purity:  # the sweep forgot purity here: so do we
        for pure, impure in IMPURE_OF.items():
            moved[impure].extend(moved[pure])
            moved[pure] = []
    moved[P1].extend([card] for _ in range(move.new_runs))
    # Purity is re-derived from the cards, so classes only need to stay distinct.
    return moved


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
