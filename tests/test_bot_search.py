"""The search bot: legal, deterministic, blind to hidden cards, within its budget; worlds
that agree with the view.

Search turns sample worlds and read hundreds of hands: games here are few, short and seeded.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from hidden_worlds import moves_in_worlds

from rummy21.bots import Bot, ExpertBot, GreedyBot, SearchBot, make_bot
from rummy21.bots.determinize import sample_world
from rummy21.bots.tracking import read_public
from rummy21.cards import Card, canonical_shoe
from rummy21.game import Discard, Draw, Source, Table
from rummy21.game.actions import Action
from rummy21.ruleset import RuleSet
from rummy21.tournament.run import run_shoes
from rummy21.tournament.settings import Settings
from rummy21.tournament.summary import summarize


def test_search_is_a_bot_by_name() -> None:
    bot = make_bot("search", seed=3)
    assert isinstance(bot, SearchBot) and isinstance(bot, Bot) and bot.name == "search"


def _step(table: Table, bots: list[Bot]) -> None:
    seat = table.turn
    assert seat is not None
    legal = table.legal_actions()
    action = bots[seat].choose(table.view(seat), legal)
    assert action in legal
    table.apply(action)


def test_search_plays_legal_moves_to_the_end() -> None:
    table = Table(3, RuleSet().with_(turn_limit=30), seed=5)
    bots: list[Bot] = [SearchBot(samples=4, seed=1), GreedyBot(), SearchBot(samples=4, seed=2)]
    while not table.over:
        _step(table, bots)
    assert table.result is not None and sum(table.result.scores) == 0


def test_worlds_agree_with_the_view() -> None:
    table = Table(3, seed=4)
    bots: list[Bot] = [GreedyBot(), GreedyBot(), GreedyBot()]
    for _ in range(14):
        _step(table, bots)
    view = table.view(0)
    public = read_public(view)
    for n in range(5):
        world = sample_world(view, random.Random(n))
        assert [sum(h) for h in world.hands] == [s.cards for s in view.seats]
        assert len(world.stock) == view.stock_size and world.stock[-1] == view.cut
        for seat in (1, 2):
            assert all(h >= t for h, t in zip(world.hands[seat], public.taken[seat], strict=True))
        seen = Counter(view.hand) + Counter(o.card for o in view.open_pile)
        for seat in (1, 2):
            seen.update({Card(i): n for i, n in enumerate(world.hands[seat]) if n})
        seen.update(world.stock)
        assert not seen - Counter(canonical_shoe(3))  # no card more often than the shoe holds


def test_search_is_deterministic() -> None:
    table = Table(4, seed=21)
    for _ in range(6):
        seat = table.turn
        assert seat is not None
        view, legal = table.view(seat), table.legal_actions()
        first = SearchBot(samples=6, seed=7).choose(view, legal)
        assert SearchBot(samples=6, seed=7).choose(view, legal) == first
        table.apply(first)


def test_search_sees_only_its_view() -> None:
    runs = moves_in_worlds(lambda: SearchBot(samples=6, seed=3), turns=15)
    assert len(runs[0]) >= 6
    for other in runs[1:]:
        assert [v for v, _ in other] == [v for v, _ in runs[0]]  # the same public facts
        assert [a for _, a in other] == [a for _, a in runs[0]]  # and so the same moves


def test_search_weighs_its_candidates_and_respects_its_budget() -> None:
    table = Table(4, seed=9)
    table.apply(Draw(Source.STOCK))
    view, legal = table.view(table.turn or 0), table.legal_actions()
    capped = SearchBot(samples=10_000, seed=1, budget_s=0.2)
    clock = time.thread_time()  # the cap counts the choosing thread's CPU time
    action = capped.choose(view, legal)
    assert isinstance(action, Discard) and action in legal
    expert_alone = time.thread_time()
    ExpertBot().choose(view, legal)
    expert_s = time.thread_time() - expert_alone
    assert expert_alone - clock < expert_s + 0.2 + 0.5  # the cap, one world's playouts, slack


@pytest.mark.parametrize("bots", [("search", "greedy")])
def test_a_tiny_tournament_runs(bots: tuple[str, str]) -> None:
    settings = Settings(bots, players=2, deals=1, seed=1, turn_limit=20)
    summary = summarize(settings, run_shoes(settings, range(1), jobs=1))
    assert summary.shoes == 1 and {b.label for b in summary.bots} == set(bots)


def test_a_playout_scores_the_deal_not_the_penalty() -> None:
    """Declaring at the first draw wins ``loser_points`` from each other seat, discounted by
    the chance that one of them declared first (and then the penalty held is lost)."""
    from types import SimpleNamespace
    from typing import cast

    from rummy21.bots.determinize import World
    from rummy21.bots.evaluate import penalty_after
    from rummy21.bots.greedy import best_release
    from rummy21.bots.search import Start
    from rummy21.cards import counts_of, parse_cards
    from rummy21.game.view import View
    from rummy21.jokers import Jokers

    cut = Card.parse("7D")
    hand = parse_cards("7S 8S 9S 10S 2H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    view = cast(View, SimpleNamespace(jokers=Jokers.from_cut(cut), rules=RuleSet()))
    counts = counts_of(hand)
    points = penalty_after(counts, cut).points
    assert points > 0
    bot = SearchBot(hazard=0.1, loser_points=80)
    wins = World((), (Card.parse("3H"), Card.parse("KD")))
    declared = bot._playout(Start(counts, points, 0, 2), wins, 4, view)
    lost = 1 - 0.9**3  # one of three others declares before the draw
    assert declared == pytest.approx(lost * points - (1 - lost) * 80 * 3)
    # The stock's top card needs no waiting: no one declares before it.
    assert bot._playout(Start(counts, points, 0, 2, False), wins, 4, view) == -240
    # A playout that does not declare ends holding the penalty left after its release.
    blank = World((), (Card.parse("10H"),))
    counts[Card.parse("10H").index] += 1
    left = best_release(counts, None, Jokers.from_cut(cut), RuleSet())
    counts[Card.parse("10H").index] -= 1
    assert not left.declare
    after = bot._playout(Start(counts, points, 0, 1), blank, 4, view)
    assert after == pytest.approx(lost * points + (1 - lost) * left.reading.points)


def test_a_table_playout_plays_every_seat_to_a_declaration() -> None:
    """With ``table_rounds`` every seat plays: a seat that completes its hand from the stock
    declares, and the bot then pays the penalty it holds — or wins from each other seat when
    its own draw comes first and completes its hand."""
    from types import SimpleNamespace
    from typing import cast

    from rummy21.bots.determinize import World
    from rummy21.bots.evaluate import penalty_after
    from rummy21.bots.expert import release_order, release_readings
    from rummy21.bots.search import Start
    from rummy21.cards import counts_of, parse_cards
    from rummy21.game.settlement import Standing
    from rummy21.game.view import View
    from rummy21.jokers import Jokers

    cut = Card.parse("7D")
    seats = [SimpleNamespace(standing=Standing.ACTIVE) for _ in range(2)]
    view = cast(
        View,
        SimpleNamespace(
            jokers=Jokers.from_cut(cut), cut=cut, rules=RuleSet(), players=2, seat=0, seats=seats
        ),
    )
    near = parse_cards("7S 8S 9S 10S 2H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    loose = parse_cards("2S 5S 9S JS KS 3C 6C 10C QC AD 4D 8D 10D 2H 6H 9H QH KH 3S 7C JD")
    mine, theirs = counts_of(loose), counts_of(near)
    points = penalty_after(mine, cut).points
    world = World(((), tuple(theirs)), (Card.parse("3H"), Card.parse("3H")))
    bot = SearchBot(table_rounds=3)
    # (the other seat lets go in its full release order here, so that its declaring card is
    # among the few it tries; the playouts' own cheap order, loose_first, is tried first)
    order_of = release_order(release_readings(list(theirs), None, view), view.jokers)
    opponents = [(list(theirs), penalty_after(theirs, cut).points, order_of)]
    # After a discard the other seat draws first: its 3H completes its hand.
    start = Start(list(mine), points, 1, 2)
    assert bot._table_playout(start, world, view, [], None, opponents) == points
    # The bot's own stock draw comes first, and the other seat's hand is the bot's: it wins.
    start = Start(list(theirs), penalty_after(theirs, cut).points, 0, 3, False)
    order = opponents[0][2]  # (the release order of that hand)
    assert bot._table_playout(start, world, view, order, None, opponents) == -bot.loser_points
    # With table_schedule the others declare by the schedule (here never: hazard 0), not when
    # the world's guessed hand completes: the other seat plays its 3H on, then the bot plays.
    scheduled = SearchBot(table_rounds=1, table_schedule=True, hazard=0.0)
    start = Start(list(mine), points, 1, 2)
    value = scheduled._table_playout(start, world, view, order, None, opponents)
    hand, their, their_order = (list(opponents[0][0]), opponents[0][1], opponents[0][2])
    theirs_played, at = scheduled._turn(hand, their, their_order, None, world.stock, 0, view, 0)
    assert theirs_played is not None and theirs_played.declare  # (it would have declared)
    own = list(mine)
    played, _ = scheduled._turn(
        own, points, order, theirs_played.card.index, world.stock, at, view, 5
    )
    assert played is not None
    assert value == (-scheduled.loser_points if played.declare else played.reading.points)


def test_search_worlds_is_a_bot_name_with_its_own_budget() -> None:
    from rummy21.bots import check_bot_name, parse_bot_names

    bot = make_bot("search:96", seed=2)
    assert isinstance(bot, SearchBot) and bot.samples == 96 and bot.budget_s == 4.0
    assert make_bot("search").samples == 96 and SearchBot().budget_s == 4.0  # type: ignore[attr-defined]
    assert SearchBot(samples=24).budget_s == 1.0
    assert check_bot_name(" Search:48 ") == "search:48"
    assert parse_bot_names("search:6,expert", 4) == ["search:6", "expert", "search:6", "expert"]
    for bad in ("search:0", "search:lots", "search:-3", "search:20000"):
        with pytest.raises(ValueError, match="whole number of worlds"):
            check_bot_name(bad)
    settings = Settings(("search:6", "expert"), players=2, deals=1, seed=1, turn_limit=20)
    summary = summarize(settings, run_shoes(settings, range(1), jobs=1))
    assert {b.label for b in summary.bots} == {"search:6", "expert"}


def test_search_leaves_the_experts_move_only_on_evidence() -> None:
    """An alternative replaces the expert's choice only when its paired difference over the
    same worlds is below zero by more than ``margin`` standard errors; then the best such."""
    expert, a, b = (Discard(Card.parse(t)) for t in ("KS", "QS", "JS"))
    bot = SearchBot(margin=1.0)
    # a is better on average, but by luck: far better in one world, worse in another.
    noisy: dict[Action, list[float]] = {
        expert: [10.0] * 8,
        a: [10.0] * 6 + [-30.0, 20.0],
        b: [10.0] * 8,
    }
    assert bot._best([expert, a, b], noisy) == expert
    # a is better in every world by about 5: it is taken; b better still, so b.
    clear: dict[Action, list[float]] = {expert: [10.0] * 8, a: [5.0, 4.0] * 4, b: [1.0, 2.0] * 4}
    assert bot._best([expert, a, b], clear) == b
    # With margin 0 any lower mean wins, as the bot played before the margin.
    assert SearchBot(margin=0.0)._best([expert, a, b], noisy) == a
    # A cost added in every world (feeding the next player, SearchBot.judge) counts against it.
    assert (
        bot._best([expert, b], {expert: clear[expert], b: [x + 20.0 for x in clear[b]]}) == expert
    )
    # No world scored within the budget: the expert's move.
    nothing: dict[Action, list[float]] = {expert: [], a: []}
    assert bot._best([expert, a], nothing) == expert


def test_the_others_chance_to_declare_grows_with_the_deal() -> None:
    """Without a flat ``hazard``, a playout's danger is :func:`declare_chance` of the round the
    others are in: low at the deal's start, higher later, the same for every seat count."""
    from types import SimpleNamespace
    from typing import cast

    from rummy21.bots.search import declare_chance
    from rummy21.game.view import View

    chances = [declare_chance(r) for r in range(12)]
    assert chances == sorted(chances) and 0 < chances[0] < 0.02 and chances[-1] <= 0.14
    bot = SearchBot()
    early = cast(View, SimpleNamespace(turns=0, players=4))
    late = cast(View, SimpleNamespace(turns=24, players=4))
    assert bot._others_declare(early, 4, 0) == pytest.approx(1 - (1 - declare_chance(0)) ** 3)
    assert bot._others_declare(late, 4, 1) == pytest.approx(1 - (1 - declare_chance(7)) ** 3)
    assert SearchBot(hazard=0.05)._others_declare(late, 4, 1) == pytest.approx(1 - 0.95**3)


