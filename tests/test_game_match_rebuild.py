"""A match rebuilt from its stored deals (what a browser table does after a restart) deals on
exactly as the match that dealt them would have: same dealers, same seeds, same totals."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rummy21.bots import make_bots, play_deal, play_match
from rummy21.game import EndReason, GameError, Match, Table
from rummy21.game.match import DealSummary, deal_seed
from rummy21.ruleset import RuleSet

RULES = RuleSet().with_(turn_limit=60)


def same_deal(a: Table, b: Table) -> bool:
    return (a.dealer, a.seed, a.cut, [a.hand(s) for s in range(a.players)]) == (
        b.dealer,
        b.seed,
        b.cut,
        [b.hand(s) for s in range(b.players)],
    )


@pytest.mark.parametrize("done", [0, 1, 2, 5])
def test_a_rebuilt_match_deals_the_next_deal_as_the_original(done: int) -> None:
    original = Match(3, RULES, seed=21, point_value="0.5")
    play_match(original, make_bots(["random"] * 3, seed=21), done)
    rebuilt = Match.rebuild(
        3,
        RULES,
        seed=21,
        point_value="0.5",
        deals=original.deals,
        current=original.current,
        recorded=done > 0,
    )
    assert (rebuilt.number, rebuilt.dealer, rebuilt.totals, rebuilt.deals) == (
        original.number,
        original.dealer,
        original.totals,
        original.deals,
    )
    assert rebuilt.money(0) == original.money(0)
    assert same_deal(rebuilt.new_deal(), original.new_deal())
    assert rebuilt.number == original.number == done


def test_seeds_follow_deal_seed_and_the_dealer_rotates() -> None:
    match = Match(4, RULES, seed=9)
    for number in range(6):
        table = match.new_deal()
        assert (table.seed, table.dealer) == (deal_seed(9, number), (3 + number) % 4)
        for _ in range(3):
            table.drop()
        match.record(table)


def test_a_deal_in_progress_is_carried_on_and_recorded() -> None:
    original = Match(2, RULES, seed=4)
    play_match(original, make_bots(["random"] * 2, seed=4), 2)
    table = original.new_deal()
    table.draw("stock")
    again = Table.replay([e.to_dict() for e in table.log])
    rebuilt = Match.rebuild(2, RULES, seed=4, deals=original.deals, current=again)
    assert rebuilt.number == 2 and not rebuilt.recorded and rebuilt.current is again
    with pytest.raises(GameError, match="record the current deal"):
        rebuilt.new_deal()
    play_deal(again, make_bots(["random"] * 2, seed=5))
    record = rebuilt.record()
    assert record.number == 2 and list(rebuilt.totals) == [
        sum(d.scores[s] for d in rebuilt.deals) for s in range(2)
    ]
    play_deal(table, make_bots(["random"] * 2, seed=5))
    original.record()
    assert same_deal(rebuilt.new_deal(), original.new_deal())


def test_a_table_factory_deals_every_deal() -> None:
    calls: list[tuple[int, int, int | None]] = []

    def factory(players: int, rules: RuleSet, dealer: int, number: int, seed: int | None) -> Table:
        calls.append((dealer, number, seed))
        return Table(players, rules, seed=seed, dealer=dealer)

    match = Match(2, RULES, seed=3, table_factory=factory)
    table = match.new_deal()
    table.drop()
    match.record()
    match.new_deal()
    assert calls == [(1, 0, deal_seed(3, 0)), (0, 1, deal_seed(3, 1))]


def test_stored_deals_that_do_not_fit_are_refused() -> None:
    summary = DealSummary(1, 0, None, None, EndReason.WASH, None, 0, (0, 0))
    with pytest.raises(GameError, match="not all there"):
        Match.rebuild(2, RULES, deals=[summary])
    with pytest.raises(GameError, match="dealt by seat 2"):
        Match.rebuild(2, RULES, current=Table(2, seed=1, dealer=0))
    with pytest.raises(GameError, match="no deal is recorded"):
        Match.rebuild(2, RULES, current=Table(2, seed=1), recorded=True)


def test_money_of_a_rebuilt_match() -> None:
    match = Match(2, RULES, seed=2, point_value=Decimal("0.25"))
    table = match.new_deal()
    table.drop()
    match.record()
    rebuilt = Match.rebuild(2, RULES, seed=2, point_value=Decimal("0.25"), deals=match.deals)
    assert rebuilt.money(1) == match.money(1) == Decimal("7.50")


def test_the_next_table_changes_nothing_until_it_begins() -> None:
    match = Match(2, RULES, seed=6)
    table = match.next_table()
    assert (match.current, match.number, match.recorded) == (None, -1, True)
    again = match.next_table()  # the same deal again: nothing was drawn for good
    assert same_deal(table, again)
    with pytest.raises(GameError, match="dealt by seat 2"):
        match.begin(Table(2, seed=1, dealer=0))
    assert match.begin(table) is table and match.number == 0 and not match.recorded
    with pytest.raises(GameError, match="record the current deal"):
        match.next_table()
