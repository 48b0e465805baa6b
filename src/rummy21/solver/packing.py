"""The sweep's states packed into one int each: the fields, and a layer's keys read back.

A state part-way through a position is one int (a move adds a number to it, and an int
hashes at once: building and hashing a tuple per move cost most of a sweep). Its fields,
lowest first: the four suit states (:mod:`.runs`, those of the suits done updated), the
copies each suit sends to the pool of the rank, the pure groups done, the jokers owed by
short runs, the cards bought or put aside, and two flags. No field can overflow into the
next: a suit state's number is below ``1 << BITS``; a suit holds at most three copies of a
card, so a position adds at most a few pure groups or owed jokers per suit; and no more
cards are bought than a hand holds.

Between positions a layer's keys are packed the same way with the pool, owed and flag fields
zero (``LAYER_BITS``).

>>> key = pack((3, 0, 0, 1), pure=2, bought=1)
>>> unpack(key)
LayerKey(suits=(3, 0, 0, 1), pure=2, bought=1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rummy21.solver.runs import BITS, forget_purity

SUIT_MASK = (1 << BITS) - 1
AT_SUIT = (0, BITS, 2 * BITS, 3 * BITS)  # a suit state's number each
AT_POOL = tuple(4 * BITS + 2 * s for s in range(4))
"""Two bits each: the copies a suit sends to the pool here (0..3)."""
AT_POOLS = AT_POOL[0]
AT_PURE = 4 * BITS + 8  # 6 bits: pure groups done
AT_OWED = AT_PURE + 6  # 7 bits: jokers owed by short runs (for pruning)
AT_BOUGHT = AT_OWED + 7  # 7 bits: cards bought or put aside
EXTENDS = 1 << AT_BOUGHT + 7  # a move placed spare jokers only (Option A)
PURITY = EXTENDS << 1  # purity still matters (fewer pure groups than needed)
PURE_MASK, OWED_MASK, BOUGHT_MASK = 63, 127, 127
MOST_BOUGHT = BOUGHT_MASK - 4 * 3
"""The most cards a sweep may buy or put aside: within a position a suit adds at most three
before the total is checked against this."""
LAYER_BITS = (1 << 4 * BITS) - 1 | PURE_MASK << AT_PURE | BOUGHT_MASK << AT_BOUGHT
"""The fields of a state between positions (suit states, pure groups, cards bought)."""


class LayerKey(NamedTuple):
    """A state between positions, unpacked."""

    suits: tuple[int, int, int, int]
    pure: int
    """Pure groups done, capped at the number the rules need."""
    bought: int
    """Cards bought (:func:`~rummy21.solver.replacements`) or put aside
    (:func:`~rummy21.solver.least_after_put_aside`)."""


def pack(suits: Sequence[int], pure: int, bought: int) -> int:
    """A state between positions, packed."""
    return (
        suits[0]
        | suits[1] << AT_SUIT[1]
        | suits[2] << AT_SUIT[2]
        | suits[3] << AT_SUIT[3]
        | pure << AT_PURE
        | bought << AT_BOUGHT
    )


def unpack(key: int) -> LayerKey:
    """The inverse of :func:`pack`."""
    return LayerKey(
        (
            key & SUIT_MASK,
            key >> AT_SUIT[1] & SUIT_MASK,
            key >> AT_SUIT[2] & SUIT_MASK,
            key >> AT_SUIT[3] & SUIT_MASK,
        ),
        key >> AT_PURE & PURE_MASK,
        key >> AT_BOUGHT & BOUGHT_MASK,
    )


def forget_purity_of(key: int) -> int:
    """A layer key with every suit's pure runs counted as impure (see
    :func:`~rummy21.solver.runs.forget_purity`)."""
    layer = unpack(key)
    return pack(tuple(map(forget_purity, layer.suits)), layer.pure, layer.bought)
