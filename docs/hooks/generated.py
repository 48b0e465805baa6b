"""MkDocs hook: the parts of the pages that real code and data write at build time.

A page asks for one with a line ``<!-- generated: NAME -->``; the hook puts Markdown in its
place. An unknown name, or data the engine disagrees with, stops the build: what the site
shows cannot drift from what the package does.

* ``worked-examples`` — the worked hands of RULES.md (``tests/data/analysis.jsonl``, the copy
  the tests read), each analysed again here: a hand whose verdict, penalty or value differs
  from the file stops the build.
* ``event-fields`` — every event record type with its JSON fields, read from the dataclasses
  of ``rummy21.game.events``.
* ``example-log``, ``scripted-log``, ``public-log``, ``reshuffle-log`` — deal logs written by
  the engine and its bots (fixed seeds, so the same every build).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import MISSING, fields
from enum import Enum
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from rummy21.analysis import analyze
from rummy21.bots import make_bots, play_deal
from rummy21.game import Table, dump_log, events
from rummy21.game.events import EVENT_TYPES, DealEnded, Drew, Reshuffled
from rummy21.game.view import public_event
from rummy21.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "analysis.jsonl"
PLACEHOLDER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    def fill(match: re.Match[str]) -> str:
        make = GENERATORS.get(match[1])
        if make is None:
            raise PluginError(f"{page.file.src_uri}: no generated part named {match[1]!r}")
        return make()

    return PLACEHOLDER.sub(fill, markdown)


# ------------------------------------------------------------------ worked examples
def worked_examples() -> str:
    rows = [
        "| # | hand (21 cards) | cut | declaration | penalty | value | what it shows |",
        "| ---: | --- | --- | --- | --- | ---: | --- |",
    ]
    lines = [line for line in EXAMPLES.read_text(encoding="utf-8").splitlines() if line.strip()]
    for number, line in enumerate(lines, 1):
        example = json.loads(line)
        found = analyze(example["cards"], example["cut"])
        expected = (
            example["valid"],
            example["options"],
            example["penalty"],
            example["value_points"],
        )
        got = (found.valid, list(found.options), found.penalty.points, found.value.points)
        if got != expected:
            raise PluginError(
                f"{EXAMPLES.name} line {number}: the file says (valid, options, "
                f"penalty, value) = {expected}, the engine {got}"
            )
        verdict = ("valid: " + ", ".join(example["options"])) if example["valid"] else "not valid"
        rows.append(
            f"| {number} | {' '.join(example['cards'])} | `{example['cut']}` | "
            f"{verdict} | {example['penalty']} ({found.penalty.rule.label}) | "
            f"{example['value_points']} | {_cell(example['note'])} |"
        )
    return "\n".join(rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# ------------------------------------------------------------------ event records
def event_fields() -> str:
    rows = ["| `event` | fields after `event` (JSON) | what it records |", "| --- | --- | --- |"]
    for kind, cls in EVENT_TYPES.items():
        parts = []
        for f in fields(cls):
            text = f"`{f.name}`: {_json_type(cls, f.name, str(f.type))}"
            if f.default is not MISSING:
                text += f" (may be left out: {json.dumps(_plain(f.default))})"
            parts.append(text)
        summary = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        rows.append(f"| `{kind}` | {'<br>'.join(parts)} | {_cell(_unrole(summary))} |")
    return "\n".join(rows)


SIMPLE_TYPES = {
    "int": "integer",
    "bool": "`true` or `false`",
    "Card": 'a card (`"7H"`, `"JK"`)',
    "RuleSet": "the rule set: an object of its parameters (`RuleSet.to_dict()`)",
    "tuple[Card, ...]": "a list of cards",
    "tuple[tuple[Card, ...], ...]": "a list of groups, each a list of cards",
    "tuple[int, ...]": "a list of integers, one per seat",
}


def _json_type(cls: type, name: str, annotation: str) -> str:
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    described = SIMPLE_TYPES.get(base)
    if described is None:
        enum = vars(events).get(base)
        if not (isinstance(enum, type) and issubclass(enum, Enum)):
            raise PluginError(
                f"{cls.__name__}.{name} has the type {annotation!r}, which the "
                "event-log page cannot describe yet (docs/hooks/generated.py)"
            )
        described = " or ".join(f'`"{member.value}"`' for member in enum)
    return described + (" or `null`" if optional else "")


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _unrole(text: str) -> str:
    """``:class:`~a.b.C``` → ``C`` and ````x```` → ```x```, for a table cell."""
    text = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([\w]+)`", r"`\1`", text)
    return text.replace("``", "`")


# ------------------------------------------------------------------ example logs
def _code(text: str, language: str = "json") -> str:
    return f"```{language}\n{text.rstrip()}\n```"


def example_deal() -> Table:
    """Three greedy bots, seed 5: a short deal (today it ends in a valid declaration)."""
    table = Table(players=3, seed=5)
    play_deal(table, make_bots(["greedy"] * 3))
    return table


def scripted_deal() -> Table:
    """A deal that shows a drop, a time-out and a wrong declaration in nine records."""
    table = Table(players=3, seed=7)
    drew = table.draw("stock")
    assert isinstance(drew, Drew)
    table.discard(drew.card)  # seat 0 draws and throws the card it drew
    table.drop()  # seat 1 drops at once (a first drop)
    table.timeout()  # seat 2's time runs out: a forced draw and discard
    taken = table.draw("open")  # seat 0 takes that card from the open pile ...
    assert isinstance(taken, Drew)
    finish = next(c for c in table.hand(0) if c != taken.card)
    table.declare(finish)  # ... and declares wrongly: seat 2 is the last one in
    return table


def example_log() -> str:
    table = example_deal()
    end = table.log[-1]
    assert isinstance(end, DealEnded)
    how = {
        "declared": f"seat {end.winner} declares validly (option {end.option})",
        "last_active": f"seat {end.winner} is the last one in",
        "wash": "it is a wash",
    }
    intro = (
        f"`Table(players=3, seed=5)` played by three greedy bots: {how[end.reason]} after "
        f"{end.turns} turns. The engine wrote this log when this site was built:"
    )
    header = json.dumps(table.log[0].to_dict(), indent=2)
    return (
        f"{intro}\n\n{_code(dump_log(table.log))}\n\nThe first line, the header, "
        f"laid out:\n\n{_code(header)}"
    )


def scripted_log() -> str:
    return _code(dump_log(scripted_deal().log[1:]))


def public_log() -> str:
    table = scripted_deal()
    rows = [
        "| record (`event`) | what every seat is told (`PublicEvent.to_dict()`) |",
        "| --- | --- |",
    ]
    for event in table.log:
        record = event.to_dict()
        if "rules" in record:
            record["rules"] = "RULES"
        text = json.dumps(record).replace('"rules": "RULES"', '"rules": {…}')
        rows.append(f"| `{text}` | `{json.dumps(public_event(event).to_dict())}` |")
    return "\n".join(rows)


def reshuffle_log() -> str:
    """Two players who only ever draw from the stock and throw what they drew."""
    table = Table(players=2, rules=RuleSet(), seed=1)
    while not any(isinstance(event, Reshuffled) for event in table.log):
        drew = table.draw("stock")
        assert isinstance(drew, Drew)
        table.discard(drew.card)
    number, event = next((n, e) for n, e in enumerate(table.log, 1) if isinstance(e, Reshuffled))
    return (
        f"Record {number} of that deal (the open pile had {len(event.cards) + 1} cards; its "
        "top card stays), and the draw after it:\n\n"
        + _code(dump_log(table.log[number - 1 : number + 1]))
    )


GENERATORS: dict[str, Callable[[], str]] = {
    "worked-examples": worked_examples,
    "event-fields": event_fields,
    "example-log": example_log,
    "scripted-log": scripted_log,
    "public-log": public_log,
    "reshuffle-log": reshuffle_log,
}
