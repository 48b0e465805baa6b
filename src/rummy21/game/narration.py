"""One sentence for each public event: what every table tells its players happened.

The terminal game, the browser table and the history replay all say it in these words. A
sentence is a tuple of parts — text and cards — so that each interface draws the cards its own
way (the terminal in colour with joker marks, the browser with suit symbols).

>>> from rummy21.game.table import Table
>>> table = Table(players=2, seed=3)
>>> _ = table.draw("open")
>>> who = lambda seat: "You" if seat == 0 else "Ravi"
>>> plain(narrate(table.view(1).history[-1], who, table.rules))
'You take AS from the open pile.'
>>> plain(narrate(table.view(0).history[0], who, table.rules))
'Cut card 6S (jokers: every 6, 7S, 5S and JK); open card AS.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from rummy21.analysis import Analysis, PenaltyRule
from rummy21.cards import Card
from rummy21.game.events import EndReason
from rummy21.game.settlement import Charge
from rummy21.game.view import EventAction, PublicEvent
from rummy21.jokers import Jokers
from rummy21.ruleset import DubleeSave, RuleSet
from rummy21.solver import max_pure_groups
from rummy21.suggest import Route, Suggestion

Part = str | Card
Sentence = tuple[Part, ...]
Namer = Callable[[int | None], str]
"""Names a seat as the listener should hear it: ``"You"`` for the listener's own."""


class Tone(StrEnum):
    """How much a sentence matters, for interfaces that colour their log."""

    PLAIN = "plain"
    NOTICE = "notice"
    """Reshuffles, drops, time-outs."""
    BAD = "bad"
    """A wrong declaration."""
    GOOD = "good"
    """A valid declaration."""
    END = "end"


TONES = {
    EventAction.RESHUFFLED: Tone.NOTICE,
    EventAction.DROPPED: Tone.NOTICE,
    EventAction.TIMED_OUT: Tone.NOTICE,
    EventAction.DECLARED_WRONGLY: Tone.BAD,
    EventAction.DECLARED: Tone.GOOD,
    EventAction.DEAL_ENDED: Tone.END,
}


def _verb(who: str, base: str, third: str) -> str:
    return f"{who} {base if who == 'You' else third}"


def narrate(event: PublicEvent, name: Namer, rules: RuleSet) -> Sentence:
    """The sentence for ``event`` (see the module docstring)."""
    who = name(event.seat)
    number = event.number or 0
    forced = " (time-out)" if event.detail == "forced" else ""
    match event.action:
        case EventAction.DEALT:
            jokers = Jokers.from_cut(Card.parse(event.detail or "JK"))
            assert event.card is not None
            return (
                "Cut card ",
                jokers.cut,
                f" (jokers: every {jokers.wild_rank_name}, ",
                jokers.upper,
                ", ",
                jokers.lower,
                " and JK); open card ",
                event.card,
                ".",
            )
        case EventAction.DREW if event.detail == "open":
            assert event.card is not None
            return (_verb(who, "take", "takes") + " ", event.card, " from the open pile.")
        case EventAction.DREW:
            if event.card is not None:  # a replay shows a player its own draws
                return (_verb(who, "draw", "draws") + " ", event.card, " from the stock.")
            return (_verb(who, "draw", "draws") + " from the stock.",)
        case EventAction.DISCARDED:
            assert event.card is not None
            return (_verb(who, "discard", "discards") + " ", event.card, f".{forced}")
        case EventAction.RESHUFFLED:
            return (
                f"The stock ran out: the open pile's {number} cards below its top were "
                "shuffled into a new stock.",
            )
        case EventAction.DECLARED:
            return (_verb(who, "declare", "declares") + f" — option {event.detail}!",)
        case EventAction.DECLARED_WRONGLY:
            return (
                _verb(who, "declare", "declares") + " wrongly: "
                f"{rules.wrong_declaration} points and out of the deal.",
            )
        case EventAction.DROPPED:
            return (_verb(who, "drop", "drops") + f" ({event.detail} drop, {number} points).",)
        case EventAction.TIMED_OUT:
            return (_verb(who, "run", "runs") + f" out of time ({number} in a row).",)
        case EventAction.DEAL_ENDED:
            turns = f"{number} turn{'' if number == 1 else 's'}"
            if event.detail == EndReason.WASH:
                return (f"The deal ends in a wash after {turns}.",)
            how = "declared" if event.detail == EndReason.DECLARED else "the last player left"
            return (_verb(who, "win", "wins") + f" the deal after {turns} ({how}).",)
    return (str(event.action),)


