"""Abuse cases against ``rummy21 serve`` (issue 24), measured as a legitimate player sees them.

While an attacker runs, one player plays a normal table (its human seat and a greedy bot, no
turn timer) on the same server, and the bench records what that player sees: its action round
trip (send → ``ack``) p50/p90/p99/max, the errors its messages got, the refusals and closings
of its connection, and whether it could connect at all.

Each case starts a server of its own (a free port on 127.0.0.1, a temporary SQLite file,
``--bot-delay 0.2 --next-deal 0``), lets the legitimate player play alone for ``--baseline``
seconds (the baseline), then runs the attack with the player still playing, and reports both
phases, the attacker's own figures, the server's RSS and CPU time per second in each phase
(:func:`bench_server.cpu_seconds`: the process and its descendants) and the warnings and errors
the server logged. The attack phase runs from the attack's start (its tables created, its
sockets opened) to its end. The cases (``--case NAME``, repeatable; default all):

* ``search-tables``: the attacker creates 30 tables, each a human seat and five ``search``
  bots, and plays their human seats itself (draw, discard at once), so that the bots keep
  thinking (an absent human's turn would wait out the absence grace, 60 s).
* ``expert-tables``: the same with 50 tables of a human seat and three ``expert`` bots.
* ``create-flood``: one client creates tables (five ``search`` bots each) as fast as it can
  (8 requests at a time) for 20 s: how many were created, the status codes of the refusals,
  the server's RSS before and after.
* ``socket-flood``: the attacker holds one seat token (a table of its own) and opens 500
  WebSockets with it (a hello on each; at most 60 s for all), then sends ``arrange``
  requests as fast as it can on 20 of them for 13 s (at most 64 unanswered a socket): the
  ``arranged`` answers it got, the refusals (error codes, close codes), and how many of the
  500 sockets are still open at the end.
* ``slowloris``: 400 raw TCP connections each send an HTTP request line and headers one byte
  every 3 s, never ending them; after 60 s: how many the server has not closed, and whether
  a fresh HTTP request and a fresh WebSocket of the legitimate player (its token) succeed.
* ``wrong-tokens``: from the legitimate player's address (127.0.0.1), 20 hellos with wrong
  tokens, in turn to the player's table and to another one; then the player drops its
  connection and reconnects with its correct token (as a reloaded page does): was it refused,
  and for how long (the phase lasts 10 s)? Also its history request with its token.
* ``ping-ids``: 120 pings with ids 1..120 sent at once on one connection (a table of its
  own): how many answers carry each id (the protocol promises every answer carries the
  message's id).

Every client here is on 127.0.0.1, the attacker's and the legitimate player's alike (so a
limit per address counts them together). ``--seconds S`` replaces the attack phase's length
of every case (20 s, 20 s, 20 s, 13 s of sending, 60 s, 10 s; ping-ids has none) for a quick
run, ``--sockets N`` the 500 and 400 sockets, ``--tables N`` the 30 and 50 tables. One JSON
object per case is printed; ``--out FILE`` appends each as a JSON line. ``--source DIR`` and
``--server-args`` as in ``bench_server.py``.

    python bench/bench_abuse.py --out abuse.jsonl
    python bench/bench_abuse.py --case ping-ids --case wrong-tokens --source /work/before
    python bench/bench_abuse.py --seconds 4 --baseline 2 --sockets 50 --tables 4   # quick
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from bench_server import (
    HOST,
    CpuClock,
    Player,
    add_server_options,
    loaded_from,
    rss_kib,
    rtt_ms,
    start_server,
    tree_info,
)
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.protocol import State

BOT_DELAY = 0.2
LEGIT_THINK = (0.05, 0.15)
"""Seconds the legitimate player waits before each move."""
ATTACK_SECONDS = {
    "search-tables": 20.0,
    "expert-tables": 20.0,
    "create-flood": 20.0,
    "socket-flood": 13.0,
    "slowloris": 60.0,
    "wrong-tokens": 10.0,
    "ping-ids": 0.0,
}
CASES = tuple(ATTACK_SECONDS)
OPEN_SECONDS = 60.0
"""At most this long to open the flood's sockets."""
ACK_TIMEOUT = 30.0
"""Seconds the legitimate player waits for the answer to a message before giving up on it."""


