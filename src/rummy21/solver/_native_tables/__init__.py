"""What the native core is compiled with, from the Python definitions: the 53 card kinds and
their face points (:mod:`rummy21.cards`), the enums' values and the tables of a suit's state
(:mod:`.runs`, :class:`.moves.Role`), the packed state's layout (:mod:`.packing`) and the
group codes of :mod:`.greedy` and :mod:`.core`, written as the C header ``_native.c``
includes.

``setup.py`` writes the header before each compile of the core, by
``python -S -m rummy21.solver._native_tables HEADER`` (standard library only), so none of
these is written twice. The core exports the header's digest as ``TABLES``; a core built
from other definitions than the ones beside it is not loaded (:mod:`.backend` says why).

>>> text = header()
>>> "static const int CARD_POINTS[CARD_KINDS] = {" in text, "    10, 2, 3, 4, 5," in text
(True, True)
>>> "enum { PH_FIRST = 0, PH_LOWMARK = 1, PH_MID = 2, PH_LAST = 3, PH_CLOSE = 4 };" in text
True
>>> len(digest()), digest() in text
(16, True)
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from rummy21 import cards
from rummy21.solver import core, greedy, moves, packing, runs

__all__ = ["HEADER", "Tables", "TablesError", "check", "digest", "header", "main", "tables"]

HEADER = "_native_tables.h"
"""The header's file name, as ``_native.c`` includes it."""

U128_MOST = (1 << 128) - 1
_E = TypeVar("_E", bound=IntEnum)


class TablesError(ValueError):
    """Definitions the native core cannot be compiled with (a field too wide, two fields on
    the same bits, an enum not numbered 0..n-1, a table of the wrong shape)."""


@dataclass(frozen=True)
class Tables:
    """Every number the header holds, read from the Python definitions (:func:`tables`)."""

    # rummy21.cards
    kinds: int
    joker: int
    suits: int
    ranks: int
    decks: int
    card_points: tuple[int, ...]
    # rummy21.solver.runs and moves
    run_classes: tuple[tuple[str, int], ...]
    high: int
    slots: int
    phases: tuple[tuple[str, int], ...]
    positions: int
    roles: tuple[tuple[str, int], ...]
    state_at: tuple[int, ...]
    state_width: tuple[int, ...]
    next_class: tuple[tuple[tuple[int, ...], ...], ...]
    """By phase, then natural (0: continuing with a joker, 1: with a natural card), then by
    class: the class the run goes to (:func:`.runs.next_class`)."""
    padding: tuple[int, ...]
    pure_end: tuple[bool, ...]
    impure_of: tuple[int, ...]
    """By class: its impure twin, or -1."""
    open_pure: tuple[int, ...]
    # rummy21.solver.packing
    at_suit: tuple[int, ...]
    at_pools: int
    at_pure: int
    at_owed: int
    at_bought: int
    suit_mask: int
    pure_mask: int
    owed_mask: int
    bought_mask: int
    extends: int
    purity: int
    layer_bits: int
    empty: int
    # the group codes of greedy.py and core.py, and the quick pass's weights
    quick_groups: tuple[tuple[str, int], ...]
    natural_weight: int
    joker_weight: int
    rebuild_groups: tuple[tuple[str, int], ...]


def _named(members: Iterable[IntEnum]) -> tuple[tuple[str, int], ...]:
    return tuple((member.name, int(member)) for member in members)


