"""Suit states: the classes of open runs, the phases of the sweep, and how runs move."""

from __future__ import annotations

# Suit-state layout: counts of open runs by class, then the Aces set aside for position 14.
P1, P2, P3, I2, I3, LP3, LI3, HIGH = range(8)
#: Run classes: (length capped at 3, pure?, started at Ace-low?).
_RUN_CLASSES = range(7)
_EMPTY = (0,) * 8
FIRST, LOWMARK, MID, LAST, CLOSE = range(5)
_MOVES_N, _MOVES_J, _MOVES_E = 0, 1, 2
# Where a run of each class goes when it continues with a natural card / a joker, by phase.
_NEXT_N = {P1: P2, P2: P3, P3: P3, I2: I3, I3: I3, LP3: LP3, LI3: LI3}
_NEXT_J = {P1: I2, P2: I3, P3: I3, I2: I3, I3: I3, LP3: LI3, LI3: LI3}
# At position 3, runs of length 2 started at position 1: they become "low" runs.
_LOW = {P3: LP3, I3: LI3}
_PAD = {P1: 2, P2: 1, I2: 1}
_PURE_END = {P3, LP3}
_IMPURE_OF = {P2: I2, P3: I3, LP3: LI3}


def _canonical(state: tuple[int, ...]) -> tuple[int, ...]:
    """Forget purity (once enough pure groups are complete it no longer matters)."""
    if not (state[P2] or state[P3] or state[LP3]):
        return state
    s = list(state)
    for pure, impure in _IMPURE_OF.items():
        s[impure] += s[pure]
        s[pure] = 0
    return tuple(s)


def _open_pure(state: tuple[int, ...]) -> int:
    return state[P1] + state[P2] + state[P3] + state[LP3]




MAX_RUN = 13
