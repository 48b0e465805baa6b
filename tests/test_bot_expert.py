"""The expert bot: legal, deterministic, blind to hidden cards, declares with the best finish.

Expert turns read a few hundred hands with the solver: games here are few, short and seeded.
"""

from __future__ import annotations

import pytest
from hidden_worlds import moves_in_worlds

from rummy21.analysis import score_counts
from rummy21.bots import Bot, ExpertBot, GreedyBot, RandomBot, make_bot
from rummy21.bots.tracking import read_public
from rummy21.cards import Card, counts_of, parse_cards
from rummy21.game import Declare, Discard, Draw, Source, Table
from rummy21.game.dealing import arrange_shoe
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.tournament.run import run_shoes
from rummy21.tournament.settings import Settings
from rummy21.tournament.summary import summarize

VALID = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"


def test_expert_is_a_bot_by_name() -> None:
    bot = make_bot("expert")
    assert isinstance(bot, ExpertBot) and isinstance(bot, Bot) and bot.name == "expert"


def _play(table: Table, bots: list[Bot]) -> None:
    while not table.over:
        seat = table.turn
        assert seat is not None
        legal = table.legal_actions()
        view = table.view(seat)
        action = bots[seat].choose(view, legal)
        assert action in legal
        if isinstance(bots[seat], ExpertBot) and isinstance(action, Discard):
            jokers = view.jokers
            if jokers.is_joker(action.card):
                assert all(jokers.is_joker(c) for c in view.releasable)
        table.apply(action)


@pytest.mark.parametrize("seed", [3, 8])
def test_expert_plays_legal_moves_and_keeps_its_jokers(seed: int) -> None:
    rules = RuleSet().with_(turn_limit=60)
    bots: list[Bot] = [ExpertBot(), GreedyBot(), RandomBot(seed), ExpertBot()]
    table = Table(4, rules, seed=seed)
    _play(table, bots)
    assert table.result is not None and sum(table.result.scores) == 0


def test_expert_is_deterministic() -> None:
    table = Table(3, seed=21)
    for _ in range(12):
        if table.over:
            break
        seat = table.turn
        assert seat is not None
        view, legal = table.view(seat), table.legal_actions()
        first = ExpertBot().choose(view, legal)
        assert ExpertBot().choose(view, legal) == first
        table.apply(first)


def test_expert_sees_only_its_view() -> None:
    runs = moves_in_worlds(lambda: ExpertBot(), turns=24)
    assert len(runs[0]) >= 8
    for other in runs[1:]:
        assert [v for v, _ in other] == [v for v, _ in runs[0]]  # the same public facts
        assert [a for _, a in other] == [a for _, a in runs[0]]  # and so the same moves


def _best_value(hand22: list[int], blocked: Card | None, jokers: Jokers, rules: RuleSet) -> int:
    best = -1
    for i, n in enumerate(hand22):
        if n and (blocked is None or i != blocked.index):
            hand22[i] -= 1
            score = score_counts(hand22, jokers, rules)
            if score.valid:
                best = max(best, score.value.points)
            hand22[i] += 1
    return best


@pytest.mark.parametrize("extra", ["7D", "8D", "KD", "9C"])
def test_expert_declares_with_the_finish_that_keeps_most_value(extra: str) -> None:
    cut = Card.parse("7D")
    other = "2S 3S 4S 6H 7H 8H 9D 10D JD 5S 5C QD KH 2C 3C 4D 9S 10C JH AS 6C"
    shoe = arrange_shoe(
        [parse_cards(VALID), parse_cards(other)],
        cut,
        Card.parse(extra),
        dealer=1,
        printed_jokers=3,
        stock=parse_cards("QH"),
    )
    table = Table(2, shoe=shoe, seed=0)
    bot = ExpertBot()
    draw = bot.choose(table.view(0), table.legal_actions())
    table.apply(draw)
    view = table.view(0)
    action = bot.choose(view, table.legal_actions())
    assert isinstance(action, Declare)
    counts = counts_of(view.hand)
    counts[action.finish.index] -= 1
    kept = score_counts(counts, view.jokers, view.rules)
    assert kept.valid
    counts[action.finish.index] += 1
    assert kept.value.points == _best_value(counts, view.blocked, view.jokers, view.rules)


def test_public_tracking_counts_pickups_and_discards() -> None:
    table = Table(2, seed=4)
    first = table.turn
    assert first is not None
    taken = table.view(first).top
    assert taken is not None
    if table.view(first).can_take_open:
        table.apply(Draw(Source.OPEN))
        view = table.view(first)
        table.apply(next(a for a in table.legal_actions() if isinstance(a, Discard)))
        other = 1 - first
        public = read_public(table.view(other))
        assert public.taken[first][taken.card.index] == 1
        assert sum(public.live) == 159 - 21 - len(table.view(other).open_pile) - 1 - 1
        assert len(view.hand) == 22


def test_a_tiny_tournament_runs() -> None:
    settings = Settings(("expert", "greedy"), players=2, deals=2, seed=1, turn_limit=60)
    summary = summarize(settings, run_shoes(settings, range(2), jobs=1))
    assert summary.shoes == 2 and {b.label for b in summary.bots} == {"expert", "greedy"}


def test_the_server_seats_and_runs_an_expert() -> None:
    pytest.importorskip("pydantic")
    from rummy21.bots import choose_move
    from rummy21.server.protocol import CreateTable

    made = CreateTable(name="Asha", seats=["human", "expert", "greedy", "random"])
    assert made.seats[1] == "expert"
    table = Table(2, seed=6)
    seat = table.turn
    assert seat is not None
    action, _ = choose_move("expert", 1, table.view(seat), table.legal_actions())
    assert action in table.legal_actions()
