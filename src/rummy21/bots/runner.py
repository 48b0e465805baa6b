"""Playing deals and matches with bots in every seat.

>>> from rummy21.bots import make_bots
>>> from rummy21.game import Table
>>> from rummy21.ruleset import RuleSet
>>> table = Table(players=3, rules=RuleSet().with_(turn_limit=30), seed=11)
>>> result = play_deal(table, make_bots(["random"] * 3, seed=11))
>>> sum(result.scores), table.over
(0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummy21.bots.base import Bot, DealWatcher
from rummy21.game.actions import Action
from rummy21.game.events import Event
from rummy21.game.match import DealRecord, Match
from rummy21.game.settlement import Settlement
from rummy21.game.table import Table

DEFAULT_TURN_LIMIT = 500
"""Turns before a deal among bots is a wash when the rule set sets no limit (``simulate`` and
``tournament``): two weak bots may otherwise never end one."""

Observer = Callable[[Table, Action, Event], None]


def play_deal(table: Table, bots: Sequence[Bot], observer: Observer | None = None) -> Settlement:
    """Let ``bots[seat]`` play each turn until the deal ends (then tell those that watch,
    :func:`tell_deal_over`); return its settlement."""
    if len(bots) != table.players:
        raise ValueError(f"{table.players} seats need {table.players} bots, not {len(bots)}")
    while not table.over:
        seat = table.turn
        assert seat is not None
        action = bots[seat].choose(table.view(seat), table.legal_actions())
        event = table.apply(action)
        if observer is not None:
            observer(table, action, event)
    assert table.result is not None
    tell_deal_over(table, bots)
    return table.result


def tell_deal_over(table: Table, bots: Sequence[object]) -> None:
    """Tell each bot of ``bots`` (by seat) that is a :class:`~rummy21.bots.base.DealWatcher`
    that the deal of ``table`` is over: its seat's last view, and the result."""
    assert table.result is not None
    for seat, bot in enumerate(bots):
        if isinstance(bot, DealWatcher):
            bot.deal_over(table.view(seat), table.result)


def play_match(
    match: Match, bots: Sequence[Bot], deals: int, observer: Observer | None = None
) -> list[DealRecord]:
    """Play ``deals`` deals of ``match``; return their records."""
    records = []
    for _ in range(deals):
        table = match.new_deal()
        play_deal(table, bots, observer)
        records.append(match.record(table))
    return records