def plain(sentence: Sequence[Part], card: Callable[[Card], str] = str) -> str:
    """The sentence as text (cards written by ``card``: their code unless told otherwise)."""
    return "".join(card(part) if isinstance(part, Card) else part for part in sentence)


def _groups(count: int) -> str:
    return f"{count} pure group" + ("" if count == 1 else "s")


def charge_reason(
    charged: Charge,
    analysis: Analysis,
    layout: Suggestion,
    rules: RuleSet,
    whose: str = "your cards",
) -> tuple[str, str]:
    """Why 21 cards pay what they pay if another player declares now (``charged``, the
    seat's :class:`~rummy21.game.settlement.Charge`; ``analysis`` and ``layout`` the cards'
    reading and the coach's layout): the rule with its detail, e.g. ``full count 139, capped
    at 120`` or ``first-turn cap (full count 118)``; and, when they pay the full count, why no
    save applies (else ``""``). Every screen says these words.

    The layout shown is the coach's (the best groups, as if the pure condition were met); the
    penalty is the real one: the full count until the cards can make enough pure groups.

    >>> from rummy21.analysis import analyze
    >>> from rummy21.cards import Hand
    >>> from rummy21.game.settlement import Standing, charge
    >>> from rummy21.suggest import suggest
    >>> rules = RuleSet.preset("adda52")
    >>> hand = Hand.parse("2S 5S 9S JS KS 3C 6C 10C QC AD 4D 8D 10D 2H 6H 9H QH KH 3S 7C JD")
    >>> analysis = analyze(hand, Card.parse("7D"), rules)
    >>> layout = suggest(hand, Card.parse("7D"), rules)
    >>> charged = charge(Standing.ACTIVE, 0, rules, analysis.penalty)
    >>> text, why = charge_reason(charged, analysis, layout, rules)
    >>> text
    'first-turn cap (full count 139)'
    >>> why
    'the pure save needs 3 pure groups, your cards can make none'

    """
    penalty = analysis.penalty
    needed = rules.pure_groups_needed
    rule = penalty.rule
    if rule is PenaltyRule.PURE_SAVE:
        shown = layout.route == Route.GROUPS and layout.loose_points == penalty.uncapped
        loose = "the loose cards" if penalty.uncapped else "no card left loose"
        detail = loose if shown else f"the cards left outside groups once {needed} of them are pure"
    elif rule is PenaltyRule.DUBLEE_SAVE:
        detail = (
            f"a flat {rules.dublee_save_flat}"
            if rules.dublee_save is DubleeSave.FLAT
            else "the cards outside dublees"
        )
    else:
        detail = "every card counts"
    if charged.rule is PenaltyRule.FIRST_TURN_CAP:
        text = f"{charged.rule.label} ({rule.label} {charged.count})"
    elif penalty.uncapped > penalty.points:
        text = f"{rule.label} {penalty.uncapped}, capped at {penalty.points}"
        if rule is not PenaltyRule.FULL_COUNT:
            text += f" ({detail})"
    else:
        text = f"{rule.label} ({detail})"
    why = ""
    if rule is PenaltyRule.FULL_COUNT:
        can = min(max_pure_groups(analysis.cards.counts), needed)
        if can < needed:
            why = f"the pure save needs {_groups(needed)}, {whose} can make {can or 'none'}"
    return text, why
