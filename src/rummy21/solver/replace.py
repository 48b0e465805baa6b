"""The distance variant: the fewest cards to replace for the hand to prove Option A."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card, check_counts
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import line_after, pure_within
from rummy21.solver.packing import MOST_BOUGHT
from rummy21.solver.quick import place_spare
from rummy21.solver.rebuild import rebuild
from rummy21.solver.results import Arrangement, Replacement
from rummy21.solver.sweep import Final, SweepSpec, Variant, suit_table, sweep


class _Found(NamedTuple):
    """The fewest replacements found, the cards that go out, and the new arrangement."""

    replaced: int
    removed: tuple[Card, ...]
    arrangement: Arrangement


def replacements(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, bound: int
) -> Replacement | None:
    """The fewest cards to replace (one out, one in) for the hand to prove Option A, if no
    more than ``bound`` are needed; ``None`` otherwise.

    The sweep of :func:`~rummy21.solver.solve`, with every card worth one point and three
    changes: a loose card is replaced, so it supplies a joker (any joker card the shoe still
    holds can come in); a card a run or tunnela lacks may be bought as itself, which owes one
    replacement like a joker does (so runs stay pure); and, as for Option A, every joker must
    be placed, so each balance counts. An arrangement needs as many replacements as it has
    loose cards or bought cards, whichever is more (spare joker cards go out for bought ones).

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("2S 3S 4S 6H 7H 8H 9D 10D JD QC KC AC 5S 5D 5C 2H 3H 4D 9S 10C JH")
    >>> found = replacements(hand.counts, Jokers.from_cut("KH"), RuleSet(), 21)
    >>> len(found.remove), len(found.add)
    (3, 3)
    """
    check_counts(counts, rules.printed_jokers)
    bound = min(bound, MOST_BOUGHT)  # (no hand needs as many; the sweep counts no more)
    # One bounded sweep per number of replacements, fewest first: a sweep is the smaller the
    # fewer cards it may replace, since they are all the jokers it can add. Buying cards to
    # make runs pure multiplies the states many times over, so a first round buys none; a
    # second, only needed below what the first found, does. Each sweep keeps the most spare
    # jokers; when some are left that no group takes, a sweep that tells each balance apart
    # settles it. Every card bought is a replacement: so at least as many as the pure groups
    # need.
    lines = [line_after(suit_table(tuple(counts[s * 13 : s * 13 + 13])).at, 0) for s in range(4)]
    pure = pure_within(lines, bound, rules.pure_groups_needed)
    printed_tunnelas = counts[JOKER_INDEX] // 3
    fewest_bought = next(
        (k for k in range(bound + 1) if pure[k] + printed_tunnelas >= rules.pure_groups_needed),
        None,
    )
    first = None
    if fewest_bought == 0:
        first = _fewest(counts, jokers, rules, 0, bound, Variant.REPLACE)
        if first is not None:
            bound = first.replaced - 1
    second = None
    if fewest_bought is not None and max(1, fewest_bought) <= bound:
        second = _fewest(
            counts, jokers, rules, max(1, fewest_bought), bound, Variant.REPLACE_BUYING
        )
    best = second or first
    if best is None:
        return None
    kept = list(counts)
    for card in best.removed:
        kept[card.index] -= 1
    final = [0] * len(kept)
    for meld in best.arrangement.groups:
        for card in meld.cards:
            final[card.index] += 1
    added = tuple(ALL_CARDS[i] for i, n in enumerate(final) for _ in range(n - kept[i]))
    assert not best.arrangement.loose and len(added) == len(best.removed)
    return Replacement(best.removed, added, best.arrangement)


def _fewest_first(final: Final) -> tuple[int, int, int]:
    """The order in which :func:`_fewest` tries arrangements: fewest replacements, then the
    lowest joker balance (the most spare jokers), then the fewest cards bought, then the
    order the sweep reached them (every suit's state is empty at the end: nothing else tells
    final states apart)."""
    return max(final.cost, final.bought), final.balance, final.bought


def _fewest(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet, start: int, bound: int, variant: Variant
) -> _Found | None:
    """The fewest replacements for :func:`replacements`, trying each number from ``start``
    (none fewer can do) to ``bound``, arrangements in the order of :func:`_fewest_first`."""
    mask = jokers.joker_mask
    for limit in range(start, bound + 1):
        run = sweep(SweepSpec(counts, mask, rules, limit, variant=variant))
        found = sorted(
            (f for f in run.finals() if f.balance <= 0 and max(f.cost, f.bought) <= limit),
            key=_fewest_first,
        )
        if not found:
            continue
        for final in found[:4]:
            built = rebuild(run, final)
            arrangement = built.arrangement
            placed = place_spare(arrangement, jokers, rules) if arrangement.loose else arrangement
            if placed is not None:
                return _Found(max(final.cost, final.bought), built.removed, placed)
        exact = sweep(SweepSpec(counts, mask, rules, limit, exact=True, variant=variant))
        proof = min(
            (
                f
                for f in exact.finals()
                if f.places_jokers(rules) and max(f.cost, f.bought) <= limit
            ),
            key=_fewest_first,
            default=None,
        )
        if proof is not None:
            built = rebuild(exact, proof)
            return _Found(max(proof.cost, proof.bought), built.removed, built.arrangement)
    return None
