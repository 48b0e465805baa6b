"""The ``expert`` bot: greedy's solver readings plus a one-draw lookahead on live cards.

It sees only its :class:`~rummy21.game.view.View` and is a pure function of it (no memory, no
randomness), so the server may build a fresh one for every move.

* **Live cards** (:mod:`rummy21.bots.tracking`): every copy not in its hand, the open pile, or
  an opponent's open-pile pick-ups may still come; a draw of card ``d`` has the probability of
  its live copies.
* **Discard**: the cards whose removal leaves the lowest penalty (within ``margin`` points, at
  most ``width`` of them, never a joker while a non-joker is left) are compared by the
  *expected* penalty after the next draw. For each live card ``d`` and each pair of
  candidates, the hand keeps ``d`` and lets the pair go; the solver reads it when ``d`` is a
  joker or can join a candidate still held, points alone otherwise (``d`` stays loose in place
  of a dearer loose card, or is put aside again). A hand that becomes a valid declaration
  counts ``-win_bonus``. Penalties and validity come from the engine (every option: a hand
  heading for pure sequences and one heading for dublees are read by the same numbers, so
  the route follows the hand and the live cards). A card next to those the next player
  visibly collects costs ``feed`` points more.
* **Draw**: the open card when the penalty after taking it is below the expected penalty
  after a stock draw (by more than ``take_margin``).
* **Declare** as soon as it can, with the finish card that keeps the most value points.
* **Drop** before drawing when the hand is hopeless (no pure save, few jokers and pure runs,
  a penalty of at least ``drop_points``) and the expected loss exceeds ``view.drop_cost``.

>>> from rummy21.game import Table
>>> bot, tables = ExpertBot(), [Table(players=3, seed=seed) for seed in range(4)]
>>> all(bot.choose(t.view(t.turn), t.legal_actions()) in t.legal_actions() for t in tables)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from rummy21.analysis import score_counts
from rummy21.bots.evaluate import Reading, penalty_after
from rummy21.bots.greedy import hopeless
from rummy21.bots.tracking import NEAR_SETS, next_active, next_draws, read_public
from rummy21.cards import TYPE_COUNT, Card
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import View
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


@lru_cache(maxsize=1 << 14)
def _value_points(counts: tuple[int, ...], cut: Card, rules: RuleSet) -> int:
    return score_counts(counts, Jokers.from_cut(cut), rules).value.points


def release_readings(counts: list[int], blocked: int | None, view: View) -> dict[int, Reading]:
    """The reading of the hand left by letting go each card type held (not ``blocked``)."""
    cut, rules = view.cut, view.rules
    found = {}
    for i in range(TYPE_COUNT):
        if counts[i] and i != blocked:
            counts[i] -= 1
            found[i] = penalty_after(counts, cut, rules)
            counts[i] += 1
    return found


def release_order(ranking: dict[int, Reading], jokers: Jokers) -> list[int]:
    """The non-joker cards of ``ranking`` (:func:`release_readings`), the best to let go
    first: the lowest penalty left, then the higher-point card, then the earlier."""
    mask = jokers.joker_mask
    return sorted(
        (i for i in ranking if not mask[i]),
        key=lambda i: (ranking[i].points, -Card(i).points, i),
    )


class ExpertBot:
    """Plays for the expected penalty after the next draw; see the module docstring."""

    name = "expert"

    def __init__(
        self,
        margin: int = 15,
        width: int = 6,
        win_bonus: int = 40,
        feed: float = 3.0,
        drop_points: int = 80,
        take_margin: float = 0.0,
        prune: bool = True,
    ) -> None:
        self.prune = prune
        self.margin, self.width, self.win_bonus = margin, width, win_bonus
        self.feed, self.drop_points, self.take_margin = feed, drop_points, take_margin

    # -- readings -------------------------------------------------------------------------

    def _eff(self, reading: Reading) -> int:
        return -self.win_bonus if reading.valid else reading.points

    def _read_pair(self, d: int, keep: Sequence[int], mask: Sequence[bool]) -> bool:
        """Whether the draw ``d`` is worth a solver reading once the pair is let go: a
        joker, or a card that can join one of the candidates ``keep`` still held. Other
        draws are read by points alone (:meth:`_swap`)."""
        return not self.prune or mask[d] or any(d in NEAR_SETS[e] for e in keep)

    @staticmethod
    def _swap(points: int, out: int, d: int) -> int:
        """The penalty after drawing ``d`` that joins nothing: keep it loose in place of a
        loose card worth ``out`` points if that is cheaper, else put it aside again."""
        return max(0, points - max(0, out - Card(d).points))

    def _candidates(self, ranking: dict[int, Reading], jokers: Jokers) -> list[int]:
        """Non-joker cards to let go, the best first, within ``margin`` of the best."""
        order = release_order(ranking, jokers)
        if not order:
            return []
        limit = ranking[order[0]].points + self.margin
        return [i for i in order if ranking[i].points <= limit][: self.width]

    # -- decisions ------------------------------------------------------------------------

    def _finish(self, counts: list[int], ranking: dict[int, Reading], view: View) -> int | None:
        """The finish card of a valid declaration that keeps the most value, if any."""
        best: tuple[tuple[int, int, int], int] | None = None
        for i, reading in ranking.items():
            if reading.valid:
                counts[i] -= 1
                value = _value_points(tuple(counts), view.cut, view.rules)
                counts[i] += 1
                key = (-value, reading.points, i)
                if best is None or key < best[0]:
                    best = (key, i)
        return None if best is None else best[1]

    def _discard(self, counts: list[int], blocked: int | None, view: View) -> Action:
        jokers = view.jokers
        ranking = release_readings(counts, blocked, view)
        finish = self._finish(counts, ranking, view)
        if finish is not None:
            return Declare(Card(finish))
        candidates = self._candidates(self._released(counts, ranking, view), jokers)
        if not candidates:  # only jokers (and the blocked card): keep the most value
            worst = min(
                ranking, key=lambda i: (ranking[i].points, -self._kept_value(counts, i, view), i)
            )
            return Discard(Card(worst))
        if len(candidates) == 1:
            return Discard(Card(candidates[0]))
        public = read_public(view)
        cut, rules, mask = view.cut, view.rules, jokers.joker_mask
        expected = dict.fromkeys(candidates, 0.0)
        pairs = [(c, a) for c, a in permutations(candidates, 2) if c < a]
        for d, p in next_draws(jokers, public):
            counts[d] += 1
            best = {c: self._eff(ranking[c]) for c in candidates}
            for c, a in pairs:  # the pair leaves the same hand whichever is discarded now
                keep = [e for e in candidates if e != c and e != a]
                if self._read_pair(d, keep, mask):
                    counts[c] -= 1
                    counts[a] -= 1
                    value = self._eff(penalty_after(counts, cut, rules))
                    counts[c] += 1
                    counts[a] += 1
                    best[c] = min(best[c], value)
                    best[a] = min(best[a], value)
                else:
                    swap_c = self._swap(ranking[c].points, Card(a).points, d)
                    swap_a = self._swap(ranking[a].points, Card(c).points, d)
                    best[c] = min(best[c], swap_c)
                    best[a] = min(best[a], swap_a)
            counts[d] -= 1
            for c in candidates:
                expected[c] += p * best[c]
        nxt = next_active(view)
        if nxt is not None and self.feed:
            for c in candidates:
                expected[c] += self.feed * public.fed(nxt, c)
        choice = min(candidates, key=lambda c: (expected[c], ranking[c].points, -Card(c).points, c))
        return Discard(Card(choice))

    def _released(
        self, counts: list[int], ranking: dict[int, Reading], view: View
    ) -> dict[int, Reading]:
        """The releases the discard chooses among (:meth:`_candidates` of them): here all of
        ``ranking``; a bot built on this one may narrow them."""
        return ranking

    def _kept_value(self, counts: list[int], index: int, view: View) -> int:
        counts[index] -= 1
        value = _value_points(tuple(counts), view.cut, view.rules)
        counts[index] += 1
        return value

    def _take_open(self, counts: list[int], view: View, now: Reading) -> bool:
        top = view.top
        assert top is not None
        jokers, cut, rules = view.jokers, view.cut, view.rules
        counts[top.card.index] += 1
        kept = kept_after_taking(top.card, rules)
        ranking = release_readings(counts, None if kept is None else kept.index, view)
        candidates = self._candidates(ranking, jokers)
        counts[top.card.index] -= 1
        if any(r.valid for r in ranking.values()):
            return True
        if not candidates:
            return False
        taken = min(self._eff(ranking[c]) for c in candidates)
        if taken >= self._eff(now):
            return False
        mask = jokers.joker_mask
        stock = 0.0
        for d, p in next_draws(jokers, read_public(view)):
            counts[d] += 1
            best = self._eff(now)
            for a in candidates:
                if not counts[a]:
                    continue
                if self._read_pair(d, [e for e in candidates if e != a], mask):
                    counts[a] -= 1
                    best = min(best, self._eff(penalty_after(counts, cut, rules)))
                    counts[a] += 1
                else:
                    best = min(best, self._swap(now.points, Card(a).points, d))
            counts[d] -= 1
            stock += p * best
        return taken < stock - self.take_margin

    def drops(self, view: View, counts: Sequence[int], now: Reading) -> bool:
        """The expert's drop rule, before drawing: the hand ``counts`` (read as ``now``) is
        no valid declaration and is hopeless (:func:`~rummy21.bots.greedy.hopeless`, from a
        penalty of ``drop_points``). The learned bot and the coach ask it too."""
        return not now.valid and hopeless(view, counts, now, self.drop_points)

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        counts = list(view.hand.counts)
        if any(isinstance(a, Draw) for a in legal_actions):
            now = penalty_after(counts, view.cut, view.rules)
            if Drop() in legal_actions and self.drops(view, counts, now):
                return Drop()
            if view.top is not None and view.can_take_open and self._take_open(counts, view, now):
                return Draw(Source.OPEN)
            return Draw(Source.STOCK)
        blocked = None if view.blocked is None else view.blocked.index
        action = self._discard(counts, blocked, view)
        if action in legal_actions:
            return action
        return next(a for a in legal_actions if isinstance(a, Discard))
