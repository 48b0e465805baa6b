"""Stages 2 and 4 of the recipe: fit the network on teacher shards with PyTorch, export it.

The network (:mod:`rummy21.env.network`'s shape: ReLU hidden layers, a policy head and a value
head over the 109 actions) is fitted on the rows of :mod:`.teacher`:

* the **policy** head by behaviour cloning: cross-entropy of its legal-masked logits against
  the teacher's choice;
* the **value** head by regression of the played action's value on the deal's final score
  (Monte-Carlo returns, as Deep Monte-Carlo fits its Q-values): each action's expected deal
  score, in points, from what the seat sees.

Deals are split in two by number: one in ``holdout`` is never trained on and gives the
curves' held-out figures (the teacher's move matched, the value error). Every epoch writes
``checkpoint.pt`` (model, optimizer, epoch, curve), a line of ``curve.csv`` and the chart
``curve.svg`` to the run's folder; ``resume`` goes on from the checkpoint. :func:`export`
writes the NumPy file the bot plays, choosing its moves by the ``head`` asked for. PyTorch
(CPU) is needed here only: ``pip install 'rummy21[train]'``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np

from rummy21.charts import line_chart
from rummy21.env.actions import ACTION_COUNT, DRAW_STOCK
from rummy21.env.learned import FEATURES, HEADS, RACE, suit_maps
from rummy21.env.network import load_network, save_network
from rummy21.env.reach import ReachNetwork
from rummy21.learn.fitting import torch_module, write_curve
from rummy21.learn.teacher import load_shards

CHECK_ROWS = 64
"""Teacher rows an exported file keeps with the trained model's outputs for them."""

SCORE_SCALE = 100.0
"""Scores are fitted divided by this (points, about one standard deviation of a deal's)."""


@dataclass(frozen=True)
class TrainRun:
    """The fit's settings, written to ``train.json`` and checked on resuming."""

    hidden: tuple[int, ...] = (256, 256)
    epochs: int = 20
    batch: int = 512
    learning_rate: float = 1e-3
    weight_decay: float = 1e-5
    value_weight: float = 1.0
    holdout: int = 20
    """One deal in ``holdout`` (by deal number) is held out."""
    seed: int = 1
    augment: bool = True
    """Show each batch with its suits renamed by one of the 24 orders
    (:func:`~rummy21.env.learned.suit_maps`)."""
    draws_only: bool = False
    """Fit on the draw decisions alone (the rows whose legal moves are draws): a bot that
    plays the race by a reach network asks its policy only where to draw from."""