def ws_connect(url: str, **options: Any) -> connect:
    """A WebSocket client as a browser's: no client pings, no proxy, big state messages."""
    options.setdefault("open_timeout", 20)
    return connect(url, max_size=2**22, ping_interval=None, proxy=None, **options)


def close_code(ws: ClientConnection) -> str:
    return str(ws.close_code) if ws.close_code is not None else "none"


def failure(error: BaseException) -> str:
    """A short name for a client-side failure (its type, and a status code when refused)."""
    status = getattr(getattr(error, "response", None), "status_code", None)
    return f"{type(error).__name__}:{status}" if status is not None else type(error).__name__


class Legit:
    """The legitimate player: plays its seat (draws from the stock, discards a random card,
    is ready between deals) and reconnects whenever its connection goes; every timed round
    trip, error answer and connection event is stamped (``time.monotonic``)."""

    def __init__(self, url: str, token: str, seed: int) -> None:
        self.url, self.token = url, token
        self.rng = random.Random(seed)
        self.samples: list[tuple[float, float]] = []
        """(when sent, round trip in seconds) of each action acknowledged."""
        self.errors: list[tuple[float, str]] = []
        """(when, error code) of each error answering one of its messages."""
        self.unanswered: list[float] = []
        """When each message was sent that got no answer within :data:`ACK_TIMEOUT`."""
        self.events: list[tuple[float, str]] = []
        """(when, what) of its connections: ``connected``, ``refused:ERROR/close CODE`` (its
        hello answered with an error), ``closed:CODE`` (after a welcome), ``failed:WHY`` (no
        WebSocket). It reconnects 0.1 s after a connection that was welcomed, else 0.5 s."""
        self.hellos: list[tuple[float, float, str]] = []
        """(when, seconds, outcome) of each hello: sent → ``welcome`` or the error's code."""
        self.stopping = asyncio.Event()
        self.ws: ClientConnection | None = None
        self.welcomed = False
        self.state: dict[str, Any] | None = None
        self.next_id = 1

    @property
    def connected(self) -> bool:
        return self.ws is not None and self.ws.state is State.OPEN and self.welcomed

    async def run(self) -> None:
        while not self.stopping.is_set():
            self.welcomed = False
            try:
                async with ws_connect(self.url) as ws:
                    self.ws = ws
                    try:
                        await self.session(ws)
                    except ConnectionClosed:
                        pass
                    if self.welcomed and not self.stopping.is_set():
                        self.events.append((time.monotonic(), f"closed:{close_code(ws)}"))
            except (OSError, TimeoutError, InvalidHandshake) as error:
                self.events.append((time.monotonic(), f"failed:{failure(error)}"))
            self.ws = None
            if not self.stopping.is_set():  # again soon (sooner after a welcome)
                try:
                    await asyncio.wait_for(self.stopping.wait(), 0.1 if self.welcomed else 0.5)
                except TimeoutError:
                    pass

    async def recv(self, ws: ClientConnection, timeout: float) -> dict[str, Any] | None:
        """The next message (``None``: none within ``timeout`` s); keeps the latest state."""
        try:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        except TimeoutError:
            return None
        if message["type"] == "state":
            self.state = message
        return message

    async def session(self, ws: ClientConnection) -> None:
        sent = time.monotonic()
        await ws.send(json.dumps({"type": "hello", "token": self.token}))
        first = await self.recv(ws, ACK_TIMEOUT)
        took = time.monotonic() - sent
        if first is None or first["type"] != "welcome":
            outcome = "no answer" if first is None else str(first.get("code", first["type"]))
            self.hellos.append((sent, took, outcome))
            try:  # the server closes it (with which code?)
                await asyncio.wait_for(ws.wait_closed(), 5)
            except TimeoutError:
                await ws.close()
            self.events.append((time.monotonic(), f"refused:{outcome}/close {close_code(ws)}"))
            return
        self.hellos.append((sent, took, "welcome"))
        self.events.append((time.monotonic(), "connected"))
        self.welcomed = True
        self.state = None
        acted: object = None
        while not self.stopping.is_set():
            state = self.state
            if state is not None:
                status, deal = state["room"]["status"], state["deal"]
                if status == "between" and acted != ("ready", state["version"]):
                    acted = ("ready", state["version"])
                    if not await self.request(ws, {"type": "ready"}, timed=False):
                        acted = None  # refused, or no answer: again in a while
                        await asyncio.sleep(0.5)
                    continue
                if status == "playing" and deal["my_turn"] and acted != state["version"]:
                    acted = state["version"]
                    await asyncio.sleep(self.rng.uniform(*LEGIT_THINK))
                    if not await self.request(ws, self.move(deal)):
                        acted = None
                        await asyncio.sleep(0.5)
                    continue
            await self.recv(ws, 0.25)

    def move(self, deal: dict[str, Any]) -> dict[str, Any]:
        if deal["phase"] == "draw":
            return {"type": "action", "action": "draw", "source": "stock"}
        choices = [c for c in deal["hand"] if c != deal["blocked"]]
        return {"type": "action", "action": "discard", "card": self.rng.choice(choices)}

    async def request(
        self, ws: ClientConnection, message: dict[str, Any], timed: bool = True
    ) -> bool:
        """Send ``message`` and wait for its answer; ``False`` if it was an error or none came."""
        msg_id = self.next_id
        self.next_id += 1
        at, sent = time.monotonic(), time.perf_counter()
        await ws.send(json.dumps({**message, "id": msg_id}))
        deadline = at + ACK_TIMEOUT
        while True:  # the new state comes first, then the ack
            reply = await self.recv(ws, max(0.01, deadline - time.monotonic()))
            if reply is None:
                self.unanswered.append(at)
                return False
            if reply["type"] == "error" and reply.get("id") is None:
                self.errors.append((time.monotonic(), f"{reply.get('code')} (no id)"))
            if reply["type"] != "state" and reply.get("id") == msg_id:
                break
        if reply["type"] == "error":
            self.errors.append((time.monotonic(), str(reply.get("code"))))
            return False
        if timed:
            self.samples.append((at, time.perf_counter() - sent))
        return True

    async def drop(self) -> None:
        """Close the connection (as a reloaded page does): the player reconnects."""
        if self.ws is not None:
            await self.ws.close()

    def summary(self, start: float, end: float, connected: bool) -> dict[str, Any]:
        """What the player saw from ``start`` to ``end`` (``time.monotonic``); ``connected``:
        whether it was connected (welcomed) at ``end``."""
        rtts = [r for at, r in self.samples if start <= at < end]
        events = Counter(what for at, what in self.events if start <= at < end)
        hellos = [(took, out) for at, took, out in self.hellos if start <= at < end]
        return {
            "seconds": round(end - start, 1),
            "actions": len(rtts),
            "actions_per_s": round(len(rtts) / max(1e-9, end - start), 1),
            "rtt_ms": rtt_ms(rtts),
            "errors": dict(Counter(code for at, code in self.errors if start <= at < end)),
            "unanswered": sum(start <= at < end for at in self.unanswered),
            "connections": dict(events),
            "hellos": [[round(1000 * took, 1), out] for took, out in hellos][:10],
            "connected_at_end": connected,
        }


