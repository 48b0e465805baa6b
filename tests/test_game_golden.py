"""Golden playthroughs: hand-written deals (tests/golden/*.jsonl) with scores worked out by hand.

File format, one JSON object per line:

* header: ``players``, ``dealer``, ``rules`` (preset) and optional ``overrides``; then either
  ``seed`` (a shuffled deal) or ``hands`` / ``cut`` / ``open`` / ``stock`` (the top of the stock;
  the rest follows in canonical order, with the cut card at the bottom);
* ``{"seat": s, "do": "draw stock"}``: an action in the text form of
  :func:`rummy21.game.parse_action`, checked to be ``s``'s turn (``discard drawn`` discards the
  card just drawn: the harness's shorthand for seeded deals);
* ``{"repeat": n, "do": [...]}``: actions repeated for whoever is in turn;
* ``{"check": {...}}``: the table state at that point;
* ``{"expect": {...}}``: the end of the deal, with a ``note`` showing the arithmetic.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rummy21.cards import Card, canonical_shoe, parse_cards
from rummy21.game import Discard, Reshuffled, Table, dump_log, parse_action
from rummy21.game.dealing import arrange_shoe
from rummy21.game.events import rules_from_dict
from rummy21.ruleset import RuleSet

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.jsonl"))


def load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def build(head: dict[str, Any]) -> Table:
    rules = RuleSet.preset(head.get("rules", "classic"))
    if head.get("overrides"):
        rules = rules_from_dict({**rules.to_dict(), **head["overrides"]})
    players = head["players"]
    dealer = head.get("dealer", players - 1)
    if "hands" in head:
        shoe = arrange_shoe(
            [parse_cards(h) for h in head["hands"]],
            Card.parse(head["cut"]),
            Card.parse(head["open"]),
            dealer=dealer,
            printed_jokers=rules.printed_jokers,
            stock=parse_cards(head.get("stock", "")),
        )
        return Table(players, rules, dealer=dealer, shoe=shoe, seed=head.get("seed"))
    return Table(players, rules, dealer=dealer, seed=head["seed"])


def act(table: Table, text: str, seat: int | None) -> None:
    if text == "discard drawn":
        assert table.drawn is not None, "nothing drawn to discard"
        table.apply(Discard(table.drawn), seat)
    else:
        table.apply(parse_action(text), seat)


def check(table: Table, expected: dict[str, Any]) -> None:
    view = table.view(0)
    actual: dict[str, Any] = {
        "turn": table.turn,
        "phase": table.phase.value,
        "open_top": str(table.open_pile[-1].card) if table.open_pile else None,
        "open_size": len(table.open_pile),
        "stock_size": table.stock_size,
        "hand_sizes": [len(table.hand(s)) for s in range(table.players)],
        "out_sizes": [len(table.zones()[f"out {s}"]) for s in range(table.players)],
        "standing": [table.standing(s).value for s in range(table.players)],
        "timeouts": [s.timeouts for s in view.seats],
        "drawn": None if table.drawn is None else str(table.drawn),
        "drawn_is_cut": table.drawn == table.cut,
        "reshuffled": sum(len(e.cards) for e in table.log if isinstance(e, Reshuffled)),
    }
    for key, value in expected.items():
        assert actual[key] == value, f"{key}: expected {value!r}, got {actual[key]!r}"


def play(path: Path) -> tuple[Table, dict[str, Any]]:
    head, lines = load(path)
    table = build(head)
    expect: dict[str, Any] | None = None
    for line in lines:
        if "repeat" in line:
            for _ in range(line["repeat"]):
                for text in line["do"]:
                    act(table, text, None)
        elif "do" in line:
            act(table, line["do"], line["seat"])
        elif "check" in line:
            check(table, line["check"])
        elif "expect" in line:
            expect = line["expect"]
    assert expect is not None, "a golden file ends with an expect line"
    return table, expect


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough(path: Path) -> None:
    table, expect = play(path)
    result = table.result
    assert table.over and result is not None
    assert result.winner == expect["winner"]
    assert result.reason.value == expect["reason"]
    assert result.option == expect["option"]
    assert table.turns == expect["turns"]
    assert list(result.scores) == expect["scores"]
    assert sum(result.scores) == 0
    per_seat = {
        "penalties": "penalty",
        "rules": "rule",
        "values": "value",
        "marriages": "marriages",
        "value_net": "value_net",
        "cap_adjustment": "cap_adjustment",
    }
    for key, attr in per_seat.items():
        if key in expect:
            assert [getattr(s, attr) for s in result.seats] == expect[key], key


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_log_replays(path: Path) -> None:
    table, _ = play(path)
    text = dump_log(table.log)
    again = Table.replay(text)
    assert again.log == table.log
    assert again.scores == table.scores
    assert dump_log(again.log) == text


def test_golden_files_cover_the_brief() -> None:
    names = {p.stem for p in FILES}
    assert {
        "valid_declaration",
        "wrong_declaration",
        "drops_last_active",
        "reshuffle",
        "timeout_drop",
        "marriage_value",
    } <= names


def test_golden_shoes_are_full_shoes() -> None:
    for path in FILES:
        head, _ = load(path)
        table = build(head)
        every = [c for cards in table.zones().values() for c in cards]
        assert Counter(every) == Counter(canonical_shoe(table.rules.printed_jokers)), path.stem
