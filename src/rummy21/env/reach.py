"""How far a hand is from a valid declaration, read by a small network in NumPy alone.

The distance (:mod:`rummy21.distance`: the fewest cards to replace for a valid declaration)
is what tells who wins the race to declare (:mod:`rummy21.bots.race`), but the solver takes
milliseconds to read it — too slow for a bot that must answer in one. This network reads it
from the cards in about ten microseconds a hand: a guess, trained on the solver's exact
answers (:mod:`rummy21.learn.reach`), as a distribution over 0 to 4 cards and "more".

What it sees of a 21-card hand under a cut:

* each suit as a row of 14 places, the Ace at both ends (A-2-3 and Q-K-A): the copies held of
  each card, whether the card is a joker under the cut, and the copies held of it if it is —
  one convolution along the row, the same for every suit, so the four suits are alike by
  construction (RULES §3, §4 treat them alike);
* each rank: the copies held in each suit, most first, and the jokers held of that rank — the
  same small layer for every rank (sets);
* the printed jokers held, every joker held, and how many card kinds are jokers.

The row features are summed over suits and places, the rank features summed and maxed over
ranks, and two dense layers read the distribution. The layers are arrays of a network file
(:mod:`rummy21.env.network`) under the names ``reach_*`` (:data:`LAYERS`).

>>> import numpy as np
>>> from rummy21.cards import Card, Hand
>>> from rummy21.jokers import Jokers
>>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
>>> grid, ranks, extra = encode(np.asarray([hand.counts]), Jokers.from_cut(Card.parse("7D")))
>>> grid.shape, ranks.shape, extra.shape
((1, 3, 4, 14), (1, 5, 13), (1, 3))
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rummy21.cards import JOKER_INDEX, Card
from rummy21.env.network import Array, NetworkError
from rummy21.jokers import Jokers

SUITS, RANKS, PLACES = 4, 13, 14
"""A suit's row has 14 places: the Ace low, 2 to King, the Ace high."""
CLASSES = 6
"""The distances told apart: 0, 1, 2, 3, 4, and 5 standing for "more than 4"."""
FAR = CLASSES - 1
LAYERS = (
    "reach_conv1_w",
    "reach_conv1_b",
    "reach_conv2_w",
    "reach_conv2_b",
    "reach_rank1_w",
    "reach_rank1_b",
    "reach_rank2_w",
    "reach_rank2_b",
    "reach_dense1_w",
    "reach_dense1_b",
    "reach_dense2_w",
    "reach_dense2_b",
    "reach_out_w",
    "reach_out_b",
)
"""The arrays of a network file that hold the reach network (PyTorch's layouts: a
convolution's weights are (out, in, width), a dense layer's (out, in))."""


def encode(counts: npt.ArrayLike, jokers: Jokers) -> tuple[Array, Array, Array]:
    """The network's three inputs for a batch of count vectors (``(B, 53)``) under one cut:
    the suit rows ``(B, 3, 4, 14)``, the ranks ``(B, 5, 13)`` and the extra numbers
    ``(B, 3)`` (see the module docstring)."""
    x = np.asarray(counts, dtype=np.float32).reshape(-1, JOKER_INDEX + 1)
    mask = np.asarray(jokers.joker_mask, dtype=np.float32)
    batch = x.shape[0]
    held = x[:, :JOKER_INDEX].reshape(batch, SUITS, RANKS)
    flags = np.broadcast_to(mask[:JOKER_INDEX].reshape(1, SUITS, RANKS), held.shape)
    held_row = np.concatenate([held, held[:, :, :1]], axis=2)
    flag_row = np.concatenate([flags, flags[:, :, :1]], axis=2)
    grid = np.stack([held_row / 3, flag_row, held_row * flag_row / 3], axis=1)
    by_rank = -np.sort(-held, axis=1)
    jokers_at = (held * flags).sum(axis=1, keepdims=True)
    ranks = np.concatenate([by_rank / 3, jokers_at / 3], axis=1)
    extra = np.stack(
        [
            x[:, JOKER_INDEX] / 2,
            (x * mask).sum(axis=1) / 8,
            np.full(batch, mask[:JOKER_INDEX].sum() / 6, dtype=np.float32),
        ],
        axis=1,
    )
    return (
        np.ascontiguousarray(grid, dtype=np.float32),
        np.ascontiguousarray(ranks, dtype=np.float32),
        np.ascontiguousarray(extra, dtype=np.float32),
    )


def _kernel(weights: Array) -> Array:
    """PyTorch's convolution weights ``(out, in, k)`` as one matrix ``(in, k * out)``: the
    ``k`` taps side by side."""
    out, inputs, width = weights.shape
    return np.ascontiguousarray(weights.transpose(1, 2, 0).reshape(inputs, width * out))


def _conv(x: Array, kernel: Array, bias: Array) -> Array:
    """A same-padded 1-D convolution (PyTorch's) of ``x`` ``(N, L, in)``, channels last, by
    a :func:`_kernel`: every tap in one matrix product, then each tap's part added in at its
    shift."""
    n, length, _ = x.shape
    channels = bias.shape[0]
    width = kernel.shape[1] // channels
    taps = (x.reshape(n * length, -1) @ kernel).reshape(n, length, width, channels)
    pad = width // 2
    out = taps[:, :, pad] + bias
    for tap in range(width):
        shift = tap - pad  # out[l] takes tap ``tap`` of place l + shift
        if shift < 0:
            out[:, -shift:] += taps[:, : length + shift, tap]
        elif shift > 0:
            out[:, : length - shift] += taps[:, shift:, tap]
    result: Array = out
    return result


