"""An opt-in pause of Python's cycle collector, for callers that solve many hands.

A sweep allocates tens of thousands of small tuples, lists and dicts in bursts (none in
reference cycles: back-pointers only point to earlier states, so reference counting frees
them all), and every 700 allocations the cycle collector runs; each run walks the young
objects alive — a sweep's states — and every tenth of the tenth walks everything alive, the
solver's memo tables included. Measured on the benchmark corpus (each hand solved in turn
with and without, fastest of five): with the collector running, solving takes about 4 %
longer on random deals and 5 % longer on near-complete hands; greedy bot games 3-9 % longer.

No solver call switches the collector by itself (it belongs to the whole process, and other
threads may be running): a caller that reads many hands opts in around each reading, or
around its loop — ``rummy21 analyze --batch``, the bots' readings and the benchmarks do.
"""

from __future__ import annotations

import gc
import threading
from contextlib import AbstractContextManager


class _Pause:
    """The ``with`` block of :func:`paused_collection` (one object serves every block: the
    count of open pauses is the state, and it is global). A class, not a generator's context
    manager: the bots enter one around each of thousands of readings a second."""

    __slots__ = ()

    _lock = threading.Lock()
    _depth = 0  # pauses open, in every thread
    _resume = False  # whether the collector ran when the first of them began

    def __enter__(self) -> None:
        cls = _Pause
        with cls._lock:
            if cls._depth == 0:
                cls._resume = gc.isenabled()
                gc.disable()
            cls._depth += 1

    def __exit__(self, *exc: object) -> None:
        cls = _Pause
        with cls._lock:
            cls._depth -= 1
            if cls._depth == 0 and cls._resume:
                gc.enable()


_PAUSE = _Pause()


def paused_collection() -> AbstractContextManager[None]:
    """Pause the cycle collector for the length of the ``with`` block.

    Pauses nest and may overlap across threads: the collector resumes when the last one
    ends, and only if it was running when the first began.

    >>> import gc
    >>> with paused_collection():
    ...     with paused_collection():
    ...         gc.isenabled()
    ...     gc.isenabled()
    False
    False
    >>> gc.isenabled()
    True
    """
    return _PAUSE
