"""A trained policy as a bot (``rl:PATH``): it plays legal moves in the library, ``simulate``
and ``tournament``, and every way it cannot be loaded is a clear error."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from typer.testing import CliRunner

# Commands register themselves on import; so do rl: bots (where no package metadata does).
import rummy21.cli.simulate
import rummy21.cli.tournament
import rummy21.env.policy  # noqa: F401
from rummy21.bots import check_bot_name, make_bot, play_deal
from rummy21.cli import app
from rummy21.env import RummyEnv
from rummy21.game import Table

ENV = {"COLUMNS": "200", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A policy trained for a moment (its moves are poor; only that it plays is tested)."""
    contrib = pytest.importorskip("sb3_contrib")
    path = tmp_path_factory.mktemp("rl") / "policy.zip"
    env = RummyEnv(players=2, opponents="random", normalize_rewards=True)
    model = contrib.MaskablePPO(
        "MultiInputPolicy", env, n_steps=64, batch_size=32, seed=1, device="cpu"
    )
    model.learn(total_timesteps=64)
    model.save(path)
    return path


def test_a_policy_plays_whole_deals_legally_and_the_same_way(trained: Path) -> None:
    for seed in range(3):
        moves = []
        for _ in range(2):
            table = Table(players=2, seed=seed)
            bot = make_bot(f"rl:{trained}")
            result = play_deal(table, [bot, make_bot("random", seed)])
            assert sum(result.scores) == 0
            moves.append(table.log)
        assert moves[0] == moves[1]


def test_simulate_and_tournament_take_a_policy(trained: Path) -> None:
    runner = CliRunner()
    name = f"rl:{trained}"
    simulated = runner.invoke(
        app,
        ["simulate", "-p", "2", "--deals", "2", "--bots", f"{name},random", "--json"],
        env=ENV,
    )
    assert simulated.exit_code == 0, simulated.output
    played = runner.invoke(
        app,
        ["tournament", "--bots", f"{name},random", "-p", "2", "-k", "2", "-j", "1", "--json"],
        env=ENV,
    )
    assert played.exit_code == 0, played.output
    assert name in played.stdout


def test_bots_of_one_file_share_its_model(trained: Path) -> None:
    one, two = make_bot(f"rl:{trained}"), make_bot(f"rl:{trained}")
    assert one._model is two._model  # type: ignore[attr-defined]


def test_a_policy_trained_at_other_seats_says_so(trained: Path) -> None:
    bot = make_bot(f"rl:{trained}")
    table = Table(players=3, seed=1)
    with pytest.raises(ValueError, match="trained at another number of seats than 3"):
        bot.choose(table.view(0), table.legal_actions())


def test_what_cannot_be_loaded_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no trained policy at"):
        make_bot(f"rl:{tmp_path / 'missing.zip'}")
    with pytest.raises(ValueError, match="names no rl to load"):
        check_bot_name("rl:")
    junk = tmp_path / "junk.zip"
    junk.write_text("not a policy")
    if importlib.util.find_spec("sb3_contrib") is not None:
        with pytest.raises(ValueError, match="is not a MaskablePPO policy"):
            make_bot(f"rl:{junk}")


def test_without_the_train_extra_the_error_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.import_module

    def without_sb3(name: str, *args: Any) -> Any:
        if name == "sb3_contrib":
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", without_sb3)
    file = tmp_path / "policy.zip"
    file.write_bytes(b"")
    with pytest.raises(ValueError, match=r"pip install 'rummy21\[train\]'"):
        make_bot(f"rl:{file}")
