"""Judging a declaration (RULES §5): the 21 shown cards, or the groups as the player laid them.

>>> from rummy21.cards import Hand
>>> from rummy21.jokers import Jokers
>>> from rummy21.ruleset import Judging, RuleSet
>>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
>>> v = judge(hand, None, Jokers.from_cut("7D"), RuleSet())
>>> v.valid, v.option
(True, 'A')
>>> v = judge(hand, [hand[:4]], Jokers.from_cut("7D"),
...           RuleSet(judging=Judging.AS_SHOWN))
>>> v.valid, v.layout is not None and v.layout.reasons[0]
(False, '1 pure group(s) shown; Option A needs 3')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy21.analysis import (
    Analysis,
    LayoutCheck,
    Option,
    analyze,
    check_layout,
    declaration_options,
)
from rummy21.cards import Card, Hand, MissingCard, without
from rummy21.jokers import Jokers
from rummy21.ruleset import Judging, RuleSet


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a declaration is valid, by which option, and the analysis behind it."""

    valid: bool
    option: Option | None
    analysis: Analysis | None
    """The 21 cards, auto-arranged; ``None`` for a wrong declaration judged without a layout
    (nothing shows its arrangement, and working it out is most of a judging's cost)."""
    layout: LayoutCheck | None
    """The submitted layout, judged group by group (when groups were given or judged as shown)."""


def judge(
    cards: Hand | Sequence[Card],
    groups: Sequence[Sequence[Card]] | None,
    jokers: Jokers,
    rules: RuleSet,
) -> Verdict:
    """Judge 21 shown ``cards`` with an optional layout ``groups`` (a subset of ``cards``).

    With ``rules.judging == "as_shown"`` and no layout, the solver's own arrangement is shown.
    """
    hand = Hand.of(cards)
    if groups is None and rules.judging != Judging.AS_SHOWN:
        if not declaration_options(hand.counts, jokers, rules):
            return Verdict(False, None, None, None)
        analysis = analyze(hand, jokers, rules)
        return Verdict(True, analysis.options[0], analysis, None)
    if groups is None:
        groups = [g.cards for g in analyze(hand, jokers, rules).groups]
    try:
        loose = without(hand, (card for group in groups for card in group))
    except MissingCard as error:
        raise ValueError(f"the layout shows {error.card}, which is not in the hand") from None
    check = check_layout([tuple(g) for g in groups], jokers.cut, rules, loose)
    return Verdict(check.valid, check.option, check.analysis, check)


def why_invalid(cards: Hand | Sequence[Card], jokers: Jokers, rules: RuleSet) -> str:
    """Why 21 ``cards`` are no valid declaration, in words (RULES §5; the doctests' lines are
    wrapped by ``NORMALIZE_WHITESPACE``): how many of the pure
    groups option A needs they can make, else what the best arrangement leaves out of its
    groups, and how far they are from the other options.

    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 5C KD 4C")
    >>> print(why_invalid(hand, Jokers.from_cut("7D"), RuleSet()))
    the best arrangement leaves KD 4C 5C out of its groups (19 points); 1 of 3 tunnelas,
    1 of 8 dublees
    >>> hand = Hand.parse("2S 5S 9S JS KS 3C 6C 10C QC AD 4D 8D 10D 2H 6H 9H QH KH 3S 7C JD")
    >>> print(why_invalid(hand, Jokers.from_cut("7D"), RuleSet()))
    they can make none of the 3 pure groups option A needs; 0 of 3 tunnelas,
    0 of 8 dublees
    """
    from rummy21.solver import max_pure_groups

    hand = Hand.of(cards)
    counts = hand.counts
    needed = rules.pure_groups_needed
    can = min(max_pure_groups(counts), needed)
    if can < needed:
        first = f"they can make {can or 'none'} of the {needed} pure groups option A needs"
    else:
        penalty = analyze(hand, jokers, rules).penalty
        left = " ".join(map(str, penalty.loose))
        first = f"the best arrangement leaves {left} out of its groups ({penalty.uncapped} points)"
    tunnelas = sum(n // 3 for n in counts)
    dublees = sum(n // 2 for n in counts)
    return (
        f"{first}; {tunnelas} of {rules.tunnelas_needed} tunnelas, "
        f"{dublees} of {rules.dublees_needed} dublees"
    )
