"""What moves between the processes of a cluster, over Redis pub/sub: the envelopes, their
channels and their checks. Nothing here knows the rules of a room (:mod:`.cluster` says who
runs which room; the room itself decides everything).

Channels (every name starts ``rummy21:``):

* ``room:{code}`` — to the process that runs room ``code`` (only it subscribes, while it
  holds the room's lease, :mod:`.lease`): a client connection opened on another process
  (``open``), each message that client sends, as it sent it (``data``), its end (``close``),
  and a request (``call``: take a seat, the table's public facts).
* ``conn:{node}:{cid}`` — to one client connection ``cid`` held by process ``node``: what the
  room sends that connection (``out``) and its end (``end``). A seat's own view travels only
  on the channel of a connection that said hello with that seat's token, and is delivered
  only to that connection; nothing else is published (never a table, never the stock).
* ``node:{node}`` — answers to the requests ``node`` made (``reply``).

Every envelope a room's owner sends carries its lease epoch; a relay delivers only those of
the epoch it opened the connection with, so a process that lost a room cannot speak for it.
An envelope that cannot be read is logged and dropped: it never stops a process.
``alive:{node}`` is a key each process renews while it lives (its connections end with it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

log = logging.getLogger("rummy21.server.broker")

PREFIX = "rummy21:"
MAX_TEXT = 1 << 20
"""The longest text an envelope carries (a state message is a few KiB)."""

Name = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Epoch = Annotated[int, Field(ge=1, lt=2**62)]


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Open(_Envelope):
    """A client connected to ``node`` for this room (relay → owner)."""

    t: Literal["open"]
    node: Name
    cid: Name
    epoch: Epoch
    address: Annotated[str, Field(max_length=64)]


class Data(_Envelope):
    """A message the client sent, as it sent it (relay → owner)."""

    t: Literal["data"]
    node: Name
    cid: Name
    epoch: Epoch
    text: Annotated[str, Field(max_length=MAX_TEXT)]


class Close(_Envelope):
    """The client has gone (relay → owner)."""

    t: Literal["close"]
    node: Name
    cid: Name
    epoch: Epoch


class Call(_Envelope):
    """A request to the room's owner: take a seat (``join``), the public facts (``info``)."""

    t: Literal["call"]
    node: Name
    rid: Name
    epoch: Epoch
    op: Literal["join", "info"]
    name: Annotated[str, Field(max_length=200)] | None = None
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


class Out(_Envelope):
    """A message of the room for one client connection (owner → relay)."""

    t: Literal["out"]
    epoch: Epoch
    text: Annotated[str, Field(max_length=MAX_TEXT)]


class End(_Envelope):
    """Close the client connection with ``code`` (owner → relay)."""

    t: Literal["end"]
    epoch: Epoch
    code: Annotated[int, Field(ge=1000, le=4999)]


class Reply(_Envelope):
    """The answer to a :class:`Call` (owner → caller)."""

    t: Literal["reply"]
    rid: Name
    ok: bool
    body: dict[str, Any]


Envelope: TypeAlias = Annotated[
    Open | Data | Close | Call | Out | End | Reply, Field(discriminator="t")
]
_ENVELOPE: TypeAdapter[Open | Data | Close | Call | Out | End | Reply] = TypeAdapter(Envelope)


class BrokerError(ValueError):
    """An envelope that cannot be read; the text says why."""


