"""Load test of ``rummy21 serve``: N tables at once, each a real WebSocket client against bots.

The server runs as its own process on 127.0.0.1 (a free port, a temporary SQLite database);
this process creates N tables over HTTP (a human seat and, by default, a random bot each) and
plays every human seat through its own WebSocket, with a think time before each move like a
person. It reports the action round trip (send → ``ack``, which the server sends only after the
move is committed to the database and every seat has been sent its new view) as p50/p90/p99/max,
the actions per second, the bots' turns per second, the server's memory per table and its CPU
time per second. It stops by itself (``--seconds``), and only ever talks to 127.0.0.1.

    python bench/bench_server.py --tables 200 --seconds 30
    python bench/bench_server.py --tables 60 --seconds 60 --bots mix --source /work/before

``--bots`` chooses each table's bot seats: a comma list (``random``, the default, or e.g.
``greedy,expert``: every table gets those bots), or ``mix``: two bots a table drawn from
greedy, expert and search, so that across the tables each appears about equally often (the
draw is seeded by ``--seed`` and the table's index: table *i* always gets the same bots).
``--source DIR`` runs the server from the source tree DIR (``PYTHONPATH=DIR/src`` for the
server process only; DIR's C core must be built in place: ``python setup.py build_ext
--inplace``), by default whatever ``rummy21`` this Python imports; the output's ``tree`` says
which package the server imports, its solver core, the tree's commit (``+``: its ``src``
has changes not committed) and, in ``native_loaded``, the native core's file the running
server has mapped (read from ``/proc/PID/maps`` at the end). ``--server-args``
adds options to ``rummy21 serve`` (one string, split like a shell line; a single option
without a space needs the ``=`` form, ``--server-args=--OPTION``).

How the figures are counted:

* ``bot_turns``: the turns completed by bot seats during the run, read from the state messages
  each human seat receives: every view lists, per seat, the turns it has completed in the
  deal (``deal.seats[i].played``, a draw and discard, a drop, a declaration or a timed-out
  turn); per deal and bot seat the bench takes the last count seen minus the first, which
  is the count in the player's first view for the deal in play when it connected, and 0 for
  every later deal (all its turns fall in the run, even those played before the player's
  first view of it). Each human seat's view counts its own table's bot seats, so no turn is
  counted twice. A bot's turn is two moves (draw, discard) but one count here.
* ``server_cpu``: user + system CPU time of the server process and of every live descendant
  (``/proc/*/stat``, found through their parent links) plus that of its children already
  reaped, from the start of play to its end; ``per_s`` is CPU seconds per second of wall
  time (1.0: one core busy).
* ``server_rss_mib``: the server process's resident memory (``VmRSS``); at the end also with
  its children's (the bots' worker processes), ``playing_with_children``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the serving helpers

from serving import Server

HOST = "127.0.0.1"
BOTS = ("random", "greedy", "expert", "search")
MIX = ("greedy", "expert", "search")
"""The bots ``--bots mix`` draws from."""
MIX_SEATS = 2
"""The bots a table of ``--bots mix`` has (beside its human seat)."""


def rss_kib(pid: int) -> int:
    """The resident memory of ``pid`` (0 if it has gone)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (field 3 on), or ``None``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def descendants(pid: int) -> list[int]:
    """The live processes below ``pid`` (children, theirs, …), from ``/proc/*/stat``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def cpu_seconds(pid: int) -> tuple[float, int]:
    """User + system CPU seconds of ``pid``, of its reaped children and of every live
    descendant; and how many processes that was (``pid`` itself included)."""
    tick = os.sysconf("SC_CLK_TCK")
    fields = _stat(pid)
    if fields is None:
        return 0.0, 0
    # after the name: state ppid … utime (14) stime (15) cutime (16) cstime (17)
    total = sum(int(f) for f in fields[11:15])
    counted = 1
    for child in descendants(pid):
        below = _stat(child)
        if below is not None:
            total += int(below[11]) + int(below[12])
            counted += 1
    return total / tick, counted


class CpuClock:
    """The server's CPU time (:func:`cpu_seconds`) against wall time, from :meth:`start`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start()

    def start(self) -> None:
        self.cpu0, _ = cpu_seconds(self.pid)
        self.wall0 = time.monotonic()

    def read(self) -> dict[str, Any]:
        cpu, processes = cpu_seconds(self.pid)
        wall = max(1e-9, time.monotonic() - self.wall0)
        used = cpu - self.cpu0
        return {"seconds": round(used, 2), "per_s": round(used / wall, 3), "processes": processes}


