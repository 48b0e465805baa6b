"""A :class:`~rummy21.server.cluster.Cluster`'s decisions on their own, with a fake database,
broker and rooms (no server, no clock: each tick is one call): the table follows its players,
at most :data:`~rummy21.server.cluster.HANDS_PER_TICK` a tick; and a room a process cannot
rebuild is given up to the others (its lease released, and not taken back by the next renewal,
:func:`~rummy21.server.lease.renew`: the lease statements' own test in
``test_server_cluster.py`` checks that on PostgreSQL) and not tried again by this process's own
sweep of orphans each tick.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

pytest.importorskip("redis")  # the Cluster makes its Broker (which never connects here)

from rummy21.server import lease, repository
from rummy21.server.botpool import BotPool
from rummy21.server.cluster import FOLLOW_TICKS, HANDS_PER_TICK, Cluster
from rummy21.server.connection import Connection
from rummy21.server.directory import Rooms
from rummy21.server.limits import GuessLimiter
from rummy21.server.model import RoomStatus, Settings
from rummy21.server.relay import _Session
from rummy21.server.store import Op

T = TypeVar("T")

RELAY = "b"
"""The other process, where every player of the rooms is connected."""


class FakeStore:
    """Grants every hand-over (the next epoch) and remembers it: (room, to whom)."""

    def __init__(self) -> None:
        self.handed: list[tuple[str, str]] = []

    async def write(self, ops: Sequence[Op]) -> Any:
        hand = ops[-1]
        assert getattr(hand, "func", None) is lease.hand_to, ops
        self.handed.append((hand.keywords["code"], hand.keywords["to"]))  # type: ignore[attr-defined]
        return hand.keywords["epoch"] + 1  # type: ignore[attr-defined]


class FakeBroker:
    async def publish(self, channel: str, envelope: Any) -> int:
        return 1

    async def beat(self, seconds: float) -> None:
        pass

    async def unfollow(self, code: str) -> None:
        pass


class FakeRoom:
    """A room running here: its lease (for an hour), no client connected here."""

    def __init__(self, cluster: Cluster, code: str) -> None:
        self.code = code
        self.fence = cluster.fence_for(code)
        self.status = RoomStatus.PLAYING
        self.conns: dict[int, list[Connection]] = {}

    async def close(self) -> None:
        pass


async def nothing(_: Any) -> None:
    pass


def run(ticks: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(ticks)`` on a thread of its own: the browser tests' Playwright (sync API)
    keeps an event loop running in the main thread of a test worker."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, ticks).result()


def cluster_on(store: Any) -> Cluster:
    """Process ``a``'s cluster on a fake ``store`` and a :class:`FakeBroker`, one-hour leases."""
    settings = Settings()
    cluster = Cluster(
        store,
        settings,
        Rooms(store, settings, BotPool(0), GuessLimiter()),
        "redis://127.0.0.1:1/0",
        GuessLimiter(),
        lease_seconds=3600.0,
        node="a",
    )
    cluster.broker = FakeBroker()  # type: ignore[assignment]
    return cluster


def cluster_of(rooms: int) -> tuple[Cluster, FakeStore]:
    """A cluster running ``rooms`` rooms, each with one client relayed from :data:`RELAY`."""
    store = FakeStore()
    cluster = cluster_on(store)
    for i in range(rooms):
        room: Any = FakeRoom(cluster, f"R{i:03}")
        cluster.rooms.rooms[room.code] = room
        cluster.relay.sessions[(RELAY, f"c{i}")] = _Session(room, Connection(nothing, nothing))
    return cluster, store


def test_hand_overs_are_capped_per_tick_and_the_rest_keep_their_streak() -> None:
    rooms = 2 * HANDS_PER_TICK + 1

    async def ticks() -> list[int]:
        cluster, store = cluster_of(rooms)
        handed = []
        for _ in range(FOLLOW_TICKS + 2):
            before = len(store.handed)
            await cluster._follow_players({RELAY})
            handed.append(len(store.handed) - before)
        await asyncio.gather(*cluster.relay._tasks)
        assert sorted(store.handed) == [(f"R{i:03}", RELAY) for i in range(rooms)]  # each once
        assert not cluster.rooms.rooms and not cluster.relay.sessions and cluster.handed == rooms
        return handed

    # Nothing before the streak is long enough; then at most the cap a tick, and the rooms
    # over it go on the next ticks without starting their streak again.
    waiting = [0] * (FOLLOW_TICKS - 1)
    assert run(ticks()) == [*waiting, HANDS_PER_TICK, HANDS_PER_TICK, 1]


def test_a_room_whose_streak_breaks_over_the_cap_starts_again() -> None:
    """A room left over by the cap whose client comes back to its owner is not handed."""

    async def ticks() -> list[tuple[str, str]]:
        cluster, store = cluster_of(HANDS_PER_TICK + 1)
        for _ in range(FOLLOW_TICKS):
            await cluster._follow_players({RELAY})
        (left,) = cluster.rooms.rooms.values()
        left.conns[0] = [Connection(nothing, nothing)]  # its player, now at the owner
        await cluster._follow_players({RELAY})
        await asyncio.gather(*cluster.relay._tasks)
        assert list(cluster.rooms.rooms.values()) == [left]
        return store.handed

    assert len(run(ticks())) == HANDS_PER_TICK


BROKEN = "BAD001"


class BrokenRoomStore:
    """One open room nobody runs, whose log cannot be read; records the lease statements."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    async def write(self, ops: Sequence[Op]) -> Any:
        name = getattr(ops[-1], "func", None)
        self.statements.append(getattr(name, "__name__", "?"))
        if name is lease.renew:
            return {}
        if name is lease.acquire:
            return self.statements.count("acquire")  # a new epoch each time
        if name is lease.release:
            return None
        raise AssertionError(f"unexpected write {ops}")

    async def read(self, op: Op) -> Any:
        name = getattr(op, "func", None)
        if name is lease.orphans:
            return [BROKEN]
        if name is repository.load_room:
            raise RuntimeError("the log of this room cannot be read")
        raise AssertionError(f"unexpected read {op}")


def test_a_room_that_cannot_be_rebuilt_is_given_up_once_and_left_to_the_others() -> None:
    async def ticks() -> list[str]:
        store = BrokenRoomStore()
        cluster = cluster_on(store)
        for _ in range(3):
            await cluster.tick()
        assert BROKEN not in cluster.rooms.rooms
        return store.statements

    # Taken once from the sweep, failed, released; the next ticks only renew.
    assert run(ticks()) == ["renew", "acquire", "release", "renew", "renew"]


class DamagedRoomStore(BrokenRoomStore):
    """The same room, whose stored rows do not rebuild a room (a damaged log)."""

    async def write(self, ops: Sequence[Op]) -> Any:
        name = getattr(ops[-1], "func", None)
        if name is repository.set_aside:
            assert getattr(ops[0], "func", None) is lease.guard  # written as the lease's owner
            self.statements.append("set_aside")
            return None
        return await super().write(ops)

    async def read(self, op: Op) -> Any:
        name = getattr(op, "func", None)
        if name is repository.load_room:
            raise repository.DamagedRoom(BROKEN, "deal 1 does not replay")
        return await super().read(op)


def test_a_room_that_does_not_rebuild_is_set_aside_once_and_its_lease_given_up() -> None:
    async def ticks() -> list[str]:
        store = DamagedRoomStore()
        cluster = cluster_on(store)
        for _ in range(3):
            await cluster.tick()
        assert BROKEN not in cluster.rooms.rooms
        return store.statements

    assert run(ticks()) == ["renew", "acquire", "set_aside", "release", "renew", "renew"]
