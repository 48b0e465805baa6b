"""The ``search`` bot: determinized Monte Carlo over the expert's candidate moves.

For each move it samples ``samples`` worlds consistent with its
:class:`~rummy21.game.view.View` (:mod:`rummy21.bots.determinize`: known pick-ups stay with
their takers, the unseen cards are dealt to the other hands and the stock) and plays each
candidate forward in every world — the same worlds for every candidate (common random
numbers). A playout covers the bot's next ``horizon`` draws: the other active seats each draw
one stock card per round, the bot draws its card from the world's stock, declares if it can,
otherwise lets go the greedy card (:func:`~rummy21.bots.greedy.best_release`). A playout
scores what the deal would cost the bot, as RULES §7 settles it: before each of its draws the
others may declare first (each with chance ``hazard`` a turn), and the bot then pays the
penalty it holds (read by the engine); declaring wins ``loser_points`` from each other active
seat (what a loser paid on average in the expert's tournaments, value cards included); a
playout that does not end costs the penalty left. Winning is worth far more than a few
penalty points (a winner took +249 a deal, a loser paid −83, in 4-seat tournaments), so the
bot plays for the draws that declare. The expert's own choice stands unless another
candidate does better in the same worlds by more than ``margin`` standard errors of the
paired difference (then the best of those): with a few dozen worlds the lowest mean is often
only the luckiest, and following it would throw away the expert's judgment on the moves the
worlds cannot tell apart.

* **Discard**: the expert's choice and the ``width - 1`` other non-joker cards that leave
  the lowest penalty now. A valid declaration is always taken (the expert's finish).
* **Draw**: the expert decides drops; when the open card may be taken, stock and open are
  compared by playouts (the open card's playout keeps it this turn).

Seeded and a pure function of (seed, view): the worlds come from a generator seeded with the
seed and a digest of the view's public facts. ``samples`` is the budget that decides the
move; ``budget_s`` is only a safety cap on the CPU time of the thread choosing (a move that
hits it stops sampling early, and then depends on the machine's speed — by default one
second per 24 worlds, well above what the worlds take: at the default 96, 0.20 s median and
1.3 s p99 of CPU a move). CPU time, not wall time, so that
other work on the machine does not change a move: a tournament on a loaded machine plays
the same moves as on an idle one.

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


DEFAULT_SAMPLES = 96
"""The worlds a move samples by default (the lobby's Master, ``search``): the budget at which
it beats the expert in duplicate tournaments (the README's ladder; at 24 it does not)."""

SECONDS_PER_WORLD = 1 / 24
"""The default cap on a move's CPU time, per world sampled (:attr:`SearchBot.budget_s`)."""


def search_with_worlds(argument: str, seed: int | None = None) -> SearchBot:
    """The bot named ``search:WORLDS``: a search bot sampling ``WORLDS`` worlds a move.

    >>> search_with_worlds("96").samples
    96
    >>> search_with_worlds("many")
    Traceback (most recent call last):
    ...
    ValueError: search:WORLDS needs a whole number of worlds from 1 to 10000, not 'many'
    """
    text = argument.strip()
    if not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise ValueError(
            f"search:WORLDS needs a whole number of worlds from 1 to 10000, not {argument!r}"
        )
    return SearchBot(samples=int(text), seed=seed)


class Start(NamedTuple):
    """Where a candidate's playout starts: the 21-card hand it leaves (and its penalty), the
    stock index of the bot's next draw, how many of its draws to play, and whether the others
    play before the first of them (they do after a discard, not before a stock draw)."""

    counts: list[int]
    points: int
    first: int
    rounds: int
    waits: bool = True


class SearchBot:
    """Samples worlds and plays candidate moves forward in each; see the module docstring."""

    name = "search"

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        seed: int | None = None,
        horizon: int = 2,
        width: int = 4,
        hazard: float = 0.05,
        loser_points: int = 80,
        feed: float = 3.0,
        budget_s: float | None = None,
        search_draws: bool = True,
        margin: float = 1.0,
    ) -> None:
        self.samples, self.seed, self.horizon, self.width = samples, seed or 0, horizon, width
        self.feed = feed
        self.budget_s = samples * SECONDS_PER_WORLD if budget_s is None else budget_s
        self.hazard, self.loser_points = hazard, loser_points
        self.search_draws = search_draws
        self.margin = margin
        self.expert = ExpertBot()

    # -- playouts -------------------------------------------------------------------------

    def _playout(self, start: Start, world: World, step: int, view: View) -> float:
        """The expected loss over the bot's next ``rounds`` stock draws (its first at index
        ``first``, then every ``step`` cards): before each draw the others may declare first
        (each with chance ``hazard`` a turn), costing the penalty then held; declaring gains
        ``loser_points`` from each of them; a playout that does not end costs the penalty
        left."""
        jokers, rules = view.jokers, view.rules
        work = list(start.counts)
        at, points, alive, cost = start.first, start.points, 1.0, 0.0
        win = self.loser_points * (step - 1)
        lost = 1.0 - (1.0 - self.hazard) ** (step - 1)
        for r in range(start.rounds):
            if at >= len(world.stock):
                break
            if r or start.waits:
                cost += alive * lost * points
                alive *= 1.0 - lost
            work[world.stock[at].index] += 1
            release = best_release(work, None, jokers, rules)
            if release.declare:
                return cost - alive * win
            work[release.card.index] -= 1
            points = release.reading.points
            at += step
        return cost + alive * points

    def _worlds(self, view: View) -> Iterator[World]:
        rng = random.Random(self.seed * 1_000_003 + view_digest(view))
        public = read_public(view)
        for _ in range(self.samples):
            yield sample_world(view, rng, public)

    def _active(self, view: View) -> int:
        return sum(1 for s in view.seats if s.standing is Standing.ACTIVE)

    def _evaluate(self, view: View, starts: dict[Action, Start]) -> dict[Action, list[float]]:
        """Each candidate's playout scores, one per world, over the same worlds; sampling
        stops early only past ``budget_s``."""
        clock = time.thread_time()
        step = self._active(view)
        scores: dict[Action, list[float]] = {a: [] for a in starts}
        for world in self._worlds(view):
            for action, start in starts.items():
                scores[action].append(self._playout(start, world, step, view))
            if time.thread_time() - clock > self.budget_s:
                break
        return scores

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
            points = penalty_after(after, view.cut, view.rules).points
            starts[candidate] = Start(after, points, step - 1, self.horizon)
        scores = self._evaluate(view, starts)
        nxt = next_active(view)
        extra: dict[Action, float] = {}
        if nxt is not None and self.feed:
            public = read_public(view)
            for candidate in scores:
                assert isinstance(candidate, Discard)
                extra[candidate] = self.feed * public.fed(nxt, candidate.card.index)
        return self._best(candidates, scores, extra)

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
        now = penalty_after(counts_of(view.hand), view.cut, view.rules).points
        # Taking the open card keeps it: the next stock draw comes after the others' draws.
        # Drawing from the stock: the playout's first draw is the stock's top card, and one
        # more round, so that both cover the same turns.
        both: dict[Action, Start] = {
            Draw(Source.OPEN): Start(counts, taken.reading.points, step - 1, self.horizon),
            Draw(Source.STOCK): Start(counts_of(view.hand), now, 0, self.horizon + 1, False),
        }
        order = [fallback, *(a for a in both if a != fallback)]
        return self._best(order, self._evaluate(view, {a: both[a] for a in order}))

    def _best(
        self,
        order: Sequence[Action],
        scores: dict[Action, list[float]],
        extra: dict[Action, float] | None = None,
    ) -> Action:
        """The expert's choice (``order[0]``) unless another candidate does better in the
        same worlds by more than ``margin`` standard errors of their paired difference (the
        lowest mean difference among those; the earlier on ties). ``extra`` adds a fixed
        cost to a candidate (feeding the next player).

        Playouts are noisy: with a few dozen worlds the lowest mean is often the luckiest,
        not the best, and a bot that follows it throws away the expert's judgment on the
        moves where the worlds cannot tell the candidates apart. Deviating only on evidence
        keeps the expert's move there and still takes the clearly better ones."""
        base = order[0]
        cost = extra or {}
        mine = scores.get(base, [])
        best, best_mean = base, 0.0
        for action in order[1:]:
            theirs = scores.get(action, [])
            n = min(len(mine), len(theirs))
            if n == 0:
                continue
            shift = cost.get(action, 0.0) - cost.get(base, 0.0)
            diffs = [theirs[w] - mine[w] + shift for w in range(n)]
            mean = sum(diffs) / n
            spread = (
                (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 / n**0.5 if n > 1 else 0.0
            )
            if mean < -self.margin * spread and mean < best_mean:
                best, best_mean = action, mean
        return best

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        fallback = self.expert.choose(view, legal_actions)
        if isinstance(fallback, Declare | Drop):
            return fallback
        if isinstance(fallback, Draw):
            return self._draw(view, fallback)
        return self._discard(view, legal_actions, fallback)