def read(data: bytes | str) -> Open | Data | Close | Call | Out | End | Reply:
    """The envelope ``data`` holds, or :class:`BrokerError`.

    >>> read('{"t": "end", "epoch": 3, "code": 1012}')
    End(t='end', epoch=3, code=1012)
    >>> read('{"t": "out", "epoch": 0, "text": ""}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummy21.server.broker.BrokerError: bad envelope: epoch: Input should be greater than or ...
    """
    if len(data) > 2 * MAX_TEXT:
        raise BrokerError(f"bad envelope: {len(data)} bytes")
    try:
        return _ENVELOPE.validate_json(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "envelope"
        raise BrokerError(f"bad envelope: {where}: {first['msg']}") from None


def write(envelope: _Envelope) -> str:
    return envelope.model_dump_json(exclude_none=True)


def room_channel(code: str) -> str:
    return f"{PREFIX}room:{code}"


def conn_channel(node: str, cid: str) -> str:
    return f"{PREFIX}conn:{node}:{cid}"


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


def alive_key(node: str) -> str:
    return f"{PREFIX}alive:{node}"


async def cancel_all(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """Cancel each task (``None``: no task) and wait for it to end, whatever it raised."""
    for task in tasks:
        if task is None:
            continue
        task.cancel()
        try:
            await task
        except BaseException:
            pass


Handler = Callable[[str, Open | Data | Close | Call | Out | End | Reply], None]
"""Called with each envelope this process receives and the channel it came on."""


class Broker:
    """This process's link to Redis: it publishes envelopes, subscribes to its own channels
    (its connections', its replies') and to the rooms it runs, and hands each envelope it
    reads to ``handler``. Connections to Redis are remade by the client when they drop."""

    def __init__(self, url: str, node: str, handler: Handler) -> None:
        import redis.asyncio as redis

        self.url = url
        self.node = node
        self.handler = handler
        self.client = redis.Redis.from_url(url)
        self.pubsub = self.client.pubsub()
        self._reader: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str, asyncio.Future[int]]] = asyncio.Queue()
        self.dropped = 0
        """Envelopes that could not be read (logged and dropped)."""

    async def start(self) -> None:
        await self.client.ping()
        await self.pubsub.psubscribe(conn_channel(self.node, "*"))
        await self.pubsub.subscribe(node_channel(self.node))
        self._reader = asyncio.create_task(self._read(), name="rummy21-broker")
        self._sender = asyncio.create_task(self._send(), name="rummy21-broker-out")

    async def close(self) -> None:
        await cancel_all((self._reader, self._sender))
        try:
            await self.client.delete(alive_key(self.node))
        except Exception:
            pass
        await self.pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed in newer redis
        await self.client.aclose()

    async def publish(self, channel: str, envelope: _Envelope) -> int:
        """Send ``envelope`` on ``channel``: how many processes subscribe to it (0: nobody
        listens, e.g. a room's owner has gone)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._outbox.put_nowait((channel, write(envelope), future))
        return await future

    async def _send(self) -> None:
        """Publish what is waiting, all of it in one round trip (a pipeline), in order."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 512:
                batch.append(self._outbox.get_nowait())
            try:
                if len(batch) == 1:  # a pipeline costs more than it saves for one message
                    results = [await self.client.publish(batch[0][0], batch[0][1])]
                else:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for channel, text, _ in batch:
                            pipe.publish(channel, text)
                        results = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis unreachable: each publisher is told
                for _, _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (_, _, future), receivers in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(int(receivers))

    async def follow(self, code: str) -> None:
        """Receive what is sent to room ``code`` (this process runs it now)."""
        await self.pubsub.subscribe(room_channel(code))

    async def unfollow(self, code: str) -> None:
        await self.pubsub.unsubscribe(room_channel(code))

    async def beat(self, seconds: float) -> None:
        """Say that this process lives, for ``seconds``."""
        await self.client.set(alive_key(self.node), b"1", px=max(1, int(seconds * 1000)))

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        """Which of ``nodes`` said lately that they live."""
        names = sorted(set(nodes))
        if not names:
            return set()
        found = await self.client.mget([alive_key(n) for n in names])
        return {n for n, v in zip(names, found, strict=True) if v is not None}

    async def _read(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=None
                )
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: the client reconnects
                log.warning("broker: %s; retrying", error)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") not in ("message", "pmessage"):
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            data = message["data"]
            try:
                envelope = read(data if isinstance(data, (bytes, str)) else b"")
            except BrokerError as error:
                self.dropped += 1
                log.warning("broker: dropped a message on %s: %s", channel, error)
                continue
            try:
                self.handler(channel, envelope)
            except Exception:
                log.exception("broker: handling a message on %s failed", channel)
