"""Helpers for the server tests: apps on temporary databases and seats driven over WebSockets.

(Kept in a ``test_server_*`` module so the server's tests stay in their own files; the few
tests at the bottom check the helpers themselves.)
"""

from __future__ import annotations

import json
import queue
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi import FastAPI
from starlette.testclient import TestClient

from rummy21.cards import Card, CardError
from rummy21.server import create_app

CARD_TOKEN = re.compile(r'"((?:10|[2-9AJQK])[SHDC]|JK)"')


def make_app(tmp_path: Path, **options: Any) -> FastAPI:
    """A server on a fresh SQLite file: bots move at once, seeds allowed, no rate limit."""
    settings: dict[str, Any] = {
        "bot_delay": 0.0,
        "next_deal_seconds": 0.0,
        "allow_seed": True,
        "rate_limit": None,
    }
    settings.update(options)
    return create_app(f"sqlite:///{tmp_path / 'rummy21.sqlite3'}", **settings)


def create_table(client: TestClient, seats: list[str], **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"name": "Ann", "seats": seats, "seed": 1, "turn_seconds": 0, "deals": 1}
    body.update(options)
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    made: dict[str, Any] = reply.json()
    return made


def card_tokens(text: str) -> set[str]:
    """Every card written in a JSON message (as a JSON string of its own)."""
    return set(CARD_TOKEN.findall(text))


