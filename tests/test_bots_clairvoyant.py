"""The clairvoyant research bot: its one world is the true deal, and nothing else can be it.

Every other bot sees only its View; the clairvoyant is built on the Table by the tournament.
These tests check that its world is the deal as it lies, that its name is refused everywhere
a player could meet it (lobby, play, simulate, make_bot), that the tournament plays it and
stays deterministic, and that no other bot module can reach a Table.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import rummy21.bots
from rummy21.bots import Bot, ExpertBot, check_bot_name, make_bot, parse_bot_names, play_deal
from rummy21.bots.clairvoyant import ClairvoyantBot, true_world
from rummy21.bots.determinize import sample_world
from rummy21.cards import counts_of
from rummy21.game import Table
from rummy21.tournament.play import deal_bots, play_shoe
from rummy21.tournament.settings import Settings

BOTS_DIR = Path(rummy21.bots.__file__).parent


def _play_some(table: Table, turns: int) -> None:
    bots = [ExpertBot() for _ in range(table.players)]
    for _ in range(turns):
        if table.over:
            return
        seat = table.turn
        assert seat is not None
        table.apply(bots[seat].choose(table.view(seat), table.legal_actions()))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_true_world_is_the_deal_as_it_lies(players: int) -> None:
    table = Table(players, seed=40 + players)
    _play_some(table, 3 * players + 1)
    world = true_world(table)
    zones = table.zones()
    assert world.stock == tuple(zones["stock"])
    for seat in range(players):
        assert world.hands[seat] == tuple(counts_of(table.hand(seat)))
    # The first card the next stock draw takes is the world's first.
    if not table.over and table.stock_size:
        assert world.stock[0] == zones["stock"][0]


def test_a_sampled_world_differs_from_the_true_one() -> None:
    """The honest search's worlds are guesses; the clairvoyant's is not (the point of it)."""
    table = Table(4, seed=3)
    assert table.turn is not None
    view = table.view(table.turn)
    guess = sample_world(view, random.Random(1))
    truth = true_world(table)
    assert guess.hands[view.seat] == truth.hands[view.seat]
    assert guess.hands != truth.hands or guess.stock != truth.stock


def test_clairvoyant_plays_legal_moves_to_the_end() -> None:
    table = Table(3, seed=8)
    bots: list[Bot] = [ClairvoyantBot(table, seed=1), ExpertBot(), ClairvoyantBot(table, seed=2)]
    result = play_deal(table, bots)
    assert sum(result.scores) == 0


def test_clairvoyant_refuses_a_view_of_another_seat() -> None:
    table = Table(3, seed=8)
    assert table.turn is not None
    other = (table.turn + 1) % 3
    with pytest.raises(ValueError, match="seat in turn"):
        ClairvoyantBot(table).choose(table.view(other), table.legal_actions())


@pytest.mark.parametrize("name", ["clairvoyant", "Clairvoyant", " clairvoyant "])
def test_no_table_can_seat_it(name: str) -> None:
    with pytest.raises(ValueError, match="only in a tournament"):
        check_bot_name(name)
    with pytest.raises(ValueError, match="only in a tournament"):
        make_bot(name)
    with pytest.raises(ValueError, match="only in a tournament"):
        parse_bot_names(f"{name},expert", 4)
    assert name.strip().lower() not in rummy21.bots.LEVELS  # not in the lobby


def test_the_cli_refuses_it_outside_the_tournament() -> None:
    from typer.testing import CliRunner

    import rummy21.cli.play
    import rummy21.cli.simulate  # noqa: F401  (each registers its command)
    from rummy21.cli import app

    runner = CliRunner()
    for args in (
        ["simulate", "--bots", "clairvoyant,expert", "--deals", "1"],
        ["play", "--bots", "clairvoyant", "--players", "2"],
    ):
        result = runner.invoke(app, args, input="q\n", env={"COLUMNS": "200"})
        assert result.exit_code != 0
        assert "only in a tournament" in result.output


def test_the_tournament_plays_it_deterministically() -> None:
    settings = Settings(("clairvoyant", "expert"), players=3, deals=2, seed=5)
    first = play_shoe(settings, 1)
    assert first == play_shoe(settings, 1)
    bots = deal_bots(["clairvoyant", "expert", "clairvoyant"], Table(3, seed=1), 7)
    assert [b.name for b in bots] == ["clairvoyant", "expert", "clairvoyant"]


def test_only_the_clairvoyant_module_reads_a_table() -> None:
    """The View is every bot's only window: no module of the bots package but
    clairvoyant.py (and the runner that plays deals) imports the Table."""
    allowed = {"clairvoyant.py", "runner.py"}
    for path in sorted(BOTS_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imports.update(a.name for a in node.names)
            if isinstance(node, ast.ImportFrom) and node.module:
                imports.add(node.module)
                imports.update(f"{node.module}.{a.name}" for a in node.names)
        touches = {m for m in imports if m in {"rummy21.game.table", "rummy21.game.Table"}}
        if path.name not in allowed:
            assert not touches, f"{path.name} imports the Table: {touches}"