@dataclass
class Ctx:
    """What a case's attack works with."""

    args: argparse.Namespace
    port: int
    pid: int
    http: httpx.AsyncClient
    legit: Legit
    legit_code: str
    legit_token: str
    seconds: float
    """The attack phase's length."""

    def ws_url(self, code: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/{code}"


async def create_table(
    http: httpx.AsyncClient, seats: list[str], name: str = "Abuser"
) -> tuple[str, str]:
    """A new table's code and its creator's token (:class:`SystemExit` if refused)."""
    made = await http.post(
        "/api/tables", json={"name": name, "seats": seats, "turn_seconds": 0, "deals": 100}
    )
    if made.status_code != 201:
        raise SystemExit(f"could not create a table: {made.status_code} {made.text[:300]}")
    body: dict[str, Any] = made.json()
    return body["code"], body["token"]


# ---------------------------------------------------------------------------- the cases
async def bot_tables(ctx: Ctx, seats: list[str], tables: int) -> dict[str, Any]:
    """``tables`` tables of ``seats``, their human seats played by the attacker at once."""
    end = time.monotonic() + ctx.seconds
    statuses: Counter[int] = Counter()
    made: list[tuple[str, str]] = []
    for i in range(tables):
        reply = await ctx.http.post(
            "/api/tables",
            json={"name": f"A{i}", "seats": seats, "turn_seconds": 0, "deals": 100},
        )
        statuses[reply.status_code] += 1
        if reply.status_code == 201:
            made.append((reply.json()["code"], reply.json()["token"]))
    created_in = ctx.seconds - (end - time.monotonic())
    rng = random.Random(ctx.args.seed)
    players = [
        Player(ctx.ws_url(code), token, random.Random(rng.getrandbits(32)), (0.0, 0.05), end)
        for code, token in made
    ]
    tasks = [asyncio.create_task(p.run()) for p in players]
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    done, pending = await asyncio.wait(tasks, timeout=5)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    failures = Counter(failure(exc) for t in done if (exc := t.exception()) is not None) + Counter(
        {"unfinished (cancelled)": len(pending)} if pending else {}
    )
    rtts = [r for p in players for r in p.rtts]
    turns = sum(p.bot_turns for p in players)
    return {
        "tables": tables,
        "seats": seats,
        "create_status": dict(statuses),
        "created_in_s": round(created_in, 2),
        "actions": len(rtts),
        "rtt_ms": rtt_ms(rtts),
        "bot_turns": turns,
        "bot_turns_per_s": round(turns / ctx.seconds, 1),
        "errors": sum(p.errors for p in players),
        "client_failures": dict(failures),
    }


async def search_tables(ctx: Ctx) -> dict[str, Any]:
    return await bot_tables(ctx, ["human", *["search"] * 5], ctx.args.tables or 30)


async def expert_tables(ctx: Ctx) -> dict[str, Any]:
    return await bot_tables(ctx, ["human", *["expert"] * 3], ctx.args.tables or 50)


async def create_flood(ctx: Ctx, workers: int = 8) -> dict[str, Any]:
    end = time.monotonic() + ctx.seconds
    statuses: Counter[str] = Counter()
    took: list[float] = []
    rss_before = rss_kib(ctx.pid)
    body = {"name": "Flood", "seats": ["human", *["search"] * 5], "turn_seconds": 0, "deals": 100}
    limits = httpx.Limits(max_connections=workers)
    async with httpx.AsyncClient(
        base_url=f"http://{HOST}:{ctx.port}", timeout=10, limits=limits, trust_env=False
    ) as flood:

        async def worker() -> None:
            while time.monotonic() < end:
                sent = time.perf_counter()
                try:
                    reply = await flood.post("/api/tables", json=body)
                except httpx.HTTPError as error:
                    statuses[failure(error)] += 1
                    continue
                took.append(time.perf_counter() - sent)
                statuses[str(reply.status_code)] += 1

        await asyncio.gather(*(worker() for _ in range(workers)))
    return {
        "workers": workers,
        "created": statuses.get("201", 0),
        "created_per_s": round(statuses.get("201", 0) / ctx.seconds, 1),
        "status": dict(statuses),
        "request_ms": rtt_ms(took),
        "rss_mib": {
            "before": round(rss_before / 1024, 1),
            "after": round(rss_kib(ctx.pid) / 1024, 1),
        },
    }


class Socket:
    """One of the flood's WebSockets: counts what it is sent, by type (errors by code)."""

    def __init__(self) -> None:
        self.ws: ClientConnection | None = None
        self.received: Counter[str] = Counter()
        self.answered = asyncio.Event()
        self.welcomed = asyncio.Event()
        self.hello: str | None = None
        """How its hello was answered: ``welcome``, an error's code, or a failure."""

    async def open(self, url: str, token: str) -> None:
        try:
            self.ws = await ws_connect(url)
            await self.ws.send(json.dumps({"type": "hello", "token": token}))
            async for raw in self.ws:
                if isinstance(raw, str) and raw.startswith('{"type": "state"'):
                    self.received["state"] += 1  # (not read: the flood gets thousands)
                    continue
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    kind = f"error:{message.get('code')}"
                    if message.get("id") is None:
                        kind += " (no id)"
                self.received[kind] += 1
                if self.hello is None:
                    self.hello = message["type"] if kind == "welcome" else kind
                    self.welcomed.set()
                if kind != "state" and kind != "welcome":
                    self.answered.set()
        except ConnectionClosed:
            pass
        except (OSError, TimeoutError, InvalidHandshake) as error:
            self.hello = self.hello or f"failed:{failure(error)}"
        finally:
            self.welcomed.set()

    @property
    def open_now(self) -> bool:
        return self.ws is not None and self.ws.state is State.OPEN


async def socket_flood(ctx: Ctx, senders: int = 20, window: int = 64) -> dict[str, Any]:
    count = ctx.args.sockets or 500
    code, token = await create_table(ctx.http, ["human", "greedy"])
    url = ctx.ws_url(code)
    sockets = [Socket() for _ in range(count)]
    began = time.monotonic()
    readers = []
    for i in range(0, count, 50):  # 50 handshakes at a time, for at most OPEN_SECONDS
        batch = sockets[i : i + 50]
        readers += [asyncio.create_task(s.open(url, token)) for s in batch]
        left = began + OPEN_SECONDS - time.monotonic()
        try:
            await asyncio.wait_for(asyncio.gather(*(s.welcomed.wait() for s in batch)), left)
        except TimeoutError:
            break  # (the rest counted below as not opened)
    opened_in = time.monotonic() - began
    hellos = Counter(s.hello or "not opened" for s in sockets)
    live = [s for s in sockets if s.open_now and s.hello == "welcome"]
    end = time.monotonic() + ctx.seconds
    sent = Counter[int]()

    async def blast(index: int, sock: Socket) -> None:
        assert sock.ws is not None
        msg_id = 0
        while time.monotonic() < end and sock.open_now:
            answers = sum(n for k, n in sock.received.items() if k not in ("state", "welcome"))
            if sent[index] - answers >= window:  # wait for an answer (or 2 s)
                sock.answered.clear()
                try:
                    await asyncio.wait_for(sock.answered.wait(), 2)
                except TimeoutError:
                    pass
                continue
            msg_id += 1
            try:
                await sock.ws.send(json.dumps({"type": "arrange", "id": msg_id}))
            except ConnectionClosed:
                return
            sent[index] += 1

    await asyncio.gather(*(blast(i, s) for i, s in enumerate(live[:senders])))
    await asyncio.sleep(2)  # the answers still on their way
    received = Counter[str]()
    for s in live[:senders]:
        received += s.received
    still_open = sum(s.open_now for s in sockets)
    closes = Counter(close_code(s.ws) for s in sockets if s.ws is not None and not s.open_now)
    for s in sockets:
        if s.ws is not None:
            await s.ws.close()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return {
        "sockets": count,
        "opened_in_s": round(opened_in, 1),
        "hellos": dict(hellos),
        "senders": min(senders, len(live)),
        "sent": sum(sent.values()),
        "arranged": received.get("arranged", 0),
        "arranged_per_s": round(received.get("arranged", 0) / ctx.seconds, 1),
        "answers": {k: n for k, n in received.items() if k not in ("state", "welcome")},
        "still_open": still_open,
        "closed": dict(closes),
    }


async def slowloris(ctx: Ctx, every: float = 3.0) -> dict[str, Any]:
    count = ctx.args.sockets or 400
    end = time.monotonic() + ctx.seconds
    outcome: dict[int, str] = {}
    writers: list[asyncio.StreamWriter] = []

    def request() -> bytes:  # a request line and headers that never end
        head = f"GET / HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: slow\r\n".encode()
        return head + b"".join(f"X-Pad-{n}: {n}\r\n".encode() for n in range(1000))

    async def one(index: int) -> None:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, ctx.port), 10)
        except (OSError, TimeoutError) as error:
            outcome[index] = f"connect failed:{failure(error)}"
            return
        writers.append(writer)
        data = request()

        async def watch() -> None:
            got = await reader.read(4096)
            outcome[index] = "answered" if got else "closed by server"

        watcher = asyncio.create_task(watch())
        await asyncio.sleep(every * index / count)  # spread the bytes out
        try:
            for byte in data:
                if watcher.done() or time.monotonic() >= end:
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.wait([watcher], timeout=min(every, max(0.0, end - time.monotonic())))
        except OSError as error:
            outcome.setdefault(index, f"write failed:{failure(error)}")
        if not watcher.done():
            watcher.cancel()

    sockets = [asyncio.create_task(one(i)) for i in range(count)]
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    await asyncio.gather(*sockets, return_exceptions=True)
    still_open = count - len(outcome)
    # With the slow connections still open: can a newcomer be served?
    fresh: dict[str, Any] = {}
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:  # a new connection
        sent = time.perf_counter()
        try:
            status: int | str = (await http.get(f"http://{HOST}:{ctx.port}/healthz")).status_code
        except httpx.HTTPError as error:
            status = failure(error)
        fresh["http"] = {"status": status, "ms": round(1000 * (time.perf_counter() - sent), 1)}
    sent = time.perf_counter()
    try:
        async with ws_connect(ctx.ws_url(ctx.legit_code), open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": ctx.legit_token}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            answer = first["type"] if first["type"] != "error" else f"error:{first.get('code')}"
    except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as error:
        answer = f"failed:{failure(error)}"
    fresh["websocket"] = {"answer": answer, "ms": round(1000 * (time.perf_counter() - sent), 1)}
    for writer in writers:
        writer.close()
    return {
        "sockets": count,
        "byte_every_s": every,
        "still_open": still_open,
        "ended": dict(Counter(outcome.values())),
        "fresh": fresh,
    }


async def wrong_tokens(ctx: Ctx, hellos: int = 20) -> dict[str, Any]:
    end = time.monotonic() + ctx.seconds
    other, _ = await create_table(ctx.http, ["human", "greedy"])
    answers: dict[str, Counter[str]] = {"own table": Counter(), "other table": Counter()}
    for n in range(hellos):
        where, code = ("own table", ctx.legit_code) if n % 2 == 0 else ("other table", other)
        try:
            async with ws_connect(ctx.ws_url(code)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": f"wrong-token-{n:08d}"}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                except ConnectionClosed:
                    pass
            answers[where][f"{first.get('code')}/close {close_code(ws)}"] += 1
        except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as error:
            answers[where][f"failed:{failure(error)}"] += 1
    dropped = time.monotonic()
    await ctx.legit.drop()
    # and its history, with its token
    reply = await ctx.http.get(
        f"/api/tables/{ctx.legit_code}/deals",
        headers={"authorization": f"Bearer {ctx.legit_token}"},
    )
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    after = [(at, out) for at, _, out in ctx.legit.hellos if at >= dropped]
    back = next((at for at, out in after if out == "welcome"), None)
    return {
        "wrong_hellos": {k: dict(v) for k, v in answers.items()},
        "reconnect_answers": dict(Counter(out for _, out in after)),
        "reconnect_first": after[0][1] if after else None,
        "back_after_s": None if back is None else round(back - dropped, 2),
        "history_with_token": reply.status_code,
    }


async def ping_ids(ctx: Ctx, pings: int = 120) -> dict[str, Any]:
    code, token = await create_table(ctx.http, ["human", "greedy"])
    by_id: Counter[int] = Counter()
    without: Counter[str] = Counter()
    async with ws_connect(ctx.ws_url(code)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "welcome":
            pass
        began = time.perf_counter()
        for n in range(1, pings + 1):
            await ws.send(json.dumps({"type": "ping", "id": n}))
        answers = 0
        while answers < pings:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
            except TimeoutError:
                break
            if message["type"] in ("state", "welcome", "notice"):
                continue
            answers += 1
            if isinstance(message.get("id"), int):
                by_id[message["id"]] += 1
            else:
                kind = message["type"]
                without[kind if kind != "error" else f"error:{message.get('code')}"] += 1
        took = time.perf_counter() - began
    kinds = Counter(by_id[n] for n in range(1, pings + 1))
    return {
        "pings": pings,
        "answers": answers,
        "answers_with_id": sum(by_id.values()),
        "answers_without_id": dict(without),
        "ids_answered_once": kinds.get(1, 0),
        "ids_unanswered": kinds.get(0, 0),
        "ids_answered_more": sum(n for k, n in kinds.items() if k > 1),
        "every_answer_has_its_id": kinds.get(1, 0) == pings and not without,
        "seconds": round(took, 2),
    }


ATTACKS: dict[str, Callable[[Ctx], Awaitable[dict[str, Any]]]] = {
    "search-tables": search_tables,
    "expert-tables": expert_tables,
    "create-flood": create_flood,
    "socket-flood": socket_flood,
    "slowloris": slowloris,
    "wrong-tokens": wrong_tokens,
    "ping-ids": ping_ids,
}


# ----------------------------------------------------------------------------- running
LOG_LINE = re.compile(r"^(WARNING|ERROR|CRITICAL) (\S+): (.*)$")


def server_log(log: Path) -> dict[str, Any]:
    """The server's warnings and errors: how many of each, and the commonest messages."""
    levels: Counter[str] = Counter()
    messages: Counter[str] = Counter()
    for line in log.read_text(errors="replace").splitlines():
        found = LOG_LINE.match(line)
        if found:
            levels[found[1]] += 1
            messages[re.sub(r"\d+", "N", found[3])[:100]] += 1
    return {"levels": dict(levels), "top": messages.most_common(5)}


async def run_case(name: str, args: argparse.Namespace, tree: dict[str, Any]) -> dict[str, Any]:
    seconds = ATTACK_SECONDS[name] if args.seconds is None else args.seconds
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        server = start_server(
            Path(folder) / "abuse.sqlite3", BOT_DELAY, args.source, args.server_args, log
        )
        pid = server.process.pid
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as http:
                code, token = await create_table(http, ["human", "greedy"], "Legit")
                legit = Legit(f"ws://{HOST}:{server.port}/ws/{code}", token, args.seed)
                rss_start = rss_kib(pid)
                cpu = CpuClock(pid)
                t0 = time.monotonic()  # the baseline: from the player's first connection on
                playing = asyncio.create_task(legit.run())
                for _ in range(150):
                    if legit.connected:
                        break
                    await asyncio.sleep(0.1)
                await asyncio.sleep(args.baseline)
                t1 = time.monotonic()
                connected_t1 = legit.connected
                cpu_baseline = cpu.read()
                cpu.start()
                ctx = Ctx(args, server.port, pid, http, legit, code, token, seconds)
                attack = await ATTACKS[name](ctx)
                t2 = time.monotonic()
                connected_t2 = legit.connected
                cpu_attack = cpu.read()
                rss_end = rss_kib(pid)
                tree = {**tree, "native_loaded": loaded_from(pid)}
                legit.stopping.set()
                try:
                    await asyncio.wait_for(playing, ACK_TIMEOUT + 5)
                except TimeoutError:
                    pass
        finally:
            server.stop()
        logged = server_log(log)
    baseline = {**legit.summary(t0, t1, connected_t1), "server_cpu": cpu_baseline}
    during = {**legit.summary(t1, t2, connected_t2), "server_cpu": cpu_attack}
    first_connect = next((what for _, what in legit.events), "never tried")
    return {
        "case": name,
        "attack_s": seconds,
        "legit_first_connection": first_connect,
        "baseline": baseline,
        "during_attack": during,
        "attacker": attack,
        "server_rss_mib": {"start": round(rss_start / 1024, 1), "end": round(rss_end / 1024, 1)},
        "server_log": logged,
        "tree": tree,
        "server_args": args.server_args,
    }


async def bench(args: argparse.Namespace) -> None:
    tree = tree_info(args.source)
    for name in args.case or CASES:
        try:
            result = await run_case(name, args, tree)
        except Exception as error:  # the next cases still run
            result = {"case": name, "failed": repr(error)[:2000], "tree": tree}
        print(json.dumps(result, indent=2), flush=True)
        if args.out is not None:
            with args.out.open("a") as out:
                out.write(json.dumps(result) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=CASES, help="run this case (repeatable)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="every attack phase's length (default: per case)",
    )
    parser.add_argument("--baseline", type=float, default=5.0, help="seconds of the baseline")
    parser.add_argument(
        "--sockets", type=int, default=None, help="socket-flood's 500, slowloris's 400"
    )
    parser.add_argument(
        "--tables", type=int, default=None, help="search-tables' 30, expert-tables' 50"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="append each case as a JSON line")
    add_server_options(parser)
    args = parser.parse_args()
    if args.seconds is not None and not 1 <= args.seconds <= 120:
        raise SystemExit("keep it bounded: --seconds 1-120")
    if not 1 <= args.baseline <= 60:
        raise SystemExit("keep it bounded: --baseline 1-60")
    if args.sockets is not None and not 1 <= args.sockets <= 1000:
        raise SystemExit("keep it bounded: --sockets 1-1000")
    if args.tables is not None and not 1 <= args.tables <= 200:
        raise SystemExit("keep it bounded: --tables 1-200")
    asyncio.run(bench(args))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
