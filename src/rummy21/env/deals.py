"""The deals an environment plays: its rule set, and a deal per episode dealt as a match deals.

After ``reset(seed=S)`` the environment's episodes are the deals of ``Match(players,
seed=S)`` in order (the same seeds, the dealer moving one seat a deal), so a deal seen in
training can be replayed, simulated or shown in the terminal.

>>> deals = Deals(players=3, rules="classic", turn_limit=200)
>>> first = deals.next(seed=5)
>>> from rummy21.game import Match
>>> same = Match(players=3, rules=deals.rules, seed=5).new_deal()
>>> (first.seed, first.dealer) == (same.seed, same.dealer), deals.next().dealer
(True, 0)
"""

from __future__ import annotations

import random
import secrets

from rummy21.bots.runner import DEFAULT_TURN_LIMIT
from rummy21.game.match import deal_dealer
from rummy21.game.table import Table
from rummy21.ruleset import RuleSet


def table_rules(rules: str | RuleSet, turn_limit: int | None) -> RuleSet:
    """The rule set of an environment: a preset's name or a :class:`RuleSet`, with
    ``turn_limit`` (``None``: the rule set's own, else the bots' default of 500 turns)."""
    found = RuleSet.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(found, RuleSet):
        raise TypeError(f"rules is a preset name or a RuleSet, not {rules!r}")
    if turn_limit is None:
        turn_limit = found.turn_limit if found.turn_limit is not None else DEFAULT_TURN_LIMIT
    if not isinstance(turn_limit, int) or turn_limit < 1:
        raise ValueError(f"the turn limit is a whole number of turns >= 1, not {turn_limit!r}")
    return found.with_(turn_limit=turn_limit)


class Deals:
    """A source of seeded tables: one match's deals, from the seed of the last reset."""

    def __init__(self, players: int, rules: str | RuleSet, turn_limit: int | None) -> None:
        self.rules = table_rules(rules, turn_limit)
        if not isinstance(players, int) or not (
            self.rules.min_players <= players <= self.rules.max_players
        ):
            raise ValueError(
                f"the rule set {self.rules.name!r} seats {self.rules.min_players} to "
                f"{self.rules.max_players} players, not {players!r}"
            )
        self.players = players
        self._seeds = random.Random(secrets.randbits(64))
        self._number = 0

    def next(self, seed: int | None = None) -> Table:
        """The next deal; with ``seed``, the first deal of the match seeded with it."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self._number = 0
        number = self._number
        self._number += 1
        # (Match draws deal n's seed as the (n + 1)-th 32-bit draw of its generator.)
        return Table(
            self.players,
            self.rules,
            seed=self._seeds.getrandbits(32),
            dealer=deal_dealer(self.players, number),
        )
