"""Stage 2b of the recipe: fit the reach network (:mod:`rummy21.env.reach`) on a teacher run's
reach lessons, with PyTorch.

The lessons (``reach_x``, ``reach_cut``, ``reach_y`` of :mod:`.teacher`'s shards: hands with
their exact distances) are split by deal as the policy's rows are (one deal in ``holdout``
held out); the network is fitted by cross-entropy over the six distances. Every epoch writes
``checkpoint.pt``, a line of ``curve.csv`` and ``curve.svg`` to the fit's folder, and
``resume`` goes on from the checkpoint to the same weights as one run. :func:`reach_arrays`
gives the layers as the network file holds them (:data:`~rummy21.env.reach.LAYERS`), which
:func:`rummy21.learn.train.export` writes beside the policy.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rummy21.cards import Card
from rummy21.charts import line_chart
from rummy21.env.reach import CLASSES, encode
from rummy21.jokers import Jokers
from rummy21.learn.fitting import check_fit, torch_module, write_curve
from rummy21.learn.teacher import load_shards


@dataclass(frozen=True)
class ReachRun:
    """The reach fit's settings, written to ``reach.json`` and checked on resuming."""

    rows_channels: int = 96
    runs_channels: int = 64
    rank_channels: int = 32
    dense: int = 256
    epochs: int = 20
    batch: int = 256
    learning_rate: float = 2e-3
    weight_decay: float = 1e-5
    holdout: int = 20
    seed: int = 1


