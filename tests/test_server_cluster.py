"""Many ``rummy21 serve`` processes on one PostgreSQL and one Redis (``--broker``), as real
processes: seats of one table on two processes play together; the owner killed (SIGKILL) with
a move in flight, or paused (SIGSTOP) past its lease, hands the table over and nothing is lost
or written twice; the broker's channels carry each seat's view to that seat's connection only.

Runs when ``RUMMY21_TEST_POSTGRES`` and ``RUMMY21_TEST_REDIS`` hold URLs (`.ci/run` starts
both servers and sets them); skipped otherwise.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serving
from serving import fresh_database, logged_events, rows

POSTGRES = os.environ.get("RUMMY21_TEST_POSTGRES")
REDIS = os.environ.get("RUMMY21_TEST_REDIS")
pytestmark = pytest.mark.skipif(
    not (POSTGRES and REDIS), reason="RUMMY21_TEST_POSTGRES and RUMMY21_TEST_REDIS are not both set"
)
pytest.importorskip("uvicorn")
pytest.importorskip("redis")
httpx = pytest.importorskip("httpx")
sync_client = pytest.importorskip("websockets.sync.client")
sqlalchemy = pytest.importorskip("sqlalchemy")

LEASE = 1.0
"""Short leases keep the tests fast: a dead owner's tables move within about 1.5 s."""
WAIT = 30.0
"""A generous bound on anything that should take a few seconds."""


@pytest.fixture()
def database() -> Iterator[str]:
    """A fresh database on the server of ``RUMMY21_TEST_POSTGRES``."""
    assert POSTGRES is not None
    with fresh_database(POSTGRES) as url:
        yield url


class Server(serving.Server):
    """One ``rummy21 serve --broker`` process, node ``name``."""

    def __init__(self, db: str, log: Path, name: str, *extra: str) -> None:
        self.name = name
        assert REDIS is not None
        args = ["--db", db, "--broker", REDIS, "--lease-seconds", str(LEASE), "--node", name]
        args += ["--bot-delay", "0", "--next-deal", "0", "--log-level", "info", *extra]
        super().__init__(args, log, wait=WAIT)


@pytest.fixture()
def servers(database: str, tmp_path: Path) -> Iterator[list[Server]]:
    """Two processes on the same database and broker: ``a`` and ``b``."""
    started: list[Server] = []
    try:
        for name in ("a", "b"):
            node = f"{name}-{uuid.uuid4().hex[:6]}"
            started.append(Server(database, tmp_path / f"{name}.log", node))
        yield started
    finally:
        for server in started:
            server.stop()