def tables() -> Tables:
    """The numbers, as the Python definitions have them now."""
    classes = runs.RUN_CLASSES
    return Tables(
        kinds=cards.TYPE_COUNT,
        joker=cards.JOKER_INDEX,
        suits=len(cards.Suit),
        ranks=len(cards.RANK_NAMES),
        decks=cards.DECKS,
        card_points=tuple(card.points for card in cards.ALL_CARDS),
        run_classes=_named(classes),
        high=runs.HIGH,
        slots=runs.SLOTS,
        phases=_named(runs.Phase),
        positions=len(runs.PHASE_AT) - 1,
        roles=_named(moves.Role),
        state_at=tuple(runs._AT[slot] for slot in range(runs.SLOTS)),
        state_width=tuple(runs._WIDTH[slot] for slot in range(runs.SLOTS)),
        next_class=tuple(
            tuple(
                tuple(int(runs.next_class(k, bool(natural), phase)) for k in _by_value(classes))
                for natural in (0, 1)
            )
            for phase in _by_value(tuple(runs.Phase))
        ),
        padding=tuple(runs.PADDING.get(k, 0) for k in _by_value(classes)),
        pure_end=tuple(k in runs.PURE_END for k in _by_value(classes)),
        impure_of=tuple(int(runs.IMPURE_OF.get(k, -1)) for k in _by_value(classes)),
        open_pure=runs.OPEN_PURE,
        at_suit=packing.AT_SUIT,
        at_pools=packing.AT_POOLS,
        at_pure=packing.AT_PURE,
        at_owed=packing.AT_OWED,
        at_bought=packing.AT_BOUGHT,
        suit_mask=packing.SUIT_MASK,
        pure_mask=packing.PURE_MASK,
        owed_mask=packing.OWED_MASK,
        bought_mask=packing.BOUGHT_MASK,
        extends=packing.EXTENDS,
        purity=packing.PURITY,
        layer_bits=packing.LAYER_BITS,
        empty=runs.EMPTY,
        quick_groups=(
            ("PURE_SEQUENCE", greedy.PURE_SEQUENCE),
            ("IMPURE_SEQUENCE", greedy.IMPURE_SEQUENCE),
            ("SET", greedy.SET),
            ("TUNNELA", greedy.TUNNELA),
            ("JOKER_GROUP", greedy.JOKER_GROUP),
        ),
        natural_weight=greedy.NATURAL_WEIGHT,
        joker_weight=greedy.JOKER_WEIGHT,
        rebuild_groups=(
            ("PURE_RUN", core.PURE_RUN),
            ("IMPURE_RUN", core.IMPURE_RUN),
            ("SET", core.SET),
            ("TUNNELA", core.TUNNELA),
        ),
    )


def _by_value(members: Sequence[_E]) -> tuple[_E, ...]:
    return tuple(sorted(members))


def check(t: Tables) -> None:
    """Raise :class:`TablesError` unless the core can be compiled with ``t``: what the C code
    assumes of the numbers (the widths of its fields and arrays), checked before it is
    written, with what is wrong in words.

    >>> from dataclasses import replace
    >>> check(replace(tables(), state_at=(0,) * 8))
    Traceback (most recent call last):
    ...
    rummy21.solver._native_tables.TablesError: a suit state's fields overlap or pass its mask
    """
    n_classes, n_phases = len(t.run_classes), len(t.phases)
    for what, members in (
        ("run classes", t.run_classes),
        ("phases", t.phases),
        ("roles", t.roles),
        ("group codes of greedy.py", t.quick_groups),
        ("group codes of core.py", t.rebuild_groups),
    ):
        values = sorted(value for _, value in members)
        if values != list(range(len(members))):
            raise TablesError(f"the {what} are numbered {values}, not 0..{len(members) - 1}")
        names = [name for name, _ in members]
        if len(set(names)) != len(names) or not all(n.isidentifier() for n in names):
            raise TablesError(f"the {what}' names are not distinct C names: {names}")
    if (t.kinds, t.joker, t.suits * t.ranks) != (53, 52, 52) or t.decks != 3:
        raise TablesError(
            f"the core reads 53 card kinds, 4 suits of 13 and 3 decks, not {t.kinds} kinds, "
            f"{t.suits} suits of {t.ranks} (joker {t.joker}) and {t.decks} decks"
        )
    if len(t.card_points) != t.kinds or not all(0 <= p <= 1000 for p in t.card_points):
        raise TablesError(f"face points are 0..1000, one a kind: {t.card_points}")
    if not n_classes < t.slots <= 16 or not n_classes <= t.high < t.slots:
        raise TablesError(
            f"a suit state holds its {n_classes} run classes and then the Aces set aside "
            f"(high {t.high}) in {t.slots} slots"
        )
    if len(t.state_at) != t.slots or len(t.state_width) != t.slots:
        raise TablesError(f"a suit state's fields: {t.slots} places and widths")
    if not all(1 <= w <= 16 for w in t.state_width) or not all(0 <= a <= 63 for a in t.state_at):
        raise TablesError("a suit state's field is 1..16 bits wide, within 64")
    fields = 0
    for at, width in zip(t.state_at, t.state_width, strict=True):
        field = ((1 << width) - 1) << at
        if field & fields or field & ~t.suit_mask:
            raise TablesError("a suit state's fields overlap or pass its mask")
        fields |= field
    shape = (n_phases, 2, n_classes)
    if (
        len(t.next_class) != shape[0]
        or any(len(two) != 2 for two in t.next_class)
        or any(len(row) != n_classes for two in t.next_class for row in two)
        or any(not 0 <= k < n_classes for two in t.next_class for row in two for k in row)
    ):
        raise TablesError(f"where a run goes next is a table of {shape}, of run classes")
    if len(t.padding) != n_classes or not all(0 <= p <= 3 for p in t.padding):
        raise TablesError(f"a run's padding is 0..3 jokers, one a class: {t.padding}")
    if len(t.pure_end) != n_classes or len(t.impure_of) != n_classes:
        raise TablesError("which classes end pure, and their impure twins: one a class")
    twins = [k for k in t.impure_of if k >= 0]
    if len(set(twins)) != len(twins) or any(
        k == into or not -1 <= into < n_classes for k, into in enumerate(t.impure_of)
    ):
        raise TablesError(f"each pure class has one impure twin of its own: {t.impure_of}")
    if len(t.open_pure) != 256 or not all(0 <= n <= 64 for n in t.open_pure):
        raise TablesError("open pure runs are 0..64, by a state's lowest eight bits")
    if len(t.at_suit) != t.suits or not all(0 <= at <= 120 for at in t.at_suit):
        raise TablesError(f"a packed state's suit fields: {t.suits} places within 128 bits")
    for name in ("at_pools", "at_pure", "at_owed", "at_bought"):
        if not 0 <= getattr(t, name) <= 120:
            raise TablesError(f"{name} is {getattr(t, name)}, outside 0..120")
    if t.suit_mask >> 63 or t.pure_mask > 63 or t.owed_mask > 1023 or t.bought_mask > 127:
        raise TablesError("a packed state's field is wider than the core allows")
    for name in ("extends", "purity", "layer_bits", "empty"):
        if not 0 <= getattr(t, name) <= U128_MOST:
            raise TablesError(f"{name} does not fit 128 bits")


