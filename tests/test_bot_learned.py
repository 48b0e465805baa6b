"""The learned bot: the shipped network plays legal moves with NumPy alone, gives the trainer's
outputs on the inputs its file keeps, sees only its View, and a network file it cannot play is
a clear error naming the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hidden_worlds import moves_in_worlds

from rummy21.bots import LEVELS, check_bot_name, make_bot, play_deal
from rummy21.env.actions import ACTION_COUNT
from rummy21.env.learned import FEATURES, LearnedBot, network_at, shipped_network
from rummy21.env.network import NetworkError, load_network, save_network
from rummy21.game import Declare, Table
from rummy21.game.actions import Drop
from rummy21.game.settlement import Standing


def random_network(path: Path, head: str = "value", seed: int = 1) -> Path:
    """A network of the bot's shape with random weights (plays legal moves, badly)."""
    rng = np.random.default_rng(seed)
    arrays = {
        "hidden_w0": rng.normal(0, 0.05, (FEATURES, 16)),
        "hidden_b0": np.zeros(16),
        "policy_w": rng.normal(0, 0.05, (16, ACTION_COUNT)),
        "policy_b": np.zeros(ACTION_COUNT),
        "value_w": rng.normal(0, 0.05, (16, ACTION_COUNT)),
        "value_b": np.zeros(ACTION_COUNT),
    }
    save_network(path, arrays, {"head": head})
    return path


def test_the_shipped_network_gives_the_trainers_outputs() -> None:
    network = load_network(shipped_network())
    assert network.checks["check_x"].shape[0] >= 32
    assert network.check_problem() is None
    assert network.meta["head"] in ("policy", "value")


def test_a_changed_weight_is_caught_by_the_kept_outputs(tmp_path: Path) -> None:
    network = load_network(shipped_network())
    arrays = {f"hidden_w{i}": w for i, (w, _) in enumerate(network.hidden)}
    arrays |= {f"hidden_b{i}": b for i, (_, b) in enumerate(network.hidden)}
    policy_w = network.policy[0].copy()
    policy_w[:, 5] += 3.0
    arrays |= {"policy_w": policy_w, "policy_b": network.policy[1]}
    arrays |= {"value_w": network.value[0], "value_b": network.value[1], **network.checks}
    save_network(tmp_path / "changed.npz", arrays, network.meta)
    assert "policy head" in (load_network(tmp_path / "changed.npz").check_problem() or "")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_learned_plays_whole_deals_legally(players: int) -> None:
    bots = [make_bot("learned") if seat % 2 == 0 else make_bot("expert") for seat in range(players)]
    for seed in range(2):
        table = Table(players, seed=seed)
        result = play_deal(table, bots)
        assert result is not None
        assert all(b.name == "learned" for b in bots[::2])


def test_learned_declares_whenever_the_engine_finds_a_valid_declaration() -> None:
    bot, declared = make_bot("learned"), 0
    for seed in range(40):
        table = Table(2, seed=seed)
        while not table.over:
            seat = table.turn
            assert seat is not None
            view, legal = table.view(seat), table.legal_actions()
            action = bot.choose(view, legal)
            assert action in legal
            table.apply(action)
            if isinstance(action, Declare):
                assert table.standing(seat) is Standing.DECLARED  # never a wrong one
                declared += 1
                break
        assert table.over
    assert declared >= 30


def test_learned_sees_only_its_view() -> None:
    runs = moves_in_worlds(lambda: make_bot("learned"), turns=24)
    assert len(runs[0]) >= 8
    for other in runs[1:]:
        assert [v for v, _ in other] == [v for v, _ in runs[0]]
        assert [a for _, a in other] == [a for _, a in runs[0]]


def test_learned_path_plays_another_network(tmp_path: Path) -> None:
    path = random_network(tmp_path / "mine.npz")
    bot = make_bot(f"learned:{path}")
    assert bot.name == f"learned:{path}"
    table = Table(3, seed=4)
    assert table.turn is not None
    assert bot.choose(table.view(table.turn), table.legal_actions()) in table.legal_actions()
    assert check_bot_name(f"Learned:{path}") == f"learned:{path}"
    assert LEVELS["learned"]


def test_a_missing_network_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"no network file at .*absent\.npz"):
        make_bot(f"learned:{tmp_path / 'absent.npz'}")