class Seat:
    """A browser's seat: says hello, keeps the latest state, and reconnects by itself (to the
    next of ``ports``) when its connection ends, as the page does."""

    def __init__(self, servers: list[Server], code: str, token: str) -> None:
        self.servers, self.code, self.token = list(servers), code, token
        self.state: dict[str, Any] = {}
        self.next_id = 1
        self.received: list[dict[str, Any]] = []
        self.connects = 0
        self.closes: list[int | None] = []
        """The close code of each connection that ended (``None``: none was received)."""
        self.ws: Any = None
        self.connect()

    def connect(self) -> None:
        deadline = time.monotonic() + WAIT
        while True:
            server = self.servers[self.connects % len(self.servers)]
            self.connects += 1
            if server.process.poll() is None:
                try:
                    self.ws = sync_client.connect(
                        f"ws://127.0.0.1:{server.port}/ws/{self.code}", open_timeout=5
                    ).__enter__()
                    self.ws.send(json.dumps({"type": "hello", "token": self.token}))
                    first = json.loads(self.ws.recv(timeout=5))
                    if first["type"] == "welcome":
                        self.server = server
                        return
                except Exception:
                    pass
            if time.monotonic() > deadline:
                raise AssertionError("could not reconnect")
            time.sleep(0.2)

    def reconnect(self, error: Exception) -> None:
        """The connection ended with ``error``: note its close code, and connect again (the
        state is unknown until the server sends it)."""
        self.closes.append(getattr(getattr(error, "rcvd", None), "code", None))
        self.state = {}
        self.connect()

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        while True:
            try:
                data: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
            except TimeoutError:
                raise
            except Exception as error:  # the connection ended: reconnect, as the page does
                self.reconnect(error)
                continue
            self.received.append(data)
            if data["type"] == "state":
                self.state = data
            return data

    def wait(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while not self.state or not predicate(self.state):
            if time.monotonic() > deadline:
                raise AssertionError(f"waited in vain; last state {self.state}")
            try:
                self.recv(timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                pass
        return self.state

    def send(self, message: dict[str, Any]) -> int:
        msg_id = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({**message, "id": msg_id}))
        return msg_id

    def answer(self, msg_id: int) -> dict[str, Any] | None:
        """The answer to message ``msg_id`` (``None``: the connection ended first)."""
        connects = self.connects
        while True:
            reply = self.recv()
            if self.connects != connects:
                return None
            if reply["type"] != "state" and reply.get("id") == msg_id:
                return reply

    def request(self, message: dict[str, Any]) -> dict[str, Any] | None:
        return self.answer(self.send(message))

    def my_turn(self) -> dict[str, Any]:
        return self.wait(
            lambda s: (
                s["room"]["status"] == "playing"
                and s["deal"]["my_turn"]
                and s["deal"]["phase"] == "draw"
            )
        )

    def turn(self) -> None:
        """Draw from the stock, discard what was drawn: two acknowledged actions."""
        self.my_turn()
        reply = self.request({"type": "action", "action": "draw"})
        assert reply is not None and reply["type"] == "ack", reply
        card = self.state["deal"]["drawn"]
        reply = self.request({"type": "action", "action": "discard", "card": card})
        assert reply is not None and reply["type"] == "ack", reply

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


def two_player_table(owner: Server, other: Server, turn_seconds: int = 0) -> tuple[str, str, str]:
    """A table of two humans made on ``owner`` (which runs it), the second seat taken through
    ``other`` (a call to the owner): (code, token of seat 1, token of seat 2)."""
    made = httpx.post(
        f"{owner.url}/api/tables",
        timeout=10,
        json={
            "name": "Ann",
            "seats": ["human", "human"],
            "turn_seconds": turn_seconds,
            "deals": 2,
        },
    ).json()
    joined = httpx.post(
        f"{other.url}/api/tables/{made['code']}/join", timeout=10, json={"name": "Bob"}
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    return made["code"], made["token"], joined.json()["token"]


def in_turn(seats: list[Seat]) -> Seat:
    """The seat in turn (``seats`` in seat order), once every seat has seen the same turn."""
    for seat in seats:
        seat.wait(lambda s: s["room"]["status"] == "playing")
    done = max(seat.state["deal"]["turns"] for seat in seats)
    for seat in seats:
        seat.wait(lambda s: s["deal"]["turns"] >= done)
    turn: int = seats[0].state["deal"]["turn"]
    return seats[turn]


def play_turns(seats: list[Seat], turns: int) -> None:
    for _ in range(turns):
        in_turn(seats).turn()


def log_of(db: str, code: str) -> list[tuple[int, int, int | None]]:
    """(deal, seq, epoch) of every stored event record of room ``code``, in order."""
    found = rows(
        db, "SELECT deal, seq, epoch FROM events WHERE code = :c ORDER BY deal, seq", c=code
    )
    return [(r[0], r[1], r[2]) for r in found]


def owners_of(db: str, code: str) -> list[tuple[int, str]]:
    found = rows(db, "SELECT epoch, owner FROM owners WHERE code = :c ORDER BY epoch", c=code)
    return [(int(r[0]), str(r[1])) for r in found]


def check_log(db: str, code: str) -> None:
    """Each deal's records are numbered 0, 1, 2… with no gap, every record was written under
    a lease granted once, and no record of an older epoch follows one of a newer epoch."""
    records = log_of(db, code)
    epochs = {e for e, _ in owners_of(db, code)}
    by_deal: dict[int, list[tuple[int, int | None]]] = {}
    for deal, seq, epoch in records:
        by_deal.setdefault(deal, []).append((seq, epoch))
    newest = 0
    for deal in sorted(by_deal):
        assert [seq for seq, _ in by_deal[deal]] == list(range(len(by_deal[deal])))
        for _, epoch in by_deal[deal]:
            assert epoch in epochs, (epoch, epochs)
            assert epoch >= newest, f"a record of epoch {epoch} after one of {newest}"
            newest = epoch


def test_the_lease_fences_a_stale_owner(database: str) -> None:
    """The lease's statements on their own: one owner at a time, each hand-over a new epoch,
    and a write guarded by an epoch that is over fails and writes nothing."""
    from functools import partial

    from rummy21.server import lease, repository
    from rummy21.server.model import RoomConfig, SeatKind, SeatSlot
    from rummy21.server.store import StaleWrite, Store, events

    store = Store(database)
    try:
        config = RoomConfig(2, "classic", "1", 30, 1, ("human", "random"))
        slots = [SeatSlot(0, SeatKind.HUMAN, name="Ann", token_hash="ab" * 32)]
        slots.append(SeatSlot(1, SeatKind.BOT, "random"))

        def run(op: Any) -> Any:
            return store.run_sync(op)

        run(partial(repository.insert_room, code="LEASE1", config=config, seed=None, slots=slots))
        assert run(partial(lease.orphans, limit=10)) == ["LEASE1"]
        assert run(partial(lease.acquire, code="LEASE1", owner="a", seconds=30)) == 1
        assert run(partial(lease.acquire, code="LEASE1", owner="b", seconds=30)) is None
        assert run(partial(lease.acquire, code="NOSUCH", owner="b", seconds=30)) is None
        assert run(partial(lease.orphans, limit=10)) == []
        assert run(partial(lease.renew, owner="a", seconds=30)) == {"LEASE1": 1}
        run(partial(lease.release, code="LEASE1", owner="a", epoch=1))  # as if it expired
        assert run(partial(lease.holders, codes=["LEASE1"]))["LEASE1"].expired
        assert run(partial(lease.renew, owner="a", seconds=30)) == {}  # given up: not taken back
        assert run(partial(lease.orphans, limit=10)) == ["LEASE1"]
        assert run(partial(lease.acquire, code="LEASE1", owner="b", seconds=30)) == 2

        def write(owner: str, epoch: int, seq: int) -> Any:
            def ops(conn: Any) -> None:
                lease.guard(conn, "LEASE1", owner, epoch)
                conn.execute(events.insert().values(code="LEASE1", deal=0, seq=seq, data="{}"))

            return run(ops)

        with pytest.raises(StaleWrite):
            write("a", 1, 0)  # the old owner, woken up
        write("b", 2, 0)
        assert run(partial(lease.renew, owner="a", seconds=30)) == {}
        held = run(partial(lease.holders, codes=["LEASE1"]))["LEASE1"]
        assert (held.owner, held.epoch, held.expired) == ("b", 2, False)
        count = store.run_sync(
            lambda conn: conn.execute(sqlalchemy.text("SELECT count(*) FROM events")).scalar(),
            write=False,
        )
        assert count == 1
    finally:
        store.close()


def test_seats_on_two_processes_play_one_table(servers: list[Server], database: str) -> None:
    a, b = servers
    code, ann_token, bob_token = two_player_table(a, b)
    ann, bob = Seat([b], code, ann_token), Seat([a], code, bob_token)  # each on the other
    try:
        for seat in (ann, bob):
            seat.wait(lambda s: s["room"]["status"] == "playing")
        play_turns([ann, bob], 6)
        # Both saw every move: the same public table, each its own hand.
        ann.wait(lambda s: s["deal"]["turns"] == 6)
        bob.wait(lambda s: s["deal"]["turns"] == 6)
        for key in ("turns", "stock_size", "open_top", "turn"):
            assert ann.state["deal"].get(key) == bob.state["deal"].get(key), key
        assert ann.state["you"] == 0 and bob.state["you"] == 1
        assert all(s["connected"] for s in ann.state["room"]["seats"])
        info = httpx.get(f"{b.url}/api/tables/{code}", timeout=10).json()
        assert info["status"] == "playing" and all(s["connected"] for s in info["seats"])
    finally:
        ann.close()
        bob.close()
    assert owners_of(database, code) == [(1, a.name)]
    check_log(database, code)


def test_the_owner_killed_with_a_move_in_flight(servers: list[Server], database: str) -> None:
    a, b = servers
    code, ann_token, bob_token = two_player_table(a, b, turn_seconds=60)
    ann, bob = Seat([b, a], code, ann_token), Seat([a, b], code, bob_token)
    try:
        play_turns([ann, bob], 4)
        acknowledged = len(log_of(database, code))
        mover = in_turn([ann, bob])
        mover.my_turn()
        mover.send({"type": "action", "action": "draw"})  # in flight: no answer awaited
        a.process.send_signal(signal.SIGKILL)
        a.process.wait(timeout=10)
        killed = time.monotonic()
        # Both seats come back (to b, which took the table over) and see the same deal.
        for seat in (ann, bob):
            seat.state = {}
            seat.wait(lambda s, seat=seat: seat.server is b and s["deadline"] is not None)  # type: ignore[misc]
        back = time.monotonic() - killed
        assert back < WAIT
        assert ann.server is b and bob.server is b
        records = log_of(database, code)
        assert len(records) >= acknowledged  # every acknowledged action is still there
        assert owners_of(database, code) == [(1, a.name), (2, b.name)]
        # The deal goes on at b: the player in turn has a deadline (the clocks run again).
        mover = in_turn([ann, bob])
        assert mover.state["deadline_kind"] in ("turn", "absent")
        if mover.state["deal"]["phase"] == "discard":  # the move in flight was committed
            card = mover.state["deal"]["drawn"]
            reply = mover.request({"type": "action", "action": "discard", "card": card})
            assert reply is not None and reply["type"] == "ack", reply
        play_turns([ann, bob], 2)
    finally:
        ann.close()
        bob.close()
    check_log(database, code)
    assert {epoch for _, _, epoch in log_of(database, code)} == {1, 2}


def test_a_paused_owner_does_not_write_or_speak_once_its_lease_moved(
    servers: list[Server], database: str
) -> None:
    a, b = servers
    code, ann_token, bob_token = two_player_table(a, b)
    ann, bob = Seat([a], code, ann_token), Seat([b], code, bob_token)
    try:
        play_turns([ann, bob], 2)
        ann.my_turn()
        a.process.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + WAIT
        while len(owners_of(database, code)) < 2:  # b takes the table over
            assert time.monotonic() < deadline, "no process took the table over"
            time.sleep(0.1)
        assert owners_of(database, code) == [(1, a.name), (2, b.name)]
        stale = ann  # still connected to the paused process
        ann = Seat([b], code, ann_token)  # the player opens the table again, on b
        ann.turn()
        bob.turn()
        before = log_of(database, code)
        stale.received.clear()
        a.process.send_signal(signal.SIGCONT)
        # The paused owner wakes up and is asked to play: it must refuse, not write.
        reply = None
        try:
            stale.ws.send(json.dumps({"type": "action", "action": "draw", "id": 999}))
            while reply is None:
                data = json.loads(stale.ws.recv(timeout=WAIT))
                stale.received.append(data)
                if data.get("id") == 999:
                    reply = data
        except Exception:
            pass  # its connection was closed first: as good
        assert reply is None or reply["type"] == "error", reply
        assert not [m for m in stale.received if m["type"] == "state"], stale.received
        ann.turn()  # the table plays on at b
        assert log_of(database, code)[: len(before)] == before
    finally:
        ann.close()
        bob.close()
    check_log(database, code)
    assert owners_of(database, code) == [(1, a.name), (2, b.name)]
    text = a.log.read_text()
    assert f"room {code}: lease lost" in text or f"room {code}: epoch 1 is over" in text


def test_the_broker_carries_a_seat_s_view_to_that_seat_only(
    servers: list[Server], database: str
) -> None:
    import redis

    a, b = servers
    assert REDIS is not None
    spy = redis.Redis.from_url(REDIS)
    pubsub = spy.pubsub()  # type: ignore[no-untyped-call, unused-ignore]
    pubsub.psubscribe("rummy21:*")
    seen: list[tuple[str, bytes]] = []
    stop = threading.Event()

    def listen() -> None:
        while not stop.is_set():
            message = pubsub.get_message(timeout=0.2)
            if message and message["type"] == "pmessage":
                seen.append((message["channel"].decode(), message["data"]))

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    code, ann_token, bob_token = two_player_table(a, b)
    ann, bob = Seat([b], code, ann_token), Seat([a], code, bob_token)
    try:
        # Garbage on the broker is dropped, and play goes on.
        for channel in (
            f"rummy21:room:{code}",
            f"rummy21:conn:{a.name}:x",
            f"rummy21:node:{b.name}",
        ):
            for junk in (b"not json", b'{"t": "data"}', b'{"t": "out", "epoch": -1, "text": 5}'):
                spy.publish(channel, junk)
        play_turns([ann, bob], 4)
        ann.wait(lambda s: s["deal"]["turns"] == 4)
    finally:
        ann.close()
        bob.close()
        stop.set()
        listener.join(timeout=5)
        pubsub.close()
        spy.close()
    views: dict[str, set[int]] = {}
    for channel, data in seen:
        if data.startswith(b"not json") or b'"epoch": -1' in data or data == b'{"t": "data"}':
            continue
        envelope = json.loads(data)
        kind = channel.split(":")[1]
        assert kind in ("room", "conn", "node"), channel
        if kind == "room":  # only what clients sent, and calls
            assert envelope["t"] in ("open", "data", "close", "call"), envelope
        elif kind == "conn" and envelope["t"] == "out":
            if channel.split(":")[2] not in (a.name, b.name):
                continue  # another test's servers (on the same Redis)
            message = json.loads(envelope["text"])
            if message["type"] == "state":
                views.setdefault(channel, set()).add(message["you"])
                assert "stock" not in message["deal"], message["deal"].keys()
    # Relayed connections' channels carried states, each one seat's only (ann's, on b).
    assert views and all(len(seats) == 1 for seats in views.values()), views
    assert {next(iter(v)) for v in views.values()} == {0}
    for server in (a, b):
        assert "broker: dropped a message" in server.log.read_text()


def test_a_hand_over_is_fenced(database: str) -> None:
    """``hand_to`` on its own: the owner gives the lease to another process at the next epoch,
    recorded once; a stale or foreign hand-over is refused and writes nothing."""
    from functools import partial

    from rummy21.server import lease, repository
    from rummy21.server.model import RoomConfig, SeatKind, SeatSlot
    from rummy21.server.store import StaleWrite, Store

    store = Store(database)
    try:
        config = RoomConfig(2, "classic", "1", 30, 1, ("human", "random"))
        slots = [SeatSlot(0, SeatKind.HUMAN, name="Ann", token_hash="ab" * 32)]
        slots.append(SeatSlot(1, SeatKind.BOT, "random"))

        def run(*ops: Any) -> Any:
            def all_of(conn: Any) -> Any:
                value = None
                for op in ops:
                    value = op(conn)
                return value

            return store.run_sync(all_of)

        def hand(owner: str, epoch: int, to: str) -> Any:
            return run(
                partial(lease.guard, code="HAND1", owner=owner, epoch=epoch),
                partial(lease.hand_to, code="HAND1", owner=owner, epoch=epoch, to=to, seconds=30),
            )

        run(partial(repository.insert_room, code="HAND1", config=config, seed=None, slots=slots))
        assert run(partial(lease.acquire, code="HAND1", owner="a", seconds=30)) == 1
        for owner, epoch in (("a", 2), ("b", 1), ("c", 1)):  # not the owner at that epoch
            with pytest.raises(StaleWrite):
                hand(owner, epoch, "b")
        with pytest.raises(StaleWrite):  # the statement is fenced even without the guard
            run(partial(lease.hand_to, code="HAND1", owner="b", epoch=1, to="c", seconds=30))
        assert owners_of(database, "HAND1") == [(1, "a")]
        assert hand("a", 1, "b") == 2
        assert owners_of(database, "HAND1") == [(1, "a"), (2, "b")]
        held = run(partial(lease.holders, codes=["HAND1"]))["HAND1"]
        assert (held.owner, held.epoch, held.expired) == ("b", 2, False)
        with pytest.raises(StaleWrite):  # the old owner can neither write nor hand it on
            run(partial(lease.guard, code="HAND1", owner="a", epoch=1))
        with pytest.raises(StaleWrite):
            hand("a", 1, "c")
        assert run(partial(lease.renew, owner="a", seconds=30)) == {}
        assert run(partial(lease.renew, owner="b", seconds=30)) == {"HAND1": 2}
        assert hand("b", 2, "a") == 3  # and back
        assert owners_of(database, "HAND1") == [(1, "a"), (2, "b"), (3, "a")]
    finally:
        store.close()


def lease_of(db: str, code: str) -> tuple[str, int] | None:
    """(owner, epoch) of room ``code``'s lease."""
    found = rows(db, "SELECT owner, epoch FROM leases WHERE code = :c", c=code)
    return None if not found else (str(found[0][0]), int(found[0][1]))


def moves_of(db: str, code: str, seat: int) -> list[tuple[str, str | None]]:
    """The draws and discards ``seat`` made (not forced by a time-out), from the log, as
    :func:`move_through` records them (the card of a discard)."""
    moves = []
    for event in logged_events(db, code):
        kind = {"drew": "draw", "discarded": "discard"}.get(event["event"])
        if kind is not None and event.get("seat") == seat and not event.get("forced"):
            moves.append((kind, event.get("card") if kind == "discard" else None))
    return moves


def move_through(seat: Seat, acked: list[tuple[str, str | None]]) -> None:
    """The seat's next move (draw from the stock, or discard what it drew), made as the page
    makes it: a move left unanswered by a reconnection is judged again from the next state.
    Each acknowledged move is added to ``acked`` (the card for a discard)."""
    state = seat.wait(lambda s: s["room"]["status"] == "playing" and s["deal"]["my_turn"])
    deal = state["deal"]
    card = None if deal["phase"] == "draw" else deal["drawn"]
    message: dict[str, Any] = {"type": "action", "action": "draw" if card is None else "discard"}
    if card is not None:
        message["card"] = card
    try:
        reply = seat.request(message)
    except Exception as error:  # it had ended already (the move was not sent)
        seat.reconnect(error)
        reply = None
    if reply is None:  # the connection ended first: was the move made? the next state says
        return
    assert reply["type"] == "ack", reply
    acked.append((message["action"], None if card is None else card))


def test_the_table_follows_its_player(servers: list[Server], database: str) -> None:
    """A table made at a (a human and a bot) whose player plays through b is handed to b
    within a few leases: the player plays on through the move (reconnecting after 1012),
    every acknowledged move is in the log, and each epoch had one owner: a, then b."""
    from rummy21.server.room import CLOSE_RECONNECT

    a, b = servers
    made = httpx.post(
        f"{a.url}/api/tables",
        timeout=10,
        json={"name": "Ann", "seats": ["human", "random"], "turn_seconds": 60, "deals": 10},
    ).json()
    code = made["code"]
    assert lease_of(database, code) == (a.name, 1)
    ann = Seat([b], code, made["token"])
    connected = time.monotonic()
    acked: list[tuple[str, str | None]] = []
    moved: float | None = None
    after = 0
    try:
        while moved is None or len(acked) < after + 6:
            assert time.monotonic() - connected < WAIT, "the table never moved to b"
            move_through(ann, acked)
            time.sleep(0.05)  # a player's think time: the move happens while it plays
            if moved is None and lease_of(database, code) == (b.name, 2):
                moved, after = time.monotonic() - connected, len(acked)
        assert moved < 5 * LEASE, moved
        assert CLOSE_RECONNECT in ann.closes and ann.connects >= 2, (ann.closes, ann.connects)
        assert ann.server is b
        state = ann.wait(lambda s: s["deal"]["my_turn"])
        assert state["deadline"] is not None  # the clocks run at b
    finally:
        ann.close()
    assert lease_of(database, code) == (b.name, 2)
    assert owners_of(database, code) == [(1, a.name), (2, b.name)]
    check_log(database, code)
    assert {epoch for _, _, epoch in log_of(database, code)} == {1, 2}
    stored = iter(moves_of(database, code, 0))
    assert all(move in stored for move in acked), (acked, moves_of(database, code, 0))
    assert f"room {code}: its players are at {b.name}; handed it there (epoch 2)" in (
        a.log.read_text()
    )
    assert f"room {code}: running it here (epoch 2, handed)" in b.log.read_text()


def test_a_table_with_players_at_two_processes_stays(servers: list[Server], database: str) -> None:
    """One human at a (the owner), one at b: the table never moves."""
    a, b = servers
    code, ann_token, bob_token = two_player_table(a, b, turn_seconds=60)
    ann, bob = Seat([a], code, ann_token), Seat([b], code, bob_token)
    try:
        started = time.monotonic()
        while time.monotonic() - started < 5 * LEASE:
            play_turns([ann, bob], 1)
            time.sleep(0.1)
        assert ann.connects == bob.connects == 1 and not ann.closes and not bob.closes
    finally:
        ann.close()
        bob.close()
    assert lease_of(database, code) == (a.name, 1)
    assert owners_of(database, code) == [(1, a.name)]
    check_log(database, code)
    assert "handed it there" not in a.log.read_text()
