"""Load and fail-over test of ``rummy21 serve`` on PostgreSQL: one process, then two processes
on the same PostgreSQL and Redis (``--broker``), in one run; then owners killed (SIGKILL).

Load. Each set-up gets a fresh database and the same N tables (a human seat and a random bot
each, as ``bench_server.py`` plays them): one process (no broker); two processes with half
the tables made on each and each player connected to the process that runs its table (as a
load balancer with affinity would send it); the same with each player connected to either
process at random (no affinity: about half the players relayed through the broker, until the
owner hands their tables to the process they are at; a player whose connection is closed
reconnects to the same process, as a page behind a sticky balancer does). A
yardstick too: two processes without a broker, each table only ever used through the process
that made it (not a deployment: nothing coordinates them; it shows what splitting the load
costs by itself, apart from coordinating). Reported
per set-up: the action round trip (send → ``ack``, after the commit and after every seat was
sent its view) p50/p99, also counting only each player's actions after its last reconnection
(``rtt_ms_settled``), the player actions a second, each server process's CPU time (user +
system, from ``/proc/<pid>/stat``) per player action, the reconnections and the tables handed
over.

Fail-over. Two processes; ``--kills`` times, a table is made on one of them, its player
(connected to it: a player relayed from the other would have its table handed there) plays,
sends a move and at once the owner is killed with SIGKILL.
Reported: the seconds from the kill until the player's next move is acknowledged (the player
reconnects by itself, as the page does), acknowledged actions missing from the log, and, from
the log, the owners of each epoch and any record written out of epoch order. The killed
process is started again for the next round.

    python bench/bench_cluster.py --db postgresql+psycopg://rummy:rummy@127.0.0.1/rummy21 \\
        --broker redis://127.0.0.1:6379/0 --tables 300 --seconds 30 --kills 20

``--db`` is a database on the server to use: each set-up makes a database of its own beside it
(and drops it afterwards). Only ever talks to 127.0.0.1 and the given servers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the serving helpers

from bench_server import HOST, Player, percentile
from serving import Server, fresh_database, logged_events, rows

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def start(db: str, broker: str | None, bot_delay: float, lease: float, log: Path) -> Server:
    """One ``rummy21 serve`` process on 127.0.0.1 (with ``broker``: one of many), up."""
    args = ["--db", db, "--bot-delay", str(bot_delay), "--next-deal", "0", "--log-level", "warning"]
    if broker is not None:
        node = f"bench-{uuid.uuid4().hex[:8]}"
        args += ["--broker", broker, "--lease-seconds", str(lease), "--node", node]
    return Server(args, log, wait=60, error=SystemExit)


class Rejoining(Player):
    """A load player that reconnects to the same process when its connection is closed (a
    table handed to the process its player is at closes the relayed connection, 1012)."""

    def __init__(
        self, url: str, token: str, rng: random.Random, think: tuple[float, float], stop_at: float
    ) -> None:
        super().__init__(url, token, rng, think, stop_at)
        self.reconnects = 0
        self.settled = 0
        """Where in ``rtts`` the player's last connection began."""

    async def run(self) -> None:
        while True:
            try:
                await super().run()
                return
            except ConnectionClosed:  # the move in flight, if any, is not counted
                if time.monotonic() >= self.stop_at:
                    return
                self.reconnects += 1
                self.settled = len(self.rtts)


def handed_over(db: str) -> int:
    """How many tables had more than one owner."""
    found = rows(db, "SELECT count(DISTINCT code) FROM owners WHERE epoch > 1")
    return int(found[0][0] or 0)


async def make_tables(
    servers: list[Server], count: int, turn_seconds: int = 0
) -> list[tuple[str, str]]:
    """``count`` tables (a human and a random bot), made on the servers in turn."""
    made = []
    clients = [httpx.AsyncClient(base_url=s.url, timeout=30) for s in servers]
    try:
        for i in range(count):
            reply = await clients[i % len(clients)].post(
                "/api/tables",
                json={
                    "name": f"P{i}",
                    "seats": ["human", "random"],
                    "turn_seconds": turn_seconds,
                    "deals": 100,
                },
            )
            reply.raise_for_status()
            made.append((reply.json()["code"], reply.json()["token"]))
    finally:
        for client in clients:
            await client.aclose()
    return made


