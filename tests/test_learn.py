"""The training recipe: teacher shards are a pure function of the run (resuming makes the same
files), rows hold what the learned bot sees and the teacher's moves; with PyTorch, a fit
resumes where it stopped and its export plays the trained model's moves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from rummy21.cli import _register, app
from rummy21.env.actions import ACTION_COUNT, action_of
from rummy21.env.learned import FEATURES, RACE, LearnedBot
from rummy21.learn.teacher import TeacherRun, generate, load_shards

RUN = TeacherRun(players=(2, 3), deals=4, deals_per_shard=2, seed=77, explore=0.2)


def test_teacher_shards_are_a_pure_function_of_the_run(tmp_path: Path) -> None:
    generate(RUN, tmp_path / "a", jobs=1)
    generate(RUN, tmp_path / "b", jobs=2)
    (tmp_path / "b" / "shard-00001.npz").unlink()
    generate(RUN, tmp_path / "b", resume=True)  # plays the missing shard only
    a, b = load_shards(tmp_path / "a"), load_shards(tmp_path / "b")
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def test_teacher_rows_hold_legal_moves_and_the_deal_score(tmp_path: Path) -> None:
    generate(RUN, tmp_path)
    data = load_shards(tmp_path)
    rows = len(data["teacher"])
    assert rows > 20 and data["x"].shape == (rows, FEATURES)
    assert data["mask"].shape == (rows, ACTION_COUNT)
    assert data["mask"][np.arange(rows), data["teacher"]].all()
    assert data["mask"][np.arange(rows), data["played"]].all()
    assert 0 < (data["teacher"] != data["played"]).sum() < rows  # some exploring moves
    assert set(np.unique(data["players"])) == {2, 3}
    for deal in np.unique(data["deal"]):  # a row's score is its seat's in the deal
        size = int(data["players"][data["deal"] == deal][0])
        assert len(set(data["score"][data["deal"] == deal])) <= size
    assert len(set(data["score"])) > 2
    assert not any(str(action_of(int(i))).startswith("declare") for i in data["teacher"])


def test_a_run_is_not_resumed_with_other_settings(tmp_path: Path) -> None:
    generate(RUN, tmp_path)
    with pytest.raises(ValueError, match="resume it with --resume"):
        generate(RUN, tmp_path)
    other = TeacherRun(players=(2,), deals=4, deals_per_shard=2, seed=77)
    with pytest.raises(ValueError, match="other settings"):
        generate(other, tmp_path, resume=True)


def test_the_cli_refuses_bad_settings(tmp_path: Path) -> None:
    _register()
    runner = CliRunner()
    result = runner.invoke(app, ["learn", "teach", str(tmp_path), "--players", "2,9"])
    assert result.exit_code == 2 and "2 to 6" in result.output
    result = runner.invoke(app, ["learn", "teach", str(tmp_path), "--teacher", "nobody"])
    assert result.exit_code == 2 and "unknown bot" in result.output
    result = runner.invoke(app, ["learn", "export", str(tmp_path), str(tmp_path / "n.npz")])
    assert result.exit_code == 2 and "no checkpoint" in result.output


def test_fit_resume_and_export_play_the_trained_model(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from rummy21.learn.train import TrainRun, export, train

    generate(RUN, tmp_path / "shards")
    run = TrainRun(hidden=(32,), epochs=2, batch=64, holdout=2)
    curve = train(tmp_path / "shards", tmp_path / "fit", run)
    assert [p["epoch"] for p in curve] == [1, 2]
    longer = TrainRun(hidden=(32,), epochs=3, batch=64, holdout=2)
    with pytest.raises(ValueError, match="other settings"):
        train(tmp_path / "shards", tmp_path / "fit", longer, resume=True)
    # One run of two epochs and a resumed run of one then one more end with the same weights.
    once = TrainRun(hidden=(32,), epochs=1, batch=64, holdout=2)
    train(tmp_path / "shards", tmp_path / "split", once)
    spec = tmp_path / "split" / "train.json"
    spec.write_text(spec.read_text().replace('"epochs": 1', '"epochs": 2'))
    train(tmp_path / "shards", tmp_path / "split", run, resume=True)
    a = torch.load(tmp_path / "fit" / "checkpoint.pt", weights_only=False)["model"]
    b = torch.load(tmp_path / "split" / "checkpoint.pt", weights_only=False)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    meta = export(tmp_path / "fit", tmp_path / "net.npz", head="policy")
    assert meta["head"] == "policy" and json.dumps(meta)
    bot = LearnedBot(tmp_path / "net.npz")
    assert bot.network.check_problem() is None
    data = load_shards(tmp_path / "shards")
    x = torch.from_numpy(data["x"].astype(np.float32))
    mask = torch.from_numpy(data["mask"])
    model_state = torch.load(tmp_path / "fit" / "checkpoint.pt", weights_only=False)["model"]
    from rummy21.learn.train import build_model

    model = build_model(run)
    model.load_state_dict(model_state)
    with torch.no_grad():
        wanted = model(x)[0].masked_fill(~mask, -1e9).argmax(1).numpy()
    logits, _ = bot.network.forward(data["x"].astype(np.float32))
    picked = np.where(data["mask"], logits, -np.inf).argmax(1)
    assert np.array_equal(picked, wanted)


REACH_RUN = TeacherRun(players=(2, 4), deals=4, deals_per_shard=2, seed=78, reach=3)


def test_reach_lessons_are_hands_the_seat_could_keep_with_their_exact_distance(
    tmp_path: Path,
) -> None:
    from rummy21.bots.evaluate import distance_after
    from rummy21.cards import Card
    from rummy21.env.reach import FAR

    generate(REACH_RUN, tmp_path)
    data = load_shards(tmp_path)
    lessons = len(data["reach_y"])
    assert lessons > 20 and data["reach_x"].shape == (lessons, 53)
    assert (data["reach_x"].sum(1) == 21).all() and (data["reach_x"] >= 0).all()
    assert set(np.unique(data["reach_deal"])) <= set(range(REACH_RUN.deals))
    for row in range(0, lessons, 7):  # the label is the solver's distance, up to FAR
        cut = Card(int(data["reach_cut"][row]))
        wanted = distance_after(list(data["reach_x"][row]), cut, limit=FAR - 1)
        assert data["reach_y"][row] == wanted
    assert len(set(data["reach_y"].tolist())) >= 2
    plain = load_shards(_plain(tmp_path))  # without --reach: none, and the same decisions
    assert len(plain["reach_y"]) == 0
    assert np.array_equal(plain["teacher"], data["teacher"])


def _plain(tmp_path: Path) -> Path:
    from dataclasses import replace

    generate(replace(REACH_RUN, reach=0), tmp_path / "plain")
    return tmp_path / "plain"


def test_the_reach_fit_resumes_and_its_export_reads_as_pytorch_does(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from rummy21.env.network import NetworkError, load_network, save_network
    from rummy21.env.reach import ReachNetwork
    from rummy21.game import Table
    from rummy21.learn.reach import ReachRun, build_reach_model, encode_lessons, train_reach
    from rummy21.learn.train import TrainRun, export, train

    generate(REACH_RUN, tmp_path / "shards")
    small = {"rows_channels": 8, "runs_channels": 8, "rank_channels": 4, "dense": 16}
    run = ReachRun(**small, epochs=2, batch=32, holdout=2)
    curve = train_reach(tmp_path / "shards", tmp_path / "reach", run)
    assert [p["epoch"] for p in curve] == [1, 2] and 0 <= curve[-1]["exact"] <= 1
    once = ReachRun(**small, epochs=2, batch=32, holdout=2)
    train_reach(tmp_path / "shards", tmp_path / "split", once)
    a = torch.load(tmp_path / "reach" / "checkpoint.pt", weights_only=False)["model"]
    b = torch.load(tmp_path / "split" / "checkpoint.pt", weights_only=False)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)  # a pure function of the run
    with pytest.raises(ValueError, match="holds no reach lessons"):
        train_reach(_plain(tmp_path), tmp_path / "none", run)
    train(tmp_path / "shards", tmp_path / "fit", TrainRun(hidden=(16,), epochs=1, holdout=2))
    network = tmp_path / "net.npz"
    meta = export(tmp_path / "fit", network, reach=tmp_path / "reach", race={"margin": 0.5})
    assert meta["race"] == {**RACE, "margin": 0.5}
    # The NumPy network reads every lesson as the PyTorch one does.
    loaded = load_network(network)
    reach = ReachNetwork.from_arrays(loaded.parts, str(network))
    assert reach.check_problem(loaded.parts) is None
    data = load_shards(tmp_path / "shards")
    model = build_reach_model(run)
    model.load_state_dict(a)
    inputs = encode_lessons(data["reach_x"].astype(np.float32), data["reach_cut"])
    with torch.no_grad():
        wanted = model(*(torch.from_numpy(x) for x in inputs)).numpy()
    assert np.allclose(reach.logits(*inputs), wanted, atol=1e-4)
    # The bot plays the race by it, legally, and a file missing one of its layers is named.
    bot = LearnedBot(network)
    assert bot.reach is not None and bot.race["margin"] == 0.5
    for seed in range(2):
        table = Table(players=4, seed=seed)
        while not table.over and table.turns < 60:
            seat = table.turn
            assert seat is not None
            action = bot.choose(table.view(seat), table.legal_actions())
            assert action in table.legal_actions()
            table.apply(action)
    arrays = dict(np.load(network))
    meta_text = json.loads(str(arrays.pop("meta")))
    del arrays["reach_dense1_w"]
    broken = tmp_path / "broken.npz"
    save_network(broken, arrays, {k: v for k, v in meta_text.items() if k != "format"})
    with pytest.raises(NetworkError, match=r"broken\.npz lacks the reach network's layer"):
        LearnedBot(broken)
