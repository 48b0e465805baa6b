"""Step-by-step replays of finished deals for the history page.

The engine's :meth:`Table.replay` rebuilds a deal in one go; the history page wants every
position on the way, so this module applies the log's player actions one at a time (with the
same public table operations) and records the whole table after each: every hand, the open
pile and the stock size — never the order of the cards still in the stock.

>>> from rummy21.bots import make_bots, play_deal
>>> from rummy21.game import Table
>>> table = Table(players=2, seed=4)
>>> _ = play_deal(table, make_bots(["random", "random"], seed=4))
>>> frames = replay_frames([e.to_dict() for e in table.log])
>>> frames[0]["events"][0]["action"], frames[-1]["events"][-1]["action"]
('dealt', 'deal_ended')
>>> len(frames[0]["hands"]), [len(h) for h in frames[0]["hands"]]
(2, [21, 21])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rummy21.game.errors import ReplayError
from rummy21.game.events import DealStarted, Declared, Drew, Event, Reshuffled
from rummy21.game.log import load_log
from rummy21.game.table import Table
from rummy21.game.view import public_event


def _describe(event: Event) -> dict[str, Any]:
    """The public face of an event, plus the card drawn from the stock (the deal is over)."""
    out = public_event(event).to_dict()
    if isinstance(event, Drew):
        out["card"] = str(event.card)
        out["forced"] = event.forced
    if isinstance(event, Declared):
        out["finish"] = str(event.finish)
    return out


def _frame(table: Table, new: Iterable[Event]) -> dict[str, Any]:
    return {
        "events": [_describe(e) for e in new],
        "hands": [[str(c) for c in table.hand(s)] for s in range(table.players)],
        "standing": [table.standing(s).value for s in range(table.players)],
        "open_pile": [{"card": str(o.card), "by": o.discarded_by} for o in table.open_pile[-8:]],
        "open_count": len(table.open_pile),
        "stock_size": table.stock_size,
        "turn": table.turn,
        "phase": table.phase.value,
        "drawn": None if table.drawn is None else str(table.drawn),
    }


def replay_frames(log: Iterable[Any]) -> list[dict[str, Any]]:
    """One frame per player action of the deal ``log`` (after the first: the deal itself)."""
    events = load_log(log)
    if not events or not isinstance(events[0], DealStarted):
        raise ReplayError("a deal log starts with a deal_started record")
    head = events[0]
    orders = [e.cards for e in events if isinstance(e, Reshuffled)] if head.seed is None \
        else None
    table = Table(head.players, head.rules, seed=head.seed, dealer=head.dealer,
                  shoe=head.shoe, reshuffles=orders)
    frames = [_frame(table, table.log)]
    for event in events[1:]:
        before = len(table.log)
        if table.apply_recorded(event):
            frames.append(_frame(table, table.log[before:]))
    if list(table.log) != events:
        raise ReplayError("the deal does not reproduce from its log")
    return frames
