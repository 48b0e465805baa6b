"""Which sweep core runs: the native one (C, :mod:`._native`, compiled by ``pip install`` where
a C compiler and the Python headers are found) or :mod:`.core`, its pure-Python twin.

Both give the same answers, state for state and in the same order (the tests run the
cross-check against each); the native one is faster. ``RUMMY21_SOLVER=python`` or ``native``
chooses when the package is imported; by default the native core when it is built.
:func:`using` switches for a block (tests and benchmarks compare the two in one process).

>>> name() in ("native", "python")
True
>>> with using("python"):
...     name()
'python'
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Literal

from rummy21.solver import _native_tables, core

ENV = "RUMMY21_SOLVER"
"""The environment variable that chooses the core: ``python`` or ``native``."""
Name = Literal["native", "python"]
NAMES: tuple[Name, ...] = ("native", "python")


TWINS: tuple[str, ...] = (
    "Stage",
    "back_of",
    "close_position",
    "greedy_arrangement",
    "hand_plan",
    "idle",
    "marked",
    "max_pure_groups",
    "pool_splits",
    "rebuild_groups",
    "stage_from",
    "suit_step",
    "suit_table",
    "sweep_moves",
    "sweep_positions",
)
"""The entry points both cores provide under one name, the same function in each (what
:func:`current` hands the solver). ``tests/test_native_twins.py`` checks that the native
core has no other entry point but :data:`NATIVE_ONLY` and that each twin pair is compared by
a named test: a twin left out of this list, or never compared, fails a test by its name."""
NATIVE_ONLY: tuple[str, ...] = (
    "CLASSES",
    "PHASES",
    "ROLES",
    "SLOTS",
    "TABLES",
    "cache_size",
    "clear_caches",
    "configure",
)
"""The native core's own machinery, with no twin: its layout constants, the digest of the
tables it was compiled with (:mod:`._native_tables`, checked when it is loaded), its caches,
its configuration."""


class BackendError(RuntimeError):
    """The core asked for cannot run (not built, or an unknown name)."""


def _load_native() -> tuple[ModuleType | None, str | None]:
    """The native core, configured, or why there is none: not built, or built from other
    tables than the Python definitions it would run with (an earlier build, left in place)."""
    try:
        native = importlib.import_module("rummy21.solver._native")
    except ImportError as error:
        return None, f"the native core is not built ({error})"
    if getattr(native, "TABLES", None) != _native_tables.digest():
        return None, "the native core is out of date (built from other tables than these sources')"
    core.configure_native(native)
    return native, None


NATIVE, NATIVE_MISSING = _load_native()
"""The native core module (``None`` when it is not built), and why it is missing."""


def _wanted(value: str) -> tuple[Name, str | None]:
    """The core chosen by the environment variable's ``value``, and a problem with it."""
    wanted = value.strip().lower()
    if wanted in ("", "native") and NATIVE is not None:
        return "native", None
    if wanted in ("", "python"):
        return "python", None
    if wanted == "native":
        return "python", f"{ENV}=native, but {NATIVE_MISSING}: reinstall with a C compiler"
    return "python", f"{ENV}={value!r} is not a solver: use python or native"


_active, PROBLEM = _wanted(os.environ.get(ENV, ""))
"""The core in use, and what was wrong with the environment's choice (``None``: nothing).
The command line refuses to start while there is a problem; the library runs the twin."""


def name() -> Name:
    """The core in use: ``"native"`` or ``"python"``."""
    return _active


def current() -> ModuleType:
    """The module of the core in use (:mod:`.core` or :mod:`._native`)."""
    if _active == "native" and NATIVE is not None:
        return NATIVE
    return core


def max_pure_groups(counts: Sequence[int]) -> int:
    """The most disjoint pure groups the cards could ever form
    (:func:`~.bounds.max_pure_groups`), worked out by the core in use: every analysis asks
    it first, many times a 22-card hand.

    >>> from rummy21.cards import Hand
    >>> max_pure_groups(Hand.parse("QS KS AS AS 2S 3S 5H 5H 5H JK JK JK").counts)
    4
    """
    return int(current().max_pure_groups(counts))


def available() -> tuple[Name, ...]:
    """The cores this installation can run."""
    return NAMES if NATIVE is not None else ("python",)


def use(chosen: str) -> None:
    """Run ``chosen`` from now on (``"native"`` or ``"python"``)."""
    global _active
    if chosen not in NAMES:
        raise BackendError(f"{chosen!r} is not a solver: use python or native")
    if chosen == "native" and NATIVE is None:
        raise BackendError(str(NATIVE_MISSING))
    _active = "native" if chosen == "native" else "python"


@contextmanager
def using(chosen: str) -> Iterator[None]:
    """Run ``chosen`` within the block, then the core used before."""
    before = _active
    use(chosen)
    try:
        yield
    finally:
        use(before)


def describe() -> str:
    """One line for ``rummy21 --version``: the core in use, and why when it is the twin."""
    if _active == "native":
        return "solver: native (C core)"
    if PROBLEM is not None:
        return f"solver: python ({PROBLEM})"
    if NATIVE is None:
        return f"solver: python ({NATIVE_MISSING})"
    if os.environ.get(ENV, "").strip().lower() == "python":
        return f"solver: python ({ENV}=python)"
    return "solver: python (chosen with rummy21.solver.backend.use)"