async def load(
    args: argparse.Namespace,
    processes: int,
    log: Path,
    relay: bool = True,
    broker: str | None = None,
) -> dict[str, Any]:
    """One set-up of the load test: see the module docstring (``relay``: each player connects
    to either process at random; else to the process that runs its table)."""
    with fresh_database(args.db, "rummy21_bench_") as db:
        servers = [
            start(db, broker, args.bot_delay, args.lease_seconds, log) for _ in range(processes)
        ]
        try:
            tables = await make_tables(servers, args.tables)
            rng = random.Random(args.seed)
            owners = [servers[i % len(servers)] for i in range(len(tables))]
            at = [rng.choice(servers) if relay else owner for owner in owners]
            stop_at = time.monotonic() + args.seconds
            players = [
                Rejoining(
                    f"ws://{HOST}:{server.port}/ws/{code}",
                    token,
                    random.Random(rng.getrandbits(32)),
                    (args.think_min, args.think_max),
                    stop_at,
                )
                for (code, token), server in zip(tables, at, strict=True)
            ]
            cpu_before = [cpu_seconds(s.process.pid) for s in servers]
            started = time.monotonic()
            results = await asyncio.gather(*(p.run() for p in players), return_exceptions=True)
            elapsed = time.monotonic() - started
            cpu = [cpu_seconds(s.process.pid) - b for s, b in zip(servers, cpu_before, strict=True)]
            loadavg = load_average()
            moved = handed_over(db) if broker is not None else 0
        finally:
            for server in servers:
                server.stop(grace=20)
    failures = [r for r in results if isinstance(r, BaseException)]
    rtts = [r for p in players for r in p.rtts]
    settled = [r for p in players for r in p.rtts[p.settled :]]
    if not rtts:
        raise SystemExit(f"no action completed ({failures[:3]})")
    return {
        "processes": processes,
        "broker": broker is not None,
        "relayed_players": sum(1 for o, a in zip(owners, at, strict=True) if o is not a),
        "tables": args.tables,
        "seconds": round(elapsed, 1),
        "actions": len(rtts),
        "actions_per_s": round(len(rtts) / elapsed, 1),
        "rtt_ms": {
            "p50": round(1000 * statistics.median(rtts), 2),
            "p99": round(1000 * percentile(rtts, 0.99), 2),
            "max": round(1000 * max(rtts), 2),
        },
        "rtt_ms_settled": {
            "actions": len(settled),
            "p50": round(1000 * statistics.median(settled), 2) if settled else None,
            "p99": round(1000 * percentile(settled, 0.99), 2) if settled else None,
        },
        "reconnects": sum(p.reconnects for p in players),
        "tables_handed_over": moved,
        "server_cpu_s": [round(c, 2) for c in cpu],
        "cpu_ms_per_action": round(1000 * sum(cpu) / len(rtts), 3),
        "errors": sum(p.errors for p in players),
        "client_failures": len(failures),
        "client_failure_kinds": sorted({f"{type(f).__name__}: {f}"[:120] for f in failures}),
        "load_average_after": loadavg,
    }


