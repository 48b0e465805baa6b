"""A room's rules as plain synchronous code (:class:`~rummy21.server.core.RoomCore`), without a
database, an event loop or a connection: every change is asked of the engine, comes back as
writes to commit, and changes nothing else until it is done."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("pydantic")

from rummy21.game import Draw, Drop, Source
from rummy21.game.errors import IllegalActionError
from rummy21.server import repository
from rummy21.server.core import RoomCore, Step
from rummy21.server.model import RoomConfig, RoomError, RoomStatus


def two_humans(deals: int = 2) -> RoomCore:
    config = RoomConfig(2, "classic", "1", 30, deals, ("human", "human"))
    core, seat, token = RoomCore.new("CORE01", config, "Ann", seed=5)
    assert seat == 0 and core.seat_for_token(token) == 0
    return core


def names(ops: Sequence[Any]) -> list[str]:
    return [op.func.__name__ for op in ops]


def test_a_seat_is_taken_only_once_its_write_is_done() -> None:
    core = two_humans()
    assert core.due() is None  # seat 2 is open
    seat, token, change = core.join("Bo", None)
    assert names(change.ops) == ["take_seat"] and not core.all_taken
    change.done()
    assert core.all_taken and core.seat_for_token(token) == seat == 1
    due = core.due()
    assert due is not None and due.step is Step.START
    with pytest.raises(RoomError, match="no open seat"):
        core.join("Cy", None)


def test_a_deal_begins_once_stored_and_actions_are_the_engine_s() -> None:
    core = two_humans()
    core.join("Bo", None)[2].done()
    start = core.start_deal()
    assert names(start.ops) == ["start_deal"] and core.table is None  # not begun before
    start.done()
    due = core.due()
    assert core.status is RoomStatus.PLAYING and due is not None and due.step is Step.TURN
    table = core.table
    assert table is not None
    with pytest.raises(RoomError, match="it is Ann's turn \\(seat 1\\), not yours") as wrong:
        core.act(1, Draw(Source.STOCK))
    assert wrong.value.code == "not_your_turn" and len(table.log) == 1
    core.act(0, Draw(Source.OPEN)).done()
    with pytest.raises(IllegalActionError):
        core.act(0, Draw(Source.STOCK))  # drawn already
    assert len(table.log) == 2  # the open card drawn; the second draw refused, nothing changed


def test_a_failed_commit_is_undone_and_a_finished_deal_recorded_only_when_done() -> None:
    core = two_humans()
    core.join("Bo", None)[2].done()
    core.start_deal().done()
    table = core.table
    assert table is not None
    drop = core.act(0, Drop())  # ends the deal of two
    assert names(drop.ops) == ["append_events", "end_deal"] and table.over
    assert core.status == "playing" and not core.match.deals  # not recorded yet
    core.undo(drop)  # its writes failed
    assert core.table is not None and not core.table.over and len(core.table.log) == 1
    again = core.act(0, Drop())
    again.done()
    assert core.status is RoomStatus.BETWEEN and len(core.match.deals) == 1
    assert core.ready == set() and not core.set_ready(0) and core.set_ready(1)  # both now


def test_the_host_alone_hands_an_absent_player_s_seat_to_a_bot() -> None:
    core = two_humans()
    core.join("Bo", None)[2].done()
    with pytest.raises(RoomError, match="only the table's host"):
        core.check_autoplay(1, 0, connected=False)
    with pytest.raises(RoomError, match="online"):
        core.check_autoplay(0, 1, connected=True)
    core.check_autoplay(0, 1, connected=False)
    change = core.autoplay(1, "greedy")
    assert names(change.ops) == ["set_autoplay"] and core.slots[1].bot is None
    change.done()
    assert core.slots[1].autoplay == "greedy" and core.autoplay_turns == {1: 0}
    assert core.bot_names() == [None, "greedy"]


def test_a_stored_room_that_does_not_replay_is_damaged() -> None:
    core = two_humans()
    stored = repository.StoredRoom(
        "CORE01",
        core.config,
        None,
        RoomStatus.PLAYING,
        core.slots,
        [],
        repository.StoredDeal(0, False, ['{"event": "drew", "seat": 0}']),
    )
    with pytest.raises(repository.DamagedRoom, match="deal 1 does not replay"):
        RoomCore.restore(stored)
