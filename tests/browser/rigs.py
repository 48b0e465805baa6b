"""Tables dealt from chosen cards, for browser tests and screenshots (``table_factory``)."""

from __future__ import annotations

from rummy21.cards import Card, parse_cards
from rummy21.game import Table
from rummy21.game.dealing import arrange_shoe
from rummy21.ruleset import RuleSet

#: Seat 0 holds a hand that one more card makes a valid declaration (9D completes 9C 9H).
READY = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D KH 4C"
OTHERS = [
    "2S 3S 5S 6S QS 5H 6H 8H 10H JH QH 2D 3D 4D 8D 10D JD QD 2C 3C 5C",
    "4S JS KS 7H 9H KH 6D 9D KD 6C 8C 10C QC 4H 5H 8S AS 2D AC 7C 9C",
    "6S 7S 2H 3H 10H 7D 10D JD 3C 4C 5C 6C 8C JC KC AH QS QH QD 8D 10S",
]


def ready_to_declare(
    players: int, rules: RuleSet, dealer: int, number: int, seed: int | None
) -> Table:
    """Seat 0 draws 9D from the stock and can declare at once (the first deal only)."""
    if number > 0:
        return Table(players, rules, dealer=dealer, seed=seed)
    hands = [parse_cards(READY), *(parse_cards(h) for h in OTHERS[: players - 1])]
    shoe = arrange_shoe(
        hands,
        Card.parse("7D"),
        Card.parse("3D"),
        dealer=dealer,
        printed_jokers=rules.printed_jokers,
        stock=parse_cards("9D 4S 2C"),
    )
    return Table(players, rules, dealer=dealer, shoe=shoe, seed=seed)
