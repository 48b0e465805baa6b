"""Bots to play against: ``random`` (seeded legal moves), ``greedy`` (solver-based, one ply),
``expert`` (live cards, a one-draw lookahead), ``race`` (the expert ruled first by the
distance to a valid declaration) and ``search`` (determinized Monte Carlo over the race bot's
candidates).

>>> [bot.name for bot in make_bots(["greedy", "random"], seed=1)]
['greedy', 'random']
>>> make_bot("clever")
Traceback (most recent call last):
...
ValueError: unknown bot 'clever'; choose one of expert, greedy, random, search (or ...
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from rummy21.bots.base import Bot, DealWatcher
from rummy21.bots.clairvoyant import CLAIRVOYANT
from rummy21.bots.evaluate import Reading, penalty_after
from rummy21.bots.expert import ExpertBot
from rummy21.bots.greedy import GreedyBot, Release, best_release
from rummy21.bots.race import RaceBot
from rummy21.bots.random_bot import RandomBot
from rummy21.bots.runner import DEFAULT_TURN_LIMIT, play_deal, play_match, tell_deal_over
from rummy21.bots.search import SearchBot, search_with_worlds
from rummy21.game.actions import Action
from rummy21.game.view import View

BOT_NAMES = ("expert", "greedy", "learned", "race", "random", "search")

LEVELS: dict[str, str] = {
    "random": "Easy",
    "greedy": "Medium",
    "expert": "Hard",
    "learned": "Expert (learned)",
    "race": "Expert",
    "search": "Master",
}
"""What a player is shown for each bot, weakest first (the ladder's order): the lobby's
choices, a bot seat's badge and the notice of a bot that played for an absent player all
read it here."""


def level_of(name: str) -> str:
    """The level a player is shown for the bot ``name`` (a ``KIND:ARGUMENT`` name: its kind's
    level and the argument; a kind with no level: its name).

    >>> level_of("expert"), level_of("search:96"), level_of("rl:policy.zip")
    ('Hard', 'Master (96 worlds)', 'rl:policy.zip')
    """
    kind, sep, argument = name.partition(":")
    level = LEVELS.get(kind)
    if level is None:
        return name
    if sep and kind == "search":
        return f"{level} ({argument} worlds)"
    return level if not sep else f"{level} ({argument})"


BotKind = Callable[[str, int | None], Bot]
"""Makes a bot from the argument of its name (``rl:policy.zip`` -> ``"policy.zip"``) and a
seed."""

BOT_KINDS: dict[str, BotKind] = {"search": search_with_worlds}
"""Bots named ``KIND:ARGUMENT``, by kind. A later layer or another package provides a kind by
adding it here, or through the ``rummy21.bots`` entry-point group, which is read the first
time a name of an unknown kind is met: ``search:WORLDS`` is a search bot sampling WORLDS
worlds a move (``search`` samples 96); rummy21's own ``rl`` (``rl:PATH``, a policy trained
in :mod:`rummy21.env`; extra ``train``) is :class:`rummy21.env.policy.PolicyBot`."""


def _bot_kind(kind: str) -> BotKind | None:
    if kind not in BOT_KINDS:
        for entry in entry_points(group="rummy21.bots", name=kind):
            BOT_KINDS[kind] = entry.load()
    return BOT_KINDS.get(kind)


def check_bot_name(name: str, research: bool = False) -> str:
    """A bot's name as the bots know it (``Greedy`` -> ``greedy``; a ``KIND:ARGUMENT`` name keeps
    its argument as given), or a :class:`ValueError` saying what is wrong with it.

    ``clairvoyant`` (:mod:`rummy21.bots.clairvoyant`) sees every card: it is a name only where
    ``research`` allows it (the tournament, which builds it on each deal's table).

    >>> check_bot_name("clairvoyant", research=True)
    'clairvoyant'
    >>> check_bot_name("clairvoyant")
    Traceback (most recent call last):
    ...
    ValueError: the clairvoyant bot sees every card: it plays only in a tournament ...

    >>> check_bot_name(" Greedy ")
    'greedy'
    >>> check_bot_name("nobody:x")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot kind 'nobody' in 'nobody:x'; a search bot with its own budget is ...
    """
    text = name.strip()
    kind, sep, argument = text.partition(":")
    if sep:
        kind = kind.strip().lower()
        if _bot_kind(kind) is None:
            raise ValueError(
                f"unknown bot kind {kind!r} in {name!r}; a search bot with its own budget is "
                "'search:WORLDS', a trained policy 'rl:PATH' (pip install 'rummy21[train]'), "
                "a program playing the bot protocol 'exec:COMMAND'"
            )
        if not argument.strip():
            raise ValueError(f"the bot {name!r} names no {kind} to load")
        if kind == "search":  # cheap to make: a bad budget is refused here, not in a worker
            search_with_worlds(argument)
        return f"{kind}:{argument.strip()}"
    if text.lower() == CLAIRVOYANT:
        if research:
            return CLAIRVOYANT
        raise ValueError(
            "the clairvoyant bot sees every card: it plays only in a tournament "
            "(rummy21 tournament --bots clairvoyant,…), never at a table"
        )
    if text.lower() not in BOT_NAMES:
        raise ValueError(
            f"unknown bot {name!r}; choose one of {', '.join(BOT_NAMES)} "
            "(or search:WORLDS, rl:PATH, exec:COMMAND)"
        )
    return text.lower()


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``KIND:ARGUMENT`` names: see :data:`BOT_KINDS`); ``seed`` seeds the
    random ones."""
    key = check_bot_name(name)
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        return GreedyBot()
    if key == "expert":
        return ExpertBot()
    if key == "race":
        return RaceBot()
    if key == "search":
        return SearchBot(seed=seed)
    if key == "learned":  # the network shipped in rummy21.env (NumPy), a later layer
        key = "learned:"
    kind, _, argument = key.partition(":")
    made = _bot_kind(kind)
    assert made is not None
    return made(argument, seed)


def choose_move(
    name: str, seed: int | None, view: View, legal: Sequence[Action]
) -> tuple[Action, float]:
    """The move a fresh bot ``name`` (seeded with ``seed``) chooses for ``view``, and the CPU
    seconds it took (a module-level function, so that a process pool can run it).

    >>> from rummy21.game import Table
    >>> table = Table(2, seed=3)
    >>> action, seconds = choose_move("random", 1, table.view(0), table.legal_actions())
    >>> action in table.legal_actions(), seconds >= 0
    (True, True)
    """
    started = time.process_time()
    action = make_bot(name, seed).choose(view, legal)
    return action, time.process_time() - started


def check_bots_load(names: Sequence[str]) -> None:
    """Make each bot of a ``KIND:ARGUMENT`` name among ``names`` once (a policy or network
    file read, a budget checked), so that one that cannot play is refused before play as a
    :class:`ValueError` naming it, not as a traceback in the middle of a run. ``exec:``
    programs are checked by :func:`~rummy21.bots.external.check_exec_names` (they are not
    started here); ``clairvoyant`` is built by the tournament on each deal's table.

    >>> check_bots_load(["greedy", "search:12"])
    >>> check_bots_load(["learned:/no/such.npz"])
    Traceback (most recent call last):
    ...
    ValueError: the bot 'learned:/no/such.npz' cannot play: no network file at /no/such.npz
    """
    for name in dict.fromkeys(names):
        kind, sep, _ = name.partition(":")
        if not sep or kind.strip().lower() == "exec" or name == CLAIRVOYANT:
            continue
        try:
            make_bot(name, 0)
        except Exception as error:  # a file that will not load fails in many ways
            reason = str(error).strip() or type(error).__name__
            raise ValueError(f"the bot {name!r} cannot play: {reason}") from error


def parse_bot_names(text: str, seats: int) -> list[str]:
    """Bot names for ``seats`` seats from ``"greedy,random"`` (repeated in turn to fill them).

    >>> parse_bot_names("greedy,random", 5)
    ['greedy', 'random', 'greedy', 'random', 'greedy']
    """
    names = [check_bot_name(n) for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("name at least one bot: " + ", ".join(BOT_NAMES))
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots named for {seats} seats")
    return [names[i % len(names)] for i in range(seats)]


def seat_seed(seed: int | None, seat: int) -> int | None:
    """The seed of the bot in ``seat`` when a deal's bots are seeded with ``seed``
    (:func:`make_bots`; ``None`` stays ``None``).

    >>> seat_seed(7, 2), seat_seed(None, 2)
    (7002, None)
    """
    return None if seed is None else seed * 1000 + seat


def make_bots(names: Sequence[str], seed: int | None = None) -> list[Bot]:
    """One bot per name, seat by seat; random bots get distinct seeds derived from ``seed``
    (:func:`seat_seed`)."""
    return [make_bot(name, seat_seed(seed, seat)) for seat, name in enumerate(names)]


__all__ = [
    "BOT_KINDS",
    "BOT_NAMES",
    "DEFAULT_TURN_LIMIT",
    "LEVELS",
    "Bot",
    "DealWatcher",
    "ExpertBot",
    "GreedyBot",
    "RaceBot",
    "RandomBot",
    "Reading",
    "Release",
    "SearchBot",
    "best_release",
    "check_bot_name",
    "check_bots_load",
    "choose_move",
    "level_of",
    "make_bot",
    "make_bots",
    "parse_bot_names",
    "penalty_after",
    "play_deal",
    "play_match",
    "seat_seed",
    "tell_deal_over",
]
