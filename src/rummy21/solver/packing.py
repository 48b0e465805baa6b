"""Packing the sweep's states: suit states interned as small ints, partial states in one int."""

from __future__ import annotations

import threading
from typing import Any

from rummy21.solver.runs import _EMPTY, _canonical, _open_pure

# Suit states are interned as small integers: the sweep's keys hold four of them, and a
# tuple of ints hashes several times faster than a tuple of tuples (hashes are not cached).
_STATE_IDS: dict[tuple[int, ...], int] = {}
_STATE_OF: list[tuple[int, ...]] = []
_CANONICAL_OF: list[int] = []
_OPEN_PURE_OF: list[int] = []
_INTERNING = threading.Lock()
_STATE_BITS = (1 << 16) - 1
"""Suit state numbers stay below this (the sweep packs four in a key, see ``_Partial``)."""


def _intern(state: tuple[int, ...]) -> int:
    """The number standing for a suit state (the same for equal states, in every thread)."""
    found = _STATE_IDS.get(state)
    if found is not None:
        return found
    canonical = _canonical(state)
    canonical_id = _intern(canonical) if canonical != state else None
    with _INTERNING:
        found = _STATE_IDS.get(state)
        if found is not None:
            return found
        number = len(_STATE_OF)
        if number > _STATE_BITS:        # a partial state packs each suit's in 16 bits
            raise RuntimeError("too many suit states for the sweep's packed keys")
        _STATE_OF.append(state)
        _CANONICAL_OF.append(number if canonical_id is None else canonical_id)
        _OPEN_PURE_OF.append(_open_pure(state))
        _STATE_IDS[state] = number
    return number


_EMPTY_ID = _intern(_EMPTY)

_Struct = tuple[Any, ...]
"""A state of the sweep between positions: the four suit states, the pure groups done
(capped at the number needed) and the cards bought or put aside."""
_Partial = int
"""A state part-way through a position, packed in one int (a move adds a number to it, and
an int hashes at once: building and hashing a tuple per move cost most of a sweep): the four
suit states (those of the suits done updated), pool copies by suit, pure groups done, jokers
owed, cards bought, and two flags — see the ``_AT_*`` fields. No field can overflow into the
next: a suit holds at most three copies of a card, so a position adds at most a few pure
groups or owed jokers per suit, and no more than 21 cards are ever bought."""
_AT_SUIT = (0, 16, 32, 48)          # 16 bits each: a suit state's number
_AT_POOL = (64, 66, 68, 70)         # 2 bits each: copies a suit sends to the pool (0..3)
_AT_PURE = 72                       # 6 bits: pure groups done
_AT_OWED = 78                       # 7 bits: jokers owed by short runs (for pruning)
_AT_BOUGHT = 85                     # 7 bits: cards bought or put aside
_EXTENDS = 1 << 92                  # a move placed spare jokers only (Option A)
_PURITY = 1 << 93                   # purity still matters (fewer pure groups than needed)


_LAYER_BITS = (1 << 64) - 1 | 63 << _AT_PURE | 127 << _AT_BOUGHT
"""The fields of a state between positions (suit states, pure groups, bought): inside the
sweep a layer's keys are packed the same way, the other fields zero."""


def _pack(key: _Struct) -> int:
    """A state between positions, ``(four suit states, pure groups, bought)``, packed."""
    return int(key[0] | key[1] << 16 | key[2] << 32 | key[3] << 48
               | key[4] << _AT_PURE | key[5] << _AT_BOUGHT)


def _unpack(packed: int) -> _Struct:
    """The inverse of :func:`_pack`."""
    return (packed & _STATE_BITS, packed >> 16 & _STATE_BITS, packed >> 32 & _STATE_BITS,
            packed >> 48 & _STATE_BITS, packed >> _AT_PURE & 63, packed >> _AT_BOUGHT & 127)


# One reachable state: (joker balance, loose points, back-pointer to the state before it).
