"""Stage 1 of the recipe: a teacher's decisions on seeded deals, to shards of NumPy arrays.

Every seat of every deal is a teacher bot (``expert`` by default; ``search`` is stronger and a
hundred times slower). Each decision a seat makes with a choice — a draw, a drop, a discard;
a valid declaration is always taken, so it is not recorded — gives one row:

* ``x``: the network's input for the seat's view (:func:`~rummy21.env.learned.features`);
* ``mask``: the legal actions, as the learned bot sees them (sound declarations only);
* ``teacher``: the index of the teacher's choice; ``played``: the move played, which is the
  teacher's but for a share ``explore`` of the decisions, where it is another legal move (not
  a drop), drawn by the deal's seeded generator — so that the value head also sees the moves
  the teacher does not make;
* ``score``: the seat's score at the end of the deal, in points (the return of every move);
  ``players``, ``deal``: the table's size and the deal's number.

With ``reach`` above 0, each discard also gives ``reach`` lessons for the reach network
(:mod:`rummy21.env.reach`): hands of 21 cards the seat could have kept (the 22 but one card
it may let go, that many drawn at random by a generator of their own), each with its exact
distance to a valid declaration (:func:`~rummy21.bots.evaluate.distance_after`, up to
:data:`~rummy21.env.reach.FAR` − 1; :data:`~rummy21.env.reach.FAR` for further): the
arrays ``reach_x`` (the count vectors), ``reach_cut``, ``reach_y`` and ``reach_deal``.

A shard is ``shard-NNNNN.npz`` holding the rows of ``deals_per_shard`` deals; deal ``n`` is
dealt by :func:`~rummy21.tournament.play.shoe_seed` of the run's seed, so a run is a pure
function of its arguments, and resuming (a shard already written is skipped) makes the same
files as one run.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from rummy21.bots import make_bot
from rummy21.bots.evaluate import distance_after
from rummy21.cards import TYPE_COUNT
from rummy21.env.actions import ACTION_COUNT, index_of, mask_of
from rummy21.env.declaring import sound_declarations
from rummy21.env.learned import FEATURES, features
from rummy21.env.observation import Encoder
from rummy21.env.reach import FAR
from rummy21.game import Table
from rummy21.game.actions import Action, Declare, Drop
from rummy21.game.view import Phase, View
from rummy21.learn.fitting import check_fit
from rummy21.tournament.play import shoe_dealer, shoe_seed

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class TeacherRun:
    """What a teacher run plays: written to ``run.json`` beside its shards, and checked on
    resuming (a run resumed with other settings would mix two data sets)."""

    teacher: str = "expert"
    players: tuple[int, ...] = (2, 4)
    deals: int = 2000
    deals_per_shard: int = 50
    seed: int = 1000
    explore: float = 0.05
    turn_limit: int = 500
    reach: int = 0
    """Reach lessons a discard gives (see the module docstring); 0 for none."""

    @property
    def shards(self) -> int:
        return -(-self.deals // self.deals_per_shard)


def _deal_rows(run: TeacherRun, number: int) -> dict[str, list[object]]:
    players = run.players[number % len(run.players)]
    table = Table(players, seed=shoe_seed(run.seed, number), dealer=shoe_dealer(players, number))
    rng = random.Random(shoe_seed(run.seed + 1, number))
    lessons = random.Random(shoe_seed(run.seed + 2, number))
    bots = [make_bot(run.teacher, rng.randrange(1 << 30)) for _ in range(players)]
    encoder = Encoder(players)
    rows: dict[str, list[object]] = {k: [] for k in ("x", "mask", "teacher", "played", "seat")}
    reach: dict[str, list[object]] = {k: [] for k in ("reach_x", "reach_cut", "reach_y")}
    while not table.over and table.turns < run.turn_limit:
        seat = table.turn
        assert seat is not None
        view, legal = table.view(seat), table.legal_actions()
        choice = bots[seat].choose(view, legal)
        sound = sound_declarations(view, legal)
        if run.reach and view.phase is Phase.DISCARD:
            _reach_lessons(view, run.reach, lessons, reach)
        if not isinstance(choice, Declare) and not any(isinstance(a, Declare) for a in sound):
            played: Action = choice
            others = [a for a in sound if a != choice and not isinstance(a, Drop)]
            if others and rng.random() < run.explore:
                played = rng.choice(others)
            rows["x"].append(features(encoder.encode(view), view))
            rows["mask"].append(mask_of(sound).astype(bool))
            rows["teacher"].append(index_of(choice))
            rows["played"].append(index_of(played))
            rows["seat"].append(seat)
            choice = played
        table.apply(choice)
    reach["reach_deal"] = [number] * len(reach["reach_y"])
    if not table.over:  # (a deal past the turn limit teaches nothing about how deals end)
        return {k: [] for k in rows if k != "seat"} | reach
    scores = table.scores
    assert scores is not None
    seats = rows.pop("seat")
    rows["score"] = [float(scores[int(s)]) for s in seats]  # type: ignore[call-overload]
    rows["players"] = [players] * len(seats)
    rows["deal"] = [number] * len(seats)
    return rows | reach


def _reach_lessons(
    view: View, count: int, lessons: random.Random, out: dict[str, list[object]]
) -> None:
    """``count`` hands the seat could keep by letting one card go, with their distances."""
    counts = list(view.hand.counts)
    blocked = None if view.blocked is None else view.blocked.index
    kinds = [i for i, n in enumerate(counts) if n and i != blocked]
    for kind in lessons.sample(kinds, min(count, len(kinds))):
        counts[kind] -= 1
        out["reach_x"].append(tuple(counts))
        out["reach_cut"].append(view.cut.index)
        out["reach_y"].append(distance_after(counts, view.cut, view.rules, FAR - 1))
        counts[kind] += 1


def play_shard(run: TeacherRun, shard: int, out: Path) -> int:
    """Play the deals of ``shard`` and write its file; the number of rows written."""
    first = shard * run.deals_per_shard
    rows: dict[str, list[object]] = {}
    for number in range(first, min(run.deals, first + run.deals_per_shard)):
        for key, values in _deal_rows(run, number).items():
            rows.setdefault(key, []).extend(values)
    arrays = {
        "x": np.asarray(rows.get("x", []), dtype=np.float16).reshape(-1, FEATURES),
        "mask": np.asarray(rows.get("mask", []), dtype=bool).reshape(-1, ACTION_COUNT),
        "teacher": np.asarray(rows.get("teacher", []), dtype=np.int16),
        "played": np.asarray(rows.get("played", []), dtype=np.int16),
        "score": np.asarray(rows.get("score", []), dtype=np.float32),
        "players": np.asarray(rows.get("players", []), dtype=np.int8),
        "deal": np.asarray(rows.get("deal", []), dtype=np.int32),
        "reach_x": np.asarray(rows.get("reach_x", []), dtype=np.int8).reshape(-1, TYPE_COUNT),
        "reach_cut": np.asarray(rows.get("reach_cut", []), dtype=np.int8),
        "reach_y": np.asarray(rows.get("reach_y", []), dtype=np.int8),
        "reach_deal": np.asarray(rows.get("reach_deal", []), dtype=np.int32),
    }
    write_shard(out / f"shard-{shard:05d}.npz", arrays)
    return len(arrays["teacher"])


def write_shard(file: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` as the shard ``file``: there whole or not at all."""
    part = file.with_suffix(".part")
    with part.open("wb") as sink:
        np.savez_compressed(sink, **arrays)  # type: ignore[arg-type]
    part.replace(file)


