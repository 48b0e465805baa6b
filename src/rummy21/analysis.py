"""Reading a hand (RULES §5, §7, §8): declaration options, penalty, value cards, put-aside card.

Every reader takes a :class:`~rummy21.cards.Hand` (or what :meth:`Hand.of
<rummy21.cards.Hand.of>` reads: cards, tokens, a text) and a cut card or its
:class:`~rummy21.jokers.Jokers`. The bots read thousands of hands a move in numbers only, from
count vectors (:func:`score_counts`, :func:`penalty_counts`, :func:`declaration_options`).

>>> a = analyze("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C", "7D")
>>> a.valid, a.options, a.penalty.points, a.penalty.rule, a.value.points
(True, ('A',), 0, 'pure_save', 20)
>>> analyze("QS KS AS 2S 3S 4S 10D JD QD 5H 5D 5C 7H 7H 9C 9C 8S 6D KH JC 2C", "QC").penalty.points
58
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from rummy21.cards import (
    ALL_CARDS,
    JOKER_INDEX,
    TYPE_COUNT,
    Card,
    CardError,
    Hand,
    card_index,
    check_counts,
    format_cards,
    parse_cards,
    sorted_cards,
    without,
)
from rummy21.groups import Group, GroupKind, classify, explain
from rummy21.jokers import Jokers
from rummy21.ruleset import CLASSIC, DubleeSave, Judging, RuleSet
from rummy21.solver import (
    Arrangement,
    Solution,
    least_after_put_aside,
    max_pure_groups,
    quick_put_aside,
    solve_unchecked,
)


class Option(StrEnum):
    """The ways a declaration can be valid (RULES §5), in the order they are reported."""

    A = "A"
    """Three pure groups and every card in a group."""
    B = "B"
    """Three tunnelas."""
    C = "C"
    """Eight dublees."""
    D = "D"
    """Eight jokers in one group."""

    def __repr__(self) -> str:  # reads as the letter players use ('A')
        return repr(self.value)


OPTIONS = tuple(Option)


class PenaltyRule(StrEnum):
    """Why a player pays what it pays (RULES §7). A hand's penalty is one of the first three;
    a deal's settlement adds the others."""

    PURE_SAVE = "pure_save"
    """The cards left outside valid groups, with enough pure groups."""
    DUBLEE_SAVE = "dublee_save"
    """The cards outside dublees (or the rule set's flat charge)."""
    FULL_COUNT = "full_count"
    """Every card in hand."""
    FIRST_TURN_CAP = "first_turn_cap"
    """A player who never played, capped (Adda52)."""
    FIRST_DROP = "first_drop"
    MIDDLE_DROP = "middle_drop"
    WRONG_DECLARATION = "wrong_declaration"

    def __repr__(self) -> str:  # reads as its value in results ('pure_save')
        return repr(self.value)

    @property
    def label(self) -> str:
        """The rule in words ("pure save", "first-turn cap").

        >>> PenaltyRule.FIRST_TURN_CAP.label, PenaltyRule.FULL_COUNT.label
        ('first-turn cap', 'full count')
        """
        return (
            "first-turn cap" if self is PenaltyRule.FIRST_TURN_CAP else self.value.replace("_", " ")
        )