def build_model(run: TrainRun) -> Any:
    """The PyTorch module: ``trunk`` then the two heads (``policy``, ``value``)."""
    torch = torch_module()
    nn = torch.nn

    class Net(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            layers: list[Any] = []
            width = FEATURES
            for size in run.hidden:
                layers += [nn.Linear(width, size), nn.ReLU()]
                width = size
            self.trunk = nn.Sequential(*layers)
            self.policy = nn.Linear(width, ACTION_COUNT)
            self.value = nn.Linear(width, ACTION_COUNT)

        def forward(self, x: Any) -> tuple[Any, Any]:
            h = self.trunk(x)
            return self.policy(h), self.value(h)

    torch.manual_seed(run.seed)
    return Net()


def _split(
    data: dict[str, np.ndarray], holdout: int, draws_only: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    held = data["deal"] % holdout == 0
    kept = data["mask"][:, DRAW_STOCK] if draws_only else np.ones(len(held), dtype=bool)
    return np.flatnonzero(~held & kept), np.flatnonzero(held & kept)


def _evaluate(torch: Any, model: Any, data: dict[str, Any], rows: np.ndarray) -> dict[str, float]:
    """The held-out share of the teacher's moves the policy picks, and the value head's error
    on the moves played (root mean square, points)."""
    if not len(rows):
        return {"agree": float("nan"), "value_rmse": float("nan")}
    agree, squared = 0, 0.0
    with torch.no_grad():
        for start in range(0, len(rows), 4096):
            part = rows[start : start + 4096]
            x = torch.from_numpy(data["x"][part].astype(np.float32))
            logits, values = model(x)
            mask = torch.from_numpy(data["mask"][part])
            choice = logits.masked_fill(~mask, -1e9).argmax(1).numpy()
            agree += int((choice == data["teacher"][part]).sum())
            played = torch.from_numpy(data["played"][part].astype(np.int64))
            value = values.gather(1, played[:, None])[:, 0].numpy() * SCORE_SCALE
            squared += float(((value - data["score"][part]) ** 2).sum())
    return {"agree": agree / len(rows), "value_rmse": (squared / len(rows)) ** 0.5}


def train(
    shards: Path,
    out: Path,
    run: TrainRun,
    resume: bool = False,
    progress: Callable[[dict[str, float]], None] | None = None,
) -> list[dict[str, float]]:
    """Fit the network on the shards in ``shards``, checkpointing in ``out``; the curve."""
    torch = torch_module()
    torch.set_num_threads(max(1, torch.get_num_threads()))
    out.mkdir(parents=True, exist_ok=True)
    spec, checkpoint = out / "train.json", out / "checkpoint.pt"
    settings = {**asdict(run), "hidden": list(run.hidden), "shards": str(shards)}
    if spec.exists() and not resume:
        raise ValueError(f"{out} holds a training run already; resume it with --resume")
    if spec.exists() and json.loads(spec.read_text()) != settings:
        raise ValueError(f"{out} holds a training run with other settings: {spec.read_text()}")
    spec.write_text(json.dumps(settings, indent=1) + "\n")
    data = load_shards(shards)
    train_rows, held_rows = _split(data, run.holdout, run.draws_only)
    model = build_model(run)
    optimizer = torch.optim.Adam(
        model.parameters(), lr=run.learning_rate, weight_decay=run.weight_decay
    )
    curve: list[dict[str, float]] = []
    if resume and checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        curve = state["curve"]
    x_all = torch.from_numpy(data["x"].astype(np.float32))
    mask_all = torch.from_numpy(data["mask"])
    teacher_all = torch.from_numpy(data["teacher"].astype(np.int64))
    played_all = torch.from_numpy(data["played"].astype(np.int64))
    score_all = torch.from_numpy(data["score"] / SCORE_SCALE)
    namings = [suit_naming(torch, order) for order in permutations(range(4))]
    for epoch in range(len(curve), run.epochs):
        # Each epoch's order from its own generator: the same on resuming as in one run.
        rng = np.random.default_rng((run.seed, epoch))
        order = rng.permutation(train_rows)
        started, seen, total = time.perf_counter(), 0, 0.0
        model.train()
        for start in range(0, len(order), run.batch):
            part = torch.from_numpy(order[start : start + run.batch])
            x, mask = x_all[part], mask_all[part]
            teacher, played = teacher_all[part], played_all[part]
            if run.augment:
                inputs, actions, back = namings[int(rng.integers(len(namings)))]
                x, mask = x[:, inputs], mask[:, back]
                teacher, played = actions[teacher], actions[played]
            logits, values = model(x)
            logits = logits.masked_fill(~mask, -1e9)
            policy_loss = torch.nn.functional.cross_entropy(logits, teacher)
            value = values.gather(1, played[:, None])[:, 0]
            value_loss = torch.nn.functional.mse_loss(value, score_all[part])
            loss = policy_loss + run.value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            seen += len(part)
            total += float(loss.detach()) * len(part)
        seconds = time.perf_counter() - started
        model.eval()
        point = {
            "epoch": epoch + 1,
            "samples": (epoch + 1) * len(train_rows),
            "loss": total / max(1, seen),
            "samples_per_s": seen / seconds if seconds else 0.0,
            **_evaluate(torch, model, data, held_rows),
        }
        curve.append(point)
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "curve": curve},
            checkpoint,
        )
        write_curve(out / "curve.csv", curve)
        (out / "curve.svg").write_text(curve_chart(curve))
        if progress is not None:
            progress(point)
    return curve


def suit_naming(torch: Any, order: Sequence[int]) -> tuple[Any, Any, Any]:
    """The gathers of one suit naming as tensors: the input's, each action's new index, and
    the old action at each new index (for the mask)."""
    inputs, actions = suit_maps(order)
    back = np.empty_like(actions)
    back[actions] = np.arange(len(actions))
    return tuple(torch.from_numpy(a.astype(np.int64)) for a in (inputs, actions, back))


def curve_chart(curve: list[dict[str, float]]) -> str:
    """The fit's held-out figures by samples trained on, as an SVG chart."""
    return line_chart(
        {
            "teacher moves matched (%)": [(p["samples"], 100 * p["agree"]) for p in curve],
            "value error (points)": [(p["samples"], p["value_rmse"]) for p in curve],
        },
        "the fit on held-out deals (one in 20 of the teacher's)",
        "",
    )


def model_arrays(torch: Any, model: Any) -> dict[str, Any]:
    """The layers of a fitted :func:`build_model` module as a network file holds them (the
    values in points)."""
    arrays: dict[str, Any] = {}
    linears = [m for m in model.trunk if isinstance(m, torch.nn.Linear)]
    for i, layer in enumerate(linears):
        arrays[f"hidden_w{i}"] = layer.weight.detach().numpy().T
        arrays[f"hidden_b{i}"] = layer.bias.detach().numpy()
    arrays["policy_w"] = model.policy.weight.detach().numpy().T
    arrays["policy_b"] = model.policy.bias.detach().numpy()
    arrays["value_w"] = model.value.weight.detach().numpy().T * SCORE_SCALE  # in points
    arrays["value_b"] = model.value.bias.detach().numpy() * SCORE_SCALE
    return arrays


