"""One rule, one place: every layer that states a rule agrees with the one that applies it.

Six rules are stated far from where they are applied, and each is asked of every consumer:

* which open card may be taken (RULES §6.2), and
* the card that may not leave the hand after taking it — the table enforces them; the view,
  the page, the coach, the bots and the terminal say them;
* what a drop costs (§7) — what the view, the page and the coach say is what the Dropped
  event records and what the settlement charges;
* what a seat would pay if another declared now, and by which rule (§7, §9's first-turn cap)
  — what the page's reading, the view's charge and the terminal say is what settle charges;
* the turn timer a new table gets (``RuleSet.turn_seconds``) — the API and the lobby; and
* the absence grace (``model.ABSENT_GRACE``) — the server's settings, ``create_app`` and
  ``rummy21 serve``.

Over whole deals played by bots, at every position and for every seat, what each consumer
says is checked against what the table does.
"""

from __future__ import annotations

import copy

import pytest
from handgen import rule_variants

from rummy21.bots import make_bots
from rummy21.bots.advice import advise
from rummy21.cli.play import hint_text, penalty_sentence
from rummy21.game import Dropped, Source, Standing, Table, parse_action
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
            # Taking the open card (the terminal's hint says when it may not be taken).
            assert view.can_take_open == (in_turn and table.can_draw(Source.OPEN, seat))
            if in_turn and view.phase is Phase.DRAW and view.top is not None:
                not_taken = "cannot be taken from the open pile" in hint_text(view)
                assert not_taken == (not view.can_take_open)
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
        view = before.view(seat.seat)
        shown = present.reading(view)
        assert (shown["penalty"], shown["rule"]) == (seat.penalty, seat.rule), (
            f"Seat {seat.seat + 1} was shown {shown['penalty']} ({shown['rule']}), "
            f"charged {seat.penalty} ({seat.rule})"
        )
        advice = advise(view)
        charged = view.charge(advice.analysis.penalty)
        assert (charged.points, charged.rule) == (seat.penalty, seat.rule)
        said = penalty_sentence(view, advice.analysis, advice.layout)  # the terminal
        assert said.startswith(f"pays {seat.penalty} if someone declares now: {shown['reason']}")
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
    creator does not choose one; a choice (0: off) stands. The lobby shows each rule set's
    timer as the server lists it (GET /api/rules), and its page holds none of its own."""
    pytest.importorskip("fastapi")
    import re
    from pathlib import Path

    from starlette.testclient import TestClient
    from test_server_helpers import make_app

    with TestClient(make_app(Path(str(tmp_path)))) as client:
        listed = client.get("/api/rules").json()["rules"]
        assert listed == [
            {"name": name, "turn_seconds": RuleSet.preset(name).turn_seconds}
            for name in ("classic", "adda52")
        ]
        lobby = client.get("/").text
        [timer] = re.findall(r"<input[^>]*id=\"c-timer\"[^>]*>", lobby)
        assert "value=" not in timer
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


@pytest.mark.parametrize("variant", ["classic", "adda52"])
def test_a_drop_is_charged_what_its_event_recorded(variant: str) -> None:
    """The settlement charges a dropped seat the points of its Dropped event — the cost the
    view, the page and the coach told it before it dropped (checked above): seat 1 drops at
    its first turn, seat 2 at its third (a first and a middle drop), experts play the rest."""
    checked = set()
    for seed in range(4):
        table = Table(players=4, rules=VARIANTS[variant], seed=seed)
        bots = make_bots(["expert"] * 4, seed=seed)
        drop_at = {1: 0, 2: 2}
        while not table.over:
            seat = table.turn
            assert seat is not None
            view = table.view(seat)
            if drop_at.get(seat) == view.seats[seat].played and table.can_drop(seat):
                table.drop(seat)
                continue
            table.apply(bots[seat].choose(view, table.legal_actions()), seat)
        result = table.result
        assert result is not None
        if result.winner is None:
            continue
        for event in table.log:
            if isinstance(event, Dropped):
                paid = result.seats[event.seat]
                assert paid.standing is Standing.DROPPED and paid.drop is event.drop
                assert paid.penalty == event.points
                checked.add(event.drop)
    assert len(checked) == 2  # a first drop and a middle drop


def test_the_absence_grace_is_one_number(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's settings, create_app and rummy21 serve all take ``model.ABSENT_GRACE``
    unless told otherwise."""
    pytest.importorskip("fastapi")
    import inspect
    from pathlib import Path

    from serving import free_port
    from starlette.testclient import TestClient
    from test_server_helpers import make_app
    from typer.testing import CliRunner

    import rummy21.cli.serve  # noqa: F401  (registers the command)
    from rummy21.cli import app
    from rummy21.server import app as server_app
    from rummy21.server.model import ABSENT_GRACE, Settings

    assert Settings().absent_grace == ABSENT_GRACE
    assert inspect.signature(server_app.create_app).parameters["absent_grace"].default == (
        ABSENT_GRACE
    )
    with TestClient(make_app(Path(str(tmp_path)))) as client:
        assert client.app.state.services.settings.absent_grace == ABSENT_GRACE  # type: ignore[attr-defined]
    made: list[dict[str, object]] = []

    def create_app(url: str, **options: object) -> object:
        made.append(options)
        return object()

    monkeypatch.setattr("rummy21.server.create_app", create_app)
    monkeypatch.setattr("rummy21.server.listen.run", lambda *args, **options: None)
    for args, expected in (([], ABSENT_GRACE), (["--absent-grace", "5"], 5.0)):
        done = CliRunner().invoke(
            app, ["serve", "--db", "sqlite://", "--port", str(free_port()), *args]
        )
        assert done.exit_code == 0, done.output
        assert made.pop()["absent_grace"] == expected
