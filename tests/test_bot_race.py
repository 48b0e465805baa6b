"""The race bot: legal, deterministic, blind to hidden cards, and ruled by the distance — its
discards never take a hand further from a valid declaration than it must go, it takes the open
card that brings the hand nearer, and it drops a far hand at its first turn.

Distances are read here by :func:`rummy21.distance.distance`, the public reading (checked
against the exhaustive reference in ``test_distance.py``), not by the bots' cached one.
"""

from __future__ import annotations

import pytest
from hidden_worlds import moves_in_worlds

from rummy21.bots import Bot, ExpertBot, RaceBot, make_bot
from rummy21.bots.evaluate import FAR
from rummy21.bots.race import nearest
from rummy21.cards import Hand
from rummy21.distance import distance
from rummy21.game import Discard, Draw, Drop, Source, Table
from rummy21.game.events import DropKind
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import View
from rummy21.ruleset import RuleSet


def _away(counts: list[int], view: View) -> int:
    """The distance of 21 cards by the public reading (``FAR + 1`` past ``FAR``)."""
    found = distance(Hand(tuple(counts)), view.cut, view.rules, limit=FAR).cards
    return FAR + 1 if found is None else found


def _least_release(view: View, kinds: list[int], counts: list[int] | None = None) -> int:
    """The least distance left by letting go one of ``kinds`` from 22 cards (the view's hand
    unless ``counts``)."""
    counts = list(view.hand.counts) if counts is None else list(counts)
    least = FAR + 1
    for index in kinds:
        counts[index] -= 1
        least = min(least, _away(counts, view))
        counts[index] += 1
    return least


def test_race_is_a_bot_by_name() -> None:
    bot = make_bot("race")
    assert isinstance(bot, RaceBot) and isinstance(bot, Bot) and bot.name == "race"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_race_plays_legal_moves_and_never_goes_further_than_it_must(
    players: int, seed: int
) -> None:
    table = Table(players, RuleSet().with_(turn_limit=80), seed=seed)
    bots: list[Bot] = [RaceBot() if s % 2 == 0 else ExpertBot() for s in range(players)]
    discards = 0
    while not table.over:
        seat = table.turn
        assert seat is not None
        view, legal = table.view(seat), table.legal_actions()
        action = bots[seat].choose(view, legal)
        assert action in legal
        if seat % 2 == 0 and isinstance(action, Discard):
            mask = view.jokers.joker_mask
            kinds = [
                c.index
                for c in dict.fromkeys(view.releasable)
                if not mask[c.index] and Discard(c) in legal
            ]
            if kinds and not mask[action.card.index]:
                counts = list(view.hand.counts)
                counts[action.card.index] -= 1
                assert _away(counts, view) == _least_release(view, kinds)
                discards += 1
        table.apply(action)
    assert table.result is not None and sum(table.result.scores) == 0
    assert discards >= 2


def test_nearest_is_every_release_at_the_least_distance() -> None:
    checked = 0
    for seed in range(6):
        table = Table(3, seed=seed)
        table.apply(Draw(Source.STOCK))
        view = table.view(table.turn or 0)
        counts = list(view.hand.counts)
        kinds = [i for i, n in enumerate(counts) if n]
        found, least = nearest(counts, kinds, view.cut, view.rules)
        assert counts == list(view.hand.counts)  # (given back as it was)
        expected = _least_release(view, kinds)
        assert least == expected
        if least <= FAR:
            every = []
            for index in kinds:
                counts[index] -= 1
                if _away(counts, view) == least:
                    every.append(index)
                counts[index] += 1
            assert found == every
            checked += 1
    assert checked >= 4


def test_race_is_deterministic_and_sees_only_its_view() -> None:
    runs = moves_in_worlds(lambda: RaceBot(), turns=24)
    assert len(runs[0]) >= 8
    for other in runs[1:]:
        assert [v for v, _ in other] == [v for v, _ in runs[0]]
        assert [a for _, a in other] == [a for _, a in runs[0]]


def _first_turns(players: int, seeds: range) -> list[tuple[Table, View]]:
    found = []
    for seed in seeds:
        table = Table(players, seed=seed)
        found.append((table, table.view(table.turn or 0)))
    return found


def test_race_drops_a_far_hand_at_its_first_turn_and_plays_a_near_one() -> None:
    far = near = 0
    for table, view in _first_turns(4, range(40)):
        legal = table.legal_actions()
        assert view.drop_kind is DropKind.FIRST and Drop() in legal
        away = _away(list(view.hand.counts), view)
        action = RaceBot().choose(view, legal)
        if away >= 4:
            assert action == Drop()
            far += 1
        elif ExpertBot().choose(view, legal) != Drop():
            assert action != Drop()  # (the expert's own drop rule still applies)
            near += 1
    assert far >= 2 and near >= 10
    # Switched off, the far rule leaves the expert's drops alone.
    for table, view in _first_turns(4, range(40)):
        legal = table.legal_actions()
        plain = RaceBot(far_drop=FAR + 2).choose(view, legal)
        assert (plain == Drop()) == (ExpertBot().choose(view, legal) == Drop())


def test_race_takes_the_open_card_that_brings_its_hand_nearer() -> None:
    taken = 0
    for table, view in _first_turns(3, range(60)):
        legal = table.legal_actions()
        top = view.top
        if top is None or not view.can_take_open or Draw(Source.OPEN) not in legal:
            continue
        counts = list(view.hand.counts)
        away = _away(counts, view)
        if away >= 4 or away == 0:
            continue  # (dropped, or declared)
        counts[top.card.index] += 1
        kept = kept_after_taking(top.card, view.rules)
        held = [i for i, n in enumerate(counts) if n and (kept is None or i != kept.index)]
        closer = _least_release(view, held, counts) < away
        if closer:
            assert RaceBot().choose(view, legal) == Draw(Source.OPEN)
            taken += 1
    assert taken >= 1
