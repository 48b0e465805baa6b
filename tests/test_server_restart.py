"""Nothing is lost: the real ``rummy21 serve`` process is killed (SIGKILL) in the middle of a
deal and started again on the same database; the browser's seat reconnects with its token and
the deal goes on from exactly the same state."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from serving import Server, free_port

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
sync_client = pytest.importorskip("websockets.sync.client")


def start(port: int, db: Path, log: Path) -> subprocess.Popen[bytes]:
    """A server on ``port`` and the SQLite file ``db``, up (its players may send messages as
    fast as a test does)."""
    args = ["--db", f"sqlite:///{db}", "--bot-delay", "0", "--next-deal", "0"]
    args += ["--message-rate", "0"]
    return Server([*args, "--log-level", "warning"], log, wait=30, port=port).process


class Client:
    def __init__(self, port: int, code: str, token: str) -> None:
        self._session = sync_client.connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=10)
        self.ws = self._session.__enter__()
        self.state: dict[str, Any] = {}
        self.next_id = 1
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        assert self.recv()["type"] == "welcome"
        self.wait(lambda s: True)

    def recv(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
        if data["type"] == "state":
            self.state = data
        return data

    def wait(self, predicate: Any) -> dict[str, Any]:
        while not self.state or not predicate(self.state):
            self.recv()
        return self.state

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        msg_id = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({**message, "id": msg_id}))
        while True:
            reply = self.recv()
            if reply["type"] != "state" and reply.get("id") == msg_id:
                return reply

    def turn(self) -> None:
        self.wait(lambda s: s["deal"]["my_turn"] and s["deal"]["phase"] == "draw")
        assert self.request({"type": "action", "action": "draw"})["type"] == "ack"
        card = self.state["deal"]["drawn"]
        assert self.request({"type": "action", "action": "discard", "card": card})["type"] == "ack"

    def close(self) -> None:
        self._session.__exit__(None, None, None)


def stable(state: dict[str, Any]) -> dict[str, Any]:
    """The parts of a state that must survive a restart (not clocks, versions, presence)."""
    deal = dict(state["deal"])
    room = dict(state["room"])
    room["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in room["seats"]]
    return {"deal": deal, "room": room, "match": state["match"], "you": state["you"]}


def test_a_killed_server_comes_back_with_every_table(tmp_path: Path) -> None:
    port, db, log = free_port(), tmp_path / "live.sqlite3", tmp_path / "server.log"
    server = start(port, db, log)
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            timeout=10,
            json={
                "name": "Ann",
                "seats": ["human", "random", "random"],
                "turn_seconds": 0,
                "deals": 2,
            },
        ).json()
        code, token = made["code"], made["token"]
        client = Client(port, code, token)
        for _ in range(3):
            client.turn()
        before = stable(
            client.wait(lambda s: s["deal"]["my_turn"] and s["deal"]["phase"] == "draw")
        )
        # Live tables are unseeded, so a random bot may drop: count only our own turns.
        assert before["deal"]["turns"] >= 3
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        client.close()

        server = start(port, db, log)
        again = Client(port, code, token)
        after = stable(again.state)
        assert after == before
        # The deal goes on from there, to its end.
        again.turn()
        again.wait(lambda s: s["deal"]["my_turn"] and s["deal"]["phase"] == "draw")
        assert again.request({"type": "action", "action": "drop"})["type"] == "ack"
        final = again.wait(lambda s: s["result"] is not None or s["match"]["deal"] == 1)
        assert final["match"]["history"] and final["match"]["history"][0]["deal"] == 0
        again.close()
        listing = httpx.get(
            f"http://127.0.0.1:{port}/api/tables/{code}/deals",
            timeout=10,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert [d["deal"] for d in listing.json()["finished"]][:1] == [0]
    finally:
        server.kill()
        server.wait(timeout=10)


def test_a_table_rebuilt_after_a_restart_reshuffles_again_and_again(tmp_path: Path) -> None:
    """A live table rebuilt after a kill -9 draws on through two reshuffles of its open pile
    (the rebuilt deal once refused its first reshuffle: its log had no order for it)."""
    port, db, log = free_port(), tmp_path / "live.sqlite3", tmp_path / "server.log"
    server = start(port, db, log)
    base = f"http://127.0.0.1:{port}"
    try:
        made = httpx.post(
            f"{base}/api/tables",
            timeout=10,
            json={"name": "Ann", "seats": ["human", "human"], "turn_seconds": 0, "deals": 1},
        ).json()
        code = made["code"]
        joined = httpx.post(f"{base}/api/tables/{code}/join", timeout=10, json={"name": "Bo"})
        tokens = [made["token"], joined.json()["token"]]
        clients = [Client(port, code, t) for t in tokens]

        def play(turns: int, reshuffles: int | None = None) -> int:
            """The seats in turn draw from the stock and let that card go (for ``turns``
            turns, or until the stock ran out ``reshuffles`` times): the reshuffles seen."""
            seen = 0
            first = clients[0].wait(lambda s: s["deal"] is not None)["deal"]["turn"]
            for i in range(turns):
                client = clients[(first + i) % 2]
                state = client.wait(lambda s: s["deal"]["my_turn"] and s["deal"]["phase"] == "draw")
                seen += state["deal"]["stock_size"] == 0
                client.turn()
                if seen == reshuffles:
                    break
            return seen

        assert play(20) == 0
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        for client in clients:
            client.close()

        server = start(port, db, log)
        clients = [Client(port, code, t) for t in tokens]
        assert play(1000, reshuffles=2) == 2
        assert clients[0].state["room"]["status"] == "playing"
        reshuffled = [e for e in logged_events_of(db, code) if e["event"] == "reshuffled"]
        assert len(reshuffled) == 2
        for client in clients:
            client.close()
        assert "Traceback" not in log.read_text()
    finally:
        server.kill()
        server.wait(timeout=10)


def logged_events_of(db: Path, code: str) -> list[dict[str, Any]]:
    from serving import logged_events

    return logged_events(f"sqlite:///{db}", code)
