"""Research environments (``pip install 'rummy21[rl]'``): PettingZoo and Gymnasium.

* :func:`env` / :func:`raw_env` — PettingZoo AEC, every seat an agent (:mod:`.aec`);
* :class:`RummyEnv`, registered as ``rummy21/Rummy21-v0`` — Gymnasium, one learner against
  bots (:mod:`.single`);
* the fixed action space of 109 indices with masks (:mod:`.actions`) and the observation
  vector read from a seat's view (:mod:`.observation`), shared by both and by the ``learned``
  bot (:mod:`.learned`).

The action space, the observation and the ``learned`` bot need NumPy alone: this package
imports PettingZoo and Gymnasium only when their environments are asked for (and registers
``rummy21/Rummy21-v0`` with Gymnasium when Gymnasium is installed).

>>> import gymnasium
>>> ENV_ID in gymnasium.registry
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rummy21.env.actions import ACTION_COUNT, ACTIONS, action_of, index_of, mask_of
from rummy21.env.observation import Encoder, Field, fields

if TYPE_CHECKING:
    from rummy21.env.aec import RummyAEC, env, raw_env
    from rummy21.env.single import RummyEnv

ENV_ID = "rummy21/Rummy21-v0"
"""The Gymnasium id of :class:`~rummy21.env.single.RummyEnv`."""

_LAZY = {"RummyAEC": "aec", "env": "aec", "raw_env": "aec", "RummyEnv": "single"}
"""Names whose modules need PettingZoo or Gymnasium, imported when first asked for."""

try:
    import gymnasium
except ImportError:  # (the rl extra is not installed: the environments are not available)
    pass
else:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="rummy21.env.single:RummyEnv")


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rummy21.env' has no attribute {name!r}")
    return getattr(importlib.import_module(f"rummy21.env.{module}"), name)


__all__ = [
    "ACTIONS",
    "ACTION_COUNT",
    "ENV_ID",
    "Encoder",
    "Field",
    "RummyAEC",
    "RummyEnv",
    "action_of",
    "env",
    "fields",
    "index_of",
    "mask_of",
    "raw_env",
]
