"""How ``rummy21 analyze`` shows a reading in the terminal (rich text; JSON needs none of it)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from rummy21.analysis import Analysis
from rummy21.cards import Card
from rummy21.cli.card_text import card_text, cards_text
from rummy21.distance import Distance
from rummy21.groups import Group
from rummy21.jokers import Jokers


def _cards_line(cards: Sequence[Card], jokers: Jokers) -> Text:
    """Cards with their jokers marked (a reading shows its value cards in points instead)."""
    return cards_text(cards, jokers, values=False)


def _group_lines(groups: tuple[Group, ...], jokers: Jokers) -> list[Text]:
    lines = []
    for group in groups:
        line = Text(f"  {group.kind.value.replace('_', ' '):16} ")
        line.append_text(_cards_line(group.cards, jokers))
        lines.append(line)
    return lines


def report(a: Analysis, console: Console) -> None:
    j = a.jokers
    head = Text("cut ")
    head.append_text(card_text(j.cut, None))
    head.append(f"   wild rank {j.wild_rank_name}   upper ")
    head.append_text(card_text(j.upper, None))
    head.append("   lower ")
    head.append_text(card_text(j.lower, None))
    console.print(head)
    console.print(Text("hand  ").append_text(_cards_line(a.input_cards or a.cards, j)))
    if a.discard is not None:
        console.print(Text("put aside ").append_text(card_text(a.discard, j, values=False)))
    if a.valid:
        console.print(f"[green]valid declaration[/green]: option(s) {', '.join(a.options)}")
        for line in _group_lines(a.groups, j):
            console.print(line)
        if a.loose:
            console.print(Text("  other cards      ").append_text(_cards_line(a.loose, j)))
    else:
        console.print("[red]not a valid declaration[/red]")
    p = a.penalty
    capped = f" (capped from {p.uncapped})" if p.uncapped != p.points else ""
    console.print(
        f"penalty if another player declares: [bold]{p.points}[/bold]{capped} "
        f"by {p.rule.replace('_', ' ')}"
    )
    for line in _group_lines(p.groups, j):
        console.print(line)
    if p.loose:
        console.print(Text("  loose            ").append_text(_cards_line(p.loose, j)))
    v = a.value
    console.print(
        f"value cards: {v.points} points ({v.cut} cut, {v.upper} upper, {v.lower} lower, "
        f"{v.marriages} marriage{'s' if v.marriages != 1 else ''})"
    )


def report_distance(found: Distance, result: Analysis, console: Console) -> None:
    if found.cards is None:
        console.print(f"distance to a valid declaration: more than {found.more_than}")
        return
    line = Text(f"distance to a valid declaration: {found.cards}")
    if found.cards:
        line.append(f" (option {found.option}: out ")
        line.append_text(_cards_line(found.remove, result.jokers))
        line.append(", in ")
        line.append_text(_cards_line(found.add, result.jokers))
        line.append(")")
    console.print(line)
