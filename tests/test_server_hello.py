"""Saying hello: a wrong seat token closes the socket (4401), and a client address that keeps
guessing tokens at a table has its wrong tokens answered 'rate_limited' for a while (4429), on
the WebSocket and on the history API alike; a correct token is never refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.server.limits import GuessLimiter


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


def hello(client: TestClient, code: str, token: str) -> tuple[dict[str, Any], int | None]:
    """Say hello to table ``code`` with ``token``: the first answer, and the close code (``None``
    if the socket stays open: the seat is taken)."""
    with client.websocket_connect(f"/ws/{code}") as ws:
        seat = Seat(ws)
        seat.send({"type": "hello", "token": token, "id": 3})
        reply = seat.recv()
        if reply["type"] == "welcome":
            return reply, None
        return reply, closed_with(seat)


def test_token_guesses_are_limited_per_table_and_address(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, ["human", "random"])
        other = create_table(client, ["human", "random"])
        code = made["code"]
        for guess in range(10):
            reply, closed = hello(client, code, f"guess-{guess:04d}-" + "x" * 20)
            assert (reply["code"], closed) == ("unauthorized", 4401)
        # The eleventh wrong token within the minute is answered 'rate_limited'…
        reply, closed = hello(client, code, "guess-last-" + "x" * 20)
        assert (reply["code"], reply["id"], closed) == ("rate_limited", 3, 4429)
        assert "too many wrong seat tokens" in reply["error"]
        # …but the right token is never refused: the player at the same address plays on.
        reply, closed = hello(client, code, made["token"])
        assert (reply["type"], closed) == ("welcome", None)
        # Another table counts its own wrong tokens.
        reply, closed = hello(client, other["code"], "y" * 32)
        assert (reply["code"], closed) == ("unauthorized", 4401)
        # The history API shares the count, and takes the right token too.
        wrong = client.get(
            f"/api/tables/{code}/deals", headers={"Authorization": "Bearer " + "z" * 32}
        )
        assert wrong.status_code == 429 and wrong.json()["code"] == "rate_limited"
        right = client.get(
            f"/api/tables/{code}/deals", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert right.status_code == 200 and right.json()["viewer"] == 0


def test_wrong_history_tokens_count_as_guesses(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60, hello_failures=3)) as client:
        made = create_table(client, ["human", "random"])
        code = made["code"]
        for _ in range(3):
            reply = client.get(
                f"/api/tables/{code}/deals", headers={"Authorization": "Bearer " + "y" * 32}
            )
            assert reply.status_code == 403
        answer, closed = hello(client, code, "w" * 32)
        assert (answer["code"], closed) == ("rate_limited", 4429)
        answer, closed = hello(client, code, made["token"])
        assert (answer["type"], closed) == ("welcome", None)


def test_the_guess_limiter_counts_each_table_and_address_over_a_sliding_minute() -> None:
    now = [0.0]
    guesses = GuessLimiter(limit=10, window=60.0, clock=lambda: now[0])
    for _ in range(9):
        guesses.failed("T1", "10.0.0.1")
        now[0] += 1.0
    assert not guesses.blocked("T1", "10.0.0.1")
    assert not guesses.wrong("T1", "10.0.0.1")  # the tenth, at t = 9 s
    assert guesses.blocked("T1", "10.0.0.1")
    assert not guesses.blocked("T1", "10.0.0.2") and not guesses.blocked("T2", "10.0.0.1")
    now[0] = 60.5  # the first failure (t = 0) ages out
    assert not guesses.blocked("T1", "10.0.0.1")
    now[0] = 200.0
    assert not guesses.blocked("T1", "10.0.0.1") and guesses._failures == {}
