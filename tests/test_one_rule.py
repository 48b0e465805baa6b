"""One rule, one place: every layer that states a rule of the turn agrees with the table.

The table enforces the small rules of a turn (RULES §6–§7: which open card may be taken, the
card that may not leave the hand after taking it, what a drop costs); the view carries them to
bots, the coach, the terminal and the browser. Over whole deals played by bots, at every
position and for every seat, what each of them says is checked against what the table does.
"""

from __future__ import annotations

import copy

import pytest
from handgen import rule_variants

from rummy21.bots import make_bots
from rummy21.bots.advice import advise
from rummy21.game import Dropped, Source, Table, parse_action
from rummy21.game.view import Phase
from rummy21.ruleset import RuleSet

VARIANTS = rule_variants("classic", "adda52", "pick-up")


def positions(rules: RuleSet, seed: int) -> list[Table]:
    """Every position of a deal of three random bots (copies), up to 30 turns: they take
    the open card, drop and declare wrongly often enough to visit every rule."""
    table = Table(players=3, rules=rules, seed=seed)
    bots = make_bots(["random", "random", "random"], seed=seed)
    seen = []
    while not table.over and table.turns < 30:
        seen.append(copy.deepcopy(table))
        seat = table.turn
        assert seat is not None
        table.apply(bots[seat].choose(table.view(seat), table.legal_actions()), seat)
    return seen


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2])
def test_the_view_states_the_rules_the_table_enforces(variant: str, seed: int) -> None:
    present = pytest.importorskip("rummy21.server.present")
    for table in positions(VARIANTS[variant], seed):
        for seat in range(table.players):
            view = table.view(seat)
            in_turn = table.turn == seat
            # Taking the open card.
            assert view.can_take_open == (in_turn and table.can_draw(Source.OPEN, seat))
            # The card kept after taking it: the only held card that may not be let go.
            if in_turn and view.phase is Phase.DISCARD:
                refused = {c for c in view.hand if not table.can_discard(c, seat)}
                assert refused == ({view.blocked} if view.blocked else set())
                assert set(view.releasable) == set(view.hand) - refused
            else:
                assert view.blocked is None and view.releasable == ()
            # What a drop costs: what the table charges when the seat drops now.
            if in_turn and table.can_drop(seat):
                trial = copy.deepcopy(table)
                dropped = trial.drop(seat)
                assert isinstance(dropped, Dropped) and dropped.points == view.drop_cost
                assert dropped.drop is view.drop_kind  # (the page says "first"/"middle" by it)
                assert present.deal_view(table, seat)["drop_kind"] == dropped.drop.value
            # The page is told the same, not left to work it out.
            page = present.deal_view(table, seat)
            assert (page["can_take_open"], page["drop_cost"]) == (
                view.can_take_open,
                view.drop_cost,
            )
            assert page["blocked"] == (None if view.blocked is None else str(view.blocked))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_coach_and_the_bots_only_name_moves_the_table_accepts(variant: str) -> None:
    bots = make_bots(["greedy", "random"], seed=3)
    for table in positions(VARIANTS[variant], 3)[::4]:
        seat = table.turn
        assert seat is not None
        view = table.view(seat)
        for bot in bots:
            assert bot.choose(view, table.legal_actions()) in table.legal_actions()
        if len(view.hand) < table.rules.hand_size:
            continue
        advice = advise(view)
        if advice.release is not None:
            assert table.can_discard(advice.release, seat)
        if advice.draw is not None:
            assert table.can_draw(advice.draw, seat)


def _charged_as_shown(before: Table, final: Table) -> list[tuple[int, int, str]]:
    """For each seat that pays a declarer's penalty at the end of ``final``: the penalty and
    rule its reading showed in ``before`` (the position just before the declaration) and what
    the settlement charged, side by side."""
    present = pytest.importorskip("rummy21.server.present")
    result = final.result
    assert result is not None and result.winner is not None
    rows = []
    for seat in result.seats:
        if seat.seat == result.winner or seat.rule is None:
            continue
        if seat.standing.value != "active":
            continue
        shown = present.reading(before.view(seat.seat))
        assert (shown["penalty"], shown["rule"]) == (seat.penalty, seat.rule), (
            f"Seat {seat.seat + 1} was shown {shown['penalty']} ({shown['rule']}), "
            f"charged {seat.penalty} ({seat.rule})"
        )
        rows.append((seat.seat, seat.penalty, str(seat.rule)))
    return rows


@pytest.mark.parametrize("variant", ["classic", "adda52"])
def test_the_penalty_a_seat_is_shown_is_the_one_it_is_charged(variant: str) -> None:
    """What each losing seat's reading says it would pay if another declared now, at the
    position just before a declaration, is what the settlement charges it — the first-turn
    cap included (RULES §9: adda52)."""
    charged = []
    for seed in range(4):
        table = Table(players=3, rules=VARIANTS[variant], seed=seed)
        bots = make_bots(["expert", "expert", "greedy"], seed=seed)
        while not table.over:
            before = copy.deepcopy(table)
            seat = table.turn
            assert seat is not None
            table.apply(bots[seat].choose(table.view(seat), table.legal_actions()), seat)
        if table.result is not None and table.result.winner is not None:
            charged += _charged_as_shown(before, table)
    assert len(charged) >= 3


def test_a_seat_that_never_played_is_shown_the_first_turn_cap() -> None:
    """The golden deal of the first-turn cap: seat 0 declares on the deal's first turn, and
    seat 1, whose hand counts 151 (120 after the full-count cap), was shown (and pays) the
    cap of 75, in the narration's words."""
    present = pytest.importorskip("rummy21.server.present")
    from test_game_golden import GOLDEN, build, load

    head, _ = load(GOLDEN / "first_turn_cap_adda52.jsonl")
    table = build(head)
    table.draw("stock")
    shown = present.reading(table.view(1))
    table.apply(parse_action("declare KH"))
    assert table.result is not None
    paid = table.result.seats[1]
    assert (shown["penalty"], shown["rule"]) == (paid.penalty, paid.rule) == (75, "first_turn_cap")
    assert shown["reason"] == "first-turn cap (full count 151)"


def test_a_table_s_turn_timer_is_its_rule_set_s_unless_chosen(tmp_path: object) -> None:
    """``RuleSet.turn_seconds`` (RULES §9) is what a new table's turn timer is when its
    creator does not choose one; a choice (0: off) stands."""
    pytest.importorskip("fastapi")
    from pathlib import Path

    from starlette.testclient import TestClient
    from test_server_helpers import make_app

    with TestClient(make_app(Path(str(tmp_path)))) as client:
        for body, expected in (
            ({}, RuleSet.preset("classic").turn_seconds),
            ({"rules": "adda52"}, RuleSet.preset("adda52").turn_seconds),
            ({"turn_seconds": 0}, 0),
        ):
            made = client.post(
                "/api/tables", json={"name": "A", "seats": ["human", "random"], **body}
            ).json()
            info = client.get(f"/api/tables/{made['code']}").json()
            assert info["turn_seconds"] == expected, (body, info)
