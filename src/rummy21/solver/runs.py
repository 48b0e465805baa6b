"""A suit's state in the sweep: its open runs by class, and the Aces kept for Ace-high runs.

A state is a number (:func:`encode`): a tuple of eight counts costs a hash of its own at
every look-up, and the sweep packs four states into one key (see :mod:`.packing`). The
number is the counts themselves, a few bits each, so no table of states is kept and none can
fill up; the widths hold whatever a hand of at most three copies of each card can open.

>>> code = encode((1, 0, 2, 0, 5, 0, 0, 1))
>>> decode(code), open_pure(code), decode(forget_purity(code))
((1, 0, 2, 0, 5, 0, 0, 1), 3, (1, 0, 0, 0, 7, 0, 0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum


class RunClass(IntEnum):
    """A class of open run: its length capped at 3, whether it is still pure, and whether
    it began at the Ace-low place (such a run may not also take the Ace-high place)."""

    P1 = 0
    """Pure, one card."""
    P2 = 1
    """Pure, two cards."""
    P3 = 2
    """Pure, three cards or more: complete."""
    I2 = 3
    """Impure (holds a joker), two cards."""
    I3 = 4
    """Impure, three cards or more."""
    LP3 = 5
    """Pure, complete, begun at the Ace-low place."""
    LI3 = 6
    """Impure, complete, begun at the Ace-low place."""


RUN_CLASSES = tuple(RunClass)
P1, P2, P3, I2, I3, LP3, LI3 = RUN_CLASSES
HIGH = 7
"""Where a state holds the Aces set aside at position 1 to end Q-K-A runs at position 14."""
SLOTS = 8
"""Counts in a state: one per run class, then the Aces set aside."""


class Phase(IntEnum):
    """What is special about a position of the sweep."""

    FIRST = 0
    """Position 1, the Ace low: Aces may also be set aside for the Ace-high place."""
    LOWMARK = 1
    """Position 3: runs of two begun at position 1 become complete "low" runs."""
    MID = 2
    """Positions 2 and 4..13."""
    LAST = 3
    """Position 14, the Ace high: its copies are the Aces set aside; low runs end."""
    CLOSE = 4
    """Position 15: every run ends."""

    @classmethod
    def at(cls, position: int) -> Phase:
        """The phase of a position (1..15).

        >>> Phase.at(1).name, Phase.at(3).name, Phase.at(9).name, Phase.at(15).name
        ('FIRST', 'LOWMARK', 'MID', 'CLOSE')
        """
        return _PHASES.get(position, cls.MID)


_PHASES = {1: Phase.FIRST, 3: Phase.LOWMARK, 14: Phase.LAST, 15: Phase.CLOSE}
PHASE_AT = tuple(Phase.at(p) for p in range(16))
"""The phase of each position (read per suit and position)."""

# Where a run of each class goes when it continues with a natural card / a joker.
NEXT_NATURAL = {P1: P2, P2: P3, P3: P3, I2: I3, I3: I3, LP3: LP3, LI3: LI3}
NEXT_JOKER = {P1: I2, P2: I3, P3: I3, I2: I3, I3: I3, LP3: LI3, LI3: LI3}
LOW = {P3: LP3, I3: LI3}
"""At position 3, runs of two begun at position 1 become "low" runs."""
PADDING = {P1: 2, P2: 1, I2: 1}
"""The jokers a short run takes when it ends."""
PURE_END = {P3, LP3}
"""Classes whose runs end as pure groups."""
IMPURE_OF = {P2: I2, P3: I3, LP3: LI3}
"""Each pure class and its impure twin (once enough pure groups are done, purity is moot)."""


def next_class(k: RunClass, natural: bool, phase: Phase) -> RunClass:
    """The class a run of class ``k`` moves to when it continues here."""
    target = NEXT_NATURAL[k] if natural else NEXT_JOKER[k]
    return LOW.get(target, target) if phase == Phase.LOWMARK and k in (P2, I2) else target


NEXT_CLASSES = {
    phase: tuple(
        tuple(next_class(k, natural, phase) for k in RUN_CLASSES) for natural in (False, True)
    )
    for phase in Phase
}
"""By phase, then by continuing with a natural card or not, then by class: :func:`next_class`."""


# A state's number: two bits for each count, six for I3 (low runs, runs of one or two and
# Aces set aside all began at one place, so there are at most three of each, as there are
# at most three pure runs taking a natural card here; I3 runs began at up to 11 places). The
# pure classes come first, so that the open pure runs are the lowest eight bits.
_AT = {P1: 0, P2: 2, P3: 4, LP3: 6, I2: 8, LI3: 10, HIGH: 12, I3: 14}
_WIDTH = {k: 6 if k == I3 else 2 for k in _AT}
BITS = 20
"""A state's number is below ``1 << BITS``."""
EMPTY = 0
"""The state of a suit with no open run and no Ace set aside."""


def encode(state: Sequence[int]) -> int:
    """The number of a state given as its eight counts."""
    code = 0
    for slot, n in enumerate(state):
        if not 0 <= n < 1 << _WIDTH[slot]:  # cannot happen with at most 3 copies a card
            raise OverflowError(f"a suit state holds {n} in slot {slot}: {tuple(state)}")
        code |= n << _AT[slot]
    return code


def decode(code: int) -> tuple[int, ...]:
    """The eight counts of a state's number."""
    return tuple(code >> _AT[slot] & (1 << _WIDTH[slot]) - 1 for slot in range(SLOTS))


OPEN_PURE = tuple(sum(low >> shift & 3 for shift in (0, 2, 4, 6)) for low in range(256))
"""Open pure runs, by the lowest eight bits of a state's number."""


def open_pure(code: int) -> int:
    """The open pure runs of a state."""
    return OPEN_PURE[code & 255]


def forget_purity(code: int) -> int:
    """The state with every pure run counted as impure (once enough pure groups are done,
    purity no longer matters). Sums stay within their fields: P2 and I2 runs both began at
    the place before, LP3 and LI3 runs at position 1."""
    if not code & 0b11111100:
        return code
    state = list(decode(code))
    for pure, impure in IMPURE_OF.items():
        state[impure] += state[pure]
        state[pure] = 0
    return encode(state)
