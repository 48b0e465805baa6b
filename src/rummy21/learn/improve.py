"""Stage 3 of the recipe: past the teacher by Deep Monte-Carlo self-play (as DouZero learns).

The ``learned`` bot asks its network only where the rules leave it a choice
(:meth:`~rummy21.env.learned.LearnedBot.options`: which pile to draw from when the race rule
does not say; with ``drops``, whether to make a drop its drop rule would make — a drop's
score is its cost, known, so the value head learns only what playing on is worth; with
``ties``, which of the discards near the nearest hand to let go).
This stage learns those choices from play instead of from a teacher, in rounds. Round ``k``:

1. **plays** ``deals`` seeded deals with the network of round ``k − 1`` (``round-0.npz`` is
   the start, the shipped network unless another is given) against a league, deal by deal in
   turn (:data:`LEAGUE`): itself at every seat, itself against the ``expert`` bot, or against
   the network of round ``k − 2`` (its past self), seats alternating. At every choice the
   network makes, it plays a random one of the options in a share ``explore`` of them, and
   its best by its value head otherwise (round 0: as the start network plays); each such
   choice of its seats is a row — the input, the options, the move played and, once the deal
   is over, the seat's score (the Monte-Carlo return);
2. **fits** the value head (and the layers under it) from round ``k − 1``'s weights to those
   returns, on the rows of the last ``window`` rounds (one deal in ``holdout`` held out; the
   suits renamed at random, as stage 2 does);
3. **exports** ``round-k.npz``, the NumPy file the bot plays (stage 4), choosing by its value
   head: play it as ``learned:OUT/round-k.npz``.

Each round's deals are shards (``round-k/shard-NNNNN.npz``) and every finished step leaves its
file, so ``resume`` goes on where the run stopped, to the same files as one run. ``curve.csv``
and ``curve.svg`` hold a line a round: rows, moves a second played (environment steps),
samples a second fitted, the held-out value error, and the network's mean score a deal
against the expert in the round's league deals (explored moves included: a rough gauge, the
duplicate tournament is the measure). A round's network is kept only if tournaments say so.
PyTorch (CPU) is needed for the fit: ``pip install 'rummy21[train]'``.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummy21.bots import make_bot
from rummy21.charts import line_chart
from rummy21.env.actions import ACTION_COUNT, index_of, mask_of
from rummy21.env.learned import FEATURES, LearnedBot, shipped_network
from rummy21.env.network import Array, load_network, save_network
from rummy21.game import Table
from rummy21.game.actions import Action, Drop
from rummy21.game.view import View
from rummy21.learn.fitting import check_fit, torch_module, write_curve
from rummy21.learn.teacher import in_processes, load_shards, write_shard
from rummy21.learn.train import (
    SCORE_SCALE,
    check_arrays,
    model_arrays,
    model_from_network,
    suit_naming,
)
from rummy21.tournament.play import shoe_dealer, shoe_seed

LEAGUE = ("self", "expert", "self", "past")
"""Who the network plays, deal by deal in turn: itself at every seat, the expert bot, or its
network of two rounds before (seats alternating with it)."""


@dataclass(frozen=True)
class ImproveRun:
    """The stage's settings, written to ``improve.json`` and checked on resuming."""

    start: str = ""
    """The network file round 0 plays; empty for the one shipped in the package."""
    rounds: int = 4
    deals: int = 2000
    """Deals a round plays."""
    players: tuple[int, ...] = (2, 4)
    deals_per_shard: int = 50
    seed: int = 3000
    explore: float = 0.1
    drops: bool = True
    """The value head also decides the drops the drop rule would make (race setting
    ``drop_value`` 1): play on when it expects more than the drop's cost."""
    explore_drop: float = 0.5
    """The share of such drops played otherwise (the value of playing on is learnt only from
    deals that did)."""
    ties: bool = False
    """The value head also settles the discards near the nearest hand (race setting
    ``tie_policy`` 1); without, the least penalty left does, as the race rule's default."""
    epochs: int = 3
    window: int = 2
    batch: int = 512
    learning_rate: float = 3e-4
    holdout: int = 20
    turn_limit: int = 500


class Explorer:
    """A :class:`~rummy21.env.learned.LearnedBot` that explores its network's choices and keeps
    a row for each (``rows``: input, options, move played, seat); with ``explore_drop``, the
    drops its drop rule makes are choices too, explored in that share."""

    def __init__(
        self,
        bot: LearnedBot,
        explore: float,
        rng: random.Random,
        seat: int,
        explore_drop: float | None = None,
    ) -> None:
        self.bot, self.explore, self.rng, self.seat = bot, explore, rng, seat
        self.explore_drop = explore_drop
        self.name = bot.name
        self.rows: list[tuple[Array, npt.NDArray[np.bool_], int, int]] = []

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        options = self.bot.options(view, legal_actions, ask_drops=self.explore_drop is not None)
        if len(options) == 1:
            return options[0]
        x = self.bot.inputs(view)
        share = self.explore
        if self.explore_drop is not None and Drop() in options:
            share = self.explore_drop
        if self.rng.random() < share:
            played = self.rng.choice(options)
        else:
            played = self.bot.settle(view, options, x)
        self.rows.append((x, mask_of(options).astype(bool), index_of(played), self.seat))
        return played


