"""Load test of ``rummy21 serve``: N tables at once, each a real WebSocket client against a bot.

The server runs as its own process on 127.0.0.1 (a free port, a temporary SQLite database);
this process creates N tables (a human seat and a random bot each) over HTTP and plays every
human seat through its own WebSocket, with a think time before each move like a person.
It reports the action round trip (send → ``ack``, which the server sends only after the move is
committed to the database and every seat has been sent its new view) as p50/p99, the actions
per second, and the server's memory per table. It stops by itself (``--seconds``), and only
ever talks to 127.0.0.1.

    python bench/bench_server.py --tables 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the serving helpers

from serving import Server

HOST = "127.0.0.1"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_server(db: Path, bot_delay: float) -> Server:
    """The server on a free port and the SQLite file ``db``, up (its output discarded)."""
    args = ["--db", f"sqlite:///{db}", "--bot-delay", str(bot_delay), "--next-deal", "0"]
    return Server([*args, "--log-level", "warning"], Path(os.devnull), wait=30, error=SystemExit)


class Player:
    """Plays one human seat: draws, discards a random card, says ready between deals."""

    def __init__(
        self, url: str, token: str, rng: random.Random, think: tuple[float, float], stop_at: float
    ) -> None:
        self.url, self.token, self.rng, self.think, self.stop_at = url, token, rng, think, stop_at
        self.rtts: list[float] = []
        self.sent_at: list[float] = []
        """When each timed action was sent (``time.monotonic``), beside ``rtts``."""
        self.errors = 0
        self.states = 0

    async def run(self) -> None:
        async with connect(self.url, max_size=2**22, open_timeout=30) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            self.state: dict[str, Any] | None = None
            self.next_id = 1
            acted: object = None
            while time.monotonic() < self.stop_at:
                state = self.state
                if state is not None:
                    status, deal = state["room"]["status"], state["deal"]
                    if status == "finished":
                        return
                    if status == "between" and acted != ("ready", state["version"]):
                        acted = ("ready", state["version"])
                        await self.request({"type": "ready"}, timed=False)
                        continue
                    if status == "playing" and deal["my_turn"] and acted != state["version"]:
                        acted = state["version"]
                        await asyncio.sleep(self.rng.uniform(*self.think))
                        await self.request(self.move(deal))
                        continue
                try:
                    raw = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.01, self.stop_at - time.monotonic())
                    )
                except TimeoutError:
                    return
                self.take(json.loads(raw))

    def take(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "state":
            self.state = message
            self.states += 1
        return message

    def move(self, deal: dict[str, Any]) -> dict[str, Any]:
        if deal["phase"] == "draw":
            return {"type": "action", "action": "draw", "source": "stock"}
        choices = [c for c in deal["hand"] if c != deal["blocked"]]
        return {"type": "action", "action": "discard", "card": self.rng.choice(choices)}

    async def request(self, message: dict[str, Any], timed: bool = True) -> None:
        msg_id = self.next_id
        self.next_id += 1
        sent, at = time.perf_counter(), time.monotonic()
        await self.ws.send(json.dumps({**message, "id": msg_id}))
        while True:  # the new state comes first, then the ack
            reply = self.take(json.loads(await asyncio.wait_for(self.ws.recv(), timeout=60)))
            if reply["type"] != "state" and reply.get("id") == msg_id:
                break
        if timed:
            self.rtts.append(time.perf_counter() - sent)
            self.sent_at.append(at)
        if reply["type"] == "error":
            self.errors += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "bench.sqlite3", args.bot_delay)
        port = server.port
        try:
            base = f"http://{HOST}:{port}"
            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                await http.get("/healthz")
                rss_empty = rss_kib(server.process.pid)
                tokens = []
                for i in range(args.tables):
                    made = (
                        await http.post(
                            "/api/tables",
                            json={
                                "name": f"P{i}",
                                "seats": ["human", "random"],
                                "turn_seconds": 0,
                                "deals": 100,
                            },
                        )
                    ).json()
                    tokens.append((made["code"], made["token"]))
            rss_tables = rss_kib(server.process.pid)
            stop_at = time.monotonic() + args.seconds
            rng = random.Random(args.seed)
            players = [
                Player(
                    f"ws://{HOST}:{port}/ws/{code}",
                    token,
                    random.Random(rng.getrandbits(32)),
                    (args.think_min, args.think_max),
                    stop_at,
                )
                for code, token in tokens
            ]
            started = time.monotonic()
            results = await asyncio.gather(*(p.run() for p in players), return_exceptions=True)
            elapsed = time.monotonic() - started
            rss_playing = rss_kib(server.process.pid)
            failures = [r for r in results if isinstance(r, BaseException)]
        finally:
            server.stop()
    rtts = [r for p in players for r in p.rtts]
    if not rtts:
        raise SystemExit(f"no action completed ({failures[:3]})")
    return {
        "tables": args.tables,
        "seconds": round(elapsed, 1),
        "think_s": [args.think_min, args.think_max],
        "bot_delay_s": args.bot_delay,
        "actions": len(rtts),
        "actions_per_s": round(len(rtts) / elapsed, 1),
        "rtt_ms": {
            "p50": round(1000 * statistics.median(rtts), 2),
            "p90": round(1000 * percentile(rtts, 0.90), 2),
            "p99": round(1000 * percentile(rtts, 0.99), 2),
            "max": round(1000 * max(rtts), 2),
        },
        "errors": sum(p.errors for p in players),
        "client_failures": len(failures),
        "server_rss_mib": {
            "empty": round(rss_empty / 1024, 1),
            "with_tables": round(rss_tables / 1024, 1),
            "playing": round(rss_playing / 1024, 1),
        },
        "kib_per_table": round((rss_playing - rss_empty) / args.tables, 1),
        "target_met": percentile(rtts, 0.99) <= 0.050 and not failures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play")
    parser.add_argument("--think-min", type=float, default=0.5, help="seconds before a move")
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the server bots' pause")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 600:
        raise SystemExit("keep it bounded: 1-2000 tables, 1-600 seconds")
    print(json.dumps(asyncio.run(bench(args)), indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
