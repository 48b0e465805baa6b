"""Pausing the cycle collector while a solve runs."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while a solve runs.

    A sweep allocates tens of thousands of small tuples and lists (none in reference
    cycles: back-pointers only point to earlier states, so reference counting frees them
    all). Each allocation burst would otherwise trigger collections that walk every object
    alive — the memo tables included — which measured as most of the slowest solves.
    Process-wide, but only for the length of one solve; re-enabled only if it was on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
