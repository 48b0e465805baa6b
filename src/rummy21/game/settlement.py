"""Scoring one deal (RULES §7): penalties, drops, wrong declarations, value cards, loss caps.

Settlement works on who paid whom: ``pay[i][j]`` is what seat ``i`` pays seat ``j`` (and
``pay[j][i] == -pay[i][j]``), so deal scores always sum to zero, and the total loss cap can
take back exactly what each other player received from a capped player.

>>> value_net([110, 0, 10])
[210, -120, -90]
>>> capped = cap_losses([[0, 300, 0], [-300, 0, 0], [0, 0, 0]], cap=240, dealer=2)
>>> [-sum(row) for row in capped]
[-240, 240, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rummy21.analysis import (
    Analysis,
    Option,
    Penalty,
    PenaltyRule,
    analyze,
    pure_groups_possible,
)
from rummy21.cards import Card, Hand
from rummy21.game.events import DropKind, EndReason
from rummy21.game.turn import drop_points
from rummy21.groups import Group
from rummy21.jokers import Jokers
from rummy21.ruleset import DroppedValue, RuleSet


class Standing(StrEnum):
    """Where a seat stands in the deal."""

    ACTIVE = "active"
    """Still playing (at the end: a loser who pays its penalty, or the last active player)."""
    DECLARED = "declared"
    """Made a valid declaration."""
    DROPPED = "dropped"
    WRONG = "wrong_declaration"
    """Declared wrongly and left the deal (RULES §6.5)."""


@dataclass(frozen=True, slots=True)
class Charge:
    """What one seat pays the declarer (RULES §7) and by which rule: the one answer the
    settlement charges and the table's screens show (in the words of
    :func:`~rummy21.game.narration.charge_reason`).

    ``count`` is what the rule started from: the hand's count before the full-count cap and
    the first-turn cap (the same as ``points`` when nothing capped it); a drop's or a wrong
    declaration's points. The total loss cap, which depends on what every seat pays, is
    applied by :func:`settle` on top of it.

    >>> rules = RuleSet.preset("adda52")
    >>> hand = Penalty(118, PenaltyRule.FULL_COUNT, (), (), 118)
    >>> charge(Standing.ACTIVE, 0, rules, hand)
    Charge(points=75, rule='first_turn_cap', count=118)
    >>> charge(Standing.ACTIVE, 3, rules, hand)
    Charge(points=118, rule='full_count', count=118)
    >>> charge(Standing.DROPPED, 0, rules, drop=DropKind.FIRST)
    Charge(points=30, rule='first_drop', count=30)
    """

    points: int
    rule: PenaltyRule
    count: int


def charge(
    standing: Standing,
    played: int,
    rules: RuleSet,
    penalty: Penalty | None = None,
    drop: DropKind | None = None,
    drop_points_paid: int | None = None,
) -> Charge:
    """What a seat of ``standing`` that has played ``played`` turns pays if another seat
    declares (RULES §7): a wrong declaration's points; a drop's (``drop_points_paid``, the
    points its :class:`~rummy21.game.events.Dropped` event recorded, else those of its
    ``drop`` kind); else its hand's ``penalty`` (the analysis's: a save or the full count,
    after the full-count cap), no more than the rule set's first-turn cap if it never played.
    """
    if standing is Standing.WRONG:
        points = rules.wrong_declaration
        return Charge(points, PenaltyRule.WRONG_DECLARATION, points)
    if standing is Standing.DROPPED:
        kind = drop or DropKind.MIDDLE
        points = drop_points(kind, rules) if drop_points_paid is None else drop_points_paid
        rule = PenaltyRule.FIRST_DROP if kind is DropKind.FIRST else PenaltyRule.MIDDLE_DROP
        return Charge(points, rule, points)
    if penalty is None:
        raise ValueError("the charge of a seat still holding cards needs its hand's penalty")
    cap = rules.first_turn_cap
    if cap is not None and played == 0 and penalty.points > cap:
        return Charge(cap, PenaltyRule.FIRST_TURN_CAP, penalty.uncapped)
    return Charge(penalty.points, penalty.rule, penalty.uncapped)


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """What settlement needs to know about one seat when the deal ends."""

    seat: int
    standing: Standing
    cards: Hand
    """The final 21-card hand; for dropped or wrongly declared seats, the cards that left play."""
    played: int
    """Turns the seat completed."""
    drop: DropKind | None = None
    drop_points: int | None = None
    """What its drop cost, as its :class:`~rummy21.game.events.Dropped` event recorded."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's deal score and how it was reached."""

    seat: int
    standing: Standing
    drop: DropKind | None
    cards: Hand
    penalty: int
    """Points this seat pays the winner (0 for the winner)."""
    rule: PenaltyRule | None
    """Why it pays that; ``None`` for the winner and in a wash."""
    groups: tuple[Group, ...]
    """The hand's arrangement (the declaration, or the loser's best saving arrangement)."""
    loose: tuple[Card, ...]
    value: int
    """Value-card points counted for this seat (0 if it takes no part in the value settlement)."""
    marriages: int
    value_net: int
    cap_adjustment: int
    """What the total loss cap gave back (+) or took back (−)."""
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "standing": self.standing.value,
            "drop": self.drop.value if self.drop else None,
            "cards": [str(c) for c in self.cards],
            "penalty": self.penalty,
            "rule": self.rule,
            "groups": [g.to_dict() for g in self.groups],
            "loose": [str(c) for c in self.loose],
            "value": self.value,
            "marriages": self.marriages,
            "value_net": self.value_net,
            "cap_adjustment": self.cap_adjustment,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of a deal."""

    reason: EndReason
    winner: int | None
    option: Option | None
    seats: tuple[SeatResult, ...] = field(default=())

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "option": self.option,
            "scores": list(self.scores),
            "seats": [s.to_dict() for s in self.seats],
        }

    def public_dict(self, viewer: int | None) -> dict[str, Any]:
        """The result as ``viewer`` (``None``: a spectator) is shown it: :meth:`to_dict`, with
        the hand of a dropped seat not ``viewer``'s folded (:func:`hand_shown`: its ``cards``,
        ``groups`` and ``loose`` empty, and ``hidden``). What a bot program is told at the end
        of a deal (the bot protocol's ``end``).

        >>> from rummy21.game import Table
        >>> table = Table(2, seed=1)
        >>> dropped = table.turn
        >>> _ = table.drop()  # (two seats: the other wins)
        >>> seats = table.result.public_dict(dropped)["seats"]
        >>> sorted((s["standing"], len(s["cards"]), s["hidden"]) for s in seats)
        [('active', 21, False), ('dropped', 21, False)]
        >>> seats = table.result.public_dict(1 - dropped)["seats"]
        >>> sorted((s["standing"], len(s["cards"]), s["hidden"]) for s in seats)
        [('active', 21, False), ('dropped', 0, True)]
        """
        data = self.to_dict()
        for seat, row in zip(self.seats, data["seats"], strict=True):
            row["hidden"] = not hand_shown(seat.standing, seat.seat, viewer)
            if row["hidden"]:
                row["cards"], row["groups"], row["loose"] = [], [], []
        return data


def value_net(values: Sequence[int]) -> list[int]:
    """Net value of each of the m taking part: m·Vᵢ − ΣV (RULES §7)."""
    m, total = len(values), sum(values)
    return [m * v - total for v in values]


def largest_remainder(amount: int, weights: dict[int, int], order: Sequence[int]) -> dict[int, int]:
    """Split ``amount`` in whole points in proportion to ``weights``; ties go first in ``order``.

    >>> largest_remainder(10, {0: 1, 1: 1, 2: 1}, order=[1, 2, 0])
    {0: 3, 1: 4, 2: 3}
    """
    total = sum(weights.values())
    shares = {k: amount * w // total for k, w in weights.items()}
    left = amount - sum(shares.values())
    rank = {seat: i for i, seat in enumerate(order)}
    by_remainder = sorted(weights, key=lambda k: (-(amount * weights[k] % total), rank[k]))
    for k in by_remainder[:left]:
        shares[k] += 1
    return shares


def cap_losses(pay: Sequence[Sequence[int]], cap: int, dealer: int) -> list[list[int]]:
    """Apply the total loss cap to a pay matrix: nobody's score falls below ``-cap``."""
    n = len(pay)
    matrix = [list(row) for row in pay]
    order = [(dealer + 1 + k) % n for k in range(n)]
    # Each pass refunds every seat below the cap, which may push a seat it refunds below it
    # in turn. Every refund shrinks the flows (a seat below the cap pays someone, so there is
    # always one), so this ends — after many passes on rare hands, never a fixed number.
    while True:
        below = [i for i in order if -sum(matrix[i]) < -cap]
        if not below:
            break
        for i in below:
            excess = -cap + sum(matrix[i])
            if excess <= 0:
                continue
            receivers = {j: matrix[i][j] for j in range(n) if matrix[i][j] > 0}
            refunds = largest_remainder(excess, receivers, order)
            for j, back in refunds.items():
                matrix[i][j] -= back
                matrix[j][i] += back
    return matrix


def settle(
    rules: RuleSet,
    jokers: Jokers,
    dealer: int,
    reason: EndReason,
    winner: int | None,
    option: Option | None,
    seats: Sequence[SeatEnd],
    declaration: Analysis | None = None,
) -> Settlement:
    """Score a finished deal.

    ``declaration`` is the analysis of the declarer's 21 cards (for its arrangement).
    """
    if reason is EndReason.WASH or winner is None:
        return Settlement(
            reason,
            None,
            None,
            tuple(
                SeatResult(
                    s.seat, s.standing, s.drop, s.cards, 0, None, (), s.cards.cards, 0, 0, 0, 0, 0
                )
                for s in seats
            ),
        )
    n = len(seats)
    pay = [[0] * n for _ in range(n)]
    penalty = [0] * n
    rule: list[PenaltyRule | None] = [None] * n
    groups: list[tuple[Group, ...]] = [()] * n
    loose: list[tuple[Card, ...]] = [s.cards.cards for s in seats]
    analyses: dict[int, Analysis] = {}

    def analysis_of(s: SeatEnd) -> Analysis:
        if s.seat not in analyses:
            analyses[s.seat] = analyze(s.cards, jokers, rules)
        return analyses[s.seat]

    if declaration is not None:
        analyses[winner] = declaration
        groups[winner], loose[winner] = declaration.groups, declaration.loose
    for s in seats:
        if s.seat == winner:
            continue
        found = None
        if s.standing not in (Standing.WRONG, Standing.DROPPED):
            found = analysis_of(s).penalty
            groups[s.seat], loose[s.seat] = found.groups, found.loose
        charged = charge(s.standing, s.played, rules, found, s.drop, s.drop_points)
        penalty[s.seat], rule[s.seat] = charged.points, charged.rule
        pay[s.seat][winner] += penalty[s.seat]
        pay[winner][s.seat] -= penalty[s.seat]

    takers = [
        s
        for s in seats
        if s.standing in (Standing.ACTIVE, Standing.DECLARED)
        or (
            rules.dropped_value is DroppedValue.MIDDLE
            and s.standing is Standing.DROPPED
            and s.drop is DropKind.MIDDLE
        )
    ]
    values = [0] * n
    marriages = [0] * n
    for s in takers:
        points, married = rules.value_points(*jokers.value_counts(s.cards))
        # The "seen" rule: without three pure groups a player pays others but earns nothing.
        if (
            rules.value_needs_pure
            and s.standing is not Standing.DECLARED
            and not pure_groups_possible(s.cards.counts, rules)
        ):
            points = married = 0
        values[s.seat], marriages[s.seat] = points, married
    for a in takers:
        for b in takers:
            if a.seat != b.seat:
                pay[a.seat][b.seat] += values[b.seat] - values[a.seat]
    nets = [0] * n
    for s, net in zip(takers, value_net([values[s.seat] for s in takers]), strict=True):
        nets[s.seat] = net
    before = [-sum(row) for row in pay]
    if rules.total_loss_cap is not None:
        pay = cap_losses(pay, rules.total_loss_cap, dealer)
    scores = [-sum(row) for row in pay]
    results = tuple(
        SeatResult(
            s.seat,
            s.standing,
            s.drop,
            s.cards,
            penalty[s.seat],
            rule[s.seat],
            groups[s.seat],
            loose[s.seat],
            values[s.seat],
            marriages[s.seat],
            nets[s.seat],
            scores[s.seat] - before[s.seat],
            scores[s.seat],
        )
        for s in seats
    )
    return Settlement(reason, winner, option, results)


def hand_shown(standing: Standing, seat: int, viewer: int | None) -> bool:
    """Whether ``viewer`` (``None``: a spectator) sees ``seat``'s hand once the deal is over.

    Every hand is laid out at the end, except a dropped one: it stays folded face down for
    everyone but its own player. The browser's live result, the history replay and the
    terminal game all ask this.

    >>> hand_shown(Standing.DROPPED, 1, 1), hand_shown(Standing.DROPPED, 1, 0)
    (True, False)
    >>> hand_shown(Standing.WRONG, 1, None), hand_shown(Standing.DROPPED, 1, None)
    (True, False)
    """
    return standing is not Standing.DROPPED or seat == viewer
