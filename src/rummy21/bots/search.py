"""The ``search`` bot: determinized Monte Carlo over the expert's candidate moves.

For each move it samples ``samples`` worlds consistent with its
:class:`~rummy21.game.view.View` (:mod:`rummy21.bots.determinize`: known pick-ups stay with
their takers, the unseen cards are dealt to the other hands and the stock) and plays each
candidate forward in every world — the same worlds for every candidate (common random
numbers). A playout covers the bot's next ``horizon`` draws: the other active seats each draw
one stock card per round, the bot draws its card from the world's stock, declares if it can
(then the playout scores ``-win_bonus``), otherwise lets go the greedy card
(:func:`~rummy21.bots.greedy.best_release`). A playout that does not end scores the penalty
left (RULES §7, read by the engine). The candidate with the lowest mean wins; ties go to the
expert's own choice.

* **Discard**: the expert's choice and the ``width - 1`` other non-joker cards that leave
  the lowest penalty now. A valid declaration is always taken (the expert's finish).
* **Draw**: the expert decides drops; when the open card may be taken, stock and open are
  compared by playouts (the open card's playout keeps it this turn).

Seeded and a pure function of (seed, view): the worlds come from a generator seeded with the
seed and a digest of the view's public facts. ``samples`` is the budget that decides the
move; ``budget_s`` is only a safety cap on wall time (a move that hits it stops sampling
early, and then depends on the machine's speed — a default budget keeps well below it).

>>> from rummy21.game import Table
>>> bot, table = SearchBot(samples=4, seed=1), Table(players=3, seed=2)
>>> bot.choose(table.view(table.turn), table.legal_actions()) in table.legal_actions()
True
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from rummy21.bots.determinize import World, sample_world
from rummy21.bots.evaluate import penalty_after
from rummy21.bots.expert import ExpertBot, release_order, release_readings
from rummy21.bots.greedy import best_release
from rummy21.bots.tracking import next_active, read_public
from rummy21.cards import Card, counts_of
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.settlement import Standing
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import View


def view_digest(view: View) -> int:
    """A stable number for the public facts of ``view`` and the seat's own hand (the same
    in every process, unlike :func:`hash`)."""
    facts = (
        view.seat,
        view.turns,
        view.phase.value,
        tuple(str(c) for c in view.hand),
        tuple(str(o.card) for o in view.open_pile),
        tuple((e.action.value, e.seat, str(e.card)) for e in view.history),
    )
    return int.from_bytes(hashlib.blake2b(repr(facts).encode(), digest_size=8).digest(), "big")


class Start(NamedTuple):
    """Where a candidate's playout starts: the 21-card hand it leaves, the stock index of the
    bot's next draw, and how many of its draws to play."""

    counts: list[int]
    first: int
    rounds: int


class SearchBot:
    """Samples worlds and plays candidate moves forward in each; see the module docstring."""

    name = "search"

    def __init__(
        self,
        samples: int = 24,
        seed: int | None = None,
        horizon: int = 2,
        width: int = 4,
        win_bonus: int = 40,
        feed: float = 3.0,
        budget_s: float = 1.0,
        search_draws: bool = True,
    ) -> None:
        self.samples, self.seed, self.horizon, self.width = samples, seed or 0, horizon, width
        self.win_bonus, self.feed, self.budget_s = win_bonus, feed, budget_s
        self.search_draws = search_draws
        self.expert = ExpertBot()

    # -- playouts -------------------------------------------------------------------------

    def _playout(self, start: Start, world: World, step: int, view: View) -> int:
        """Penalty after the bot's next ``rounds`` stock draws (its first at index ``first``,
        then every ``step`` cards), or ``-win_bonus`` once it can declare."""
        jokers, rules = view.jokers, view.rules
        work = list(start.counts)
        at = start.first
        for _ in range(start.rounds):
            if at >= len(world.stock):
                break
            work[world.stock[at].index] += 1
            release = best_release(work, None, jokers, rules)
            if release.declare:
                return -self.win_bonus
            work[release.card.index] -= 1
            at += step
        return penalty_after(work, view.cut, rules).points

    def _worlds(self, view: View) -> Iterator[World]:
        rng = random.Random(self.seed * 1_000_003 + view_digest(view))
        public = read_public(view)
        for _ in range(self.samples):
            yield sample_world(view, rng, public)

    def _active(self, view: View) -> int:
        return sum(1 for s in view.seats if s.standing is Standing.ACTIVE)

    def _evaluate(self, view: View, starts: dict[Action, Start]) -> dict[Action, float]:
        """Mean playout score of each candidate over the same worlds; sampling stops early
        only past ``budget_s``."""
        step = self._active(view)
        totals = dict.fromkeys(starts, 0.0)
        clock = time.perf_counter()
        done = 0
        for world in self._worlds(view):
            for action, start in starts.items():
                totals[action] += self._playout(start, world, step, view)
            done += 1
            if time.perf_counter() - clock > self.budget_s:
                break
        return {a: t / max(1, done) for a, t in totals.items()}

    # -- decisions ------------------------------------------------------------------------

    def _discard(self, view: View, legal: Sequence[Action], fallback: Action) -> Action:
        counts = counts_of(view.hand)
        blocked = None if view.blocked is None else view.blocked.index
        ranking = release_readings(counts, blocked, view)
        candidates: list[Action] = [fallback]
        for i in release_order(ranking, view.jokers):
            if len(candidates) >= self.width:
                break
            action = Discard(Card(i))
            if action not in candidates and action in legal:
                candidates.append(action)
        if len(candidates) == 1:
            return fallback
        step = self._active(view)
        starts: dict[Action, Start] = {}
        for candidate in candidates:
            assert isinstance(candidate, Discard)
            after = list(counts)
            after[candidate.card.index] -= 1
            starts[candidate] = Start(after, step - 1, self.horizon)
        scores = self._evaluate(view, starts)
        nxt = next_active(view)
        if nxt is not None and self.feed:
            public = read_public(view)
            for candidate in candidates:
                assert isinstance(candidate, Discard)
                scores[candidate] += self.feed * public.fed(nxt, candidate.card.index)
        return min(candidates, key=lambda a: (scores[a], candidates.index(a)))

    def _draw(self, view: View, fallback: Action) -> Action:
        top = view.top
        if not self.search_draws or top is None or not view.can_take_open:
            return fallback
        counts = counts_of(view.hand)
        counts[top.card.index] += 1
        taken = best_release(
            counts, kept_after_taking(top.card, view.rules), view.jokers, view.rules
        )
        if taken.declare:
            return Draw(Source.OPEN)
        counts[taken.card.index] -= 1
        step = self._active(view)
        # Taking the open card keeps it: the next stock draw comes after the others' draws.
        # Drawing from the stock: the playout's first draw is the stock's top card, and one
        # more round, so that both cover the same turns.
        starts: dict[Action, Start] = {
            Draw(Source.OPEN): Start(counts, step - 1, self.horizon),
            Draw(Source.STOCK): Start(counts_of(view.hand), 0, self.horizon + 1),
        }
        scores = self._evaluate(view, starts)
        order = [fallback, *(a for a in starts if a != fallback)]
        return min(order, key=lambda a: (scores[a], order.index(a)))

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        fallback = self.expert.choose(view, legal_actions)
        if isinstance(fallback, Declare | Drop):
            return fallback
        if isinstance(fallback, Draw):
            return self._draw(view, fallback)
        return self._discard(view, legal_actions, fallback)