def _enum(prefix: str, members: Iterable[tuple[str, int]]) -> str:
    return "enum { " + ", ".join(f"{prefix}{name} = {value}" for name, value in members) + " };"


def _array(values: Iterable[int | str], per_line: int = 0) -> str:
    """A C initializer (of numbers, truth values or initializers); ``per_line``: so many values
    a line (the long tables)."""
    items = [v if isinstance(v, str) else str(int(v)) for v in values]
    if not per_line:
        return "{" + ", ".join(items) + "}"
    lines = (", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line))
    return "{\n    " + ",\n    ".join(lines) + ",\n}"


def _u128(value: int) -> str:
    return f"NT_U128(0x{value >> 64:x}ull, 0x{value & (1 << 64) - 1:x}ull)"


def _body(t: Tables) -> list[str]:
    points = _array(t.card_points, t.ranks)
    next_class = _array((_array(_array(row) for row in two) for two in t.next_class), 1)
    pure_fields = 0
    for k, into in enumerate(t.impure_of):
        if into >= 0:
            pure_fields |= ((1 << t.state_width[k]) - 1) << t.state_at[k]
    return [
        "/* rummy21.cards: the card kinds (Card.index), suit-major S H D C, Ace to King, then",
        " * the printed joker; their face points (Card.points). */",
        f"#define CARD_KINDS {t.kinds}",
        f"#define SUITED_KINDS {t.joker}",
        f"#define JOKER_KIND {t.joker}",
        f"#define SUITS {t.suits}",
        f"#define RANKS {t.ranks}",
        f"#define DECKS {t.decks}",
        f"static const int CARD_POINTS[CARD_KINDS] = {points};",
        "",
        "/* rummy21.solver.runs: a suit's state (RunClass, its counts' places and widths by",
        " * slot, Phase), where a run goes next (by phase, natural, class), the jokers a short",
        " * run takes when it ends, the classes that end pure, the pure classes' impure twins",
        " * (-1: none) and the fields forget_purity empties; the open pure runs by a state's",
        " * lowest eight bits; moves.Role. */",
        f"#define SLOTS {t.slots}",
        f"#define CLASSES {len(t.run_classes)}",
        _enum("RC_", t.run_classes),
        f"#define RC_HIGH {t.high}",
        f"static const int RUN_ORDER[CLASSES] = {_array(v for _, v in t.run_classes)};",
        f"static const int STATE_AT[SLOTS] = {_array(t.state_at)};",
        f"static const int STATE_WIDTH[SLOTS] = {_array(t.state_width)};",
        f"#define PHASES {len(t.phases)}",
        _enum("PH_", t.phases),
        f"#define POSITIONS {t.positions}",
        f"static const int NEXT_CLASS[PHASES][2][CLASSES] = {next_class};",
        f"static const int PADDING_OF[CLASSES] = {_array(t.padding)};",
        f"static const int PURE_END_OF[CLASSES] = {_array(t.pure_end)};",
        f"static const int IMPURE_OF[CLASSES] = {_array(t.impure_of)};",
        f"#define PURE_FIELDS ((uint64_t)0x{pure_fields:x}ull)",
        f"static const int OPEN_PURE[256] = {_array(t.open_pure, 16)};",
        f"#define ROLES {len(t.roles)}",
        _enum("R_", t.roles),
        "",
        "/* rummy21.solver.packing: the fields of a packed state. */",
        f"static const int AT_SUIT[{t.suits}] = {_array(t.at_suit)};",
        f"#define AT_POOLS {t.at_pools}",
        f"#define AT_PURE {t.at_pure}",
        f"#define AT_OWED {t.at_owed}",
        f"#define AT_BOUGHT {t.at_bought}",
        *(
            f"#define {name.upper()} {_u128(getattr(t, name))}"
            for name in (
                "suit_mask",
                "pure_mask",
                "owed_mask",
                "bought_mask",
                "extends",
                "purity",
                "layer_bits",
                "empty",
            )
        ),
        "",
        "/* The group codes of solver/greedy.py (the quick pass) and its weights, and of",
        " * solver/core.py (rebuild_groups). */",
        _enum("Q_", t.quick_groups),
        f"#define Q_NATURAL_WEIGHT {t.natural_weight}",
        f"#define Q_JOKER_WEIGHT ({t.joker_weight})",
        _enum("RB_", t.rebuild_groups),
    ]


def _text(t: Tables) -> tuple[str, str]:
    """The header and its digest (of everything but the digest's own line)."""
    check(t)
    body = "\n".join(_body(t)) + "\n"
    sealed = hashlib.sha256(body.encode()).hexdigest()[:16]
    head = (
        "/* What the native core is compiled with, from the Python definitions: written by\n"
        " * rummy21.solver._native_tables (setup.py runs it before each compile). Do not edit:\n"
        " * change the Python definitions, and build the core again. */\n"
        "#ifndef RUMMY21_NATIVE_TABLES_H\n"
        "#define RUMMY21_NATIVE_TABLES_H\n"
        "\n"
        "#include <stdint.h>\n"
        "\n"
        "#define NT_U128(high, low) ((unsigned __int128)(high) << 64 | (unsigned __int128)(low))\n"
        f'#define TABLES_DIGEST "{sealed}"\n'
        "\n"
    )
    return head + body + "\n#endif\n", sealed


def header(t: Tables | None = None) -> str:
    """The C header of the tables ``t`` (by default, as the Python definitions have them)."""
    return _text(tables() if t is None else t)[0]


def digest(t: Tables | None = None) -> str:
    """Sixteen hex digits that change with any number of the header: the native core's
    ``TABLES`` when it was built from these definitions."""
    return _text(tables() if t is None else t)[1]


def main(argv: Sequence[str] | None = None, environ: Mapping[str, str] = os.environ) -> int:
    """``python -S -m rummy21.solver._native_tables HEADER``: write the header to the file
    ``HEADER`` (its folders made), unless it already holds exactly that text (so that its
    time changes, and the core is compiled again, only when a table does). Status 2, and one
    line on stderr, for a wrong argument or definitions the core cannot take."""
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -S -m rummy21.solver._native_tables HEADER", file=sys.stderr)
        return 2
    path = args[0]
    try:
        text = header()
    except TablesError as error:
        print(f"error: the native core's tables: {error}", file=sys.stderr)
        return 2
    try:
        with open(path, encoding="utf-8") as existing:
            if existing.read() == text:
                return 0
    except OSError:
        pass
    folder = os.path.dirname(path)
    try:
        if folder:
            os.makedirs(folder, exist_ok=True)
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, path)
    except OSError as error:
        print(f"error: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    return 0
