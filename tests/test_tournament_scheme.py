"""The duplicate scheme: per shoe, every bot sits at every seat equally often."""

from __future__ import annotations

import pytest

from rummy21.tournament import Settings, lineups, play_shoe, seat_counts


@pytest.mark.parametrize("bots", range(1, 8))
@pytest.mark.parametrize("seats", range(2, 7))
def test_every_bot_sits_at_every_seat_once_per_shoe(bots: int, seats: int) -> None:
    plays = lineups(bots, seats)
    assert len(plays) == bots and all(len(lineup) == seats for lineup in plays)
    assert seat_counts(plays) == [[1] * seats for _ in range(bots)]
    assert len(set(plays)) == len(plays)  # no line-up played twice


@pytest.mark.parametrize(("bots", "seats"), [(2, 4), (3, 4), (2, 3), (4, 6)])
def test_fewer_bots_than_seats_fill_every_seat(bots: int, seats: int) -> None:
    """``k`` < ``n``: every line-up fills all seats; over the shoe each bot has ``n``
    seat-plays, whether or not ``k`` divides ``n``."""
    plays = lineups(bots, seats)
    for bot in range(bots):
        assert sum(lineup.count(bot) for lineup in plays) == seats


def test_more_bots_than_seats_sit_out_in_turn() -> None:
    assert lineups(4, 2) == ((0, 1), (1, 2), (2, 3), (3, 0))


def test_a_shoe_replays_the_same_cards_and_dealer() -> None:
    settings = Settings(("random", "random", "random"), players=2, deals=4, seed=9, turn_limit=30)
    record = play_shoe(settings, 3)
    assert [d.lineup for d in record.deals] == list(lineups(3, 2))
    assert record.dealer == (2 - 1 + 3) % 2
    # the line-up is all that changes: zero-sum deals, the shoe's means sum to zero
    assert all(sum(d.scores) == 0 for d in record.deals)
    assert abs(sum(record.means(3))) < 1e-9


def test_shoes_differ_and_each_is_a_function_of_its_number() -> None:
    settings = Settings(("random", "random"), players=3, deals=3, seed=2, turn_limit=30)
    first, again, other = play_shoe(settings, 0), play_shoe(settings, 0), play_shoe(settings, 1)
    assert first == again and first.seed != other.seed
    assert first.times and first.times[0].moves > 0  # timed, but not compared
