"""Step-by-step replays of finished deals for the history page, as one seat saw them live.

The engine's :meth:`Table.replay` rebuilds a deal in one go; the history page wants every
position on the way, so this module applies the log's player actions one at a time (with the
same public table operations) and records, after each, what the viewer saw at the table.

Privacy: the same policy as the live table. A replay shows a viewer nothing the live table
did not show it:

* its own hand at every step; every other seat only as a number of cards;
* the public events (discards, cards taken from the open pile, drops, time-outs, reshuffles);
  a card drawn from the stock only to the seat that drew it; the finish card of a valid
  declaration (the live result shows it), of a wrong one only to the declarer;
* the open pile and the stock's size, never the order of the stock;
* at the end, the deal's result exactly as the live result screen showed it to the viewer
  (:func:`~rummy21.server.present.result_view`), and the last frame lays out the hands that
  result lays out (:func:`~rummy21.game.settlement.hand_shown`: a dropped hand only to its own
  player).

``viewer=None`` is a spectator (an outsider of a table whose history is public): no hand during
the deal, and the result with every dropped hand folded. Who may ask at all is decided in
:mod:`.app`: a table's players (by their seat token), or anyone if the table was created with a
public history.

>>> from rummy21.bots import make_bots, play_deal
>>> from rummy21.game import Table
>>> table = Table(players=2, seed=4)
>>> _ = play_deal(table, make_bots(["random", "random"], seed=4))
>>> frames = replay_frames([e.to_dict() for e in table.log], viewer=0)
>>> frames[0]["events"][0]["action"], frames[-1]["events"][-1]["action"]
('dealt', 'deal_ended')
>>> len(frames[0]["hands"][0]), frames[0]["hands"][1], frames[0]["counts"]
(21, None, [21, 21])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from rummy21.game.errors import ReplayError
from rummy21.game.events import Declared, Drew, Event
from rummy21.game.log import load_log
from rummy21.game.settlement import hand_shown
from rummy21.game.table import Table
from rummy21.game.view import public_event
from rummy21.ruleset import RuleSet
from rummy21.server import present


def _describe(
    event: Event, viewer: int | None, rules: RuleSet, names: Sequence[str] | None
) -> dict[str, Any]:
    """The public face of an event, plus what ``viewer`` itself saw of its own moves, with
    the narrator's sentence (``text``) as ``viewer`` hears it."""
    shown = public_event(event)
    if isinstance(event, Drew) and event.seat == viewer:
        shown = replace(shown, card=event.card)  # its own draw from the stock
    out = present.event_dict(shown, rules, viewer, names)
    if isinstance(event, Drew):
        out["forced"] = event.forced
    if isinstance(event, Declared) and (event.valid or event.seat == viewer):
        out["finish"] = str(event.finish)
    return out


def _drawn(table: Table, viewer: int | None) -> str | None:
    """The card the player in turn has drawn, if ``viewer`` saw it: its own, read from its
    View; another's as every seat was told it (:func:`~rummy21.game.view.public_event`: a
    card taken from the open pile, never one from the stock)."""
    if table.drawn is None:
        return None
    if viewer is not None and table.turn == viewer:
        drawn = table.view(viewer).drawn
        return None if drawn is None else str(drawn)
    draw = next((e for e in reversed(table.log) if isinstance(e, Drew)), None)
    told = None if draw is None else public_event(draw).card
    return None if told is None else str(told)


def _frame(
    table: Table, new: Iterable[Event], viewer: int | None, names: Sequence[str] | None
) -> dict[str, Any]:
    players = table.players
    hands: list[list[str] | None] = [None] * players
    result = table.result
    if result is not None:
        for row in result.seats:
            if hand_shown(row.standing, row.seat, viewer):
                hands[row.seat] = [str(c) for c in row.cards]
    elif viewer is not None:
        hands[viewer] = [str(c) for c in table.view(viewer).hand]
    return {
        "events": [_describe(e, viewer, table.rules, names) for e in new],
        "hands": hands,
        "counts": [len(table.hand(s)) for s in range(players)],
        "standing": [table.standing(s).value for s in range(players)],
        "open_pile": [
            {"card": str(o.card), "discarded_by": o.discarded_by} for o in table.open_pile[-8:]
        ],
        "open_count": len(table.open_pile),
        "stock_size": table.stock_size,
        "turn": table.turn,
        "phase": table.phase.value,
        "drawn": _drawn(table, viewer),
    }


def _replay(
    log: Iterable[Any], viewer: int | None, names: Sequence[str] | None = None
) -> tuple[Table, list[dict[str, Any]]]:
    events = load_log(log)
    table = Table.start_of(events)
    if viewer is not None and not 0 <= viewer < table.players:
        raise ValueError(f"no seat {viewer} at a table of {table.players}")
    frames = [_frame(table, table.log, viewer, names)]
    for event in events[1:]:
        before = len(table.log)
        if table.apply_recorded(event):
            frames.append(_frame(table, table.log[before:], viewer, names))
    if list(table.log) != events:
        raise ReplayError("the deal does not reproduce from its log")
    return table, frames


def frame_of_records(log_lines: Iterable[Any]) -> dict[int, int]:
    """For each record of the log that is a player action, the frame of :func:`replay_frames`
    it makes (frame 0 is the deal, then one frame per player action, as :func:`_replay` counts
    them): where the coach's decisions are on the history page's replay.

    >>> from rummy21.bots import make_bots, play_deal
    >>> table = Table(players=2, seed=4)
    >>> _ = play_deal(table, make_bots(["random", "random"], seed=4))
    >>> log = [e.to_dict() for e in table.log]
    >>> max(frame_of_records(log).values()) == len(replay_frames(log, viewer=0)) - 1
    True
    """
    events = load_log(log_lines)
    table = Table.start_of(events)
    steps, frame = {}, 0
    for number, event in enumerate(events[1:], 1):
        if table.apply_recorded(event):
            frame += 1
            steps[number] = frame
    return steps


def replay_frames(log: Iterable[Any], viewer: int | None) -> list[dict[str, Any]]:
    """One frame per player action of the deal ``log`` (after the first: the deal itself), as
    seat ``viewer`` saw it (``None``: a spectator)."""
    return _replay(log, viewer)[1]


def replay_deal(
    log: Iterable[Any], number: int, viewer: int | None, point_value: Decimal, names: Sequence[str]
) -> dict[str, Any]:
    """A finished deal for the history page: its frames, jokers and result, as ``viewer`` saw
    them (see the module docstring)."""
    table, frames = _replay(log, viewer, names)
    if table.result is None:
        raise ReplayError("the deal is not over")
    return {
        "frames": frames,
        "jokers": present.jokers_dict(table.jokers),
        "result": present.result_view(table, number, viewer, point_value, names),
        "viewer": viewer,
    }
