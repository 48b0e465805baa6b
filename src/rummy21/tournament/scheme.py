"""The duplicate scheme: which line-ups play each shoe, so that the luck of the deal cancels out.

A tournament of ``k`` bots at a table of ``n`` seats plays every shoe (one seeded deal of the
cards, one dealer) ``k`` times, once per line-up: line-up ``r`` seats bot ``(s + r) % k`` at
seat ``s``. Across the ``k`` line-ups of a shoe each bot therefore sits at each seat exactly
once — it plays every seat's cards of that shoe, against the same deal as everyone else —
whatever ``k`` and ``n`` are:

* ``k == n``: the ``k`` rotations of one line-up with each bot once (``AB``, ``BA``);
* ``k < n``: a bot fills several seats of a line-up (``ABAB``, ``BABA`` for 2 bots on 4
  seats; ``ABCA``, ``BCAB``, ``CABC`` for 3 on 4, where ``k`` does not divide ``n``: a bot
  may fill more seats in one line-up than in another, but over the shoe each bot has each
  seat once and ``n`` seat-plays in all);
* ``k > n``: a line-up seats only ``n`` of the bots (``AB``, ``BC``, ``CA`` for 3 bots on 2
  seats), and the ``k`` line-ups together give each bot each seat once.

A shoe is the unit of the statistics: it counts only once all its ``k`` line-ups are played,
and a bot's score for it is its mean over its ``n`` seat-plays.

>>> [lineup_text(lineup) for lineup in lineups(3, 4)]
['ABCA', 'BCAB', 'CABC']
>>> seat_counts(lineups(3, 2))
[[1, 1], [1, 1], [1, 1]]
"""

from __future__ import annotations

from string import ascii_uppercase

Lineup = tuple[int, ...]
"""The bot (its index in the tournament's list) at each seat."""


def lineups(bots: int, seats: int) -> tuple[Lineup, ...]:
    """The ``bots`` line-ups that play each shoe: line-up ``r`` seats bot ``(s + r) % bots``
    at seat ``s``.

    >>> lineups(2, 4)
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> lineups(3, 2)
    ((0, 1), (1, 2), (2, 0))
    """
    if bots < 1 or seats < 1:
        raise ValueError(f"a line-up needs bots and seats, not {bots} bots on {seats} seats")
    return tuple(tuple((seat + r) % bots for seat in range(seats)) for r in range(bots))


def seat_counts(plays: tuple[Lineup, ...]) -> list[list[int]]:
    """How often each bot sits at each seat over ``plays``: ``[bot][seat]``.

    >>> seat_counts(lineups(2, 3))
    [[1, 1, 1], [1, 1, 1]]
    """
    bots = 1 + max(bot for lineup in plays for bot in lineup)
    seats = len(plays[0])
    counts = [[0] * seats for _ in range(bots)]
    for lineup in plays:
        for seat, bot in enumerate(lineup):
            counts[bot][seat] += 1
    return counts


def lineup_text(lineup: Lineup) -> str:
    """A line-up in letters, bot 0 as ``A``: ``(0, 1, 0)`` → ``'ABA'``."""
    return "".join(ascii_uppercase[bot % 26] for bot in lineup)
