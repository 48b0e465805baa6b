"""The Gymnasium spaces of the environments, and the step both of them take: one index,
checked, applied by the engine.

An observation is a dict: ``observation`` (:mod:`.observation`'s vector) and ``action_mask``
(1 for each legal index of :mod:`.actions`, all 0 for a seat not in turn).

>>> space = observation_space(2, 3)
>>> space["observation"].shape, space["action_mask"].shape
((656,), (109,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from rummy21.cards import DECKS
from rummy21.env.actions import ACTION_COUNT, action_of, mask_of
from rummy21.env.declaring import sound_declarations
from rummy21.env.observation import Encoder, bounds
from rummy21.game.actions import Action
from rummy21.game.errors import IllegalActionError
from rummy21.game.events import Event
from rummy21.game.table import Table

Observation = dict[str, Any]


def observation_space(players: int, printed_jokers: int) -> spaces.Dict:
    """The observation space at a table of ``players`` (one new object per call)."""
    high = bounds(players, max(DECKS, printed_jokers))
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    """The action space (one new object per call): the indices of :mod:`.actions`."""
    return spaces.Discrete(ACTION_COUNT)


def observe(table: Table, seat: int, encoder: Encoder, sound: bool = False) -> Observation:
    """``seat``'s observation: its view encoded, and the engine's legal actions as a mask
    (empty unless it is in turn; ``sound``: only the declarations the engine would judge
    valid, :mod:`.declaring`)."""
    view = table.view(seat)
    legal: Sequence[Action] = table.legal_actions() if table.turn == seat else ()
    if sound and legal:
        legal = sound_declarations(view, legal)
    return {"observation": encoder.encode(view), "action_mask": mask_of(legal)}


def apply_index(table: Table, index: Any) -> Event:
    """Apply action ``index`` for the seat in turn; the engine judges it. An index that is no
    action, or an action the rules refuse now, is an :class:`IllegalActionError` saying which
    and why (the table is unchanged)."""
    try:
        action = action_of(index)
    except ValueError as error:
        raise IllegalActionError(str(error)) from None
    try:
        return table.apply(action)
    except IllegalActionError as error:
        raise IllegalActionError(
            f"action {int(index)} ({action}) is not legal now: {error}", error.code, **error.values
        ) from None
