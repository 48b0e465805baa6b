"""Views show a seat its own hand and public facts only (OpenSpiel-style leak tests)."""

from __future__ import annotations

import json
import re

import pytest

from rummy21.bots import RandomBot
from rummy21.cards import Card, parse_cards
from rummy21.game import DealStarted, Discarded, Draw, Drew, Source, Table
from rummy21.game.dealing import arrange_shoe
from rummy21.ruleset import RuleSet

TOKEN = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[SHDC](?![A-Z0-9])|(?<![A-Z])JK(?![A-Z])")


def public_cards(table: Table) -> set[str]:
    """Card types anyone at the table has seen: cut and value cards, the open pile's history."""
    j = table.jokers
    seen = {str(j.cut), str(j.cut_role), str(j.upper), str(j.lower)}
    for event in table.log:
        if isinstance(event, DealStarted):
            seen.add(str(event.open_card))
        elif isinstance(event, Discarded) or (
            isinstance(event, Drew) and event.source is Source.OPEN
        ):
            seen.add(str(event.card))
    return seen


def check_views(table: Table) -> None:
    public = public_cards(table)
    for seat in range(table.players):
        view = table.view(seat)
        assert view.hand == table.hand(seat)
        text = json.dumps(view.to_dict())
        allowed = public | {str(c) for c in view.hand}
        leaked = set(TOKEN.findall(text)) - allowed
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        assert 'stock":' not in text.replace('"stock_size":', "")


@pytest.mark.parametrize("players", [2, 3, 6])
def test_views_never_show_other_hands_or_the_stock(players: int) -> None:
    for seed in range(4):
        rules = RuleSet.preset("adda52" if seed % 2 else "classic").with_(turn_limit=150)
        table = Table(players, rules, seed=seed)
        bots = [RandomBot(seed + s, drop_chance=0.01, declare_chance=0.01) for s in range(players)]
        step = 0
        while not table.over:
            if step % 4 == 0:
                check_views(table)
            seat = table.turn
            assert seat is not None
            table.apply(bots[seat].choose(table.view(seat), table.legal_actions()))
            step += 1
        check_views(table)


def test_hidden_cards_do_not_change_a_view() -> None:
    """Swap a card of seat 1's hand with one deep in the stock: seat 0 sees exactly the same."""
    hands = [
        parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H 8H"),
        parse_cards("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 2C 3C 4C 5C 6C 7C 8C"),
    ]
    cut, open_card = Card.parse("9H"), Card.parse("10H")
    other = parse_cards("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 2C 3C 4C 5C 6C 7C JK")
    shoe_a = arrange_shoe(
        hands, cut, open_card, dealer=1, printed_jokers=3, stock=parse_cards("QH KH")
    )
    shoe_b = arrange_shoe(
        [hands[0], other], cut, open_card, dealer=1, printed_jokers=3, stock=parse_cards("QH KH")
    )
    a, b = Table(2, shoe=shoe_a), Table(2, shoe=shoe_b)
    for table in (a, b):
        table.apply(Draw(Source.OPEN))
        table.discard("AS")
        drew = table.draw("stock")
        assert isinstance(drew, Drew)
        table.discard(drew.card)
    va, vb = a.view(0), b.view(0)
    assert va.to_dict() == vb.to_dict()
    assert a.view(1).hand != b.view(1).hand


def test_own_draw_is_private_until_discarded() -> None:
    table = Table(3, seed=8)
    drew = table.draw("stock")
    assert isinstance(drew, Drew)
    mine, theirs = table.view(0), table.view(1)
    assert mine.drawn == drew.card and mine.drawn_from is Source.STOCK
    assert theirs.drawn is None and theirs.history[-1].card is None
    assert theirs.seats[0].cards == 22
