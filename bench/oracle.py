"""A research bound, not a bot: the expert's move improved by exact rollouts of the true deal.

For each candidate move (the search's: the expert's choice and the next ``width - 1`` cards of
its release order, or stock against open), the :class:`OracleBot` copies the real table,
plays the candidate, then lets every seat — itself included — play the expert to the end of
the deal, and keeps the candidate whose finished deal scores best for its seat (the expert's
choice on ties). Among expert opponents this is the exact value of each candidate under the
expert's continuation: one step of policy improvement with nothing hidden and nothing
guessed, the most a one-move lookahead over these candidates can take from a field of
experts. It reads the Table, so it lives here, beside ``one_seat.py`` (its ``oracle`` kind),
never in the package.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from statistics import fmean, stdev

from rummy21.bots import ExpertBot, play_deal
from rummy21.bots.determinize import World, sample_world
from rummy21.bots.search import SearchBot, view_digest
from rummy21.bots.tracking import read_public
from rummy21.game import Table
from rummy21.game.actions import Action, Declare, Draw, Drop
from rummy21.game.view import View


class OracleBot:
    """Exact expert rollouts of the true deal for the search's candidates; see the module."""

    name = "oracle"

    def __init__(self, table: Table, width: int = 4) -> None:
        self.table, self.width = table, width
        self.search = SearchBot(width=width)  # (its candidates; its expert decides the rest)
        self.expert = ExpertBot()  # (the field and the rollouts: experts)

    def _candidates(self, view: View, legal: Sequence[Action], fallback: Action) -> list[Action]:
        if isinstance(fallback, Draw):
            return [fallback, *(a for a in legal if isinstance(a, Draw) and a != fallback)]
        return self.search.discard_candidates(view, legal, fallback)

    def _rollout(self, action: Action, seat: int) -> int:
        return self._played_out(copy.deepcopy(self.table), action, seat)

    def _played_out(self, table: Table, action: Action, seat: int) -> int:
        """``seat``'s score once ``action`` is played on ``table`` and every seat plays the
        expert to the end of the deal."""
        table.apply(action)
        if not table.over:
            play_deal(table, [self.expert] * table.players)
        scores = table.scores
        assert scores is not None
        return scores[seat]

    def _choices(self, view: View, legal_actions: Sequence[Action]) -> list[Action]:
        """The candidates to compare, the expert's first (only it: nothing to compare)."""
        fallback = self.expert.choose(view, legal_actions)
        if isinstance(fallback, Declare | Drop):
            return [fallback]
        return self._candidates(view, legal_actions, fallback)

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        candidates = self._choices(view, legal_actions)
        fallback = candidates[0]
        if len(candidates) == 1:
            return fallback
        best: Action = fallback
        best_score = self._rollout(fallback, view.seat)
        for action in candidates[1:]:
            score = self._rollout(action, view.seat)
            if score > best_score:
                best, best_score = action, score
        return best


def world_table(table: Table, world: World, seed: int) -> Table:
    """A copy of ``table`` with ``world``'s guess at the hidden cards in place of the real
    ones: every other hand, the stock's order, and a reshuffle generator of its own (the real
    table's would deal the real reshuffles). Only the seat's own View built ``world``."""
    guess = copy.deepcopy(table)
    for seat, counts in enumerate(world.hands):
        guess._hands[seat] = list(counts)
        guess._held[seat] = None
    guess._stock = list(reversed(world.stock))
    guess._rng = random.Random(seed)
    return guess


class RolloutBot(OracleBot):
    """The oracle's exact rollouts, but in ``worlds`` guesses drawn from the seat's View
    (:func:`~rummy21.bots.determinize.sample_world`, as the search draws them): the honest
    version, to tell the playout model's worth from the cards'. The expert's move stands
    unless another candidate's mean is better by ``margin`` standard errors of the paired
    difference (as the search decides)."""

    name = "rollout"

    def __init__(
        self, table: Table, width: int = 4, worlds: int = 8, seed: int = 0, margin: float = 1.0
    ) -> None:
        super().__init__(table, width)
        self.worlds, self.seed, self.margin = worlds, seed, margin

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        candidates = self._choices(view, legal_actions)
        fallback = candidates[0]
        if len(candidates) == 1:
            return fallback
        rng = random.Random(self.seed * 1_000_003 + view_digest(view))
        public = read_public(view)
        scores: dict[Action, list[int]] = {a: [] for a in candidates}
        for _ in range(self.worlds):
            world = sample_world(view, rng, public)
            reshuffle_seed = rng.randrange(1 << 30)
            for action in candidates:
                guess = world_table(self.table, world, reshuffle_seed)
                scores[action].append(self._played_out(guess, action, view.seat))
        best: Action = fallback
        mine, best_gain = scores[fallback], 0.0
        for action in candidates[1:]:
            diffs = [t - m for t, m in zip(scores[action], mine, strict=True)]
            gain = fmean(diffs)
            spread = stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
            if gain > self.margin * spread and gain > best_gain:
                best, best_gain = action, gain
        return best
