"""What one visitor may ask of the server, so that nobody can starve the others: messages a
second per seat (:class:`TokenBucket`), wrong seat tokens per table and address
(:class:`GuessLimiter`), tables created per address (:class:`CreationLimiter`), and what the
whole server holds at once (:class:`Capacity`: live tables, ``search`` seats).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from rummy21.server.model import RoomConfig, RoomError

__all__ = ["Capacity", "CreationLimiter", "GuessLimiter", "SlidingWindow", "TokenBucket"]

K = TypeVar("K", bound=Hashable)

TOO_MANY_GUESSES = "too many wrong seat tokens from your address: wait a minute and try again"


class TokenBucket:
    """At most ``rate`` a second, in bursts of up to twice that (``None`` or 0: no limit).

    >>> now = [0.0]
    >>> bucket = TokenBucket(2.0, clock=lambda: now[0])
    >>> [bucket.allow() for _ in range(5)]
    [True, True, True, True, False]
    >>> now[0] = 1.0; bucket.allow(), bucket.allow(), bucket.allow()
    (True, True, False)
    """

    __slots__ = ("_clock", "_rate", "_stamp", "_tokens")

    def __init__(self, rate: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = rate or 0.0
        self._tokens = 2 * self._rate
        self._clock = clock
        self._stamp = clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        if not self._rate:
            return True
        now = self._clock()
        self._tokens = min(2 * self._rate, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


class SlidingWindow(Generic[K]):
    """Events per key over a sliding ``window`` of seconds, at most ``limit`` remembered per key
    and :data:`MAX_KEYS` keys (the quiet ones are forgotten first)."""

    MAX_KEYS = 10_000

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: dict[K, deque[float]] = {}

    def _recent(self, key: K, now: float) -> deque[float] | None:
        stamps = self._events.get(key)
        if stamps is None:
            return None
        while stamps and stamps[0] <= now - self.window:
            stamps.popleft()
        if not stamps:
            del self._events[key]
            return None
        return stamps

    def full(self, key: K) -> bool:
        """Whether ``key`` had ``limit`` events within the window."""
        stamps = self._recent(key, self._clock())
        return stamps is not None and len(stamps) >= self.limit

    def add(self, key: K) -> None:
        now = self._clock()
        if len(self._events) >= self.MAX_KEYS:  # forget the keys gone quiet
            for old in list(self._events):
                self._recent(old, now)
            while len(self._events) >= self.MAX_KEYS:
                del self._events[next(iter(self._events))]
        stamps = self._recent(key, now)
        if stamps is None:
            stamps = self._events[key] = deque()
        stamps.append(now)
        while len(stamps) > self.limit:
            stamps.popleft()

    def wait(self, key: K) -> float:
        """Seconds until ``key`` may have another event (0: now)."""
        now = self._clock()
        stamps = self._recent(key, now)
        if stamps is None or len(stamps) < self.limit:
            return 0.0
        return max(0.0, stamps[0] + self.window - now)


class GuessLimiter:
    """Wrong seat tokens per table and client address: at most ``limit`` in any ``window``
    seconds. A wrong token from an address over the limit at that table is answered
    ``rate_limited`` instead of ``unauthorized`` (and its socket closed with 4429); a correct
    token is never refused, so a player is never locked out by someone guessing from the same
    address (a home, an office), and one table's guesses do not count at another.

    >>> clock = iter(range(100)).__next__
    >>> guesses = GuessLimiter(limit=2, window=10, clock=lambda: float(clock()))
    >>> guesses.failed("ABCDEF", "a"); guesses.failed("ABCDEF", "a")
    >>> guesses.blocked("ABCDEF", "a"), guesses.blocked("ABCDEF", "b")
    (True, False)
    >>> guesses.blocked("XYZ234", "a")
    False
    """

    def __init__(
        self, limit: int = 10, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._window: SlidingWindow[tuple[str, str]] = SlidingWindow(limit, window, clock)

    @property
    def _failures(self) -> dict[tuple[str, str], deque[float]]:
        return self._window._events

    def blocked(self, code: str, address: str) -> bool:
        """Whether ``address`` sent ``limit`` wrong tokens to table ``code`` lately."""
        return self._window.full((code, address))

    def failed(self, code: str, address: str) -> None:
        """``address`` sent a wrong token to table ``code``."""
        self._window.add((code, address))

    def wrong(self, code: str, address: str) -> bool:
        """Count a wrong token from ``address`` at table ``code``; whether the address was
        already over the limit there (then the answer is ``rate_limited``)."""
        over = self.blocked(code, address)
        self.failed(code, address)
        return over


class CreationLimiter:
    """Tables created per client address: at most ``limit`` in any ``window`` seconds, then
    :class:`RoomError` ``rate_limited`` (HTTP 429) saying when to try again (0: no limit).

    >>> now = [0.0]
    >>> made = CreationLimiter(2, 600, clock=lambda: now[0])
    >>> made.check("10.0.0.1"); made.check("10.0.0.1"); made.check("10.0.0.2")
    >>> made.check("10.0.0.1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummy21.server.model.RoomError: this address has created 2 tables in the last 10 minutes: ...
    """

    def __init__(
        self, limit: int, window: float = 600.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._made: SlidingWindow[str] = SlidingWindow(max(1, limit), window, clock)
        self.limit = limit

    def check(self, address: str) -> None:
        """Count a table created from ``address``, or refuse it."""
        if not self.limit:
            return
        if self._made.full(address):
            wait = self._made.wait(address)
            raise RoomError(
                "rate_limited",
                f"this address has created {self.limit} tables in the last "
                f"{_minutes(self._made.window)}: try again in {_minutes(wait)}, or join a "
                "table someone shared with you",
                retry_after=wait,
            )
        self._made.add(address)


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'s' * (minutes != 1)}"


@dataclass
class Capacity:
    """What this server runs at once: at most ``tables`` live tables and ``search_seats``
    seats played by the ``search`` bot (its most expensive, the lobby's Master); 0: no cap.
    ``live`` lists the seats' bots of every live table (a bot seat's, or the bot playing an
    absent player's seat)."""

    tables: int
    search_seats: int
    live: Callable[[], Iterable[Iterable[str | None]]]

    def check_table(self, config: RoomConfig | None = None, loaded: int | None = None) -> None:
        """Whether one more table fits (``config``: a new one, whose seats count too);
        ``loaded``: how many tables are live now, if known. :class:`RoomError` ``busy``
        (HTTP 503) if not."""
        tables = list(self.live())
        count = len(tables) if loaded is None else loaded
        if self.tables and count >= self.tables:
            raise RoomError(
                "busy",
                f"this server is running as many tables as it can ({self.tables}); "
                "try again in a few minutes",
                retry_after=60,
            )
        if config is not None:
            self.check_bots(config.kinds, tables)

    def check_bots(
        self, bots: Iterable[str | None], tables: list[Iterable[str | None]] | None = None
    ) -> None:
        """Whether ``bots`` (seats to be played by them) fit beside the live tables'."""
        wanted = sum(1 for b in bots if b == "search")
        if not wanted or not self.search_seats:
            return
        running = sum(
            1
            for seats in (self.live() if tables is None else tables)
            for b in seats
            if b == "search"
        )
        if running + wanted > self.search_seats:
            raise RoomError(
                "busy",
                f"this server is running as many Master bots as it can ({self.search_seats} "
                "seats); choose another level, or try again later",
                retry_after=60,
            )
