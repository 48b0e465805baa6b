"""A room a process cannot rebuild is given up to the others: its lease released (and not taken
back by the next renewal, :func:`~rummy21.server.lease.renew`: the lease statements' own test
in ``test_server_cluster.py`` checks that on PostgreSQL), and not tried again by this
process's own sweep of orphans each tick. A :class:`~rummy21.server.cluster.Cluster`'s ticks
with a fake database and broker (no server, no clock: each tick is one call).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("redis")  # the Cluster makes its Broker (which never connects here)

from rummy21.server import lease, repository
from rummy21.server.cluster import Cluster
from rummy21.server.model import Settings
from rummy21.server.room import Rooms
from rummy21.server.session import GuessLimiter
from rummy21.server.store import Op

BROKEN = "BAD001"


class FakeStore:
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


class FakeBroker:
    async def beat(self, seconds: float) -> None:
        pass


def test_a_room_that_cannot_be_rebuilt_is_given_up_once_and_left_to_the_others() -> None:
    async def ticks() -> list[str]:
        store = FakeStore()
        settings = Settings()
        cluster = Cluster(
            store,  # type: ignore[arg-type]
            settings,
            Rooms(store, settings),  # type: ignore[arg-type]
            "redis://127.0.0.1:1/0",
            GuessLimiter(),
            lease_seconds=3600.0,
            node="a",
        )
        cluster.broker = FakeBroker()  # type: ignore[assignment]
        for _ in range(3):
            await cluster.tick()
        assert BROKEN not in cluster.rooms.rooms
        return store.statements

    # Taken once from the sweep, failed, released; the next ticks only renew.
    assert asyncio.run(ticks()) == ["renew", "acquire", "release", "renew", "renew"]
