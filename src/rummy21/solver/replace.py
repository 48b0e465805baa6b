"""The distance variant: the fewest cards to replace for Option A."""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.cards import ALL_CARDS, JOKER_INDEX, Card
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver.bounds import _line_after, _pure_within, _suit_tables
from rummy21.solver.quick import _place_spare
from rummy21.solver.results import Arrangement, Replacement
from rummy21.solver.search import _places_jokers
from rummy21.solver.sweep import _Table


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