@pytest.mark.parametrize(
    "content",
    [b"", b"not a zip at all", b"PK\x03\x04 truncated"],
)
def test_a_corrupt_network_file_names_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.npz"
    path.write_bytes(content)
    with pytest.raises(NetworkError, match=r"broken\.npz"):
        LearnedBot(path)


def test_a_network_of_the_wrong_shape_names_it(tmp_path: Path) -> None:
    path = tmp_path / "small.npz"
    rng = np.random.default_rng(0)
    save_network(
        path,
        {
            "hidden_w0": rng.normal(size=(10, 4)),
            "hidden_b0": np.zeros(4),
            "policy_w": rng.normal(size=(4, 3)),
            "policy_b": np.zeros(3),
            "value_w": rng.normal(size=(4, 3)),
            "value_b": np.zeros(3),
        },
        {"head": "policy"},
    )
    with pytest.raises(NetworkError, match=r"small.npz takes 10 inputs"):
        network_at(path)
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(NetworkError, match=r"other\.npz is not a rummy21 network file"):
        load_network(tmp_path / "other.npz")


def test_making_and_playing_it_never_imports_torch() -> None:
    code = (
        "import sys\n"
        "from rummy21.bots import make_bot, play_deal\n"
        "from rummy21.game import Table\n"
        "play_deal(Table(4, seed=1), [make_bot('learned') for _ in range(4)])\n"
        "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib') "
        "if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_open_card_s_figures_are_the_analysis_s() -> None:
    """Before drawing, the input's penalty and validity with the open card taken (read in
    numbers from every release) are those of the engine's analysis of the 22 cards."""
    from rummy21.analysis import analyze
    from rummy21.env.learned import OBSERVED, PLANES, SCALARS, features
    from rummy21.env.observation import Encoder
    from rummy21.game.turn import kept_after_taking
    from rummy21.game.view import Phase

    at = OBSERVED + len(PLANES) * 53 + SCALARS.index("penalty_taking_open")
    checked = 0
    for seed in range(6):
        table = Table(players=3, seed=seed)
        bots = [make_bot("greedy", seed) for _ in range(3)]
        while not table.over:
            seat = table.turn
            assert seat is not None
            view = table.view(seat)
            top = view.top
            if view.phase is Phase.DRAW and top is not None and view.can_take_open:
                x = features(Encoder(3).encode(view), view)
                keep = kept_after_taking(top.card, view.rules)
                after = analyze((*view.hand, top.card), view.cut, view.rules, keep=keep)
                assert x[at] == np.float32(after.penalty.points / 120)
                assert x[at + 1] == after.valid
                checked += 1
            table.apply(bots[seat].choose(view, table.legal_actions()))
    assert checked > 30


def _with_values(tmp_path: Path, shift: float, **race: float) -> Path:
    """The shipped network with its value head's outputs shifted by ``shift`` points and
    ``race`` settings in its meta."""
    arrays = dict(np.load(shipped_network()))
    meta = json.loads(str(arrays.pop("meta")))
    meta.pop("format")
    meta["race"] = {**meta["race"], **race}
    arrays["value_b"] = arrays["value_b"] + shift
    for name in [k for k in arrays if k.startswith("check_")]:
        del arrays[name]  # (the shift changes the outputs the file would check)
    path = tmp_path / f"net{shift:+.0f}.npz"
    save_network(path, arrays, meta)
    return path


def test_with_drop_value_a_rule_drop_is_made_only_if_playing_on_is_worth_less(
    tmp_path: Path,
) -> None:
    rule = LearnedBot()
    hopeful = LearnedBot(_with_values(tmp_path, 1000.0, drop_value=1.0))
    hopeless = LearnedBot(_with_values(tmp_path, -1000.0, drop_value=1.0))
    drops = 0
    for seed in range(40):
        table = Table(players=4, seed=seed)
        view, legal = table.view(_turn(table)), table.legal_actions()
        if rule.choose(view, legal) == Drop():
            drops += 1
            assert hopeless.choose(view, legal) == Drop()
            assert hopeful.choose(view, legal) in legal and hopeful.choose(view, legal) != Drop()
        else:  # the value is asked only where the drop rule drops
            assert hopeful.choose(view, legal) != Drop() and hopeless.choose(view, legal) != Drop()
    assert drops > 0


def _turn(table: Table) -> int:
    seat = table.turn
    assert seat is not None
    return seat