class HandError(CardError):
    """A hand that cannot be analysed (wrong size, impossible cards)."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """What the hand pays if another player declares now (RULES §7)."""

    points: int
    """After the full-count cap."""
    rule: PenaltyRule
    """Pure save, dublee save or full count."""
    groups: tuple[Group, ...]
    loose: tuple[Card, ...]
    uncapped: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "rule": self.rule,
            "uncapped": self.uncapped,
            "groups": [g.to_dict() for g in self.groups],
            "loose": [str(c) for c in self.loose],
        }


@dataclass(frozen=True, slots=True)
class Value:
    """Value-card points (RULES §7)."""

    points: int
    marriages: int
    cut: int = 0
    upper: int = 0
    lower: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "marriages": self.marriages,
            "cut": self.cut,
            "upper": self.upper,
            "lower": self.lower,
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The full reading of a 21-card hand (or of a 22-card hand after its best put-aside)."""

    jokers: Jokers
    cards: Hand
    """The 21 cards read (after the put-aside card, of 22)."""
    options: tuple[Option, ...]
    groups: tuple[Group, ...]
    """An arrangement proving the first option (empty if not valid)."""
    loose: tuple[Card, ...]
    penalty: Penalty
    value: Value
    pure_groups_possible: bool
    """Whether the hand can be arranged with enough pure groups (the pure save applies)."""
    discard: Card | None = None
    """The card put aside, of 22 (RULES §8)."""
    input_cards: Hand | None = None
    """The cards given, when they were 22."""

    @property
    def valid(self) -> bool:
        return bool(self.options)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.jokers.to_dict(),
            "cards": len(self.input_cards or self.cards),
            "declaration": {
                "valid": self.valid,
                "options": list(self.options),
                "groups": [g.to_dict() for g in self.groups],
                "loose": [str(c) for c in self.loose],
                "discard": str(self.discard) if self.discard else None,
            },
            "penalty": self.penalty.to_dict(),
            "value": self.value.to_dict(),
        }


Cards = Hand | str | Iterable[Card | str]
"""What a reader of a hand takes: a :class:`~rummy21.cards.Hand`, or what :meth:`Hand.of
<rummy21.cards.Hand.of>` reads (cards or tokens, or one text of tokens)."""
Cut = Card | str | Jokers
"""A cut card, its text, or the jokers it makes."""


def as_cards(cards: Cards) -> list[Card]:
    """Cards from a hand, a list of cards or tokens, or one string of tokens (in the order
    given)."""
    if isinstance(cards, str):
        return parse_cards(cards)
    return [c if isinstance(c, Card) else Card.parse(c) for c in cards]


def checked_hand(cards: Cards, rules: RuleSet) -> Hand:
    """The hand of ``cards``, refused (:class:`~rummy21.cards.CardError`) if it holds more
    copies of a card than the rules' shoe."""
    hand = Hand.of(cards)
    check_counts(hand.counts, rules.printed_jokers)
    return hand


def analyze(
    cards: Cards,
    cut: Cut,
    rules: RuleSet = CLASSIC,
    keep: Card | str | None = None,
) -> Analysis:
    """Analyse 21 cards, or 22 cards choosing the card to put aside (RULES §8).

    ``keep`` is a card of the 22 that may not be put aside (the card just taken from the open
    pile, RULES §6.2: a game passes ``view.blocked``).

    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    >>> str(analyze(hand, "7D").discard), str(analyze(hand, "7D", keep="KH").discard)
    ('KH', '4C')
    """
    hand = checked_hand(cards, rules)
    jokers = Jokers.from_cut(cut)
    size = rules.hand_size
    if len(hand) == size:
        return _analysis(hand.counts, jokers, rules)
    if len(hand) == size + 1:
        kept = None if keep is None else keep if isinstance(keep, Card) else Card.parse(keep)
        if kept is not None and kept not in hand:
            raise HandError(f"the card to keep, {kept}, is not in the hand")
        return _analyze_with_discard(hand, jokers, rules, kept)
    raise HandError(f"a hand has {size} cards ({size + 1} with the drawn card), not {len(hand)}")


def _analyze_with_discard(
    hand: Hand, jokers: Jokers, rules: RuleSet, keep: Card | None = None
) -> Analysis:
    """Try every distinct card as the one put aside (RULES §8) and keep the best reading.

    Candidates are tried high cards first — but first the card the quick arrangement of the
    22 would put aside (:func:`~rummy21.solver.quick_put_aside`), which often leaves the
    lowest penalty — and each later one is only solved as far as it could still beat the
    best so far: a pure save above that penalty is not looked for. Each candidate is read in
    numbers; only the one chosen is shown with its groups.
    """
    counts = list(hand.counts)
    mask = jokers.joker_mask
    kept = -1 if keep is None else keep.index
    # (A card less never makes more pure groups possible: when the 22 cannot make enough,
    # no candidate's 21 can, and none is asked.)
    any_possible = pure_groups_possible(counts, rules)
    quick = quick_put_aside(counts, jokers, rules) if any_possible else None
    first = -1 if quick is None else quick.kind
    order = sorted(
        (i for i in range(TYPE_COUNT) if counts[i] and i != kept),
        key=lambda i: (i != first, mask[i], -ALL_CARDS[i].points, i),
    )
    whole = _tally(counts, jokers)
    best: tuple[_Rank, _Reading, tuple[int, ...]] | None = None
    for index in order:
        tally = _tally_moved(whole, counts[index], index, mask, -1)
        counts[index] -= 1
        possible = any_possible and pure_groups_possible(counts, rules)
        if best is None or _best_possible(counts, index, tally, possible, jokers, rules) < best[0]:
            reading = _read(counts, jokers, rules, best[0] if best else None, tally, possible)
            if reading is not None:
                rank = (not reading.options, reading.points, -reading.value.points, index)
                if best is None or rank < best[0]:
                    best = (rank, reading, tuple(counts))
        counts[index] += 1
    assert best is not None
    rank, reading, chosen = best
    return _show(reading, chosen, jokers, rules, ALL_CARDS[rank[3]], hand)


