"""The coach never names a move the table would refuse, and its layout is the player's cards.

Whole deals are played by bots; at every position the advice for every seat still holding
cards is checked against the table itself (``can_draw``, ``can_discard``, ``declare``).
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from rummy21.bots import make_bots
from rummy21.bots.advice import advise
from rummy21.cards import Card, Hand, parse_cards
from rummy21.game import Drew, Source, Table
from rummy21.game.view import Phase
from rummy21.ruleset import RuleSet

ADDA52 = RuleSet.preset("adda52")


def check_position(table: Table) -> None:
    for seat in range(table.players):
        view = table.view(seat)
        if len(view.hand) < table.rules.hand_size:
            with pytest.raises(ValueError):
                advise(view)
            continue
        advice = advise(view)
        shown = Counter(
            [c for g in advice.layout.groups for c in g.cards] + list(advice.layout.loose)
        )
        held = Counter(view.hand)
        if advice.release is not None:
            assert view.my_turn and view.phase is Phase.DISCARD
            assert table.can_discard(advice.release, seat), (advice.release, view.blocked)
            held[advice.release] -= 1
            if advice.declare:
                trial = copy.deepcopy(table)
                assert trial.declare(advice.release, seat=seat).valid
        elif view.my_turn and view.phase is Phase.DISCARD:
            raise AssertionError("no card named after drawing")
        assert shown == +held
        if advice.draw is not None:
            assert view.my_turn and view.phase is Phase.DRAW
            assert table.can_draw(advice.draw, seat)
            if advice.draw is Source.OPEN:
                assert view.can_take_open
        assert advice.analysis.valid == bool(advice.analysis.options)


@pytest.mark.parametrize("seed", range(4))
def test_advice_is_always_legal_over_whole_deals(seed: int) -> None:
    rules = ADDA52 if seed % 2 else RuleSet()
    table = Table(players=3, rules=rules, seed=100 + seed)
    bots = make_bots(["greedy", "random", "greedy"], seed=seed)
    while not table.over and table.turns < 60:
        check_position(table)
        seat = table.turn
        assert seat is not None
        table.apply(bots[seat].choose(table.view(seat), table.legal_actions()), seat)


def test_after_taking_the_open_card_it_is_never_the_advised_discard() -> None:
    """The card just taken from the open pile is often the 'best' one to let go by the hand
    alone (it was the discard that made it worth taking), yet the rules forbid it."""
    found = 0
    for seed in range(60):
        table = Table(players=2, seed=seed)
        if not table.can_draw(Source.OPEN):
            continue
        drew = table.draw(Source.OPEN)
        assert isinstance(drew, Drew)
        advice = advise(table.view(0))
        assert advice.release is not None and advice.release != drew.card
        assert table.can_discard(advice.release)
        found += 1
    assert found > 20


def test_a_valid_hand_is_told_to_declare_with_the_card_that_keeps_value() -> None:
    # Cut 7D: 7D is a value card (and a joker); KH is the spare high card.
    hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 7D 8D 4C KH")
    table = Table(players=2, seed=1)
    view = table.view(0)
    from dataclasses import replace

    view = replace(
        view,
        hand=Hand.of(hand),
        phase=Phase.DISCARD,
        turn=0,
        jokers=type(view.jokers).from_cut(Card.parse("7D")),
    )
    advice = advise(view)
    assert advice.declare and advice.release is not None
    assert advice.release != Card.parse("7D")
