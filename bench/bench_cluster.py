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
costs by itself, apart from coordinating). With ``--rounds R`` the four set-ups run R times,
interleaved (one, yardstick, at owner, relayed, then again), so that a slow spell of the
machine does not land on one set-up only. Reported per set-up and round: the action round
trip (send → ``ack``, after the commit and after every seat was sent its view) p50/p99, also
counting only each player's actions after its last reconnection (``rtt_ms_settled``), the
actions at or above the p99 by the second of the run they were sent in
(``slowest_by_second``), the player actions a second, each server process's CPU time (user +
system, from ``/proc/<pid>/stat``) per player action and over the same round's one process,
the reconnections and the tables handed over, and the same p50/p99 and CPU per action over the
second half of the run alone (``second_half``: after the start-up, when every player connects at
once and the relayed tables move to their players); and per set-up the median over the rounds of
those figures (``median``).

The database's own durability is the URL's: ``--db
'postgresql+psycopg://…/rummy21?options=-csynchronous_commit%3Doff'`` runs the servers with
asynchronous commits (a PostgreSQL crash may lose the last fraction of a second of
acknowledged moves; a server process's crash loses nothing), which takes the disk's flushes off
the round trip, to see what coordinating costs apart from the disk.

The commit probe. The disk under PostgreSQL may stall a commit now and then, whatever the
set-up, and every action waiting on a commit then is slow. So during each timed run another
process (``commit_probe``) writes one tiny row with a commit of its own (autocommit, its own
connection and a table of its own in the set-up's database) every :data:`PROBE_SECONDS`, and
reports its commit times (p50, p99, max) and the seconds of the run in which a commit took more
than :data:`PROBE_STALL` (the slowest in each): a second with slow actions and a slow probe
commit is the disk's doing, not the set-up's. It adds about 50 commits a second, in every
set-up alike.

The client. All the players are one asyncio process, which is not the system under test: its
garbage collector is frozen after set-up (``gc.freeze``) and off during each timed run (on
again after), so that its own pauses are not counted in the round trips.

Fail-over. Two processes; ``--kills`` times, a table is made on one of them, its player
(connected to it: a player relayed from the other would have its table handed there) plays,
sends a move and at once the owner is killed with SIGKILL.
Reported: the seconds from the kill until the player's next move is acknowledged (the player
reconnects by itself, as the page does), acknowledged actions missing from the log, and, from
the log, the owners of each epoch and any record written out of epoch order. The killed
process is started again for the next round.

    python bench/bench_cluster.py --db postgresql+psycopg://rummy:rummy@127.0.0.1/rummy21 \\
        --broker redis://127.0.0.1:6379/0 --tables 300 --seconds 30 --rounds 3 --kills 20

``--db`` is a database on the server to use: each set-up makes a database of its own beside it
(and drops it afterwards). Only ever talks to 127.0.0.1 and the given servers.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import signal
import statistics
import sys
import time
import uuid
from multiprocessing.connection import Connection
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
PROBE_SECONDS = 0.02
"""How often the commit probe commits a row."""
PROBE_STALL = 0.05
"""A probe commit slower than this is reported with the second of the run it happened in."""


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


def probe(db: str, pipe: Connection, every: float) -> None:
    """The commit probe's process: one row committed on its own every ``every`` seconds, in
    table ``bench_probe`` of database ``db``, until told to stop; then it sends back, for
    every commit, when it began (``time.monotonic``) and how long it took."""
    engine = sqlalchemy.create_engine(db, isolation_level="AUTOCOMMIT")
    insert = sqlalchemy.text("INSERT INTO bench_probe (at) VALUES (:at)")
    # (each commit waits for the disk, whatever the servers' URL asks of theirs)
    durable = sqlalchemy.text("SET synchronous_commit = on")
    samples: list[tuple[float, float]] = []
    try:
        with engine.connect() as conn:
            conn.execute(durable)
            conn.execute(
                sqlalchemy.text(
                    "CREATE TABLE IF NOT EXISTS bench_probe"
                    " (n bigserial PRIMARY KEY, at double precision NOT NULL)"
                )
            )
            pipe.send("ready")
            due = time.monotonic()
            while True:
                at, began = time.monotonic(), time.perf_counter()
                conn.execute(insert, {"at": at})
                samples.append((at, time.perf_counter() - began))
                due = max(due + every, time.monotonic())  # after a stall: on, not catching up
                if pipe.poll(due - time.monotonic()):
                    break
    finally:
        engine.dispose()
        pipe.send(samples)


class Probe:
    """The commit probe (see the module docstring), as a process of its own, so that neither
    the client's event loop nor its interpreter lock is in what it measures."""

    def __init__(self, db: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(
            target=probe, args=(db, theirs, PROBE_SECONDS), name="commit-probe", daemon=True
        )
        self.process.start()
        theirs.close()
        if not self.pipe.poll(60) or self.pipe.recv() != "ready":
            self.close()
            raise SystemExit("the commit probe did not start")

    def stop(self) -> list[tuple[float, float]]:
        """Stop probing: (start, seconds) of every commit."""
        self.pipe.send("stop")
        if not self.pipe.poll(30):
            raise SystemExit("the commit probe did not stop")
        samples: list[tuple[float, float]] = self.pipe.recv()
        return samples

    def close(self) -> None:
        """End the process (at once if it was not stopped first)."""
        if self.process.is_alive():
            self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.pipe.close()


def probe_figures(
    samples: list[tuple[float, float]], started: float, elapsed: float
) -> dict[str, Any]:
    """The probe's commits during the timed run: how many, p50/p99/max, and the seconds of
    the run with a commit slower than :data:`PROBE_STALL` (the slowest commit in each, ms)."""
    timed = [(at - started, took) for at, took in samples if 0 <= at - started <= elapsed]
    if not timed:
        return {"commits": 0}
    took = [t for _, t in timed]
    stalls: dict[int, float] = {}
    for second, t in timed:
        if t > PROBE_STALL:
            stalls[int(second)] = max(stalls.get(int(second), 0.0), round(1000 * t, 1))
    return {
        "commits": len(took),
        "p50_ms": round(1000 * statistics.median(took), 2),
        "p99_ms": round(1000 * percentile(took, 0.99), 2),
        "max_ms": round(1000 * max(took), 1),
        f"over_{round(1000 * PROBE_STALL)}ms_by_second": stalls,
    }


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


async def at_half(servers: list[Server], seconds: float) -> list[float]:
    """The servers' CPU seconds so far, read ``seconds`` into the run."""
    await asyncio.sleep(seconds)
    return [cpu_seconds(s.process.pid) for s in servers]


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
            commits = Probe(db)
            try:
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
                gc.collect()
                gc.freeze()  # the client is not under test: no collection pauses in its timing
                gc.disable()
                try:
                    cpu_before = [cpu_seconds(s.process.pid) for s in servers]
                    started = time.monotonic()
                    halfway = asyncio.ensure_future(at_half(servers, args.seconds / 2))
                    results = await asyncio.gather(
                        *(p.run() for p in players), return_exceptions=True
                    )
                    elapsed = time.monotonic() - started
                    cpu_half = await halfway
                    cpu = [
                        cpu_seconds(s.process.pid) - b
                        for s, b in zip(servers, cpu_before, strict=True)
                    ]
                finally:
                    gc.enable()
                    gc.unfreeze()
                samples = commits.stop()
            finally:
                commits.close()
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
    middle = started + args.seconds / 2
    late = [r for p in players for r, w in zip(p.rtts, p.sent_at, strict=True) if w >= middle]
    cpu_end = [b + c for b, c in zip(cpu_before, cpu, strict=True)]
    slow = 1000 * percentile(rtts, 0.99)
    by_second: dict[int, int] = {}
    for p in players:
        for r, when in zip(p.rtts, p.sent_at, strict=True):
            if 1000 * r >= slow:
                second = int(when - started)
                by_second[second] = by_second.get(second, 0) + 1
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
        # the actions at or above the p99, by the second of the run they were sent in
        "slowest_by_second": dict(sorted(by_second.items())),
        "reconnects": sum(p.reconnects for p in players),
        "tables_handed_over": moved,
        "server_cpu_s": [round(c, 2) for c in cpu],
        "cpu_ms_per_action": round(1000 * sum(cpu) / len(rtts), 3),
        # the second half of the run alone: after the start (connections, hand-overs)
        "second_half": {
            "actions": len(late),
            "p50_ms": round(1000 * statistics.median(late), 2) if late else None,
            "p99_ms": round(1000 * percentile(late, 0.99), 2) if late else None,
            "cpu_ms_per_action": (
                round(1000 * (sum(cpu_end) - sum(cpu_half)) / len(late), 3) if late else None
            ),
        },
        "errors": sum(p.errors for p in players),
        "client_failures": len(failures),
        "client_failure_kinds": sorted({f"{type(f).__name__}: {f}"[:120] for f in failures}),
        "commit_probe": probe_figures(samples, started, elapsed),
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


SETUPS = (
    ("one_process", 1, False, False),
    ("two_processes_no_broker_yardstick", 2, False, False),
    ("two_processes_at_owner", 2, False, True),
    ("two_processes_relayed", 2, True, True),
)
"""The load set-ups, in the order of a round: name, processes, relayed players, broker."""


def medians(rounds: list[dict[str, Any]], one: list[dict[str, Any]]) -> dict[str, Any]:
    """A set-up's figures over its ``rounds``: the medians of p50, p99 and CPU per action
    (and that CPU over the median of the one process's ``one``), and a few figures of each
    round, to see how far apart the rounds were."""

    def median(values: list[float]) -> float:
        return round(statistics.median(values), 3)

    cpu = median([r["cpu_ms_per_action"] for r in rounds])
    late_cpu = median([r["second_half"]["cpu_ms_per_action"] or 0.0 for r in rounds])
    late_one = median([r["second_half"]["cpu_ms_per_action"] or 0.0 for r in one])
    return {
        "rounds": len(rounds),
        "p50_ms": median([r["rtt_ms"]["p50"] for r in rounds]),
        "p99_ms": median([r["rtt_ms"]["p99"] for r in rounds]),
        "cpu_ms_per_action": cpu,
        "cpu_per_action_over_one": round(cpu / median([r["cpu_ms_per_action"] for r in one]), 3),
        "second_half_p99_ms": median([r["second_half"]["p99_ms"] or 0.0 for r in rounds]),
        "second_half_cpu_ms_per_action": late_cpu,
        "second_half_cpu_over_one": round(late_cpu / late_one, 3) if late_one else None,
        "p99_ms_by_round": [r["rtt_ms"]["p99"] for r in rounds],
        "cpu_ms_per_action_by_round": [r["cpu_ms_per_action"] for r in rounds],
        "commit_probe_max_ms_by_round": [r["commit_probe"].get("max_ms") for r in rounds],
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    log = Path(args.log)
    out: dict[str, Any] = {"load_average_before": load_average(), "cores": os.cpu_count()}
    if args.tables:
        done: dict[str, list[dict[str, Any]]] = {name: [] for name, *_ in SETUPS}
        for round_ in range(args.rounds):
            for name, processes, relay, brokered in SETUPS:
                figures = await load(args, processes, log, relay, args.broker if brokered else None)
                one = done["one_process"][round_] if processes > 1 else figures
                figures["cpu_per_action_over_one"] = round(
                    figures["cpu_ms_per_action"] / one["cpu_ms_per_action"], 3
                )
                done[name].append(figures)
                print(
                    f"round {round_ + 1}/{args.rounds} {name}: p50 {figures['rtt_ms']['p50']} ms,"
                    f" p99 {figures['rtt_ms']['p99']} ms,"
                    f" {figures['cpu_ms_per_action']} ms CPU an action"
                    f" (second half: p99 {figures['second_half']['p99_ms']} ms,"
                    f" {figures['second_half']['cpu_ms_per_action']} ms CPU),"
                    f" probe max {figures['commit_probe'].get('max_ms')} ms",
                    file=sys.stderr,
                )
        for name, rounds in done.items():
            out[name] = {"median": medians(rounds, done["one_process"]), "rounds": rounds}
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
    parser.add_argument(
        "--rounds", type=int, default=1, help="how many times to run the load set-ups"
    )
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--kills", type=int, default=20, help="0: no fail-over test")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", default=os.devnull, help="where the servers' output goes")
    args = parser.parse_args()
    if (
        not 0 <= args.tables <= 2000
        or not 1 <= args.seconds <= 600
        or not 0 <= args.kills <= 100
        or not 1 <= args.rounds <= 20
    ):
        raise SystemExit("keep it bounded: 0-2000 tables, 1-600 seconds, 0-100 kills, 1-20 rounds")
    print(json.dumps(asyncio.run(main_async(args)), indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
