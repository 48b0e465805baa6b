"""The deal log as JSON lines: one event record per line, the :class:`DealStarted` header first.

>>> from rummy21.game.table import Table
>>> table = Table(players=2, seed=1)
>>> _ = table.draw("stock"); _ = table.timeout()
>>> text = dump_log(table.log)
>>> load_log(text) == list(table.log)
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from rummy21.game.errors import ReplayError
from rummy21.game.events import Event, Record, event_from_dict


def dump_log(events: Iterable[Event]) -> str:
    """The events as JSON lines (a trailing newline included)."""
    return "".join(json.dumps(e.to_dict()) + "\n" for e in events)


def load_log(source: str | Iterable[Event | dict[str, Any] | str]) -> list[Event]:
    """Events from JSON-lines text, or from an iterable of events, dicts or JSON lines."""
    items: Iterable[Event | dict[str, Any] | str] = (
        source.splitlines() if isinstance(source, str) else source
    )
    events: list[Event] = []
    for number, item in enumerate(items, 1):
        if isinstance(item, Record):
            events.append(item)
            continue
        if isinstance(item, str):
            if not item.strip():
                continue
            try:
                item = json.loads(item)
            except json.JSONDecodeError as error:
                raise ReplayError(f"line {number} is not JSON: {error.msg}") from None
        if not isinstance(item, dict):
            raise ReplayError(f"line {number} is not an event object")
        events.append(event_from_dict(item))
    return events