def _shard_job(job: tuple[TeacherRun, int, str]) -> tuple[int, int]:
    run, shard, out = job
    return shard, play_shard(run, shard, Path(out))


def open_run(run: TeacherRun, out: Path, resume: bool) -> list[int]:
    """Make (or, resuming, check) the run's folder; the shards still to play."""
    settings = {**asdict(run), "players": list(run.players)}
    spec = check_fit(out, "run.json", settings, resume, "a teacher run")
    spec.write_text(json.dumps(settings, indent=1) + "\n")
    return [s for s in range(run.shards) if not (out / f"shard-{s:05d}.npz").exists()]


def generate(
    run: TeacherRun,
    out: Path,
    jobs: int = 1,
    resume: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
) -> dict[str, float]:
    """Play every shard still missing in ``out`` on ``jobs`` processes; returns the rows and
    the decisions a second it wrote. ``progress(shards done, shards in all, rows)`` after each
    shard."""
    todo = open_run(run, out, resume)
    started = time.perf_counter()
    done = run.shards - len(todo)
    rows = 0
    for _, count in in_processes(_shard_job, [(run, s, str(out)) for s in todo], jobs):
        done, rows = done + 1, rows + count
        if progress is not None:
            progress(done, run.shards, rows)
    seconds = time.perf_counter() - started
    return {"rows": rows, "seconds": seconds, "per_second": rows / seconds if seconds else 0.0}


def in_processes(job: Callable[[T], R], inputs: list[T], jobs: int) -> Iterator[R]:
    """``job`` of each of ``inputs``, in order, on ``jobs`` processes (here when 1); the
    ones not started yet are cancelled when the caller stops early."""
    if jobs <= 1:
        yield from map(job, inputs)
        return
    pool = ProcessPoolExecutor(jobs)
    try:
        yield from pool.map(job, inputs)
    finally:
        pool.shutdown(cancel_futures=True)


def load_shards(folder: Path, keys: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """Every shard of ``folder`` joined, in shard order: its arrays, or only ``keys`` (the
    others are not read)."""
    files = sorted(folder.glob("shard-*.npz"))
    if not files:
        raise ValueError(f"no teacher shards in {folder}")
    parts: dict[str, list[np.ndarray]] = {}
    for file in files:
        with np.load(file) as shard:
            for key in shard.files if keys is None else keys:
                parts.setdefault(key, []).append(shard[key])
    return {k: np.concatenate(v) for k, v in parts.items()}
