"""Every worked example of RULES.md (shared/examples) is a test of the production analysis."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import worked_examples

from rummy21.analysis import analyze
from rummy21.groups import classify
from rummy21.ruleset import RuleSet

EXAMPLES = worked_examples()


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{i}-{e['note']}" for i, e in enumerate(EXAMPLES)]
)
def test_worked_example(example: dict[str, Any]) -> None:
    result = analyze(example["cards"], example["cut"])
    assert result.valid == example["valid"]
    assert list(result.options) == example["options"]
    assert result.penalty.points == example["penalty"]
    assert result.value.points == example["value_points"]
    # The proofs hold up group by group and hold exactly the hand.
    for groups, _loose in (
        (result.groups, result.loose),
        (result.penalty.groups, result.penalty.loose),
    ):
        for group in groups:
            assert classify(group.cards, result.jokers, RuleSet()) == group
    if result.valid:
        shown = sorted([c for g in result.groups for c in g.cards] + list(result.loose))
        assert shown == sorted(result.cards)
    held = sorted([c for g in result.penalty.groups for c in g.cards] + list(result.penalty.loose))
    assert held == sorted(result.cards)


def test_examples_cover_every_option() -> None:
    seen = {o for e in EXAMPLES for o in e["options"]}
    assert seen == {"A", "B", "C", "D"}
