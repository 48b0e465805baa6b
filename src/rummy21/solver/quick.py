"""The quick first pass: a greedy arrangement of a hand (it often proves Option A at once,
and otherwise bounds the sweep), and fitting a few loose cards into an arrangement's groups.

>>> from rummy21.cards import Hand
>>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
>>> found = quick_arrangement(hand.counts, Jokers.from_cut(Card.parse("7D")), RuleSet())
>>> found.points, found.arrangement.loose
(4, (Card('4C'),))
>>> [meld.kind.value for meld in found.arrangement.groups]
['pure_sequence', 'pure_sequence', 'tunnela', 'pure_sequence', 'set', 'impure_sequence']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rummy21.cards import ALL_CARDS, Card
from rummy21.groups import MAX_SEQUENCE, GroupKind, classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend
from rummy21.solver.results import Arrangement, meld_of


class Quick(NamedTuple):
    """A quick arrangement and the points it leaves loose."""

    points: int
    arrangement: Arrangement


_KINDS = (
    GroupKind.PURE_SEQUENCE,
    GroupKind.IMPURE_SEQUENCE,
    GroupKind.SET,
    GroupKind.TUNNELA,
    GroupKind.JOKER_GROUP,
)
"""The group kinds, by the codes of :mod:`.greedy` (and of the native core)."""
_CARD: Callable[[int], Card] = ALL_CARDS.__getitem__
"""The card of a card kind."""


def quick_arrangement(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> Quick | None:
    """The better of two quick arrangements: pure groups as long as they go, or of three
    cards only (leaving more cards for sets and other runs). See
    :func:`~.greedy.greedy_arrangement` (worked out by the core :mod:`.backend` chooses)."""
    greedy = backend.current().greedy_arrangement
    mask = jokers.joker_mask
    best = None
    for longest in (MAX_SEQUENCE, 3):
        found = greedy(
            counts,
            mask,
            rules.pure_groups_needed,
            longest,
            rules.max_set_size,
            rules.joker_groups,
            MAX_SEQUENCE,
        )
        if found is None:
            return None
        if best is None or found[0] < best[0] or not found[2]:
            best = found
        if not found[2]:
            break
    assert best is not None
    points, groups, loose = best
    melds = tuple(meld_of((_KINDS[kind], tuple(map(_CARD, cards)))) for kind, cards in groups)
    return Quick(points, Arrangement(melds, tuple(map(_CARD, loose))))


def place_spare(arrangement: Arrangement, jokers: Jokers, rules: RuleSet) -> Arrangement | None:
    """Fit the loose cards of an arrangement into its groups, keeping enough pure ones.

    A quick way to prove Option A when the sweep kept one or two spare jokers, or the quick
    arrangement left a card or two out: add them one by one (natural cards first) to a group
    that stays valid (a longer run, a set below its size, a joker group) or that may turn
    impure (a pure group beyond the ones needed). ``None`` if that fails. The groups are
    named as the rules read them (:func:`~rummy21.groups.classify`).
    """
    groups = [list(meld.cards) for meld in arrangement.groups]
    mask = jokers.joker_mask
    spare = sorted(arrangement.loose, key=lambda c: mask[c.index])
    if not spare:
        return None
    kinds = [classify(g, jokers, rules).kind for g in groups]
    pure = [kind.is_pure for kind in kinds]
    for card in spare:
        for i in sorted(range(len(groups)), key=pure.__getitem__):  # impure groups first
            trial = groups[i] + [card]
            if explain(trial, jokers, rules) is None:
                kind = classify(trial, jokers, rules).kind
                if sum(pure) - pure[i] + kind.is_pure >= rules.pure_groups_needed:
                    groups[i], kinds[i], pure[i] = trial, kind, kind.is_pure
                    break
        else:
            return None
    return Arrangement(
        tuple(meld_of((kind, tuple(g))) for kind, g in zip(kinds, groups, strict=True)), ()
    )
