"""Playing one shoe: its seeded deal once per line-up, every bot through its own seat's view.

A shoe's cards, dealer and bots' seeds come from the tournament's seed and the shoe's number
alone, so any process (or Ray worker) plays shoe ``n`` the same way, in any order.

>>> from rummy21.tournament.settings import Settings
>>> settings = Settings(("random", "random"), players=2, deals=3, seed=1, turn_limit=40)
>>> record = play_shoe(settings, 2)
>>> [d.lineup for d in record.deals], record == play_shoe(settings, 2)
([(0, 1), (1, 0)], True)
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Sequence

from rummy21.bots import Bot, DealWatcher, make_bot, play_deal, seat_seed
from rummy21.bots.clairvoyant import CLAIRVOYANT, ClairvoyantBot
from rummy21.bots.external import fault_counts
from rummy21.game.actions import Action, Draw, Drop, TimeOut
from rummy21.game.match import deal_dealer, deal_seed
from rummy21.game.settlement import Settlement
from rummy21.game.table import Table
from rummy21.game.view import Phase, View
from rummy21.tournament.records import DealOutcome, MoveTimes, ShoeRecord
from rummy21.tournament.scheme import lineups
from rummy21.tournament.settings import Settings


def shoe_seed(seed: int, number: int) -> int:
    """The seed that deals shoe ``number``: deal ``number``'s of a match seeded with ``seed``
    (:func:`~rummy21.game.match.deal_seed`).

    >>> shoe_seed(1, 0) == shoe_seed(1, 0) != shoe_seed(1, 1)
    True
    """
    value = deal_seed(seed, number)
    assert value is not None
    return value


def shoe_dealer(players: int, number: int) -> int:
    """The dealer of shoe ``number``: deal ``number``'s of a match
    (:func:`~rummy21.game.match.deal_dealer`), moving one seat each shoe.

    >>> [shoe_dealer(3, n) for n in range(4)]
    [2, 0, 1, 2]
    """
    return deal_dealer(players, number)


def bots_seed(seed: int, number: int, lineup: int) -> int:
    """The seed :func:`~rummy21.bots.make_bots` gets for line-up ``lineup`` of shoe
    ``number`` (random bots draw their own moves from it), a 32-bit digest of the three.

    >>> bots_seed(1, 0, 0) == bots_seed(1, 0, 0) != bots_seed(1, 0, 1)
    True
    """
    digest = hashlib.sha256(f"rummy21 tournament {seed} {number} {lineup}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def deal_bots(names: Sequence[str], table: Table, seed: int) -> list[Bot]:
    """The bots of one deal, seat by seat, seeded as :func:`~rummy21.bots.make_bots` seeds
    them (:func:`~rummy21.bots.seat_seed`); a ``clairvoyant`` seat is built on ``table``
    itself — the one place a bot is given more than its View
    (:mod:`rummy21.bots.clairvoyant`).

    >>> table = Table(2, seed=3)
    >>> [bot.name for bot in deal_bots(["clairvoyant", "expert"], table, 1)]
    ['clairvoyant', 'expert']
    """
    return [
        ClairvoyantBot(table, seed=seat_seed(seed, seat))
        if name == CLAIRVOYANT
        else make_bot(name, seat_seed(seed, seat))
        for seat, name in enumerate(names)
    ]


class _Clocked:
    """A bot whose moves are timed and whose turns are counted (it sees what the bot sees, and
    passes the end of the deal on to a bot that watches for it)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot, self.name, self.times, self.turns = bot, bot.name, times, 0

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal_actions)
        self.times.append(time.perf_counter() - start)
        if isinstance(action, Draw | Drop) or (
            isinstance(action, TimeOut) and view.phase is Phase.DRAW
        ):
            self.turns += 1
        return action

    def deal_over(self, view: View, result: Settlement) -> None:
        if isinstance(self.bot, DealWatcher):
            self.bot.deal_over(view, result)


def play_shoe(settings: Settings, number: int) -> ShoeRecord:
    """Play shoe ``number`` of ``settings``' tournament: one deal per line-up, the same cards
    and dealer each time, fresh bots each deal (an ``exec:`` bot's program is reused: its
    faults, :mod:`rummy21.bots.external`, are counted per bot)."""
    rules = settings.rule_set()
    seed, dealer = shoe_seed(settings.seed, number), shoe_dealer(settings.players, number)
    times: list[list[float]] = [[] for _ in settings.bots]
    faults: list[Counter[str]] = [Counter() for _ in settings.bots]
    deals = []
    for index, lineup in enumerate(lineups(len(settings.bots), settings.players)):
        table = Table(settings.players, rules, seed=seed, dealer=dealer)
        bots = deal_bots(
            [settings.bots[bot] for bot in lineup], table, bots_seed(settings.seed, number, index)
        )
        clocked = [_Clocked(bot, times[who]) for bot, who in zip(bots, lineup, strict=True)]
        result = play_deal(table, clocked)
        for bot, who in zip(bots, lineup, strict=True):
            faults[who].update(fault_counts(bot))
        deals.append(
            DealOutcome(
                lineup,
                result.reason,
                result.winner,
                None if result.option is None else str(result.option),
                table.turns,
                result.scores,
                tuple(seat.standing for seat in result.seats),
                tuple(bot.turns for bot in clocked),
            )
        )
    return ShoeRecord(
        number,
        seed,
        dealer,
        tuple(deals),
        tuple(MoveTimes.of(t) for t in times),
        tuple(tuple(sorted(f.items())) for f in faults),
    )