class Seat:
    """One seat's WebSocket session: remembers every message and the latest state."""

    def __init__(self, ws: Any, token: str | None = None) -> None:
        self.ws = ws
        self.token = token
        self.state: dict[str, Any] | None = None
        self.messages: list[str] = []
        self.next_id = 1
        self.acted: int | tuple[str, int] | None = None
        """The version of the last state this seat acted on (or answered 'ready' to)."""
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        """What the server sent, in order, moved here by a reader thread (the TestClient's
        public ``receive`` blocks and has no time-out)."""
        self.closed: dict[str, Any] | None = None
        threading.Thread(target=self._read, name="seat-reader", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                message: dict[str, Any] = dict(self.ws.receive())
            except Exception as error:  # the session ended: its streams are closed
                message = {"type": "websocket.close", "code": None, "reason": repr(error)}
            self.inbox.put(message)
            if message["type"] == "websocket.close":
                return

    # ------------------------------------------------------------- transport
    def send(self, message: dict[str, Any] | str | bytes) -> None:
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        elif isinstance(message, str):
            self.ws.send_text(message)
        else:
            self.ws.send_text(json.dumps(message))

    def recv(self, timeout: float = 15.0) -> dict[str, Any]:
        try:
            message = self.inbox.get(timeout=0 if self.closed else timeout)
        except queue.Empty:
            if self.closed:
                raise ConnectionError(f"closed by the server: {self.closed.get('code')}") from None
            raise TimeoutError(f"no message from the server in {timeout} s") from None
        return self.take(message)

    def take(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "websocket.close":
            self.closed = message
            raise ConnectionError(f"closed by the server: {message.get('code')}")
        text: str = message["text"]
        self.messages.append(text)
        data: dict[str, Any] = json.loads(text)
        if data["type"] == "state":
            self.state = data
        return data

    def hello(self) -> dict[str, Any]:
        assert self.token is not None
        self.send({"type": "hello", "token": self.token})
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        return self.wait(lambda s: True)

    def request(self, message: dict[str, Any], timeout: float = 20.0) -> dict[str, Any]:
        """Send ``message`` with a fresh id and return the reply to it (states are kept)."""
        msg_id = self.next_id
        self.next_id += 1
        self.send({**message, "id": msg_id})
        while True:
            reply = self.recv(timeout)
            if reply["type"] != "state" and reply.get("id") == msg_id:
                return reply

    def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        """Read until the latest state satisfies ``predicate``."""
        while self.state is None or not predicate(self.state):
            self.recv(timeout)
        return self.state

    # ----------------------------------------------------------------- play
    @property
    def deal(self) -> dict[str, Any]:
        assert self.state is not None and self.state["deal"] is not None
        deal: dict[str, Any] = self.state["deal"]
        return deal

    def my_move(self) -> bool:
        """Whether the latest state asks this seat to move (and it has not moved on it)."""
        s = self.state
        return bool(
            s
            and s["room"]["status"] == "playing"
            and s["deal"]
            and s["deal"]["my_turn"]
            and s["version"] != self.acted
        )

    def move(
        self, rng: random.Random, drop_chance: float = 0.0, open_chance: float = 0.3
    ) -> dict[str, Any]:
        """A simple legal move: draw (sometimes the open card), then discard a random card."""
        assert self.state is not None
        deal = self.deal
        self.acted = self.state["version"]
        if deal["phase"] == "draw":
            if rng.random() < drop_chance:
                return self.request({"type": "action", "action": "drop"})
            source = "open" if deal["can_take_open"] and rng.random() < open_chance else "stock"
            return self.request({"type": "action", "action": "draw", "source": source})
        choices = [c for c in deal["hand"] if c != deal["blocked"]]
        card = (
            deal["drawn"]
            if deal["drawn"] in choices and rng.random() < 0.5
            else rng.choice(choices)
        )
        return self.request({"type": "action", "action": "discard", "card": card})

    def play_until(
        self,
        done: Callable[[dict[str, Any]], bool],
        rng: random.Random,
        drop_chance: float = 0.0,
        limit: int = 3000,
    ) -> dict[str, Any]:
        """Play this seat (alone among humans) until ``done(state)``; ready between deals."""
        for _ in range(limit):
            state = self.state
            assert state is not None
            if done(state):
                return state
            status = state["room"]["status"]
            if (
                status == "between"
                and state["you"] not in state["ready"]
                and self.acted != ("ready", state["version"])
            ):
                self.acted = ("ready", state["version"])
                self.request({"type": "ready"})
            elif self.my_move():
                reply = self.move(rng, drop_chance)
                assert reply["type"] == "ack", reply
            else:
                self.recv()
        raise AssertionError("the match did not reach the expected state")


def drain(seat: Seat) -> None:
    """Read every message the server has already sent ``seat``, without waiting."""
    while True:
        try:
            message = seat.inbox.get_nowait()
        except queue.Empty:
            return
        if message["type"] == "websocket.close":
            seat.closed = message
            return
        seat.take(message)


def keys_of(value: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= keys_of(item)
        return found
    if isinstance(value, list):
        return set().union(*(keys_of(v) for v in value)) if value else set()
    return set()


def play_match(
    seats: list[Seat],
    rng: random.Random,
    drop_chances: Sequence[float] | None = None,
    ask: bool = True,
) -> None:
    """Play several human seats at one table until the match is over (ready between deals);
    ``drop_chances[i]``: how often seat ``i`` drops when it may (default 0.07); ``ask``: also
    ask about the hand now and then."""
    chances = list(drop_chances) if drop_chances is not None else [0.07] * len(seats)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for seat in seats:
            drain(seat)
        states = [s.state for s in seats if s.state]
        if states and all(s["room"]["status"] == "finished" for s in states):
            return
        moved = False
        for seat, chance in zip(seats, chances, strict=True):
            state = seat.state
            if state is None:
                continue
            if (
                state["room"]["status"] == "between"
                and state["you"] not in state["ready"]
                and seat.acted != ("ready", state["version"])
            ):
                seat.acted = ("ready", state["version"])
                seat.request({"type": "ready"})
                moved = True
            elif seat.my_move():
                seat.move(rng, drop_chance=chance)
                if ask and rng.random() < 0.3:  # ask about the hand: replies are checked too
                    seat.request({"type": "groups", "groups": [seat.deal["hand"][:3]]})
                    seat.request({"type": "arrange"})
                moved = True
        if not moved:
            time.sleep(0.002)
    raise AssertionError("the match did not finish in time")


def parse_card(text: str) -> Card | None:
    try:
        return Card.parse(text)
    except CardError:
        return None


# --------------------------------------------------------------- the helpers' own tests
def test_card_tokens_find_cards_in_messages() -> None:
    assert card_tokens('{"hand": ["10H", "JK", "AS"], "x": "10HX", "y": "KS "}') == {
        "10H",
        "JK",
        "AS",
    }


def test_a_seat_plays_a_deal_against_a_bot(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        made = create_table(client, ["human", "random"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            state = seat.hello()
            assert state["you"] == 0 and len(state["deal"]["hand"]) == 21
            final = seat.play_until(
                lambda s: s["room"]["status"] == "finished", random.Random(1), drop_chance=0.05
            )
            assert final["result"] is not None and sum(final["result"]["scores"]) == 0
