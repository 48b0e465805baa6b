"""A small feed-forward network in NumPy alone: the format the ``learned`` bot reads.

A network file is a NumPy ``.npz`` archive: ``hidden_w{i}``/``hidden_b{i}`` for each hidden layer
(ReLU), ``policy_w``/``policy_b`` (the logits of the 109 actions), ``value_w``/``value_b`` (the
expected deal score of each action, in points, from the seat's view) and ``meta``, a JSON text
(``format``, ``inputs``, ``actions``, ``head``: which output chooses the move, and how it was
trained). :mod:`rummy21.learn.train` writes it from a PyTorch model; playing it needs no
PyTorch. A file that is missing, not such an archive, or of the wrong shapes is a
:class:`NetworkError` naming the file.

>>> import numpy as np, tempfile, pathlib
>>> rng = np.random.default_rng(1)
>>> arrays = {"hidden_w0": rng.normal(size=(4, 8)), "hidden_b0": np.zeros(8),
...           "policy_w": rng.normal(size=(8, 3)), "policy_b": np.zeros(3),
...           "value_w": rng.normal(size=(8, 3)), "value_b": np.zeros(3)}
>>> path = pathlib.Path(tempfile.mkdtemp()) / "net.npz"
>>> save_network(path, arrays, {"head": "policy"})
>>> net = load_network(path)
>>> net.inputs, net.actions, net.forward(np.ones((1, 4), np.float32))[0].shape
(4, 3, (1, 3))
>>> load_network(path.with_name("none.npz"))
Traceback (most recent call last):
...
rummy21.env.network.NetworkError: no network file at .../none.npz
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

FORMAT = "rummy21-network-1"
"""The ``format`` a network file's ``meta`` names."""

Array = npt.NDArray[np.float32]
PART_PREFIXES = ("reach_",)
"""The names of the arrays a file may hold for other networks (:attr:`Network.parts`)."""


class NetworkError(ValueError):
    """A network file that cannot be played: missing, unreadable, or of the wrong shapes."""


@dataclass(frozen=True)
class Network:
    """The layers of a loaded network, as float32 arrays, and its ``meta``."""

    hidden: tuple[tuple[Array, Array], ...]
    policy: tuple[Array, Array]
    value: tuple[Array, Array]
    meta: dict[str, Any]
    checks: dict[str, Array] = field(default_factory=dict)
    """Inputs the trainer kept (``check_x``, ``check_mask``) with its own outputs for them
    (``check_policy``, ``check_value``): :meth:`check_problem` compares."""
    parts: dict[str, Array] = field(default_factory=dict)
    """Arrays of networks that travel in the same file (``reach_*``: the reach network,
    :mod:`rummy21.env.reach`), read by the bot that uses them."""

    @property
    def inputs(self) -> int:
        return int(self.hidden[0][0].shape[0])

    @property
    def actions(self) -> int:
        return int(self.policy[0].shape[1])

    def check_problem(self, tolerance: float = 1e-3) -> str | None:
        """What differs between this network's outputs and the trainer's on the inputs kept
        in the file (the legal move each picks, or the numbers); ``None`` if nothing does (or
        the file keeps no such inputs)."""
        if "check_x" not in self.checks:
            return None
        policy, value = self.forward(self.checks["check_x"])
        legal = self.checks["check_mask"] > 0
        for name, mine, theirs in (
            ("policy", policy, self.checks["check_policy"]),
            ("value", value, self.checks["check_value"]),
        ):
            scale = max(1.0, float(np.abs(theirs).max()))
            if not np.allclose(mine, theirs, atol=tolerance * scale, rtol=tolerance):
                return f"the {name} head's outputs differ by up to {np.abs(mine - theirs).max()}"
            picks = np.where(legal, mine, -np.inf).argmax(1)
            wanted = np.where(legal, theirs, -np.inf).argmax(1)
            if (picks != wanted).any():
                return f"the {name} head picks other moves on {(picks != wanted).sum()} inputs"
        return None

    def forward(self, x: Array) -> tuple[Array, Array]:
        """The policy logits and the action values for a batch of inputs ``x``."""
        h = x
        for w, b in self.hidden:
            h = np.maximum(h @ w + b, 0.0)
        return h @ self.policy[0] + self.policy[1], h @ self.value[0] + self.value[1]


def save_network(path: str | Path, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    """Write ``arrays`` (the layers, by the names above) and ``meta`` as a network file."""
    full = {"format": FORMAT, **meta}
    out = {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}
    with Path(path).open("wb") as sink:
        np.savez_compressed(sink, meta=np.array(json.dumps(full, sort_keys=True)), **out)  # type: ignore[arg-type]


def load_network(path: str | Path) -> Network:
    """The network in ``path``; a :class:`NetworkError` naming the file if it is none."""
    file = Path(path)
    if not file.is_file():
        raise NetworkError(f"no network file at {path}")
    try:
        with np.load(file, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise NetworkError(f"{path} is not a rummy21 network file: {error}") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError):
        raise NetworkError(f"{path} is not a rummy21 network file: no meta") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise NetworkError(f"{path} is not a {FORMAT} file")
    try:
        hidden: list[tuple[Array, Array]] = []
        while f"hidden_w{len(hidden)}" in arrays:
            i = len(hidden)
            hidden.append((_f32(arrays[f"hidden_w{i}"]), _f32(arrays[f"hidden_b{i}"])))
        policy = (_f32(arrays["policy_w"]), _f32(arrays["policy_b"]))
        value = (_f32(arrays["value_w"]), _f32(arrays["value_b"]))
    except KeyError as missing:
        raise NetworkError(f"{path} lacks the layer {missing}") from None
    if not hidden:
        raise NetworkError(f"{path} has no hidden layer")
    width = hidden[0][0].shape[0]
    layers = [*(("hidden", layer) for layer in hidden), ("policy", policy), ("value", value)]
    for name, (w, b) in layers:
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] != width:
            raise NetworkError(f"{path}: a {name} layer of the wrong shape {w.shape}")
        if name == "hidden":
            width = w.shape[1]
    if policy[0].shape != value[0].shape:
        raise NetworkError(f"{path}: the policy and value heads differ in shape")
    if not all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in (*hidden, policy, value)):
        raise NetworkError(f"{path} holds weights that are not finite numbers")
    checks = {k: _f32(v) for k, v in arrays.items() if k.startswith("check_")}
    parts = {k: _f32(v) for k, v in arrays.items() if k.startswith(PART_PREFIXES)}
    return Network(tuple(hidden), policy, value, meta, checks, parts)


def _f32(array: Any) -> Array:
    return np.ascontiguousarray(array, dtype=np.float32)
