"""A deal rebuilt from its log plays on: through as many reshuffles as it needs.

A live (unseeded) table records each reshuffle's order in its log; rebuilding it
(:meth:`Table.replay`, what a server does after every restart, fail-over and hand-over) takes
the recorded orders for the reshuffles the log has, and must shuffle afresh for the ones after
it. A seeded table is rebuilt from its seed, and goes on exactly as the original did.
"""

from __future__ import annotations

import random

import pytest

from rummy21.game import Discard, Draw, Phase, Reshuffled, Source, Table


def step(table: Table, rng: random.Random) -> None:
    """One move of a player who never declares nor drops: the deal only goes on, and the
    stock runs out again and again."""
    if table.phase is Phase.DRAW:
        source = Source.OPEN if table.can_draw(Source.OPEN) and rng.random() < 0.3 else Source.STOCK
        table.apply(Draw(source))
        return
    seat = table.turn
    assert seat is not None
    blocked = table.view(seat).blocked
    choices = [c for c in table.hand(seat) if c != blocked]
    table.apply(Discard(rng.choice(choices)))


def reshuffles(table: Table) -> int:
    return sum(isinstance(e, Reshuffled) for e in table.log)


def play_until(table: Table, rng: random.Random, count: int, extra: int = 0) -> None:
    """Play until the deal has reshuffled ``count`` times, then ``extra`` more moves."""
    while reshuffles(table) < count:
        step(table, rng)
    for _ in range(extra):
        step(table, rng)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seeded", [False, True], ids=["live", "seeded"])
def test_a_rebuilt_deal_reshuffles_again_and_again(players: int, seeded: bool) -> None:
    rng = random.Random(players * 10 + seeded)
    seed = rng.getrandbits(32) if seeded else None
    # Rebuilt before the first reshuffle, between two, and mid-turn (after a draw).
    for before, extra in ((0, 7), (1, 30), (2, 1)):
        table = Table(players, seed=seed)
        play_until(table, rng, before, extra)
        at = len(table.log)
        rebuilt = Table.replay(table.log)
        assert rebuilt.log == table.log
        # Both play on with the same moves, through three more reshuffles.
        play_until(rebuilt, random.Random(before), before + 3)
        play_until(table, random.Random(before), before + 3)
        assert reshuffles(rebuilt) == before + 3 and not rebuilt.over
        if seeded:  # the same seed: the same reshuffles, the same deal
            assert rebuilt.log == table.log
        else:
            assert rebuilt.log[:at] == table.log[:at]
        # And the rebuilt deal's own log rebuilds it again, to the same place.
        assert Table.replay(rebuilt.log).log == rebuilt.log


def test_a_rebuilt_live_deal_shuffles_afresh() -> None:
    """Past the log's reshuffles, a rebuilt live table shuffles with a secure generator:
    two tables rebuilt from one log do not reshuffle alike (with ~10^100 orders, never)."""
    rng = random.Random(5)
    table = Table(2)
    play_until(table, rng, 1, 3)
    one, two = Table.replay(table.log), Table.replay(table.log)
    play_until(one, random.Random(1), 2)
    play_until(two, random.Random(1), 2)
    last_one = [e for e in one.log if isinstance(e, Reshuffled)][-1]
    last_two = [e for e in two.log if isinstance(e, Reshuffled)][-1]
    assert sorted(map(str, last_one.cards)) == sorted(map(str, last_two.cards))
    assert last_one.cards != last_two.cards