def model_from_network(torch: Any, path: Path) -> Any:
    """A :func:`build_model` module holding the layers of the network file ``path``: the
    inverse of :func:`model_arrays`, for a fit that goes on from an exported file."""
    net = load_network(path)
    model = build_model(TrainRun(hidden=tuple(int(w.shape[1]) for w, _ in net.hidden)))
    linears = [m for m in model.trunk if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for layer, (w, b) in zip(linears, net.hidden, strict=True):
            layer.weight.copy_(torch.from_numpy(w.T.copy()))
            layer.bias.copy_(torch.from_numpy(b))
        model.policy.weight.copy_(torch.from_numpy(net.policy[0].T.copy()))
        model.policy.bias.copy_(torch.from_numpy(net.policy[1]))
        model.value.weight.copy_(torch.from_numpy(net.value[0].T / SCORE_SCALE))
        model.value.bias.copy_(torch.from_numpy(net.value[1] / SCORE_SCALE))
    return model


def check_arrays(torch: Any, model: Any, data: dict[str, np.ndarray]) -> dict[str, Any]:
    """:data:`CHECK_ROWS` rows of ``data`` (``x``, ``mask``) drawn by a fixed generator, with
    what ``model`` makes of them: kept in an exported file, whose NumPy network must give the
    same (:meth:`~rummy21.env.network.Network.check_problem`)."""
    rng = np.random.default_rng(0)
    rows = np.sort(rng.choice(len(data["x"]), size=min(CHECK_ROWS, len(data["x"])), replace=False))
    check_x = data["x"][rows].astype(np.float32)
    with torch.no_grad():
        logits, values = model(torch.from_numpy(check_x))
    return {
        "check_x": check_x,
        "check_mask": data["mask"][rows].astype(np.float32),
        "check_policy": logits.numpy(),
        "check_value": values.numpy() * SCORE_SCALE,
    }


def export(
    out: Path,
    network: Path,
    head: str = "policy",
    top: int = 3,
    reach: Path | None = None,
    race: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Write the trained model of ``out`` (its checkpoint) as the NumPy network file
    ``network``, playing by ``head`` (:data:`~rummy21.env.learned.HEADS`; ``top`` for
    ``policy+value``); with ``reach``, a reach fit's folder (:mod:`rummy21.learn.reach`),
    its network too, which the bot plays the race by (``race``: the rule's settings,
    :data:`~rummy21.env.learned.RACE`, defaults for those not given); its meta."""
    if head not in HEADS:
        raise ValueError(f"the head to play is one of {', '.join(HEADS)}, not {head!r}")
    unknown = set(race or {}) - set(RACE)
    if unknown:
        raise ValueError(f"the race rule has no setting {sorted(unknown)[0]!r}")
    torch = torch_module()
    settings = json.loads((out / "train.json").read_text())
    fields = {k: v for k, v in settings.items() if k != "shards"}
    run = TrainRun(**{**fields, "hidden": tuple(fields["hidden"])})
    model = build_model(run)
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    model.load_state_dict(state["model"])
    arrays = model_arrays(torch, model)
    last = state["curve"][-1] if state["curve"] else {}
    meta: dict[str, Any] = {
        "head": head,
        "top": top,
        "inputs": FEATURES,
        "actions": ACTION_COUNT,
        "trained": settings,
        "curve_end": last,
    }
    if reach is not None:
        from rummy21.learn.reach import reach_arrays

        if not (reach / "checkpoint.pt").is_file():
            raise ValueError(f"no reach fit in {reach}: run rummy21 learn reach first")
        reach_layers, reach_meta = reach_arrays(reach)
        arrays.update(reach_layers)
        meta["reach"] = reach_meta
        meta["race"] = {**RACE, **(race or {})}
    # A fixed set of inputs and what PyTorch makes of them, kept in the file: the network the
    # bot plays must give the same outputs (tests/test_bot_learned.py, and below).
    arrays.update(check_arrays(torch, model, load_shards(Path(settings["shards"]))))
    network.parent.mkdir(parents=True, exist_ok=True)
    save_network(network, arrays, meta)
    written = load_network(network)
    problem = written.check_problem()
    if problem is None and reach is not None:
        problem = ReachNetwork.from_arrays(written.parts, str(network)).check_problem(written.parts)
    if problem is not None:
        raise ValueError(f"the exported network differs from the trained one: {problem}")
    return meta
