"""Fuzzing: random sequences of legal and illegal actions never corrupt the table.

An illegal action raises :class:`IllegalActionError` (a ``ValueError``) and leaves the table
exactly as it was; ``can_apply`` always predicts which it will be; the cards stay conserved and
the log still replays.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import event, given, settings
from hypothesis import strategies as st

from rummy21.cards import Card, canonical_shoe
from rummy21.game import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    IllegalActionError,
    Source,
    Table,
    TimeOut,
    dump_log,
)
from rummy21.ruleset import RuleSet

Step = tuple[int, int, int, bool]
STEP = st.tuples(st.integers(0, 11), st.integers(0, 52), st.integers(-1, 6), st.booleans())


def snapshot(table: Table) -> tuple[object, ...]:
    # Seat 0's view holds every public fact; the zones hold every card.
    return (
        table.zones(),
        len(table.log),
        table.turn,
        table.phase,
        table.drawn,
        table.turns,
        table.view(0),
    )


def card_counts(table: Table) -> list[int]:
    counts = [0] * 53
    for cards in table.zones().values():
        for card in cards:
            counts[card.index] += 1
    return counts


def pick(table: Table, step: tuple[int, int, int, bool]) -> tuple[Action, int | None]:
    kind, card_index, offset, flag = step
    legal = table.legal_actions()
    if kind < 6 and legal:
        # Mostly draws and discards, so deals move on; declarations are costly solver calls.
        plain = [a for a in legal if not isinstance(a, (Declare, Drop))] or legal
        return plain[(kind * 7 + card_index) % len(plain)], None
    turn = table.turn or 0
    seat = None if offset < 0 else (turn + offset) % table.players
    card = Card(card_index)
    options: list[Action] = [
        Draw(Source.OPEN if flag else Source.STOCK),
        Discard(card),
        Declare(card),
        Drop(),
        TimeOut(),
        Discard(card),
    ]
    return options[kind - 6], seat


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6),
    st.sampled_from(["classic", "adda52"]),
    st.integers(0, 10**6),
    st.lists(STEP, min_size=20, max_size=120),
)
def test_random_action_sequences_never_corrupt_the_table(
    players: int, preset: str, seed: int, steps: list[Step]
) -> None:
    outcomes = run(players, preset, seed, steps)
    event(f"illegal actions: {'some' if outcomes['illegal'] else 'none'}")


def test_long_seeded_action_sequences() -> None:
    totals: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        steps = [
            (rng.randrange(12), rng.randrange(53), rng.randrange(-1, 7), rng.random() < 0.5)
            for _ in range(200)
        ]
        totals += run(2 + seed % 5, ("classic", "adda52")[seed % 2], seed, steps)
    assert totals["illegal"] > 500 and totals["legal"] > 2000 and totals["over"] > 20


def run(players: int, preset: str, seed: int, steps: list[Step]) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    rules = RuleSet.preset(preset).with_(turn_limit=40)
    table = Table(players, rules, seed=seed)
    shoe = [0] * 53
    for card in canonical_shoe(rules.printed_jokers):
        shoe[card.index] += 1
    for step in steps:
        action, seat = pick(table, step)
        before = snapshot(table)
        allowed = table.can_apply(action, seat)
        try:
            table.apply(action, seat)
        except IllegalActionError as error:
            assert isinstance(error, ValueError) and str(error)
            assert not allowed, f"can_apply said yes to {action} but: {error}"
            assert snapshot(table) == before
            outcomes["illegal"] += 1
        else:
            assert allowed, f"can_apply said no to {action}, which succeeded"
            outcomes["legal"] += 1
        assert card_counts(table) == shoe
    if table.over:
        assert table.scores is not None and sum(table.scores) == 0
        outcomes["over"] += 1
    again = Table.replay(dump_log(table.log))
    assert again.log == table.log
    return outcomes