_Rank = tuple[bool, int, int, int]
"""How a put-aside candidate ranks (RULES §8), lowest first: invalid, penalty, minus its
value points, the card's index."""


def _best_possible(
    counts: Sequence[int],
    index: int,
    tally: _Tally,
    possible: bool,
    jokers: Jokers,
    rules: RuleSet,
) -> _Rank:
    """The best rank the 21 cards ``counts`` (``tally``; ``possible``: enough pure groups may
    form) could have, put-aside card ``index``: valid with no penalty, unless no option can
    hold."""
    points, _ = rules.value_points(*jokers.value_counts_of(counts))
    may_be_valid = possible or any(_holds(tally, rules).values())
    return (not may_be_valid, 0, -points, index)


def pure_groups_possible(counts: Sequence[int], rules: RuleSet = CLASSIC) -> bool:
    """Whether the cards can form the pure groups a valid hand needs (RULES §5) — the
    ``pure_groups_possible`` of :func:`analyze`, without the rest of the analysis
    (settling a deal asks it of a winner's hand for the value cards' "seen" rule).

    >>> pure_groups_possible(Hand.parse("7S 8S 9S 2H 3H 4H JC QC KC 5D").counts)
    True
    >>> pure_groups_possible(Hand.parse("7S 8S 9S 2H 3H 4H JC QC 5D 5H").counts)
    False
    """
    return max_pure_groups(counts) >= rules.pure_groups_needed


def analyze_counts(counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC) -> Analysis:
    """:func:`analyze` of 21 cards held as a count vector, unchecked: for the loops that hold
    count vectors (the benchmarks). Everything else passes a :class:`~rummy21.cards.Hand` to
    :func:`analyze`."""
    return _analysis(counts, jokers, rules)


