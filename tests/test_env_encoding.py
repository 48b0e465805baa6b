"""The action table and the observation: masks are the engine's legal actions, and a seat's
observation shows nothing it may not see."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from handgen import rule_variants

pytest.importorskip("gymnasium")

from rummy21.cards import TYPE_COUNT
from rummy21.env.actions import ACTION_COUNT, ACTIONS, action_of, index_of
from rummy21.env.observation import Encoder, bounds, fields, size
from rummy21.env.spaces import observe
from rummy21.game import Declare, Discard, Table
from rummy21.game.dealing import deal_shoe, dealing_order, shuffled_shoe
from rummy21.ruleset import RuleSet

VARIANTS = rule_variants("classic", "adda52", "pick-up")


def test_the_action_table_round_trips() -> None:
    assert len(ACTIONS) == ACTION_COUNT == 3 + 2 * TYPE_COUNT
    assert [index_of(a) for a in ACTIONS] == list(range(ACTION_COUNT))
    for bad in (-1, ACTION_COUNT, 2.0, "3", None):
        with pytest.raises(ValueError, match="an action is an integer"):
            action_of(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_masks_are_exactly_what_the_engine_accepts(variant: str, players: int) -> None:
    """Over seeded random deals, at every position: an index is set in the mask if and only
    if the table accepts its action."""
    rules = VARIANTS[variant].with_(turn_limit=60)
    rng = random.Random(players)
    encoder = Encoder(players)
    high = bounds(players, 3)
    for deal in range(6):
        table = Table(players, rules, seed=1000 * players + deal)
        while not table.over:
            seat = table.turn
            assert seat is not None
            mask = observe(table, seat, encoder)["action_mask"]
            accepted = [table.can_apply(a) for a in ACTIONS]
            assert mask.tolist() == [int(x) for x in accepted]
            for other in range(players):
                seen = observe(table, other, encoder)
                if other != seat:
                    assert not seen["action_mask"].any()
                # The encoder's running counts read as the whole history does.
                fresh = Encoder(players).encode(table.view(other))
                assert np.array_equal(seen["observation"], fresh)
                assert (fresh >= 0).all() and (fresh <= high).all()
            # Random agents declare half the time; let them discard more, to see long deals.
            legal = np.flatnonzero(mask)
            plain = [i for i in legal if not isinstance(ACTIONS[i], Declare)]
            choice = rng.choice(plain if plain and rng.random() < 0.95 else list(legal))
            table.apply(action_of(int(choice)))


def _hidden_twin(players: int, seed: int, kept: int) -> tuple[Table, Table]:
    """Two deals that differ only in cards seat 0 cannot see: the other hands and the stock
    below its top ``kept`` cards are shuffled again (the cut stays at the stock's bottom)."""
    rules = RuleSet()
    order = shuffled_shoe(rules.printed_jokers, random.Random(seed))
    dealer = players - 1
    dealt = dealing_order(players, dealer, rules.hand_size)
    n = len(dealt)
    hidden = [i for i, s in enumerate(dealt) if s != 0] + list(range(n + 2 + kept, len(order)))
    other = list(order)
    cards = [order[i] for i in hidden]
    random.Random(seed + 1).shuffle(cards)
    for i, card in zip(hidden, cards, strict=True):
        other[i] = card
    one = Table(players, rules, shoe=order, dealer=dealer, seed=seed)
    two = Table(players, rules, shoe=other, dealer=dealer, seed=seed)
    assert (
        deal_shoe(order, players, dealer, 21).hands[0]
        == deal_shoe(other, players, dealer, 21).hands[0]
    )
    return one, two


@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_leak_hidden_cards_change_no_observation(players: int) -> None:
    """Seat 0's observation is the same in two deals that differ only in the other hands and
    the stock's order, turn after turn; the other seats' hands do differ."""
    kept = 4 * players
    one, two = _hidden_twin(players, 40 + players, kept)
    assert any(one.hand(s) != two.hand(s) for s in range(1, players))
    enc_one, enc_two = Encoder(players), Encoder(players)
    for _ in range(3 * players):
        first = observe(one, 0, enc_one)
        second = observe(two, 0, enc_two)
        assert np.array_equal(first["observation"], second["observation"])
        assert np.array_equal(first["action_mask"], second["action_mask"])
        # Every seat draws from the stock's kept top and lets the drawn card go again.
        for table in (one, two):
            drawn = table.draw("stock")
            table.discard(drawn.card)  # type: ignore[union-attr]
    assert not one.over and one.stock_size > 0


def test_own_hand_and_public_history_are_in_the_observation() -> None:
    table = Table(players=3, seed=5)
    enc = Encoder(3)
    at = {f.name: f for f in fields(3)}
    before = observe(table, 1, enc)["observation"]
    taken = table.draw("open").card  # type: ignore[union-attr]
    table.discard(next(c for c in table.hand(0) if c != taken))
    after = observe(table, 1, enc)["observation"]
    assert before.shape == after.shape == (size(3),)
    hand = at["hand"]
    assert list(after[hand.start : hand.stop]) == [table.hand(1).count(c) for c in ACTIONS_CARDS]
    # Seat 0 is relative seat 2 for seat 1: its pick-up shows in that row of "taken".
    row = at["taken"].start + 2 * TYPE_COUNT
    assert after[row + taken.index] == 1 and before[row + taken.index] == 0
    assert after[at["in_turn"].start + 0] == 1  # seat 1 is in turn now


def test_the_encoder_follows_a_new_deal_and_a_history_read_from_the_start() -> None:
    tables = [Table(players=2, seed=s) for s in (1, 2)]
    for table in tables:
        drawn = table.draw("stock")
        table.discard(drawn.card)  # type: ignore[union-attr]
    shared = Encoder(2)
    for table in (*tables, tables[0]):
        fresh = Encoder(2).encode(table.view(1))
        assert np.array_equal(shared.encode(table.view(1)), fresh)


ACTIONS_CARDS = [a.card for a in ACTIONS if isinstance(a, Discard)]


def test_the_documented_observation_table_is_the_layout() -> None:
    """docs/environments.md's table lists the fields in order, with their sizes."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "environments.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", page, re.MULTILINE)

    def entries(name: str, players: int) -> int:
        text = dict(rows)[name].strip()
        base, _, per_seat = text.partition("·")
        return int(base) * players if per_seat == "n" else (players if text == "n" else int(base))

    for players in range(2, 7):
        assert [(f.name, f.size) for f in fields(players)] == [
            (name, entries(name, players)) for name, _ in rows
        ]
        assert size(players) == 430 + 113 * players
