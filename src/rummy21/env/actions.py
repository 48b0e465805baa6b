"""The fixed action space: every move a seat can choose, as one index of 109.

Declaring names only the card to finish with; the engine's solver finds the arrangement
(RULES §5), so an agent never arranges. The mask of an observation is built from the engine's
own legal actions (:meth:`rummy21.game.Table.legal_actions`), never worked out again here.

| index | action |
| --- | --- |
| 0 | draw from the stock |
| 1 | take the open card |
| 2 | drop |
| 3 + t | discard a card of type t (``Card.index``: S, H, D, C × A..K, then JK) |
| 56 + t | declare, finishing with a card of type t |

>>> ACTION_COUNT, str(action_of(0)), str(action_of(DISCARD + 12)), str(action_of(DECLARE + 52))
(109, 'draw stock', 'discard KS', 'declare JK')
>>> from rummy21.game import Table
>>> table = Table(players=2, seed=1)
>>> [int(i) for i in mask_of(table.legal_actions()).nonzero()[0]]
[0, 1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from rummy21.cards import TYPE_COUNT
from rummy21.game import actions as engine
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source

DRAW_STOCK = 0
TAKE_OPEN = 1
DROP = 2
DISCARD = 3
"""The first discard index: ``DISCARD + card.index``."""
DECLARE = DISCARD + TYPE_COUNT
"""The first declare index: ``DECLARE + card.index``."""
ACTION_COUNT = DECLARE + TYPE_COUNT

ACTIONS: tuple[Action, ...] = (
    engine.DRAW_STOCK,
    engine.DRAW_OPEN,
    engine.DROP,
    *engine.DISCARD_OF,
    *engine.DECLARE_OF,
)
"""The engine's action for each index."""

Mask = npt.NDArray[np.int8]

# The engine lists its legal actions as these very objects: their index by identity is a lookup.
_BY_ID = {id(action): index for index, action in enumerate(ACTIONS)}


def action_of(index: int) -> Action:
    """The engine action of ``index``; an index outside 0..108 is a :class:`ValueError`."""
    if not isinstance(index, int | np.integer) or not 0 <= index < ACTION_COUNT:
        raise ValueError(f"an action is an integer 0..{ACTION_COUNT - 1}, not {index!r}")
    return ACTIONS[int(index)]


def index_of(action: Action) -> int:
    """The index of an engine action (a declaration's own layout is not part of the space).

    >>> from rummy21.cards import Card
    >>> index_of(Discard(Card.parse("6S"))), index_of(Drop())
    (8, 2)
    """
    kind = type(action)
    if kind is Discard:
        return DISCARD + action.card.index  # type: ignore[union-attr]
    if kind is Declare:
        return DECLARE + action.finish.index  # type: ignore[union-attr]
    if kind is Draw:
        return DRAW_STOCK if action.source is Source.STOCK else TAKE_OPEN  # type: ignore[union-attr]
    if kind is Drop:
        return DROP
    raise ValueError(f"{action} has no index in the action space")


def mask_of(legal: Iterable[Action]) -> Mask:
    """1 at the index of every action in ``legal`` (the engine's legal actions), else 0."""
    mask = bytearray(ACTION_COUNT)  # (set entry by entry, then read by numpy at once)
    by_id = _BY_ID
    for a in legal:
        i = by_id.get(id(a))
        mask[index_of(a) if i is None else i] = 1
    return np.frombuffer(mask, dtype=np.int8)
