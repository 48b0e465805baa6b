"""A tournament's settings: the bots, the table, the number of shoes and the seed — everything
its results depend on, and what a resumed run must match.

>>> settings = Settings(bots=("random", "greedy"), players=4, deals=10, seed=1)
>>> settings.labels, settings.rule_set().turn_limit
(('random', 'greedy'), 500)
>>> Settings.from_dict(settings.to_dict()) == settings
True
>>> Settings(bots=("random",), players=4, deals=10, seed=1)
Traceback (most recent call last):
...
ValueError: a tournament needs at least 2 bots, not 1
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rummy21.bots import DEFAULT_TURN_LIMIT, check_bot_name
from rummy21.bots.external import check_exec_names
from rummy21.game.match import MOST_DEALS
from rummy21.ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class Settings:
    """Who plays, at which table, how many shoes, from which seed.

    ``deals`` is the number of shoes (distinct seeded deals); each is played once per line-up
    (:func:`~rummy21.tournament.scheme.lineups`), so ``deals × len(bots)`` tables in all.
    ``turn_limit`` ``None`` plays without one."""

    bots: tuple[str, ...]
    players: int
    deals: int
    seed: int
    rules: str = "classic"
    turn_limit: int | None = DEFAULT_TURN_LIMIT

    def __post_init__(self) -> None:
        if len(self.bots) < 2:
            raise ValueError(f"a tournament needs at least 2 bots, not {len(self.bots)}")
        for name in self.bots:
            named = check_bot_name(name, research=True)
            if named != name:
                raise ValueError(f"the bot {name!r} is named {named!r}")
        check_exec_names(self.bots)
        rules = RuleSet.preset(self.rules)
        if not rules.min_players <= self.players <= rules.max_players:
            raise ValueError(
                f"--players must be {rules.min_players} to {rules.max_players} for the rule set "
                f"{rules.name}, not {self.players}"
            )
        if not 1 <= self.deals <= MOST_DEALS:
            raise ValueError(f"--deals must be 1 to {MOST_DEALS:,}, not {self.deals}")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ValueError(f"the turn limit is a positive number of turns, not {self.turn_limit}")

    @classmethod
    def parse(
        cls,
        bots: str,
        players: int,
        deals: int,
        seed: int,
        rules: str = "classic",
        turn_limit: int | None = None,
    ) -> Settings:
        """Settings from the command line's text: ``bots`` comma-separated, ``turn_limit``
        ``None`` for the rule set's (or :data:`DEFAULT_TURN_LIMIT`), 0 for none.

        >>> Settings.parse("Greedy, random", 3, 5, 7, turn_limit=0).bots
        ('greedy', 'random')
        """
        names = tuple(check_bot_name(n, research=True) for n in bots.split(",") if n.strip())
        rule_set = RuleSet.preset(rules)
        if turn_limit is not None and turn_limit < 0:
            raise ValueError(
                f"--turn-limit must be a positive number of turns (or 0 for none), not {turn_limit}"
            )
        limit = turn_limit if turn_limit is not None else rule_set.turn_limit or DEFAULT_TURN_LIMIT
        return cls(names, players, deals, seed, rule_set.name, limit or None)

    @property
    def labels(self) -> tuple[str, ...]:
        """The bots' names in the results; a bot named twice (an A/A test of the instrument)
        is told apart by its place: ``random#1``, ``random#2``.

        >>> Settings(("random", "greedy", "random"), 3, 1, 0).labels
        ('random#1', 'greedy', 'random#2')
        """
        seen: Counter[str] = Counter()
        twice = {name for name, n in Counter(self.bots).items() if n > 1}
        labels = []
        for name in self.bots:
            seen[name] += 1
            labels.append(f"{name}#{seen[name]}" if name in twice else name)
        return tuple(labels)

    def rule_set(self) -> RuleSet:
        """The rules the tables play: the preset with the turn limit."""
        return RuleSet.preset(self.rules).with_(turn_limit=self.turn_limit)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "rules": self.rules,
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """The settings :meth:`to_dict` wrote (a :class:`ValueError` if they are not)."""
        try:
            bots, players, deals, seed = data["bots"], data["players"], data["deals"], data["seed"]
            rules, limit = data["rules"], data["turn_limit"]
        except (KeyError, TypeError):
            raise ValueError("not a tournament's settings") from None
        if not (
            isinstance(bots, list)
            and all(isinstance(b, str) for b in bots)
            and all(type(v) is int for v in (players, deals, seed))
            and isinstance(rules, str)
            and (limit is None or type(limit) is int)
        ):
            raise ValueError("not a tournament's settings")
        return cls(tuple(bots), players, deals, seed, rules, limit)
