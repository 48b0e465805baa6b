"""Stage 3 of the recipe (Deep Monte-Carlo self-play): the explorer plays the bot's own moves
where it does not explore and records only the choices the network makes; a round's deals are a
pure function of the run; with PyTorch, rounds resume to the same files and each round's file
plays its value head as the fit left it."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from rummy21.cli import _register, app
from rummy21.env.actions import ACTION_COUNT, index_of
from rummy21.env.learned import FEATURES, LearnedBot, shipped_network
from rummy21.game import Table
from rummy21.game.actions import Drop
from rummy21.learn.improve import Explorer, ImproveRun, improve, play_shard
from rummy21.learn.teacher import load_shards

RUN = ImproveRun(rounds=2, deals=8, deals_per_shard=4, seed=91, players=(2, 4), epochs=1)


def test_the_explorer_plays_the_bots_moves_and_records_only_the_networks_choices() -> None:
    bot = LearnedBot()
    explorer = Explorer(bot, 0.0, random.Random(1), seat=0)
    asked = 0
    for seed in range(6):
        table = Table(players=2 + seed % 3, seed=seed)
        asked += _play(table, bot, explorer)
    assert asked == len(explorer.rows) > 0


def _play(table: Table, bot: LearnedBot, explorer: Explorer) -> int:
    asked = 0
    while not table.over and table.turns < 200:
        view, legal = table.view(_turn(table)), table.legal_actions()
        before = len(explorer.rows)
        move = explorer.choose(view, legal)
        assert move == bot.choose(view, legal)  # no exploring: the bot's own move
        if len(bot.options(view, legal)) > 1:
            asked += 1
            x, mask, played, _ = explorer.rows[-1]
            assert x.shape == (FEATURES,) and played == index_of(move)
            assert len(mask) == ACTION_COUNT and mask[played] and sum(mask) > 1
        else:
            assert len(explorer.rows) == before
        table.apply(move)
    return asked


def test_asked_about_drops_the_explorer_still_plays_the_bots_moves_and_records_them() -> None:
    bot = LearnedBot()
    explorer = Explorer(bot, 0.0, random.Random(1), seat=0, explore_drop=0.0)
    drops = 0
    for seed in range(40):
        table = Table(players=4, seed=seed)
        view, legal = table.view(_turn(table)), table.legal_actions()
        move = explorer.choose(view, legal)
        assert move == bot.choose(view, legal)
        if move == Drop():
            drops += 1
            _, mask, played, _ = explorer.rows[-1]
            assert played == index_of(Drop()) and sum(mask) > 1  # the drop was a choice
    assert drops > 0


def test_a_rounds_deals_are_a_pure_function_of_the_run(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder / "round-1").mkdir(parents=True)
        shutil.copyfile(shipped_network(), tmp_path / folder / "round-0.npz")
        for shard in range(2):
            play_shard((RUN, str(tmp_path / folder), 1, shard))
    a, b = load_shards(tmp_path / "a" / "round-1"), load_shards(tmp_path / "b" / "round-1")
    for key in ("x", "mask", "played", "score", "deal", "vs_expert"):
        assert np.array_equal(a[key], b[key]), key
    rows = len(a["played"])
    assert rows > 10 and a["mask"][np.arange(rows), a["played"]].all()
    assert (a["mask"].sum(1) > 1).all()  # only real choices
    assert len(a["vs_expert"]) > 0  # the league's expert deals


def test_rounds_resume_to_the_same_files_and_play_their_value_head(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from rummy21.learn.train import model_from_network

    curve = improve(RUN, tmp_path / "one", jobs=2)
    assert [p["round"] for p in curve] == [1, 2]
    with pytest.raises(ValueError, match="resume it with --resume"):
        improve(RUN, tmp_path / "one")
    with pytest.raises(ValueError, match="other settings"):
        improve(
            ImproveRun(rounds=3, deals=8, deals_per_shard=4, seed=91), tmp_path / "one", resume=True
        )
    # Stopped after round 1's play, then resumed: the same network files.
    improve(ImproveRun(**{**RUN.__dict__, "rounds": 1}), tmp_path / "two")
    (tmp_path / "two" / "round-1.npz").unlink()
    spec = tmp_path / "two" / "improve.json"
    spec.write_text(spec.read_text().replace('"rounds": 1', '"rounds": 2'))
    improve(RUN, tmp_path / "two", resume=True)
    for k in (1, 2):
        a = np.load(tmp_path / "one" / f"round-{k}.npz")
        b = np.load(tmp_path / "two" / f"round-{k}.npz")
        assert all(np.array_equal(a[name], b[name]) for name in a.files if name != "meta"), k
    bot = LearnedBot(tmp_path / "one" / "round-2.npz")
    assert bot.head == "value" and bot.race["drop_value"] == 1.0 and not bot.race["tie_policy"]
    assert bot.network.check_problem() is None
    assert bot.reach is not None  # the start's reach network travels on
    meta = bot.network.meta["improved"]
    assert meta["round"] == 2 and json.dumps(meta)
    # The NumPy network gives what the fitted PyTorch one gives.
    model = model_from_network(torch, tmp_path / "one" / "round-2.npz")
    data = load_shards(tmp_path / "one" / "round-2")
    with torch.no_grad():
        _, values = model(torch.from_numpy(data["x"].astype(np.float32)))
    _, mine = bot.network.forward(data["x"].astype(np.float32))
    assert np.allclose(mine, values.numpy() * 100, atol=1e-2)


def test_the_cli_refuses_bad_settings(tmp_path: Path) -> None:
    _register()
    runner = CliRunner()
    result = runner.invoke(app, ["learn", "improve", str(tmp_path), "--players", "1"])
    assert result.exit_code == 2 and "2 to 6" in result.output
    result = runner.invoke(
        app, ["learn", "improve", str(tmp_path), "--start", str(tmp_path / "none.npz")]
    )
    assert result.exit_code == 2 and "none.npz" in result.output


def _turn(table: Table) -> int:
    seat = table.turn
    assert seat is not None
    return seat
