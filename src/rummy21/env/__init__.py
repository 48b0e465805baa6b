"""Research environments (``pip install 'rummy21[rl]'``): PettingZoo and Gymnasium.

* :func:`env` / :func:`raw_env` — PettingZoo AEC, every seat an agent (:mod:`.aec`);
* :class:`RummyEnv`, registered as ``rummy21/Rummy21-v0`` — Gymnasium, one learner against
  bots (:mod:`.single`);
* the fixed action space of 109 indices with masks (:mod:`.actions`) and the observation
  vector read from a seat's view (:mod:`.observation`), shared by both.

>>> import gymnasium
>>> ENV_ID in gymnasium.registry
True
"""

from __future__ import annotations

import gymnasium

from rummy21.env.actions import ACTION_COUNT, ACTIONS, action_of, index_of, mask_of
from rummy21.env.aec import RummyAEC, env, raw_env
from rummy21.env.observation import Encoder, Field, fields
from rummy21.env.single import ENV_ID, RummyEnv

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="rummy21.env.single:RummyEnv")

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