def server_env(source: Path | None) -> dict[str, str]:
    """The server's environment: this one, with ``PYTHONPATH=SOURCE/src`` for a tree."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source.resolve() / "src")
    return env


PROBE = (
    "import json, rummy21, rummy21.solver.backend as b; "
    "print(json.dumps({'package': rummy21.__file__, 'solver': b.name()}))"
)


def tree_info(source: Path | None) -> dict[str, Any]:
    """Which ``rummy21`` the server runs with ``source`` (as :func:`start_server` starts it):
    the package's file, its solver core, its tree, and that tree's commit (``+`` if files
    under its ``src`` differ from it)."""
    env = server_env(source)
    found = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    if found.returncode != 0:
        raise SystemExit(
            f"cannot import rummy21 with {source or 'the installed package'}: "
            f"{found.stderr.strip()[-2000:]}"
        )
    info: dict[str, Any] = json.loads(found.stdout)
    root = Path(info["package"]).resolve().parent.parent.parent  # TREE/src/rummy21/__init__.py
    info["tree"] = str(root)
    info["source"] = None if source is None else str(source)
    info["commit"] = None
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if head.returncode == 0:
            changed = subprocess.run(
                ["git", "-C", str(root), "status", "--porcelain", "--", "src"],
                capture_output=True,
                text=True,
                timeout=30,
            )
            info["commit"] = head.stdout.strip() + ("+" if changed.stdout.strip() else "")
    except OSError:
        pass
    return info


def loaded_from(pid: int) -> str | None:
    """The file of the native solver core the process ``pid`` has mapped (``None``: none yet),
    which says which tree the server really runs."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return None
    for line in maps.splitlines():
        if "rummy21/solver/_native" in line:
            return line.split(None, 5)[-1]
    return None