@dataclass(frozen=True)
class ReachNetwork:
    """The reach network's layers (see the module docstring)."""

    layers: dict[str, Array]
    kernels: dict[str, Array] = field(default_factory=dict)
    """The convolutions' weights as :func:`_kernel` matrices, and the dense layers' weights
    transposed, made once from ``layers``."""

    def __post_init__(self) -> None:
        w = self.layers
        for name in ("conv1", "conv2"):
            self.kernels[name] = _kernel(w[f"reach_{name}_w"])
        for name in ("rank1", "rank2"):
            self.kernels[name] = np.ascontiguousarray(w[f"reach_{name}_w"][:, :, 0].T)
        for name in ("dense1", "dense2", "out"):
            self.kernels[name] = np.ascontiguousarray(w[f"reach_{name}_w"].T)

    @classmethod
    def from_arrays(cls, arrays: dict[str, Array], name: str) -> ReachNetwork:
        """The network held in a network file's ``arrays``; a :class:`NetworkError` naming
        the file (``name``) if any layer is missing or misshapen."""
        missing = [k for k in LAYERS if k not in arrays]
        if missing:
            raise NetworkError(f"{name} lacks the reach network's layer {missing[0]!r}")
        layers = {k: np.ascontiguousarray(arrays[k], dtype=np.float32) for k in LAYERS}
        try:
            net = cls(layers)
            out = net.logits(*encode(np.zeros((1, JOKER_INDEX + 1)), Jokers.from_cut(Card(0))))
        except ValueError as error:
            raise NetworkError(f"{name}: a reach layer of the wrong shape ({error})") from None
        if out.shape != (1, CLASSES):
            raise NetworkError(f"{name}: the reach network reads {out.shape[1]} distances")
        if not all(np.isfinite(w).all() for w in layers.values()):
            raise NetworkError(f"{name} holds reach weights that are not finite numbers")
        return net

    def check_problem(self, parts: dict[str, Array], tolerance: float = 1e-3) -> str | None:
        """What differs between this network's distance logits and the trainer's on the hands
        the file keeps (``reach_check_x``, ``reach_check_cut``, ``reach_check_logits``);
        ``None`` if nothing does, or the file keeps none."""
        if "reach_check_x" not in parts:
            return None
        x, cuts, theirs = (parts[f"reach_check_{k}"] for k in ("x", "cut", "logits"))
        mine = np.zeros_like(theirs)
        for cut in np.unique(cuts):
            rows = np.flatnonzero(cuts == cut)
            mine[rows] = self.logits(*encode(x[rows], Jokers.from_cut(Card(int(cut)))))
        if not np.allclose(mine, theirs, atol=tolerance * max(1.0, float(np.abs(theirs).max()))):
            return f"the reach network's logits differ by up to {np.abs(mine - theirs).max()}"
        if (mine.argmax(1) != theirs.argmax(1)).any():
            return "the reach network reads other distances"
        return None

    def logits(self, grid: Array, ranks: Array, extra: Array) -> Array:
        """The distance logits ``(B, 6)`` of encoded hands (:func:`encode`). A suit's row is
        read once however many hands of the batch hold it (the hands a bot compares differ
        by a card or two, so most of their rows are the same)."""
        w = self.layers
        batch = grid.shape[0]
        rows = np.ascontiguousarray(grid.transpose(0, 2, 3, 1)).reshape(batch * SUITS, -1)
        seen: dict[bytes, int] = {}
        which = np.empty(len(rows), dtype=np.intp)
        picks: list[int] = []
        for i, row in enumerate(rows):
            j = seen.setdefault(row.tobytes(), len(picks))
            if j == len(picks):
                picks.append(i)
            which[i] = j
        h = rows[picks].reshape(-1, PLACES, 3)
        k = self.kernels
        h = np.maximum(_conv(h, k["conv1"], w["reach_conv1_b"]), 0.0)
        h = np.maximum(_conv(h, k["conv2"], w["reach_conv2_b"]), 0.0)
        per_row = h.sum(axis=1)
        runs = per_row[which].reshape(batch, SUITS, -1).sum(axis=1) / 8
        r = ranks.transpose(0, 2, 1)  # (B, 13, 5)
        r = np.maximum(r @ k["rank1"] + w["reach_rank1_b"], 0.0)
        r = np.maximum(r @ k["rank2"] + w["reach_rank2_b"], 0.0)
        top = np.concatenate([runs, r.sum(axis=1) / 4, extra, r.max(axis=1)], axis=1)
        h = np.maximum(top @ k["dense1"] + w["reach_dense1_b"], 0.0)
        h = np.maximum(h @ k["dense2"] + w["reach_dense2_b"], 0.0)
        out: Array = h @ k["out"] + w["reach_out_b"]
        return out

    def expected(self, counts: npt.ArrayLike, jokers: Jokers) -> Array:
        """The expected distance of each hand of a batch of count vectors ``(B, 53)`` (5
        standing for "more than 4")."""
        logits = self.logits(*encode(counts, jokers))
        logits = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        result: Array = p @ np.arange(CLASSES, dtype=np.float32)
        return result
