"""A trained policy as a bot: ``rl:PATH`` in ``play``, ``simulate`` and ``tournament``.

``PATH`` is a policy saved by sb3-contrib's ``MaskablePPO`` on this package's environments
(``examples/train_maskable_ppo.py`` makes one). The bot sees what every bot sees — its seat's
view and the legal actions — encoded as the environments encode them, and plays the
policy's most likely legal action, declaring only as the engine's analysis would
(:mod:`.declaring`: never a wrong declaration). Loading needs the ``train`` extra
(``pip install 'rummy21[train]'``: Stable-Baselines3, sb3-contrib and PyTorch); without it,
or for a file that is no such policy, making the bot is a :class:`ValueError` saying so.

>>> from rummy21.bots import make_bot
>>> make_bot("rl:/no/such/policy.zip")
Traceback (most recent call last):
...
ValueError: no trained policy at /no/such/policy.zip
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rummy21.bots import BOT_KINDS
from rummy21.env.actions import ACTION_COUNT, ACTIONS, mask_of
from rummy21.env.declaring import sound_declarations
from rummy21.env.observation import Encoder, size
from rummy21.game.actions import Action
from rummy21.game.view import View

_LOADED: dict[tuple[str, int], Any] = {}
"""Models already loaded, by file and modification time: a tournament makes fresh bots every
deal, and a model only predicts (it keeps nothing between moves), so one serves them all."""


def load_policy(path: str | Path) -> Any:
    """A saved ``MaskablePPO`` model, on the CPU (a :class:`ValueError` if it cannot be).
    PyTorch is set to one thread in this process."""
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"no trained policy at {path}")
    key = (str(file.resolve()), file.stat().st_mtime_ns)
    if key not in _LOADED:
        _LOADED[key] = _load(file, path)
    return _LOADED[key]


def _load(file: Path, path: str | Path) -> Any:
    try:
        contrib = importlib.import_module("sb3_contrib")
    except ImportError:
        raise ValueError(
            "a trained policy needs Stable-Baselines3 and sb3-contrib: pip install 'rummy21[train]'"
        ) from None
    # A network this small runs fastest on one thread: more only contend with each other (and
    # with the table's own work), by a factor of ten on a busy machine.
    importlib.import_module("torch").set_num_threads(1)
    try:
        return contrib.MaskablePPO.load(str(file), device="cpu")
    except Exception as error:  # (a zip of something else, a pickle from another version)
        raise ValueError(f"{path} is not a MaskablePPO policy: {error}") from None


class PolicyBot:
    """Plays a trained policy (see the module docstring); ``seed`` is not used: it plays its
    most likely action, so the same view gives the same move."""

    def __init__(self, path: str | Path, seed: int | None = None) -> None:
        self.name = f"rl:{path}"
        self._model = load_policy(path)
        space = self._model.observation_space
        try:
            self._size = int(space["observation"].shape[0])
            actions = int(space["action_mask"].shape[0])
        except (KeyError, TypeError, IndexError):
            raise ValueError(f"{path} was not trained on rummy21.env's observations") from None
        if actions != ACTION_COUNT:
            raise ValueError(f"{path} was trained for {actions} actions, not {ACTION_COUNT}")
        self._encoder: Encoder | None = None

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        if size(view.players) != self._size:
            raise ValueError(
                f"{self.name} was trained at another number of seats than {view.players}"
            )
        if self._encoder is None or self._encoder.players != view.players:
            self._encoder = Encoder(view.players)
        mask = mask_of(sound_declarations(view, legal_actions))
        obs = {"observation": self._encoder.encode(view), "action_mask": mask}
        index, _ = self._model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        action = ACTIONS[int(index)]
        if action not in legal_actions:  # (masking makes this impossible; say so if not)
            raise RuntimeError(f"{self.name} chose {action}, which is not legal now")
        return action


BOT_KINDS["rl"] = PolicyBot
