"""How ``rummy21 analyze`` shows a reading in the terminal (rich text; JSON needs none of it)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from rummy21.analysis import Analysis
from rummy21.cards import Card
from rummy21.distance import Distance
from rummy21.groups import Group

_SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold"}


def card_text(card: Card, analysis_jokers: object | None = None) -> Text:
    """A card with its suit symbol, coloured by suit; jokers marked with ``*``."""
    style = "bold magenta" if card.suit is None else _SUIT_STYLE[int(card.suit)]
    text = Text(card.pretty(), style=style)
    is_joker = getattr(analysis_jokers, "is_joker", None)
    if is_joker is not None and is_joker(card):
        text.append("*", style="yellow")
    return text


def _cards_line(cards: tuple[Card, ...], jokers: object) -> Text:
    line = Text()
    for i, card in enumerate(cards):
        if i:
            line.append(" ")
        line.append_text(card_text(card, jokers))
    return line


def _group_lines(groups: tuple[Group, ...], jokers: object) -> list[Text]:
    lines = []
    for group in groups:
        line = Text(f"  {group.kind.value.replace('_', ' '):16} ")
        line.append_text(_cards_line(group.cards, jokers))
        lines.append(line)
    return lines


def report(a: Analysis, console: Console) -> None:
    j = a.jokers
    head = Text("cut ")
    head.append_text(card_text(j.cut))
    head.append(f"   wild rank {j.wild_rank_name}   upper ")
    head.append_text(card_text(j.upper))
    head.append("   lower ")
    head.append_text(card_text(j.lower))
    console.print(head)
    console.print(Text("hand  ").append_text(_cards_line(a.input_cards, j)))
    if a.discard is not None:
        console.print(Text("put aside ").append_text(card_text(a.discard, j)))
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
    console.print(f"penalty if another player declares: [bold]{p.points}[/bold]{capped} "
                  f"by {p.rule.replace('_', ' ')}")
    for line in _group_lines(p.groups, j):
        console.print(line)
    if p.loose:
        console.print(Text("  loose            ").append_text(_cards_line(p.loose, j)))
    v = a.value
    console.print(f"value cards: {v.points} points ({v.cut} cut, {v.upper} upper, {v.lower} lower, "
                  f"{v.marriages} marriage{'s' if v.marriages != 1 else ''})")




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