@contextmanager
def _environ(env: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def start_server(
    db: Path,
    bot_delay: float,
    source: Path | None = None,
    server_args: Sequence[str] = (),
    log: Path | None = None,
) -> Server:
    """The server on a free port and the SQLite file ``db``, up (its output to ``log``, by
    default discarded); run from the source tree ``source`` if given, with ``server_args``
    added to its command line."""
    args = ["--db", f"sqlite:///{db}", "--bot-delay", str(bot_delay), "--next-deal", "0"]
    with _environ(server_env(source)):  # Server passes os.environ to the process it starts
        return Server(
            [*args, "--log-level", "warning", *server_args],
            Path(os.devnull) if log is None else log,
            wait=30,
            error=SystemExit,
        )


def bot_seats(spec: str, table: int, seed: int) -> list[str]:
    """The bot seats of table number ``table`` under ``--bots spec`` (see the docstring).

    >>> [bot_seats("mix", i, 1) for i in range(3)] == [bot_seats("mix", i, 1) for i in range(3)]
    True
    >>> sorted(Counter(b for i in range(30) for b in bot_seats("mix", i, 1)).values())
    [20, 20, 20]
    >>> bot_seats("greedy,expert", 7, 1)
    ['greedy', 'expert']
    """
    if spec != "mix":
        return spec.split(",")
    seats = []
    for slot in range(MIX_SEATS * table, MIX_SEATS * (table + 1)):
        block, place = divmod(slot, len(MIX))  # each block of three slots: each bot once
        order = list(MIX)
        random.Random(f"mix:{seed}:{block}").shuffle(order)
        seats.append(order[place])
    return seats


def check_bots(spec: str) -> str:
    if spec == "mix":
        return spec
    names = spec.split(",")
    if not 1 <= len(names) <= 5 or any(n not in BOTS for n in names):
        raise argparse.ArgumentTypeError(
            f"--bots is mix or a comma list of 1 to 5 of {', '.join(BOTS)}, not {spec!r}"
        )
    return spec


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
        self.played: dict[int, dict[int, list[int]]] = {}
        """Per deal number and other seat: the first and the last count of its completed
        turns seen (``deal.seats[i].played``); see :attr:`bot_turns`."""

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
            self.count_turns(message)
        return message

    def count_turns(self, state: dict[str, Any]) -> None:
        deal = state.get("deal")
        if deal is None:
            return
        first_deal = not self.played
        seen = self.played.setdefault(state["match"]["deal"], {})
        for info in deal["seats"]:
            if info["seat"] == state["you"]:
                continue
            counts = seen.setdefault(info["seat"], [info["played"] if first_deal else 0, 0])
            counts[1] = max(counts[1], info["played"])

    @property
    def bot_turns(self) -> int:
        """The turns the other seats (this bench's bots) completed while this player
        watched: per deal and seat, the last count seen minus the first (a deal dealt while
        the player watched counts from 0)."""
        return sum(last - first for seen in self.played.values() for first, last in seen.values())

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


def rtt_ms(values: list[float]) -> dict[str, float] | None:
    """p50, p90, p99 and max of round trips ``values`` (seconds), in ms (``None``: none)."""
    if not values:
        return None
    return {
        "p50": round(1000 * statistics.median(values), 2),
        "p90": round(1000 * percentile(values, 0.90), 2),
        "p99": round(1000 * percentile(values, 0.99), 2),
        "max": round(1000 * max(values), 2),
    }


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    tree = tree_info(args.source)
    seats = [["human", *bot_seats(args.bots, i, args.seed)] for i in range(args.tables)]
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(
            Path(folder) / "bench.sqlite3", args.bot_delay, args.source, args.server_args
        )
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
                                "seats": seats[i],
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
            cpu = CpuClock(server.process.pid)
            started = time.monotonic()
            results = await asyncio.gather(*(p.run() for p in players), return_exceptions=True)
            elapsed = time.monotonic() - started
            server_cpu = cpu.read()
            rss_playing = rss_kib(server.process.pid)
            rss_all = rss_playing + sum(rss_kib(p) for p in descendants(server.process.pid))
            tree["native_loaded"] = loaded_from(server.process.pid)
            failures = [r for r in results if isinstance(r, BaseException)]
        finally:
            server.stop()
    rtts = [r for p in players for r in p.rtts]
    if not rtts:
        raise SystemExit(f"no action completed ({failures[:3]})")
    bot_turns = sum(p.bot_turns for p in players)
    return {
        "tables": args.tables,
        "seconds": round(elapsed, 1),
        "think_s": [args.think_min, args.think_max],
        "bot_delay_s": args.bot_delay,
        "bots": args.bots,
        "bot_seats": dict(Counter(b for table in seats for b in table[1:])),
        "tree": tree,
        "server_args": args.server_args,
        "actions": len(rtts),
        "actions_per_s": round(len(rtts) / elapsed, 1),
        "rtt_ms": rtt_ms(rtts),
        "bot_turns": bot_turns,
        "bot_turns_per_s": round(bot_turns / elapsed, 1),
        "errors": sum(p.errors for p in players),
        "client_failures": len(failures),
        "server_rss_mib": {
            "empty": round(rss_empty / 1024, 1),
            "with_tables": round(rss_tables / 1024, 1),
            "playing": round(rss_playing / 1024, 1),
            "playing_with_children": round(rss_all / 1024, 1),
        },
        "kib_per_table": round((rss_playing - rss_empty) / args.tables, 1),
        "server_cpu": server_cpu,
        "target_met": percentile(rtts, 0.99) <= 0.050 and not failures,
    }


def source_tree(text: str) -> Path:
    """``--source DIR``: a source tree (``DIR/src/rummy21``)."""
    path = Path(text).resolve()
    if not (path / "src" / "rummy21" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{text} holds no src/rummy21 (not a source tree)")
    return path


def add_server_options(parser: argparse.ArgumentParser) -> None:
    """``--source`` and ``--server-args`` (this bench's and ``bench_abuse.py``'s)."""
    parser.add_argument(
        "--source",
        type=source_tree,
        default=None,
        metavar="DIR",
        help="run the server from this source tree (PYTHONPATH=DIR/src; default: installed)",
    )
    parser.add_argument(
        "--server-args",
        type=shlex.split,
        default=[],
        metavar="ARGS",
        help='extra options for rummy21 serve, one string: "--absent-grace 30" (one option '
        "alone, with no space: --server-args=--OPTION)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play")
    parser.add_argument("--think-min", type=float, default=0.5, help="seconds before a move")
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the server bots' pause")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bots",
        type=check_bots,
        default="random",
        help="each table's bots: mix, or a comma list of random/greedy/expert/search",
    )
    add_server_options(parser)
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 600:
        raise SystemExit("keep it bounded: 1-2000 tables, 1-600 seconds")
    print(json.dumps(asyncio.run(bench(args)), indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