def _analysis(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> Analysis:
    reading = _read(counts, jokers, rules, None)
    assert reading is not None
    return _show(reading, counts, jokers, rules)


class Score(NamedTuple):
    """A 21-card hand's reading in numbers only (:func:`score_counts`)."""

    points: int
    """The penalty (RULES §7), after the full-count cap."""
    rule: PenaltyRule
    options: tuple[Option, ...]
    """The declaration options that hold (empty: not a valid declaration)."""
    value: Value
    pure_groups_possible: bool

    @property
    def valid(self) -> bool:
        return bool(self.options)


def score_counts(counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC) -> Score:
    """The numbers of :func:`analyze` — penalty and its rule, options, value,
    whether the pure save applies — without showing groups (bots read thousands of hands
    and never look at them). No input checks.

    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
    >>> score = score_counts(hand.counts, Jokers.from_cut("7D"))
    >>> score.points, score.valid, score.options, score.value.points
    (0, True, ('A',), 20)
    """
    reading = _read(counts, jokers, rules, None)
    assert reading is not None
    return Score(
        reading.points,
        reading.rule,
        reading.options,
        reading.value,
        reading.pure_possible,
    )


def declaration_options(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC
) -> tuple[Option, ...]:
    """The options by which 21 cards declare (RULES §5; empty: a wrong declaration) — the
    ``options`` of :func:`analyze`, without the penalty or any groups: judging a
    declaration asks only this, and most declarations a learner tries are wrong. Option A
    is looked for with nothing loose allowed, so the solver keeps no costlier arrangement.
    No input checks.

    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
    >>> declaration_options(hand.counts, Jokers.from_cut("7D"))
    ('A',)
    >>> declaration_options(hand.counts, Jokers.from_cut("KH"))
    ()
    """
    holds = _holds(_tally(counts, jokers), rules)
    # (the solver looks no further when too few pure groups may form)
    holds[Option.A] = solve_unchecked(counts, jokers, rules, bound=0).option_a is not None
    return tuple(o for o in OPTIONS if holds[o])


def outs(cards: Cards, cut: Cut, rules: RuleSet = CLASSIC) -> dict[Card, int]:
    """For each card that could still be drawn, how much it would lower the hand's penalty.

    The hand (21 cards) draws the card and puts aside whichever card then leaves the lowest
    penalty (RULES §7); cards that lower nothing are left out. Exact: for each card drawn,
    one sweep finds the best card to put aside (:func:`rummy21.solver.least_after_put_aside`).

    >>> hand = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"
    >>> outs(hand, "7D")      # already valid: nothing can lower a penalty of 0
    {}
    """
    hand = checked_hand(cards, rules)
    jokers = Jokers.from_cut(cut)
    if len(hand) != rules.hand_size:
        raise HandError(f"outs are read from a hand of {rules.hand_size} cards, not {len(hand)}")
    counts = list(hand.counts)
    mask = jokers.joker_mask
    tally = _tally(counts, jokers)
    reading = _read(counts, jokers, rules, None, tally)
    assert reading is not None
    base = reading.points
    found: dict[Card, int] = {}
    if base == 0:
        return found
    # The hand's own best arrangement bounds the pure save after a draw: put the drawn card
    # aside (the same save), or put aside its highest loose card and keep the drawn one loose.
    # (The reading looks for a pure save only up to the full count or dublee save; above
    # them, the draws' sweeps go without this bound.)
    own = reading.solution
    highest = (
        max((c.points for c in own.pure_arrangement.loose if not mask[c.index]), default=0)
        if own.pure_arrangement is not None
        else 0
    )
    held = [i for i in range(TYPE_COUNT) if counts[i]]
    for drawn in range(TYPE_COUNT):
        limit = rules.printed_jokers if drawn == JOKER_INDEX else 3
        if counts[drawn] >= limit:
            continue
        drawing = _tally_moved(tally, counts[drawn], drawn, mask, 1)
        counts[drawn] += 1
        # The penalty after the best put-aside: the least full count or dublee save over the
        # cards put aside (quick, by counts), then the least pure save below that (one sweep).
        # (base: putting the drawn card aside again)
        least = _least_saves_aside(
            drawing, counts, held if counts[drawn] > 1 else held + [drawn], mask, rules
        )
        best = min(base, least, rules.full_count_cap)
        known = None
        if own.pure_save is not None:
            known = min(
                own.pure_save,
                own.pure_save - highest + (0 if mask[drawn] else ALL_CARDS[drawn].points),
            )
        pure = least_after_put_aside(
            counts, jokers, rules, best - 1 if known is None else min(best, known) - 1
        )
        if pure is not None:
            best = min(best, pure)
        elif known is not None:
            best = min(best, known)
        counts[drawn] -= 1
        if best < base:
            found[ALL_CARDS[drawn]] = base - best
    return found


class _Reading(NamedTuple):
    """A hand read in numbers (see :func:`_read`); :func:`_show` adds the groups."""

    options: tuple[Option, ...]
    solution: Solution
    uncapped: int
    """The penalty before the full-count cap."""
    rule: PenaltyRule
    points: int
    """The penalty (capped)."""
    value: Value
    pure_possible: bool
    """Whether enough pure groups may form (so the pure save applies, when it is found)."""


def _read(
    counts: Sequence[int],
    jokers: Jokers,
    rules: RuleSet,
    beat: _Rank | None,
    tally: _Tally | None = None,
    possible: bool | None = None,
) -> _Reading | None:
    """The reading in numbers, or ``None`` if it cannot rank before ``beat`` (see
    :func:`_analyze_with_discard`, which passes the ``tally`` of the counts and whether
    enough pure groups may form, ``possible``, when it knows them)."""
    if tally is None:
        tally = _tally(counts, jokers)
    if possible is None:
        possible = pure_groups_possible(counts, rules)
    penalty = _penalty(counts, jokers, rules, beat, tally, possible)
    if penalty is None:
        return None
    options, solution, uncapped, rule = penalty
    cut, upper, lower = jokers.value_counts_of(counts)
    points, marriages = rules.value_points(cut, upper, lower)
    return _Reading(
        options,
        solution,
        uncapped,
        rule,
        min(uncapped, rules.full_count_cap),
        Value(points, marriages, cut, upper, lower),
        possible,
    )


def _penalty(
    counts: Sequence[int],
    jokers: Jokers,
    rules: RuleSet,
    beat: _Rank | None,
    tally: _Tally,
    possible: bool,
) -> tuple[tuple[Option, ...], Solution, int, PenaltyRule] | None:
    """The options that hold, the solver's solution, the penalty before the full-count cap
    and its rule (RULES §7) — the numbers of :func:`_read` but the value cards — or ``None``
    if it cannot rank before ``beat``."""
    full, dublee, enough = _saves_of(tally, rules)
    holds = _holds(tally, rules)
    bound = enough
    if beat is not None and beat[1] < rules.full_count_cap:
        bound = min(bound, beat[1])  # a higher penalty could not rank first
    solution = solve_unchecked(counts, jokers, rules, bound=bound) if possible else _NO_SOLUTION
    holds[Option.A] = solution.option_a is not None
    options = tuple(o for o in OPTIONS if holds[o])
    if solution.pure_save is None and bound < enough:
        # The penalty is above the best so far: only a valid hand against an invalid best
        # can still rank first, and then its exact penalty is needed.
        if not (options and beat is not None and beat[0]):
            return None
        if possible:
            solution = solve_unchecked(counts, jokers, rules, bound=enough)
    candidates = [(full, 2, PenaltyRule.FULL_COUNT)]
    if solution.pure_save is not None:
        candidates.append((solution.pure_save, 0, PenaltyRule.PURE_SAVE))
    if dublee is not None:
        candidates.append((dublee, 1, PenaltyRule.DUBLEE_SAVE))
    uncapped, _, rule = min(candidates)
    return options, solution, uncapped, rule


def penalty_counts(
    counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC
) -> tuple[int, bool, bool]:
    """(penalty after the full-count cap, whether it is a valid declaration, whether the pure
    save applies) of a 21-card count vector: the three numbers a bot reads of each of the
    thousands of hands it tries, the same as :func:`score_counts`' ``points``, ``valid`` and
    ``pure_groups_possible`` without the value cards or the result's objects. No input checks.

    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
    >>> penalty_counts(hand.counts, Jokers.from_cut("7D"))
    (0, True, True)
    """
    tally = _tally(counts, jokers)
    possible = pure_groups_possible(counts, rules)
    penalty = _penalty(counts, jokers, rules, None, tally, possible)
    assert penalty is not None
    options, _, uncapped, _ = penalty
    return min(uncapped, rules.full_count_cap), bool(options), possible


def valid_counts(counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC) -> bool:
    """Whether a 21-card count vector is a valid declaration (RULES §5): the ``valid`` of
    :func:`penalty_counts`, read with the solver bounded to arrangements that leave nothing
    loose (most hands are far from one, and the bound prunes nearly all their arrangements).
    No input checks.

    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
    >>> valid_counts(hand.counts, Jokers.from_cut("7D"))
    True
    >>> valid_counts(hand.counts, Jokers.from_cut("2C"))
    False
    """
    if any(_holds(_tally(counts, jokers), rules).values()):
        return True
    if not pure_groups_possible(counts, rules):
        return False
    return solve_unchecked(counts, jokers, rules, bound=0).option_a is not None


def may_hold_valid(counts: Sequence[int], jokers: Jokers, rules: RuleSet = CLASSIC) -> bool:
    """Whether the cards of ``counts`` (any number: 22 after a draw) could hold a valid
    declaration among them — the pure groups option A needs, or the tunnelas, dublees or
    jokers of options B, C or D. A card taken away never adds to any of them, so when this
    is ``False`` no 21 of the 22 is valid, and no release needs reading.

    >>> may_hold_valid(Hand.parse("7S 8S 9S 2H 3H 4H JC QC 5D 5H").counts, Jokers.from_cut("KD"))
    False
    """
    holds = _holds(_tally(counts, jokers), rules)
    return pure_groups_possible(counts, rules) or any(holds.values())


_NO_SOLUTION = Solution(None, None, None)
"""What the solver finds for a hand that cannot form enough pure groups."""


def _show(
    reading: _Reading,
    counts: Sequence[int],
    jokers: Jokers,
    rules: RuleSet,
    discard: Card | None = None,
    input_cards: Hand | None = None,
) -> Analysis:
    """The analysis of a reading: the groups of its first option and of its penalty."""
    held = Hand(tuple(counts))
    cards = list(held)
    options, solution = reading.options, reading.solution
    groups: tuple[Group, ...] = ()
    loose: tuple[Card, ...] = ()
    shown = None  # the option A groups, when they are also the pure save's
    if options:
        first = options[0]
        if first is Option.A:
            assert solution.option_a is not None
            groups, loose = shown_groups(solution.option_a, jokers, rules)
            if solution.option_a is solution.pure_arrangement:
                shown = groups, loose
        elif first is Option.B:
            groups = tuple(
                classify([ALL_CARDS[i]] * 3, jokers, rules)
                for i, n in enumerate(counts)
                for _ in range(n // 3)
            )
            loose = cards_outside(cards, groups)
        elif first is Option.C:
            groups = dublee_groups(counts)
            loose = cards_outside(cards, groups)
        else:
            joker_cards = tuple(c for c in cards if jokers.joker_mask[c.index])
            groups = (Group(GroupKind.JOKER_GROUP, joker_cards, joker_cards),)
            loose = cards_outside(cards, groups)
    penalty_groups: tuple[Group, ...] = ()
    penalty_loose: tuple[Card, ...] = tuple(cards)
    if reading.rule is PenaltyRule.PURE_SAVE:
        assert solution.pure_arrangement is not None
        penalty_groups, penalty_loose = shown or shown_groups(
            solution.pure_arrangement, jokers, rules
        )
    elif reading.rule is PenaltyRule.DUBLEE_SAVE:
        penalty_groups = dublee_groups(counts)
        penalty_loose = cards_outside(cards, penalty_groups)
    return Analysis(
        jokers,
        held,
        options,
        groups,
        loose,
        Penalty(reading.points, reading.rule, penalty_groups, penalty_loose, reading.uncapped),
        reading.value,
        reading.pure_possible,
        discard,
        input_cards,
    )


class _Tally(NamedTuple):
    """What the card counts alone say of a hand (one pass over them)."""

    tunnelas: int
    dublees: int
    jokers: int
    """Joker cards held."""
    full: int
    """Points of every card but the jokers: the full count (RULES §7)."""
    odd: int
    """Points of the cards outside dublees (one of a kind, or the third of three)."""


_POINTS = tuple(card.points for card in ALL_CARDS)


def _tally(counts: Sequence[int], jokers: Jokers) -> _Tally:
    mask = jokers.joker_mask
    tunnelas = dublees = held = full = odd = 0
    for i, n in enumerate(counts):
        if n:
            tunnelas += n // 3
            dublees += n // 2
            if mask[i]:
                held += n
            else:
                full += n * _POINTS[i]
                if n % 2:
                    odd += _POINTS[i]
    return _Tally(tunnelas, dublees, held, full, odd)


def _holds(tally: _Tally, rules: RuleSet) -> dict[Option, bool]:
    return {
        Option.B: tally.tunnelas >= rules.tunnelas_needed,
        Option.C: tally.dublees >= rules.dublees_needed,
        Option.D: tally.jokers >= rules.jokers_needed,
    }


def _tally_moved(tally: _Tally, n: int, i: int, mask: Sequence[bool], step: int) -> _Tally:
    """The tally once the hand holding ``n`` copies of card ``i`` gains (``step`` 1) or loses
    (-1) one: :func:`_tally` of the new counts, without reading them all again."""
    m = n + step
    if mask[i]:
        return _Tally(
            tally.tunnelas + m // 3 - n // 3,
            tally.dublees + m // 2 - n // 2,
            tally.jokers + step,
            tally.full,
            tally.odd,
        )
    points = _POINTS[i]
    return _Tally(
        tally.tunnelas + m // 3 - n // 3,
        tally.dublees + m // 2 - n // 2,
        tally.jokers,
        tally.full + step * points,
        tally.odd + (m % 2 - n % 2) * points,
    )


def _saves_of(tally: _Tally, rules: RuleSet) -> tuple[int, int | None, int]:
    """(full count, dublee save or ``None``, the lower of them): a pure save above that last
    one could never be the penalty."""
    full, dublee = tally.full, _dublee_save(tally, rules)
    return full, dublee, full if dublee is None else min(full, dublee)


def _least_saves_aside(
    tally: _Tally, counts: Sequence[int], held: Iterable[int], mask: Sequence[bool], rules: RuleSet
) -> int:
    """The least over every card put aside of the lower of full count and dublee save
    (:func:`_saves_of`) of the cards left; ``tally``: of ``counts``, ``held``: its kinds held.

    Read for a few cards only: the least of the lower of two is the lower of the least of
    each. The full count falls most with the dearest natural card put aside. The dublee save
    (whether it applies, and the odd points) changes by the card's kind only through whether
    its count is odd (its dublees stay, its points leave the odd ones) or even (a dublee goes,
    its points join the odd ones), and whether it is a joker card (no points): so it is least
    with the dearest natural of an odd count, the cheapest natural of an even count, or a
    joker card of either.
    """
    dearest = odd_dearest = even_cheapest = odd_joker = even_joker = -1
    for i in held:
        odd = counts[i] % 2
        if mask[i]:
            if odd:
                odd_joker = i
            else:
                even_joker = i
            continue
        points = _POINTS[i]
        if dearest < 0 or points > _POINTS[dearest]:
            dearest = i
        if odd:
            if odd_dearest < 0 or points > _POINTS[odd_dearest]:
                odd_dearest = i
        elif even_cheapest < 0 or points < _POINTS[even_cheapest]:
            even_cheapest = i
    return min(
        _saves_of(_tally_moved(tally, counts[i], i, mask, -1), rules)[2]
        for i in (dearest, odd_dearest, even_cheapest, odd_joker, even_joker)
        if i >= 0
    )


def dublee_save(counts: Sequence[int], jokers: Jokers, rules: RuleSet) -> int | None:
    """The dublee save (RULES §7), or ``None`` when the hand holds too few dublees."""
    return _dublee_save(_tally(counts, jokers), rules)


def _dublee_save(tally: _Tally, rules: RuleSet) -> int | None:
    if tally.dublees < rules.dublee_save_min:
        return None
    if rules.dublee_save is DubleeSave.FLAT:
        return rules.dublee_save_flat
    return tally.odd


_SHOWN_ORDER = {
    GroupKind.PURE_SEQUENCE: 0,
    GroupKind.TUNNELA: 1,
    GroupKind.IMPURE_SEQUENCE: 2,
    GroupKind.SET: 3,
    GroupKind.JOKER_GROUP: 4,
    GroupKind.DUBLEE: 5,
}


def shown_groups(
    arrangement: Arrangement, jokers: Jokers, rules: RuleSet
) -> tuple[tuple[Group, ...], tuple[Card, ...]]:
    """The solver's groups, each checked and named by the rules (:func:`classify`), in the
    order they are shown."""
    built = tuple(classify(cards, jokers, rules) for _, cards in arrangement.groups)
    ordered = tuple(
        sorted(built, key=lambda g: (_SHOWN_ORDER[g.kind], tuple(map(card_index, g.cards))))
    )
    return ordered, sorted_cards(arrangement.loose)


def dublee_groups(counts: Sequence[int]) -> tuple[Group, ...]:
    """One dublee for every two identical cards (three identical cards give one)."""
    return tuple(
        Group(GroupKind.DUBLEE, (ALL_CARDS[i], ALL_CARDS[i]))
        for i, n in enumerate(counts)
        for _ in range(n // 2)
    )


def cards_outside(cards: list[Card], groups: tuple[Group, ...]) -> tuple[Card, ...]:
    """The ``cards`` that are in none of ``groups`` (which hold only cards of ``cards``)."""
    return tuple(without(cards, (card for group in groups for card in group.cards)))


@dataclass(frozen=True, slots=True)
class ShownGroup:
    """One group as a player laid it out, with the verdict on it."""

    cards: tuple[Card, ...]
    group: Group | None
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": [str(c) for c in self.cards],
            "kind": self.group.kind.value if self.group else None,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class LayoutCheck:
    """A player's own layout, judged (RULES §5) and explained group by group."""

    shown: tuple[ShownGroup, ...]
    loose: tuple[Card, ...]
    options_as_shown: tuple[Option, ...]
    analysis: Analysis
    """The cards themselves, auto-arranged: what they are worth and whether they are valid."""
    valid: bool
    """The verdict under the rule set's judging parameter."""
    option: Option | None
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "option": self.option,
            "options_as_shown": list(self.options_as_shown),
            "groups": [g.to_dict() for g in self.shown],
            "loose": [str(c) for c in self.loose],
            "reasons": list(self.reasons),
            "cards_valid": self.analysis.valid,
            "cards_options": list(self.analysis.options),
            "penalty": self.analysis.penalty.points,
        }


def check_layout(
    groups: Sequence[Cards],
    cut: Cut,
    rules: RuleSet = CLASSIC,
    loose: Cards = (),
) -> LayoutCheck:
    """Judge the groups a player laid out (plus loose cards) as a declaration of 21 cards.

    >>> check = check_layout(["7S 8S 9S 10S", "2H 3H 4H", "JC QC KC", "5D 5D 5D", "AH AD AC",
    ...                       "9C 9H 6D", "4C 8D"], "7D")
    >>> check.valid, check.options_as_shown, check.shown[-1].reason
    (True, (), 'two cards form only a dublee, and 4C 8D are not identical')
    """
    jokers = Jokers.from_cut(cut)
    laid = [tuple(as_cards(g)) for g in groups]
    rest = tuple(as_cards(loose))
    every = checked_hand([c for g in laid for c in g] + list(rest), rules)
    if len(every) != rules.hand_size:
        raise HandError(f"a declaration shows {rules.hand_size} cards, not {len(every)}")
    shown = []
    for cards in laid:
        reason = explain(cards, jokers, rules)
        shown.append(ShownGroup(cards, None if reason else classify(cards, jokers, rules), reason))
    kinds = [s.group.kind for s in shown if s.group is not None]
    bad = [s for s in shown if s.group is None]
    pure = sum(k.is_pure for k in kinds)
    reasons: list[str] = []
    holds = {
        Option.A: not bad
        and not rest
        and GroupKind.DUBLEE not in kinds
        and pure >= rules.pure_groups_needed,
        Option.B: kinds.count(GroupKind.TUNNELA) >= rules.tunnelas_needed,
        Option.C: kinds.count(GroupKind.DUBLEE) >= rules.dublees_needed,
        Option.D: any(
            s.group is not None
            and s.group.kind is GroupKind.JOKER_GROUP
            and len(s.cards) >= rules.jokers_needed
            for s in shown
        ),
    }
    as_shown = tuple(o for o in OPTIONS if holds[o])
    if not as_shown:
        if pure < rules.pure_groups_needed:
            reasons.append(f"{pure} pure group(s) shown; Option A needs {rules.pure_groups_needed}")
        for s in bad:
            reasons.append(f"{' '.join(map(str, s.cards))}: {s.reason}")
        if rest:
            reasons.append(f"{len(rest)} card(s) left outside groups")
    analysis = _analysis(every.counts, jokers, rules)
    if rules.judging is Judging.AS_SHOWN:
        valid, option = bool(as_shown), (as_shown[0] if as_shown else None)
    else:
        valid = analysis.valid
        option = analysis.options[0] if analysis.options else None
        if valid and not as_shown:
            reasons.append(
                "the cards can be arranged validly: "
                + "; ".join(f"{g.kind.label} {format_cards(g.cards)}" for g in analysis.groups)
            )
    return LayoutCheck(tuple(shown), rest, as_shown, analysis, valid, option, tuple(reasons))
