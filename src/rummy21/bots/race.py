"""The race to declare: the expert's play, ruled first by the distance to a valid declaration.

A deal is a race — the winner takes every loser's penalty — and how far a hand is from a valid
declaration (the fewest cards to replace, :mod:`rummy21.distance`) tells who wins it far better
than its penalty does. In 300 deals of four experts, a seat about to draw one card away from
declaring scored +147 a deal on average, two away +20, three away −54, four away −82; within
one distance, a penalty of 100 or more against one below it moved the mean by 30 to 60 points
only. Most hands are two or three cards away, where the penalty has nearly always reached its
cap (no three pure groups yet: the full count) and cannot tell them apart: the expert, which
weighs penalties, let go a card that took its hand one card further away in 213 of 1,535
discards.

This bot is the expert (:class:`~rummy21.bots.expert.ExpertBot`) with the distance first:

* **Discard**: only the cards whose release leaves the least distance are compared (by the
  expert's expected penalty after the next draw).
* **Draw**: the open card when it brings the hand nearer (some card let go after taking it
  leaves a smaller distance); otherwise the expert's rule.
* **Drop**: a first drop (before its first draw) when the hand is ``far_drop`` or more cards
  away — such a hand paid more than a first drop costs on average — and the expert's rule
  otherwise.

It sees only its :class:`~rummy21.game.view.View` and is a pure function of it.

>>> from rummy21.game import Table
>>> bot, tables = RaceBot(), [Table(players=3, seed=seed) for seed in range(4)]
>>> all(bot.choose(t.view(t.turn), t.legal_actions()) in t.legal_actions() for t in tables)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rummy21.bots.evaluate import FAR, Reading, distance_after
from rummy21.bots.expert import ExpertBot, release_order
from rummy21.cards import Card
from rummy21.game.events import DropKind
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import View
from rummy21.ruleset import RuleSet


def nearest(
    counts: list[int], kinds: Iterable[int], cut: Card, rules: RuleSet, limit: int = FAR
) -> tuple[list[int], int]:
    """The card kinds of ``kinds`` (held in the 22 cards ``counts``) whose release leaves the
    least distance, in the order given, and that distance (``limit + 1`` if none is within
    ``limit``: then every kind). Each reading is bounded by the least found so far, so the
    kinds most likely to be least should come first.

    >>> from rummy21.cards import Hand
    >>> hand = Hand.parse("2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5D 5C QC KC 2H 3H 4D 9S 10C JH AC KD")
    >>> kinds, d = nearest(list(hand.counts), [Card.parse(c).index for c in ("2S", "KD", "AC")],
    ...     Card.parse("KH"), RuleSet())
    >>> [str(Card(k)) for k in kinds], d
    (['AC'], 2)
    """
    order = list(kinds)
    best, found = limit + 1, list(order)
    for index in order:
        counts[index] -= 1
        away = distance_after(counts, cut, rules, min(limit, best))
        counts[index] += 1
        if away < best:
            best, found = away, [index]
        elif away == best and best <= limit:
            found.append(index)
    return found, best


def nearer_by_taking(view: View, counts: Sequence[int], away: int) -> bool:
    """Whether taking the open card lets the hand ``counts`` (``away`` cards from a valid
    declaration) reach fewer: some card it may then let go leaves a smaller distance."""
    top = view.top
    if top is None or away == 0:
        return False
    taking = list(counts)
    taking[top.card.index] += 1
    kept = kept_after_taking(top.card, view.rules)
    for index, n in enumerate(taking):
        if not n or (kept is not None and index == kept.index):
            continue
        taking[index] -= 1
        closer = distance_after(taking, view.cut, view.rules, away - 1) < away
        taking[index] += 1
        if closer:
            return True
    return False


class RaceBot(ExpertBot):
    """The expert with the distance first; see the module docstring."""

    name = "race"

    def __init__(
        self,
        far_drop: int = 4,
        nearest_discards: bool = True,
        take_nearer: bool = True,
        **expert: Any,
    ) -> None:
        super().__init__(**expert)
        self.far_drop = far_drop
        """A first drop from this distance on (more than :data:`~rummy21.bots.evaluate.FAR`:
        never, but by the expert's rule)."""
        self.nearest_discards, self.take_nearer = nearest_discards, take_nearer
        """Each part of the bot can be switched off, to measure what it is worth."""

    def _released(
        self, counts: list[int], ranking: dict[int, Reading], view: View
    ) -> dict[int, Reading]:
        if not self.nearest_discards:
            return ranking
        kinds, _ = nearest(counts, release_order(ranking, view.jokers), view.cut, view.rules)
        return {i: ranking[i] for i in kinds} or ranking

    def drops(self, view: View, counts: Sequence[int], now: Reading) -> bool:
        """A first drop when the hand is ``far_drop`` or more cards away from a valid
        declaration; else the expert's rule (:meth:`ExpertBot.drops
        <rummy21.bots.expert.ExpertBot.drops>`). The coach asks it too."""
        far = (
            view.drop_kind is DropKind.FIRST
            and not now.valid
            and distance_after(counts, view.cut, view.rules) >= self.far_drop
        )
        return far or super().drops(view, counts, now)

    def _take_open(self, counts: list[int], view: View, now: Reading) -> bool:
        if not self.take_nearer:
            return super()._take_open(counts, view, now)
        away = distance_after(counts, view.cut, view.rules)
        return nearer_by_taking(view, counts, away) or super()._take_open(counts, view, now)
