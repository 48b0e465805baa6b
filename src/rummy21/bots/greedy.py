"""A one-ply greedy bot built on the solver (through :func:`~rummy21.bots.evaluate.penalty_after`).

* Draw: take the open card only when, with the best discard after it, the hand's penalty goes
  down (or it becomes a valid declaration); otherwise draw from the stock.
* Then declare as soon as some card can be finished with a valid declaration; otherwise discard
  the non-joker card whose removal leaves the lowest penalty (ties: the higher-point card).
* Drop, before drawing, when the hand is hopeless — no pure-group save, no three-card pure run
  or tunnela in sight, at most one joker, a high penalty — and the drop costs less than the
  expected loss (the penalty times the chance that one of the others wins first).

>>> from rummy21.game import Table
>>> bot, tables = GreedyBot(), [Table(players=2, seed=seed) for seed in range(5)]
>>> all(bot.choose(t.view(0), t.legal_actions()) in t.legal_actions() for t in tables)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy21.bots.evaluate import Reading, penalty_after
from rummy21.cards import TYPE_COUNT, Card
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.settlement import Standing
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import View
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


def pure_runs(counts: Sequence[int]) -> int:
    """Three-card pure runs (Ace low or high) and tunnelas the cards already hold, greedily.

    >>> from rummy21.cards import Hand
    >>> pure_runs(Hand.parse("QS KS AS 5H 5H 5H 9D 10D").counts)
    2
    """
    found = sum(n // 3 for n in counts)
    for suit in range(4):
        present = [counts[suit * 13 + r] > 0 for r in range(13)] + [counts[suit * 13] > 0]
        run = 0
        for here in present:
            run = run + 1 if here else 0
            if run == 3:
                found += 1
                run = 0
    return found


def play_on_cost(view: View, now: Reading) -> float:
    """What playing on a hand read as ``now`` is expected to cost, as the drop rule counts it:
    its penalty times the chance that one of the other active players wins first."""
    others = sum(1 for s in view.seats if s.seat != view.seat and s.standing is Standing.ACTIVE)
    return now.points * others / (others + 1)


def hopeless(view: View, counts: Sequence[int], now: Reading, points: int) -> bool:
    """Whether to drop the hand ``counts`` (read as ``now``) before drawing: no pure-group
    save, a penalty of at least ``points``, no three-card pure run or tunnela, at most one
    joker, and the drop (``view.drop_cost``) cheaper than the expected loss — the penalty
    times the chance that one of the other active players wins first."""
    if now.pure or now.points < points:
        return False
    mask = view.jokers.joker_mask
    if pure_runs(counts) or sum(n for n, joker in zip(counts, mask, strict=True) if joker) > 1:
        return False
    return play_on_cost(view, now) > view.drop_cost


@dataclass(frozen=True, slots=True)
class Release:
    """The card to let go from 22 cards, and the 21-card hand it leaves."""

    card: Card
    reading: Reading
    declare: bool
    """Whether the 21 cards left are a valid declaration (so: finish with ``card``)."""


def best_release(
    counts: Sequence[int],
    blocked: Card | None,
    jokers: Jokers,
    rules: RuleSet,
    among: Sequence[int] | None = None,
) -> Release:
    """The best card to discard or finish with from the 22-card hand ``counts``.

    A valid declaration first (lowest penalty, then earliest card); else the non-joker card
    whose removal leaves the lowest penalty, ties to the higher-point card, then the earliest.
    ``blocked`` (the card just taken from the open pile) is never chosen. ``among``: only
    these card kinds (held ones) are tried, not every card held (the search's playouts,
    :func:`~rummy21.bots.search.quick_release`); the ranking does not depend on their order.

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    >>> release = best_release(hand.counts, None, Jokers.from_cut("7D"), RuleSet())
    >>> str(release.card), release.declare, release.reading.points
    ('KH', True, 0)
    """
    work = list(counts)
    cut = jokers.cut
    best: tuple[tuple[int, int, int], Card, Reading] | None = None
    finish: tuple[tuple[int, int], Card, Reading] | None = None
    for index in range(TYPE_COUNT) if among is None else among:
        if not work[index] or (blocked is not None and index == blocked.index):
            continue
        card = Card(index)
        work[index] -= 1
        reading = penalty_after(work, cut, rules)
        work[index] += 1
        if reading.valid and (finish is None or (reading.points, index) < finish[0]):
            finish = ((reading.points, index), card, reading)
        if jokers.is_joker(card):
            continue  # jokers count 0 and fill any group: never thrown away
        key = (reading.points, -card.points, index)
        if best is None or key < best[0]:
            best = (key, card, reading)
    if finish is not None:
        return Release(finish[1], finish[2], True)
    if best is None:  # nothing but jokers (and the blocked card) to let go
        index = next(
            i for i in range(TYPE_COUNT) if work[i] and (blocked is None or i != blocked.index)
        )
        work[index] -= 1
        return Release(Card(index), penalty_after(work, cut, rules), False)
    return Release(best[1], best[2], False)


class GreedyBot:
    """Minimises its penalty one turn at a time; see the module docstring."""

    name = "greedy"

    def __init__(self, hopeless_points: int = 80) -> None:
        self.hopeless_points = hopeless_points

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        rules, jokers = view.rules, view.jokers
        counts = list(view.hand.counts)
        if any(isinstance(a, Draw) for a in legal_actions):
            now = penalty_after(counts, jokers.cut, rules)
            if Drop() in legal_actions and hopeless(view, counts, now, self.hopeless_points):
                return Drop()
            top = view.top
            if top is not None and view.can_take_open:
                counts[top.card.index] += 1
                after = best_release(counts, kept_after_taking(top.card, rules), jokers, rules)
                if after.declare or after.reading.points < now.points:
                    return Draw(Source.OPEN)
            return Draw(Source.STOCK)
        release = best_release(counts, view.blocked, jokers, rules)
        action: Action = Declare(release.card) if release.declare else Discard(release.card)
        if action in legal_actions:
            return action
        return next(a for a in legal_actions if isinstance(a, Discard))
