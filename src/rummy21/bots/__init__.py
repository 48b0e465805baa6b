"""Bots to play against: ``random`` (seeded legal moves), ``greedy`` (solver-based, one ply)
``expert`` (live cards, a one-draw lookahead) and ``search`` (determinized Monte Carlo over
the expert's candidates).

>>> [bot.name for bot in make_bots(["greedy", "random"], seed=1)]
['greedy', 'random']
>>> make_bot("clever")
Traceback (most recent call last):
...
ValueError: unknown bot 'clever'; choose one of expert, greedy, random, search
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy21.bots.base import Bot
from rummy21.bots.evaluate import Reading, penalty_after
from rummy21.bots.expert import ExpertBot
from rummy21.bots.greedy import GreedyBot, Release, best_release
from rummy21.bots.random_bot import RandomBot
from rummy21.bots.runner import DEFAULT_TURN_LIMIT, play_deal, play_match
from rummy21.bots.search import SearchBot

BOT_NAMES = ("expert", "greedy", "random", "search")


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name; ``seed`` seeds the random ones."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        return GreedyBot()
    if key == "expert":
        return ExpertBot()
    if key == "search":
        return SearchBot(seed=seed)
    raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_NAMES)}")


def parse_bot_names(text: str, seats: int) -> list[str]:
    """Bot names for ``seats`` seats from ``"greedy,random"`` (repeated in turn to fill them).

    >>> parse_bot_names("greedy,random", 5)
    ['greedy', 'random', 'greedy', 'random', 'greedy']
    """
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("name at least one bot: " + ", ".join(BOT_NAMES))
    for name in names:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_NAMES)}")
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots named for {seats} seats")
    return [names[i % len(names)] for i in range(seats)]


def make_bots(names: Sequence[str], seed: int | None = None) -> list[Bot]:
    """One bot per name, seat by seat; random bots get distinct seeds derived from ``seed``."""
    return [
        make_bot(name, None if seed is None else seed * 1000 + seat)
        for seat, name in enumerate(names)
    ]


__all__ = [
    "BOT_NAMES",
    "DEFAULT_TURN_LIMIT",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "Reading",
    "Release",
    "SearchBot",
    "best_release",
    "make_bot",
    "make_bots",
    "parse_bot_names",
    "penalty_after",
    "play_deal",
    "play_match",
]