def test_quick_release_is_best_release_over_the_cards_it_tries() -> None:
    """Given every held card to try, the playouts' cheap release picks what the greedy one
    picks (but a joker finish, which it never tries); given a few, the best of those."""
    from rummy21.bots.evaluate import penalty_after
    from rummy21.bots.greedy import best_release
    from rummy21.bots.search import quick_release
    from rummy21.cards import ALL_CARDS, counts_of
    from rummy21.jokers import Jokers

    rng = random.Random(25)
    rules = RuleSet()
    shoe = [card for card in ALL_CARDS for _ in range(3)]
    compared = 0
    for _ in range(150):
        rng.shuffle(shoe)
        counts, cut, drawn = counts_of(shoe[:22]), shoe[22], shoe[21].index
        jokers = Jokers.from_cut(cut)
        greedy = best_release(counts, None, jokers, rules)
        every = [i for i, n in enumerate(counts) if n]
        quick = quick_release(counts, drawn, every, jokers, rules, 22)
        if not jokers.joker_mask[greedy.card.index]:
            assert quick == greedy
            compared += 1
        few = quick_release(counts, drawn, every[:3], jokers, rules, 2)
        mask = jokers.joker_mask
        tried = [i for i in every[:3] if i != drawn and not mask[i]][:2]
        tried += [] if mask[drawn] else [drawn]
        assert few.card.index in tried
        work = list(counts)
        work[few.card.index] -= 1
        assert few.reading == penalty_after(work, cut, rules)
    assert compared > 100
