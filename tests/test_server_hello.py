"""Saying hello: a wrong seat token closes the socket (4401), and a client address that keeps
guessing tokens is refused for a while (4429), on the WebSocket and on the history API alike."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.server.app import GuessLimiter


def closed_with(seat: Seat) -> int:
    """Read until the server closes the socket; the close code."""
    with pytest.raises(ConnectionError) as closed:
        while True:
            seat.recv(timeout=10)
    return int(str(closed.value).rsplit(" ", 1)[-1])


def test_a_wrong_token_is_answered_then_the_socket_is_closed(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, ["human", "random"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws)
            seat.send({"type": "hello", "token": "x" * 32, "id": 5})
            reply = seat.recv()
            assert reply == {
                "type": "error",
                "code": "unauthorized",
                "id": 5,
                "error": "this token holds no seat at this table",
            }
            assert closed_with(seat) == 4401
        with client.websocket_connect(f"/ws/{made['code']}") as ws:  # the right token works
            assert Seat(ws, made["token"]).hello()["you"] == 0


def test_token_guesses_are_limited_per_address(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, ["human", "random"])
        code = made["code"]
        for guess in range(10):
            with client.websocket_connect(f"/ws/{code}") as ws:
                seat = Seat(ws)
                seat.send({"type": "hello", "token": f"guess-{guess:04d}-" + "x" * 20})
                assert seat.recv()["code"] == "unauthorized"
                assert closed_with(seat) == 4401
        # The eleventh hello within the minute is refused, even with the right token.
        with client.websocket_connect(f"/ws/{code}") as ws:
            seat = Seat(ws)
            seat.send({"type": "hello", "token": made["token"]})
            reply = seat.recv()
            assert reply["type"] == "error" and reply["code"] == "rate_limited"
            assert "too many wrong seat tokens" in reply["error"]
            assert closed_with(seat) == 4429
        # The history API shares the count.
        listing = client.get(
            f"/api/tables/{code}/deals", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert listing.status_code == 429 and listing.json()["code"] == "rate_limited"


def test_wrong_history_tokens_count_as_guesses(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60, hello_failures=3)) as client:
        made = create_table(client, ["human", "random"])
        code = made["code"]
        for _ in range(3):
            reply = client.get(
                f"/api/tables/{code}/deals", headers={"Authorization": "Bearer " + "y" * 32}
            )
            assert reply.status_code == 403
        with client.websocket_connect(f"/ws/{code}") as ws:
            seat = Seat(ws)
            seat.send({"type": "hello", "token": made["token"]})
            assert seat.recv()["code"] == "rate_limited"
            assert closed_with(seat) == 4429


def test_the_guess_limiter_counts_each_address_over_a_sliding_minute() -> None:
    now = [0.0]
    guesses = GuessLimiter(limit=10, window=60.0, clock=lambda: now[0])
    for _ in range(9):
        guesses.failed("10.0.0.1")
        now[0] += 1.0
    assert not guesses.blocked("10.0.0.1")
    guesses.failed("10.0.0.1")  # the tenth, at t = 9 s
    assert guesses.blocked("10.0.0.1") and not guesses.blocked("10.0.0.2")
    now[0] = 60.5  # the first failure (t = 0) ages out
    assert not guesses.blocked("10.0.0.1")
    now[0] = 200.0
    assert not guesses.blocked("10.0.0.1") and guesses._failures == {}
