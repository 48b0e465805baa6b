"""The small rules of a turn (RULES §6, §7) that the table enforces and every adviser asks.

Bots, the terminal game and the browser never work these out for themselves: they read them
from a :class:`~rummy21.game.view.View` (``view.blocked``, ``view.can_take_open``,
``view.drop_cost``), which the table fills in with the functions below, or call these
functions to look one move ahead ("if I took that card, …").

>>> from rummy21.cards import Card
>>> from rummy21.jokers import Jokers
>>> from rummy21.ruleset import RuleSet
>>> rules, jokers = RuleSet(), Jokers.from_cut(Card.parse("7D"))
>>> why_not_take(Card.parse("7S"), 1, jokers, rules)
'7S is a joker a player discarded: a discarded joker cannot be taken from the open pile'
>>> why_not_take(Card.parse("7S"), None, jokers, rules) is None   # the first open card
True
>>> kept_after_taking(Card.parse("9H"), rules)
Card('9H')
>>> drop_cost(0, rules), drop_cost(4, rules)
(30, 70)
"""

from __future__ import annotations

from rummy21.cards import Card
from rummy21.game.events import DropKind
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


def why_not_take(
    card: Card, discarded_by: int | None, jokers: Jokers, rules: RuleSet
) -> str | None:
    """Why the open card ``card`` may not be taken (RULES §6.1), or ``None`` if it may.

    A joker of any kind that a player discarded stays on the pile (unless the rule set allows
    joker pick-up); the first open card, turned up at the deal, may be taken whatever it is.
    """
    if discarded_by is not None and not rules.joker_pickup and jokers.is_joker(card):
        return (
            f"{card} is a joker a player discarded: "
            "a discarded joker cannot be taken from the open pile"
        )
    return None


def kept_after_taking(card: Card, rules: RuleSet) -> Card | None:
    """The card that may not be discarded or finished in the turn ``card`` was taken from the
    open pile (RULES §6.2): that card itself, unless the rule set allows it."""
    return None if rules.discard_taken_card else card


def drop_kind(played: int, forced: bool = False) -> DropKind:
    """A drop at the player's own first turn is a first drop; any later one (or one forced
    by time-outs) a middle drop (RULES §7)."""
    return DropKind.FIRST if played == 0 and not forced else DropKind.MIDDLE


def drop_points(kind: DropKind, rules: RuleSet) -> int:
    """What a drop of this kind costs under ``rules``."""
    return rules.first_drop if kind is DropKind.FIRST else rules.middle_drop


def drop_cost(played: int, rules: RuleSet) -> int:
    """What dropping now costs a player who has played ``played`` turns of this deal."""
    return drop_points(drop_kind(played), rules)