# --------------------------------------------------------------------------- fail-over
class Reconnecting:
    """A player that reconnects by itself (to any live process) when its connection ends."""

    def __init__(self, code: str, token: str, servers: list[Server]) -> None:
        self.code, self.token, self.servers = code, token, servers
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.next_id = 1
        self.acked: list[str] = []
        """The actions acknowledged, in order (``drew`` / ``discarded``)."""

    async def connect(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            for server in self.servers:
                if server.process.poll() is not None:
                    continue
                try:
                    ws = await connect(f"ws://{HOST}:{server.port}/ws/{self.code}", open_timeout=5)
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    first = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if first["type"] == "welcome":
                        self.ws = ws
                        return
                    await ws.close()
                except (OSError, TimeoutError, Exception):
                    pass
                await asyncio.sleep(0.1)
        raise SystemExit("a player could not reconnect")

    async def recv(self, deadline: float) -> dict[str, Any]:
        while True:
            assert self.ws is not None
            try:
                raw = await asyncio.wait_for(self.ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                raise
            except Exception:  # the connection ended: come back, as the page does
                await self.connect(deadline)
                continue
            data: dict[str, Any] = json.loads(raw)
            if data["type"] == "state":
                self.state = data
            return data

    async def my_move(self, deadline: float) -> None:
        while not (
            self.state
            and self.state["room"]["status"] == "playing"
            and self.state["deal"]["my_turn"]
        ):
            await self.recv(deadline)

    async def act(self, deadline: float) -> bool:
        """Play the move due (draw, or discard what was drawn): whether it was acknowledged."""
        await self.my_move(deadline)
        deal = self.state["deal"]
        if deal["phase"] == "draw":
            message: dict[str, Any] = {"type": "action", "action": "draw"}
        else:
            message = {"type": "action", "action": "discard", "card": deal["drawn"]}
        msg_id = self.next_id
        self.next_id += 1
        assert self.ws is not None
        try:
            await self.ws.send(json.dumps({**message, "id": msg_id}))
        except Exception:
            return False
        ws = self.ws
        while True:
            reply = await self.recv(deadline)
            if self.ws is not ws:
                return False  # reconnected: no answer to that move
            if reply["type"] != "state" and reply.get("id") == msg_id:
                if reply["type"] == "ack":
                    self.acked.append("drew" if message["action"] == "draw" else "discarded")
                    return True
                return False


async def failover(args: argparse.Namespace, log: Path) -> dict[str, Any]:
    """The fail-over rounds: see the module docstring."""
    seconds: list[float] = []
    lost = 0
    with fresh_database(args.db, "rummy21_bench_") as db:
        servers = [
            start(db, args.broker, args.bot_delay, args.lease_seconds, log) for _ in range(2)
        ]
        codes = []
        try:
            for round_ in range(args.kills):
                victim, other = servers[round_ % 2], servers[1 - round_ % 2]
                ((code, token),) = await make_tables([victim], 1, turn_seconds=60)
                codes.append(code)
                player = Reconnecting(code, token, [victim, other])
                deadline = time.monotonic() + 60
                await player.connect(deadline)
                for _ in range(4):
                    await player.act(deadline)
                await player.my_move(deadline)
                deal = player.state["deal"]
                assert player.ws is not None
                await player.ws.send(  # the move in flight
                    json.dumps({"type": "action", "action": "draw", "id": 10_000})
                    if deal["phase"] == "draw"
                    else json.dumps(
                        {"type": "action", "action": "discard", "card": deal["drawn"], "id": 10_000}
                    )
                )
                victim.process.send_signal(signal.SIGKILL)
                killed = time.monotonic()
                victim.process.wait()
                player.state = {}
                while not await player.act(killed + 60):
                    pass
                seconds.append(time.monotonic() - killed)
                lost += missing(db, code, player.acked)
                await player.ws.close()
                servers[round_ % 2] = start(
                    db, args.broker, args.bot_delay, args.lease_seconds, log
                )
            epochs = owners_per_epoch(db, codes)
        finally:
            for server in servers:
                server.stop(grace=20)
    return {
        "kills": args.kills,
        "lease_s": args.lease_seconds,
        "playable_again_s": {
            "median": round(statistics.median(seconds), 2),
            "max": round(max(seconds), 2),
            "all": [round(s, 2) for s in seconds],
        },
        "acknowledged_actions_lost": lost,
        **epochs,
        "load_average_after": load_average(),
    }


def missing(db: str, code: str, acked: list[str]) -> int:
    """How many of the player's acknowledged actions (seat 0) are not in the stored log."""
    stored = [
        e["event"]
        for e in logged_events(db, code)
        if e.get("seat") == 0 and e["event"] in ("drew", "discarded") and not e.get("forced")
    ]
    return max(0, len(acked) - len(stored))


def owners_per_epoch(db: str, codes: list[str]) -> dict[str, Any]:
    """From the log: the owners of each (room, epoch), and the records written under an
    epoch older than one already seen in the same room's log (a second owner writing)."""
    engine = sqlalchemy.create_engine(db)
    with engine.connect() as conn:
        owners = conn.execute(
            sqlalchemy.text(
                "SELECT code, epoch, count(DISTINCT owner) FROM owners GROUP BY code, epoch"
            )
        ).all()
        records = conn.execute(
            sqlalchemy.text("SELECT code, epoch FROM events ORDER BY code, deal, seq")
        ).all()
    engine.dispose()
    out_of_order = 0
    newest: dict[str, int] = {}
    for code, epoch in records:
        if epoch < newest.get(code, 0):
            out_of_order += 1
        newest[code] = max(newest.get(code, 0), epoch)
    return {
        "epochs": len(owners),
        "max_owners_per_epoch": max(int(n) for _, _, n in owners),
        "records_out_of_epoch_order": out_of_order,
        "rooms_taken_over": sum(1 for c in codes if newest.get(c, 0) >= 2),
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    log = Path(args.log)
    out: dict[str, Any] = {"load_average_before": load_average(), "cores": os.cpu_count()}
    if args.tables:
        one = await load(args, 1, log)
        out["one_process"] = one
        setups = (
            ("two_processes_no_broker_yardstick", False, None),
            ("two_processes_at_owner", False, args.broker),
            ("two_processes_relayed", True, args.broker),
        )
        for name, relay, broker in setups:
            two = await load(args, 2, log, relay, broker)
            out[name] = two
            out[f"{name}_cpu_per_action_over_one"] = round(
                two["cpu_ms_per_action"] / one["cpu_ms_per_action"], 3
            )
    if args.kills:
        out["failover"] = await failover(args, log)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db", required=True, help="a PostgreSQL URL (a database beside it is used)"
    )
    parser.add_argument("--broker", required=True, help="a Redis URL")
    parser.add_argument("--tables", type=int, default=300, help="0: no load test")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--kills", type=int, default=20, help="0: no fail-over test")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", default=os.devnull, help="where the servers' output goes")
    args = parser.parse_args()
    if not 0 <= args.tables <= 2000 or not 1 <= args.seconds <= 600 or not 0 <= args.kills <= 100:
        raise SystemExit("keep it bounded: 0-2000 tables, 1-600 seconds, 0-100 kills")
    print(json.dumps(asyncio.run(main_async(args)), indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