def _network_file(out: Path, round_number: int) -> Path:
    return out / f"round-{round_number}.npz"


_BOTS: dict[Path, LearnedBot] = {}


def _bot(path: Path) -> LearnedBot:
    """The bot playing ``path``, made once a process (it keeps nothing between moves)."""
    if path not in _BOTS:
        _BOTS[path] = LearnedBot(path)
    return _BOTS[path]


def _deal_rows(run: ImproveRun, out: Path, round_number: int, number: int) -> dict[str, list[Any]]:
    """Play deal ``number`` of round ``round_number``: the network's rows, with returns."""
    players = run.players[number % len(run.players)]
    opponent = LEAGUE[(number // len(run.players)) % len(LEAGUE)]
    deal = round_number * run.deals + number  # (every round plays deals of its own)
    table = Table(players, seed=shoe_seed(run.seed, deal), dealer=shoe_dealer(players, deal))
    rng = random.Random(shoe_seed(run.seed + 1, deal))
    network = _network_file(out, round_number - 1)
    past = _network_file(out, max(0, round_number - 2))
    bots: list[Any] = []
    for seat in range(players):
        if opponent == "self" or (seat + number) % 2 == 0:
            explorer = random.Random(rng.randrange(1 << 30))
            drops = run.explore_drop if run.drops else None
            bots.append(Explorer(_bot(network), run.explore, explorer, seat, drops))
        elif opponent == "expert":
            bots.append(make_bot("expert", rng.randrange(1 << 30)))
        else:
            bots.append(_bot(past))
    moves = 0
    while not table.over and table.turns < run.turn_limit:
        turn = table.turn
        assert turn is not None
        table.apply(bots[turn].choose(table.view(turn), table.legal_actions()))
        moves += 1
    rows: dict[str, list[Any]] = {"moves": [moves]}
    if not table.over:  # (a deal past the turn limit says nothing of how deals end)
        return rows
    scores = table.scores
    assert scores is not None
    for bot in bots:
        if isinstance(bot, Explorer):
            for x, mask, played, seat in bot.rows:
                rows.setdefault("x", []).append(x)
                rows.setdefault("mask", []).append(mask)
                rows.setdefault("played", []).append(played)
                rows.setdefault("score", []).append(float(scores[seat]))
                rows.setdefault("deal", []).append(deal)
            if opponent == "expert":
                rows.setdefault("vs_expert", []).append(float(scores[bot.seat]))
    return rows


def play_shard(job: tuple[ImproveRun, str, int, int]) -> dict[str, float]:
    """Play one shard of a round and write its file; its rows, moves, seconds and scores."""
    run, folder, round_number, shard = job
    out = Path(folder)
    started = time.perf_counter()
    rows: dict[str, list[Any]] = {}
    first = shard * run.deals_per_shard
    for number in range(first, min(run.deals, first + run.deals_per_shard)):
        for key, values in _deal_rows(run, out, round_number, number).items():
            rows.setdefault(key, []).extend(values)
    arrays = {
        "x": np.asarray(rows.get("x", []), dtype=np.float16).reshape(-1, FEATURES),
        "mask": np.asarray(rows.get("mask", []), dtype=bool).reshape(-1, ACTION_COUNT),
        "played": np.asarray(rows.get("played", []), dtype=np.int16),
        "score": np.asarray(rows.get("score", []), dtype=np.float32),
        "deal": np.asarray(rows.get("deal", []), dtype=np.int32),
        "vs_expert": np.asarray(rows.get("vs_expert", []), dtype=np.float32),
        "moves": np.asarray([sum(rows.get("moves", []))], dtype=np.int64),
        "seconds": np.asarray([time.perf_counter() - started]),
    }
    write_shard(out / f"round-{round_number}" / f"shard-{shard:05d}.npz", arrays)
    return {"rows": len(arrays["played"])}


def fit_round(run: ImproveRun, out: Path, round_number: int) -> dict[str, float]:
    """Fit round ``round_number``'s network on the rows of its window and export it."""
    torch = torch_module()
    first = max(1, round_number - run.window + 1)
    keys = ("x", "mask", "played", "score", "deal")
    parts = [load_shards(out / f"round-{k}", keys) for k in range(first, round_number + 1)]
    data = {key: np.concatenate([p[key] for p in parts]) for key in keys}
    held = data["deal"] % run.holdout == 0
    train_rows, held_rows = np.flatnonzero(~held), np.flatnonzero(held)
    start = _network_file(out, round_number - 1)
    model = model_from_network(torch, start)
    optimizer = torch.optim.Adam(model.parameters(), lr=run.learning_rate)
    x_all = torch.from_numpy(data["x"].astype(np.float32))
    played_all = torch.from_numpy(data["played"].astype(np.int64))
    score_all = torch.from_numpy(data["score"] / SCORE_SCALE)
    namings = [suit_naming(torch, order) for order in permutations(range(4))]
    rng = np.random.default_rng((run.seed, round_number))

    def held_error() -> float:
        if not len(held_rows):
            return float("nan")
        with torch.no_grad():
            rows = torch.from_numpy(held_rows)
            _, values = model(x_all[rows])
            value = values.gather(1, played_all[rows][:, None])[:, 0]
            return math.sqrt(float(((value - score_all[rows]) ** 2).mean())) * SCORE_SCALE

    before = held_error()
    started, seen = time.perf_counter(), 0
    model.train()
    for _ in range(run.epochs):
        order = rng.permutation(train_rows)
        for begin in range(0, len(order), run.batch):
            part = torch.from_numpy(order[begin : begin + run.batch])
            inputs, actions, _back = namings[int(rng.integers(len(namings)))]
            x, played = x_all[part][:, inputs], actions[played_all[part]]
            _, values = model(x)
            loss = torch.nn.functional.mse_loss(
                values.gather(1, played[:, None])[:, 0], score_all[part]
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            seen += len(part)
    seconds = time.perf_counter() - started
    model.eval()
    _export(torch, model, start, _network_file(out, round_number), run, data, round_number)
    return {
        "fit_rows": float(len(train_rows)),
        "samples_per_s": seen / seconds if seconds else 0.0,
        "value_rmse_before": before,
        "value_rmse": held_error(),
    }


def _export(
    torch: Any,
    model: Any,
    start: Path,
    network: Path,
    run: ImproveRun,
    data: dict[str, np.ndarray],
    round_number: int,
) -> None:
    """Write the fitted ``model`` as ``network``: its layers, the start file's other parts
    (the reach network), choosing by the value head; checked as stage 2's export is."""
    source = load_network(start)
    arrays: dict[str, Any] = {**source.parts, **model_arrays(torch, model)}
    arrays.update(check_arrays(torch, model, data))
    meta = {k: v for k, v in source.meta.items() if k != "format"}
    race = dict(meta.get("race", {}))
    if run.ties:
        race["tie_policy"] = 1.0
    if run.drops:
        race["drop_value"] = 1.0
    meta.update(head="value", race=race, improved={"round": round_number, **_settings(run)})
    part = network.with_suffix(".part")
    save_network(part, arrays, meta)
    problem = load_network(part).check_problem()
    if problem is not None:
        raise ValueError(f"the exported network differs from the fitted one: {problem}")
    part.replace(network)


def _settings(run: ImproveRun) -> dict[str, Any]:
    return {**asdict(run), "players": list(run.players)}


def improve(
    run: ImproveRun,
    out: Path,
    jobs: int = 1,
    resume: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
) -> list[dict[str, float]]:
    """Run every round still missing in ``out`` on ``jobs`` processes; the curve, a line a
    round. ``progress(round, shards done, shards in all)`` after each shard."""
    settings = _settings(run)
    spec = check_fit(out, "improve.json", settings, resume, "a self-play run")
    spec.write_text(json.dumps(settings, indent=1) + "\n")
    start = _network_file(out, 0)
    if not start.exists():
        source = Path(run.start) if run.start else shipped_network()
        load_network(source)  # (a clear error for a file that is none)
        shutil.copyfile(source, start)
    shards = -(-run.deals // run.deals_per_shard)
    curve: list[dict[str, float]] = []
    for k in range(1, run.rounds + 1):
        folder = out / f"round-{k}"
        folder.mkdir(exist_ok=True)
        todo = [s for s in range(shards) if not (folder / f"shard-{s:05d}.npz").exists()]
        jobs_list = [(run, str(out), k, s) for s in todo]
        for done, _ in enumerate(in_processes(play_shard, jobs_list, jobs), shards - len(todo) + 1):
            if progress is not None:
                progress(k, done, shards)
        fitted = folder / "fit.json"
        if not _network_file(out, k).exists() or not fitted.exists():
            fitted.write_text(json.dumps(fit_round(run, out, k)) + "\n")
        curve.append(_round_point(folder, k, json.loads(fitted.read_text())))
        write_curve(out / "curve.csv", curve)
        (out / "curve.svg").write_text(curve_chart(curve))
    return curve


def _round_point(folder: Path, k: int, fit: dict[str, float]) -> dict[str, float]:
    data = load_shards(folder, ("played", "vs_expert", "moves", "seconds"))
    vs_expert = data["vs_expert"]
    return {
        "round": k,
        "rows": float(len(data["played"])),
        "moves_per_s": float(data["moves"].sum() / data["seconds"].sum()),
        "vs_expert": float(vs_expert.mean()) if len(vs_expert) else float("nan"),
        "vs_expert_se": float(vs_expert.std() / len(vs_expert) ** 0.5)
        if len(vs_expert) > 1
        else 0.0,
        **fit,
    }


def curve_chart(curve: list[dict[str, float]]) -> str:
    """The network's mean score a deal against the expert in each round's play (the network
    of the round before, explored moves included), as an SVG chart."""
    return line_chart(
        {"points a deal vs expert, in play": [(p["round"], p["vs_expert"]) for p in curve]},
        "Deep Monte-Carlo self-play: each round's play against the expert",
        "",
        x_label="round (its play is the network of the round before)",
    )