def build_reach_model(run: ReachRun) -> Any:
    """The PyTorch twin of :class:`~rummy21.env.reach.ReachNetwork` (the same layers, names
    and sums)."""
    torch = torch_module()
    nn = torch.nn

    class Reach(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv1d(3, run.rows_channels, 5, padding=2)
            self.conv2 = nn.Conv1d(run.rows_channels, run.runs_channels, 3, padding=1)
            self.rank1 = nn.Conv1d(5, run.rank_channels, 1)
            self.rank2 = nn.Conv1d(run.rank_channels, run.rank_channels, 1)
            self.dense1 = nn.Linear(run.runs_channels + 2 * run.rank_channels + 3, run.dense)
            self.dense2 = nn.Linear(run.dense, 128)
            self.out = nn.Linear(128, CLASSES)

        def forward(self, grid: Any, ranks: Any, extra: Any) -> Any:
            batch = grid.shape[0]
            rows = grid.permute(0, 2, 1, 3).reshape(batch * 4, 3, 14)
            h = torch.relu(self.conv2(torch.relu(self.conv1(rows))))
            runs = h.reshape(batch, 4, -1, 14).sum((1, 3)) / 8
            r = torch.relu(self.rank2(torch.relu(self.rank1(ranks))))
            top = torch.cat([runs, r.sum(2) / 4, extra, r.max(2).values], 1)
            h = torch.relu(self.dense2(torch.relu(self.dense1(top))))
            return self.out(h)

    torch.manual_seed(run.seed)
    return Reach()


def encode_lessons(x: np.ndarray, cuts: np.ndarray) -> tuple[np.ndarray, ...]:
    """The network's inputs for lessons under many cuts (encoded cut by cut)."""
    grid = np.zeros((len(x), 3, 4, 14), np.float32)
    ranks = np.zeros((len(x), 5, 13), np.float32)
    extra = np.zeros((len(x), 3), np.float32)
    for cut in np.unique(cuts):
        rows = np.flatnonzero(cuts == cut)
        grid[rows], ranks[rows], extra[rows] = encode(x[rows], Jokers.from_cut(Card(int(cut))))
    return grid, ranks, extra


def _evaluate(torch: Any, model: Any, inputs: tuple[Any, ...], y: Any) -> dict[str, float]:
    """Held-out: the share of distances read exactly, and the expected distance's mean error."""
    with torch.no_grad():
        logits = torch.cat(
            [model(*(a[start : start + 8192] for a in inputs)) for start in range(0, len(y), 8192)]
        )
    expected = (logits.softmax(1) * torch.arange(CLASSES)).sum(1)
    return {
        "exact": float((logits.argmax(1) == y).float().mean()),
        "mean_error": float((expected - y).abs().mean()),
    }


def train_reach(
    shards: Path,
    out: Path,
    run: ReachRun,
    resume: bool = False,
    progress: Callable[[dict[str, float]], None] | None = None,
) -> list[dict[str, float]]:
    """Fit the reach network on the lessons of ``shards``, checkpointing in ``out``."""
    torch = torch_module()
    settings = {**asdict(run), "shards": str(shards)}
    spec = check_fit(out, "reach.json", settings, resume, "a reach fit")
    checkpoint = out / "checkpoint.pt"
    data = load_shards(shards)
    if "reach_y" not in data or not len(data["reach_y"]):
        raise ValueError(f"the teacher run in {shards} holds no reach lessons (teach --reach)")
    spec.write_text(json.dumps(settings, indent=1) + "\n")
    held = data["reach_deal"] % run.holdout == 0
    train_rows, held_rows = np.flatnonzero(~held), np.flatnonzero(held)
    inputs = tuple(torch.from_numpy(a) for a in encode_lessons(data["reach_x"], data["reach_cut"]))
    y = torch.from_numpy(data["reach_y"].astype(np.int64))
    model = build_reach_model(run)
    optimizer = torch.optim.Adam(
        model.parameters(), lr=run.learning_rate, weight_decay=run.weight_decay
    )
    steps = run.epochs * -(-len(train_rows) // run.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, run.learning_rate, total_steps=steps)
    curve: list[dict[str, float]] = []
    if resume and checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        schedule.load_state_dict(state["schedule"])
        curve = state["curve"]
    held_inputs = tuple(a[held_rows] for a in inputs)
    for epoch in range(len(curve), run.epochs):
        rng = np.random.default_rng((run.seed, epoch))
        order = rng.permutation(train_rows)
        started, total = time.perf_counter(), 0.0
        model.train()
        for start in range(0, len(order), run.batch):
            part = torch.from_numpy(order[start : start + run.batch])
            logits = model(*(a[part] for a in inputs))
            loss = torch.nn.functional.cross_entropy(logits, y[part])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(part)
        seconds = time.perf_counter() - started
        model.eval()
        point = {
            "epoch": epoch + 1,
            "samples": (epoch + 1) * len(train_rows),
            "loss": total / max(1, len(order)),
            "samples_per_s": len(order) / seconds if seconds else 0.0,
            **_evaluate(torch, model, held_inputs, y[held_rows]),
        }
        curve.append(point)
        torch.save(
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "schedule": schedule.state_dict(),
                "curve": curve,
            },
            checkpoint,
        )
        write_curve(out / "curve.csv", curve)
        (out / "curve.svg").write_text(
            line_chart(
                {
                    "distances read exactly (%)": [(p["samples"], 100 * p["exact"]) for p in curve],
                    "mean error x 100 (cards)": [
                        (p["samples"], 100 * p["mean_error"]) for p in curve
                    ],
                },
                "the reach network on held-out deals",
                "",
            )
        )
        if progress is not None:
            progress(point)
    return curve


def reach_arrays(out: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The fitted reach network of the fit folder ``out`` as a network file's ``reach_*``
    arrays, and what to say of it in the file's meta (its settings and last held-out
    figures)."""
    torch = torch_module()
    settings = json.loads((out / "reach.json").read_text())
    run = ReachRun(**{k: v for k, v in settings.items() if k != "shards"})
    model = build_reach_model(run)
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    model.load_state_dict(state["model"])
    arrays = {}
    for name in ("conv1", "conv2", "rank1", "rank2", "dense1", "dense2", "out"):
        layer = getattr(model, name)
        arrays[f"reach_{name}_w"] = layer.weight.detach().numpy()
        arrays[f"reach_{name}_b"] = layer.bias.detach().numpy()
    # A fixed set of lessons and what PyTorch makes of them, kept in the file: the NumPy
    # network must read the same (ReachNetwork.check_problem).
    data = load_shards(Path(settings["shards"]))
    rng = np.random.default_rng(0)
    rows = np.sort(rng.choice(len(data["reach_y"]), min(CHECK_LESSONS, len(data["reach_y"]))))
    x, cuts = data["reach_x"][rows].astype(np.float32), data["reach_cut"][rows]
    with torch.no_grad():
        logits = model(*(torch.from_numpy(a) for a in encode_lessons(x, cuts)))
    arrays["reach_check_x"] = x
    arrays["reach_check_cut"] = cuts.astype(np.float32)
    arrays["reach_check_logits"] = logits.numpy()
    return arrays, {"trained": settings, "curve_end": state["curve"][-1]}


CHECK_LESSONS = 64
"""Lessons an exported file keeps with the trained reach network's logits for them."""
