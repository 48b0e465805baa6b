"""The deployment check of ``deploy/run.sh --check``: through nginx only, make a table of two
players, play it with each seat's WebSocket on whichever process nginx picks, kill the process
that runs the table (SIGKILL; the database's ``leases`` row names it), and play on once both
seats have reconnected by themselves.

    python3 deploy/check.py NGINX_PORT DB_URL NODE=PID NODE=PID
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect

WAIT = 60.0


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=15) as reply:
        answer: dict[str, Any] = json.loads(reply.read())
        return answer


class Seat:
    """A player's browser: reconnects through the proxy when its connection ends."""

    def __init__(self, port: int, code: str, token: str) -> None:
        self.url, self.token = f"ws://127.0.0.1:{port}/ws/{code}", token
        self.state: dict[str, Any] = {}
        self.reconnects = -1
        self.ws: ClientConnection = self.connect()

    def connect(self) -> ClientConnection:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                ws = connect(self.url, open_timeout=5).__enter__()
                ws.send(json.dumps({"type": "hello", "token": self.token}))
                if json.loads(ws.recv(timeout=5))["type"] == "welcome":
                    self.reconnects += 1
                    return ws
            except Exception:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.3)

    def recv(self) -> dict[str, Any]:
        while True:
            try:
                data: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
            except TimeoutError:
                raise
            except Exception:
                self.ws = self.connect()
                continue
            if data["type"] == "state":
                self.state = data
            return data

    def wait_turns(self, turns: int) -> dict[str, Any]:
        while not (self.state and self.state["deal"] and self.state["deal"]["turns"] >= turns):
            self.recv()
        return self.state

    def move(self, message: dict[str, Any], msg_id: int) -> bool:
        self.ws.send(json.dumps({**message, "id": msg_id}))
        before = self.reconnects
        while True:
            reply = self.recv()
            if self.reconnects != before:
                return False
            if reply["type"] != "state" and reply.get("id") == msg_id:
                return bool(reply["type"] == "ack")


def play(seats: list[Seat], turns: int, first_id: int) -> int:
    """``turns`` turns (draw, discard what was drawn); returns the turns count reached."""
    msg_id = first_id
    done: int = max(s.wait_turns(0)["deal"]["turns"] for s in seats)
    target = done + turns
    while done < target:
        for seat in seats:
            seat.wait_turns(done)
        mover = seats[seats[0].state["deal"]["turn"]]
        while not (mover.state["deal"]["my_turn"] and mover.state["deal"]["phase"] == "draw"):
            mover.recv()
        msg_id += 1
        if not mover.move({"type": "action", "action": "draw"}, msg_id):
            continue  # reconnected meanwhile: look again
        card = mover.state["deal"]["drawn"]
        msg_id += 1
        mover.move({"type": "action", "action": "discard", "card": card}, msg_id)
        done += 1
    return done


def owner_of(db: str, code: str) -> str:
    """The process that runs table ``code`` now (its lease's owner)."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(db)
    try:
        with engine.connect() as conn:
            found = conn.execute(
                sqlalchemy.text("SELECT owner FROM leases WHERE code = :code"), {"code": code}
            ).scalar()
    finally:
        engine.dispose()
    return str(found)


def main() -> None:
    port, db = int(sys.argv[1]), sys.argv[2]
    pids = {node: int(pid) for node, _, pid in (a.partition("=") for a in sys.argv[3:])}
    base = f"http://127.0.0.1:{port}"
    made = post(
        f"{base}/api/tables", {"name": "Ann", "seats": ["human", "human"], "turn_seconds": 60}
    )
    joined = post(f"{base}/api/tables/{made['code']}/join", {"name": "Bob"})
    seats = [Seat(port, made["code"], made["token"]), Seat(port, made["code"], joined["token"])]
    turns = play(seats, 4, 0)
    print(f"table {made['code']}: {turns} turns played through nginx")
    owner = owner_of(db, made["code"])
    print(f"it runs at {owner}: killed")
    os.kill(pids[owner], signal.SIGKILL)
    killed = time.monotonic()
    turns = play(seats, 4, 100)
    print(f"one server killed: {turns} turns now, {time.monotonic() - killed:.1f} s later")
    for seat in seats:
        seat.wait_turns(turns)
    assert seats[0].state["deal"]["turns"] == seats[1].state["deal"]["turns"] == turns
    assert seats[0].state["you"] == 0 and seats[1].state["you"] == 1


if __name__ == "__main__":
    main()
