"""The server on PostgreSQL (``--db postgresql://…``): same play, same rebuild after a restart.

Runs when ``RUMMY21_TEST_POSTGRES`` holds a database URL (`.ci/run` starts a local server and
sets it); skipped otherwise.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

URL = os.environ.get("RUMMY21_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="RUMMY21_TEST_POSTGRES is not set")

from serving import fresh_database  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server_helpers import Seat, create_table  # noqa: E402

from rummy21.server import create_app  # noqa: E402

SETTINGS: dict[str, Any] = {
    "bot_delay": 0.0,
    "next_deal_seconds": 0.0,
    "allow_seed": True,
    "rate_limit": None,
}


@pytest.fixture()
def database() -> Iterator[str]:
    """A fresh schema-less database per test: a new database on the server of ``URL``."""
    assert URL is not None
    with fresh_database(URL) as url:
        yield url


def test_a_deal_is_played_stored_and_rebuilt(database: str) -> None:
    with TestClient(create_app(database, **SETTINGS)) as client:
        made = create_table(client, ["human", "random"], deals=1, seed=5)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            # Play a few turns, then stop mid-deal.
            middle = seat.play_until(lambda s: s["version"] >= 8, random.Random(1))
            assert middle["room"]["status"] == "playing"
    with (
        TestClient(create_app(database, **SETTINGS)) as client,
        client.websocket_connect(f"/ws/{made['code']}") as ws,
    ):  # a restart
        again = Seat(ws, made["token"])
        again.hello()
        assert again.state is not None
        assert again.state["deal"]["hand"] == middle["deal"]["hand"]
        assert again.state["deal"]["stock_size"] == middle["deal"]["stock_size"]
        final = again.play_until(lambda s: s["room"]["status"] == "finished", random.Random(2))
    assert sum(final["result"]["scores"]) == 0
