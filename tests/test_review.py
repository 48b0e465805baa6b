"""The coach (rummy21.review and rummy21 review): a passed-up declaration is a blunder and
the largest loss; a seat that played the search's own moves makes no mistake; the review of
a seat is the same for deals that differ only in what it could not see; it is deterministic;
bad input is one line and status 2."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hidden_worlds import Passer, world
from typer.testing import CliRunner

from rummy21.bots import Bot, ExpertBot, SearchBot, play_deal
from rummy21.cards import canonical_shoe
from rummy21.cli import _register, app
from rummy21.game import Declare, Discard, Table
from rummy21.game.actions import Action
from rummy21.game.log import dump_log
from rummy21.game.view import View
from rummy21.review import ReviewError, review_deal, verdict_of

WORLDS = 12


class PassesUpOnce:
    """The expert, but the first time it would declare it lets go another card instead."""

    name = "passes-up"

    def __init__(self) -> None:
        self.expert, self.passed = ExpertBot(), False

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.expert.choose(view, legal)
        if isinstance(action, Declare) and not self.passed:
            self.passed = True
            return next(a for a in legal if isinstance(a, Discard) and a.card != action.finish)
        return action


def _passed_up_deal() -> tuple[Table, int]:
    """A finished 2-seat deal in which seat 0 passed up a valid declaration once."""
    for seed in range(200):
        bot = PassesUpOnce()
        table = Table(2, seed=seed)
        play_deal(table, [bot, ExpertBot()])
        if bot.passed:
            return table, seed
    raise AssertionError("no deal gave seat 0 a declaration to pass up")


def test_a_passed_up_declaration_is_a_blunder_and_the_largest_loss() -> None:
    table, _ = _passed_up_deal()
    review = review_deal(table.log, seat=0, worlds=WORLDS)
    missed = [d for d in review.decisions if isinstance(d.best, Declare)]
    missed = [d for d in missed if not isinstance(d.played, Declare)]
    assert len(missed) == 1
    decision = missed[0]
    assert decision.verdict == "blunder"
    assert review.biggest(1) == [decision]  # the review's largest loss
    assert decision.loss > 0
    assert isinstance(decision.best, Declare)
    assert "declare" in decision.reason and str(decision.best.finish) in decision.reason


@pytest.mark.parametrize("seed", [3, 8])
def test_a_seat_that_played_the_searchs_moves_makes_no_mistake(seed: int) -> None:
    search = SearchBot(samples=WORLDS, seed=5, budget_s=float("inf"))
    table = Table(3, seed=seed)
    bots: list[Bot] = [search, ExpertBot(), ExpertBot()]
    play_deal(table, bots)
    review = review_deal(table.log, seat=0, worlds=WORLDS, seed=5)
    assert review.decisions
    assert all(d.verdict in ("best", "good") for d in review.decisions), [
        (d.played, d.best, d.loss, d.stderr) for d in review.decisions if d.verdict != "good"
    ]
    assert review.accuracy > 90


def test_the_review_is_deterministic() -> None:
    table, _ = _passed_up_deal()
    first = review_deal(dump_log(table.log), seat=1, worlds=WORLDS, seed=2)
    again = review_deal(table.log, seat=1, worlds=WORLDS, seed=2)
    assert [d.to_dict() for d in first.decisions] == [d.to_dict() for d in again.decisions]


def _hidden_world_deals() -> list[Table]:
    """Three finished 3-seat deals that differ only in what seat 0 cannot see: the same own
    hand, cut, open card and whole stock; the other two hands hold the remaining 42 cards,
    split differently, and their players (drawing from the stock and letting the card go)
    never show one of them."""
    shoe = canonical_shoe(3)
    random.Random(12).shuffle(shoe)
    own, cut, top, stock = shoe[:21], shoe[21], shoe[22], shoe[23:117]
    tables = []
    for number in range(3):
        table = world(random.Random(number), own, stock, cut, top)
        play_deal(table, [ExpertBot(), Passer(), Passer()])
        tables.append(table)
    return tables


def test_a_review_sees_only_what_the_seat_saw() -> None:
    tables = _hidden_world_deals()
    hands = {str(sorted(map(str, t.hand(1)))) for t in tables}
    assert len(hands) == 3  # the hidden cards differ
    reviews = [review_deal(t.log, seat=0, worlds=WORLDS) for t in tables]
    assert len(reviews[0].decisions) >= 4
    first = [d.to_dict() for d in reviews[0].decisions]
    for other in reviews[1:]:
        assert [d.to_dict() for d in other.decisions] == first


def test_verdict_thresholds() -> None:
    assert verdict_of(0.0, 0.0, True) == "best"
    assert verdict_of(4.9, 0.1, False) == "good"
    assert verdict_of(30.0, 16.0, False) == "good"  # the worlds cannot tell them apart
    assert verdict_of(39.9, 1.0, False) == "mistake"
    assert verdict_of(40.0, 1.0, False) == "blunder"
    assert verdict_of(2.0, 3.0, False, missed=True) == "blunder"


def test_bad_logs_and_seats_are_review_errors() -> None:
    table, _ = _passed_up_deal()
    with pytest.raises(ReviewError, match=r"seats 0\.\.1, not 2"):
        review_deal(table.log, seat=2)
    with pytest.raises(ReviewError, match="not finished"):
        review_deal(table.log[:5], seat=0)
    with pytest.raises(ReviewError, match="replays"):
        review_deal("not json\n", seat=0)


def test_the_cli_prints_one_object_per_decision_then_a_summary(tmp_path: Path) -> None:
    _register()
    table, _ = _passed_up_deal()
    path = tmp_path / "deal.jsonl"
    path.write_text(dump_log(table.log))
    runner = CliRunner()
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--json", "--worlds", "8"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert set(lines[-1]) == {"summary"} and lines[-1]["summary"]["seat"] == 0
    for row in lines[:-1]:
        assert set(row) == {
            "record",
            "turn",
            "seat",
            "played",
            "best",
            "loss",
            "stderr",
            "verdict",
            "reason",
        }
        assert getattr(table.log[row["record"]], "seat", None) == 0
    chart = tmp_path / "review.svg"
    shown = runner.invoke(
        app, ["review", str(path), "--seat", "0", "--worlds", "8", "--svg", str(chart)]
    )
    assert shown.exit_code == 0 and "accuracy" in shown.stdout
    assert chart.read_text().startswith("<svg") and "points lost so far" in chart.read_text()
    for args in (["review", str(path), "--seat", "5"], ["review", str(tmp_path / "none")]):
        bad = runner.invoke(app, args)
        assert bad.exit_code == 2 and bad.output.startswith("error: ")
