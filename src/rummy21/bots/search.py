"""The ``search`` bot: determinized Monte Carlo over the race bot's candidate moves.

Its base is the race bot (:class:`~rummy21.bots.race.RaceBot`: the expert ruled first by the
distance to a valid declaration), whose move it keeps unless the playouts below find a better
one among the moves the race bot would also consider.

For each move it samples ``samples`` worlds consistent with its
:class:`~rummy21.game.view.View` (:mod:`rummy21.bots.determinize`: known pick-ups stay with
their takers, the unseen cards are dealt to the other hands and the stock) and plays each
candidate forward in every world — the same worlds for every candidate (common random
numbers). A playout covers the bot's next ``horizon`` draws: the other active seats each draw
one stock card per round, the bot draws its card from the world's stock, declares if it can,
otherwise lets go the card a cheap greedy policy picks (:func:`quick_release`: the greedy
card among the one drawn and the few the hand would let go first, a quarter of
:func:`~rummy21.bots.greedy.best_release`'s readings). A playout scores what the deal would
cost the bot, as RULES §7 settles it: before each of its draws the others may declare first
(each with the chance :func:`declare_chance` gives a turn at that point of the deal, as
measured in tournaments; or a flat ``hazard``), and the bot then pays the penalty it holds
(read by the engine); declaring wins ``loser_points`` from each other active seat (what a
loser paid on average in the expert's tournaments, value cards included); a playout that
does not end costs the penalty left. Winning is worth far more than a few penalty points (a
winner took +249 a deal, a loser paid −83, in 4-seat tournaments), so the bot plays for the
draws that declare. The race bot's own choice stands unless another candidate does better in
the same worlds by more than ``margin`` standard errors of the paired difference (then the
best of those): with a few dozen worlds the lowest mean is often only the luckiest, and
following it would throw away the base bot's judgment on the moves the worlds cannot tell
apart.

* **Discard**: the race bot's choice and the ``width - 1`` other non-joker cards that leave
  the lowest penalty now among those that leave the least distance. A valid declaration is
  always taken (the expert's finish).
* **Draw**: the race bot decides drops; when the open card may be taken, stock and open are
  compared by playouts (the open card's playout keeps it this turn).

Seeded and a pure function of (seed, view): the worlds come from a generator seeded with the
seed and a digest of the view's public facts. ``samples`` is the budget that decides the
move; ``budget_s`` is only a safety cap on the CPU time of the thread choosing (a move that
hits it stops sampling early, and then depends on the machine's speed — by default one
second per 24 worlds, well above what the worlds take: at the default 96, about 0.1 s median
and 1 s p99 of CPU a move). CPU time, not wall time, so that
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
from rummy21.bots.evaluate import Reading, penalty_after
from rummy21.bots.expert import release_order, release_readings
from rummy21.bots.greedy import Release, best_release
from rummy21.bots.race import RaceBot, nearest
from rummy21.bots.tracking import NEAR, active_after, next_active, read_public
from rummy21.cards import Card, counts_of
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.settlement import Standing
from rummy21.game.turn import kept_after_taking
from rummy21.game.view import View
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet


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


def declare_chance(rounds: int) -> float:
    """The chance that one other seat declares on its turn after ``rounds`` turns of its
    own: 1 % on its first, then 2.5 points more each round, at most 13.5 %.

    Measured on 600 deals of search and expert bots at 4 seats (the tournament journal
    ``docs/bots/search_expert_s32.jsonl``: of the deals still on at each round, the share that
    ended in a declaration, per turn): 0.9 %, 3.4 %, 6.1 %, 8.4 %, 8.9 %, then 13–20 %.

    >>> [round(declare_chance(r), 3) for r in (0, 1, 4, 9)]
    [0.01, 0.035, 0.11, 0.135]
    """
    return min(0.135, 0.01 + 0.025 * rounds)


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


def quick_release(
    counts: Sequence[int],
    drawn: int,
    order: Sequence[int],
    jokers: Jokers,
    rules: RuleSet,
    width: int,
) -> Release:
    """The playouts' cheap policy: :func:`~rummy21.bots.greedy.best_release` of the 22
    cards ``counts`` (the card ``drawn`` among them) over a few cards only — the one drawn
    (unless a joker) and the first ``width`` still held of ``order``, the cards the hand
    before the playout would let go first (:func:`~rummy21.bots.expert.release_order`).
    The card to let go is nearly always one of them, at a quarter of the readings.

    >>> from rummy21.cards import parse_cards
    >>> hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C KH")
    >>> jokers = Jokers.from_cut(Card.parse("7D"))
    >>> release = quick_release(counts_of(hand), Card.parse("KH").index, [], jokers, RuleSet(), 5)
    >>> str(release.card), release.declare
    ('KH', True)
    """
    mask = jokers.joker_mask
    tried = [] if mask[drawn] else [drawn]
    others = 0
    for index in order:
        if others >= width:
            break
        if counts[index] and index != drawn and not mask[index]:
            tried.append(index)
            others += 1
    return best_release(counts, None, jokers, rules, tried or None)


def loose_first(hand: Sequence[int], jokers: Jokers) -> list[int]:
    """The non-joker kinds of ``hand`` in the order the others' playout turns let them go,
    read from the counts alone: first the cards that share a group with no other card held
    (the higher points first), then the rest, the higher points first.

    >>> from rummy21.cards import parse_cards
    >>> hand = counts_of(parse_cards("KS 2H 3H 4H 9C 9C"))
    >>> [str(Card(i)) for i in loose_first(hand, Jokers.from_cut(Card.parse("7D")))]
    ['KS', '9C', '4H', '3H', '2H']
    """
    mask = jokers.joker_mask

    def alone(i: int) -> bool:
        return hand[i] < 2 and not any(hand[x] for x in NEAR[i] if x != i)

    held = [i for i in range(len(NEAR)) if hand[i] and not mask[i]]
    return sorted(held, key=lambda i: (not alone(i), -Card(i).points, i))


def _joins(hand: Sequence[int], index: int) -> bool:
    """Whether card kind ``index`` can share a group with a card of ``hand`` (one of its
    :data:`~rummy21.bots.tracking.NEAR` kinds held, itself included); the printed joker
    always can."""
    return index >= len(NEAR) or any(hand[x] for x in NEAR[index])


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
        hazard: float | None = None,
        loser_points: int = 80,
        feed: float = 3.0,
        budget_s: float | None = None,
        search_draws: bool = True,
        margin: float = 1.0,
        release_width: int = 5,
        share: float = 0.0,
        table_rounds: int = 0,
        take_gain: int = 10,
        table_schedule: bool = False,
    ) -> None:
        self.samples, self.seed, self.horizon, self.width = samples, seed or 0, horizon, width
        self.feed = feed
        self.budget_s = samples * SECONDS_PER_WORLD if budget_s is None else budget_s
        self.hazard, self.loser_points = hazard, loser_points
        self.search_draws = search_draws
        self.margin = margin
        self.release_width = release_width
        self.share = share
        self.table_rounds, self.take_gain = table_rounds, take_gain
        self.table_schedule = table_schedule
        self.base = RaceBot()
        """The bot whose moves the search keeps unless its playouts find better (its
        candidates, its drops, its finish)."""

    # -- playouts -------------------------------------------------------------------------

    def _playout(
        self, start: Start, world: World, step: int, view: View, order: Sequence[int] = ()
    ) -> float:
        """The expected loss over the bot's next ``rounds`` stock draws (its first at index
        ``first``, then every ``step`` cards): before each draw the others may declare first
        (:meth:`_others_declare`), costing the penalty then held; declaring gains
        ``loser_points`` from each of them; a playout that does not end costs the penalty
        left."""
        jokers, rules = view.jokers, view.rules
        work = list(start.counts)
        at, points, alive, cost = start.first, start.points, 1.0, 0.0
        win = self.loser_points * (step - 1)
        for r in range(start.rounds):
            if at >= len(world.stock):
                break
            if r or start.waits:
                lost = self._others_declare(view, step, r if start.waits else r - 1)
                cost += alive * lost * points
                alive *= 1.0 - lost
            drawn = world.stock[at].index
            work[drawn] += 1
            if order:
                release = quick_release(work, drawn, order, jokers, rules, self.release_width)
            else:
                release = best_release(work, None, jokers, rules)
            if release.declare:
                return cost - alive * win
            work[release.card.index] -= 1
            points = release.reading.points
            at += step
        return cost + alive * self._unfinished(points, step)

    def _opponents(self, view: View, world: World) -> list[tuple[list[int], int, list[int]]]:
        """Each other active seat's hand in ``world``, its penalty and release order."""
        found = []
        for seat in active_after(view):
            hand = list(world.hands[seat])
            order = loose_first(hand, view.jokers)
            found.append((hand, penalty_after(hand, view.cut, view.rules).points, order))
        return found

    def _turn(
        self,
        hand: list[int],
        points: int,
        order: Sequence[int],
        open_card: int | None,
        stock: Sequence[Card],
        at: int,
        view: View,
        width: int,
    ) -> tuple[Release | None, int]:
        """One seat's turn in a table playout: takes the open card if that lowers its
        penalty by ``take_gain`` (or declares), else draws the stock's card at ``at``; then
        lets go :func:`quick_release`'s card over ``width`` cards of ``order``. A card that
        joins nothing held (no joker, no card near it) is neither read for taking nor, with
        ``width`` 0 (the others' turns), kept: it is let go again at once, the hand as it
        was. Returns the release (``None``: the stock ran out) and the stock index after the
        turn; ``hand`` is updated (the card let go, or finished with, taken out of it)."""
        jokers, rules = view.jokers, view.rules
        mask = jokers.joker_mask
        if open_card is not None and not mask[open_card] and _joins(hand, open_card):
            hand[open_card] += 1
            tried = [i for i in order if hand[i] and i != open_card][: width or 2]
            if tried:
                taken = best_release(hand, None, jokers, rules, tried)
                if taken.declare or taken.reading.points <= points - self.take_gain:
                    hand[taken.card.index] -= 1
                    return taken, at
            hand[open_card] -= 1
        if at >= len(stock):
            return None, at
        drawn = stock[at].index
        if not width and not mask[drawn] and not _joins(hand, drawn):
            return Release(Card(drawn), Reading(points, False, False), False), at + 1
        hand[drawn] += 1
        release = quick_release(hand, drawn, order, jokers, rules, width or 2)
        hand[release.card.index] -= 1  # (let go, or the finish card of a declaration)
        return release, at + 1

    def _table_playout(
        self,
        start: Start,
        world: World,
        view: View,
        order: Sequence[int],
        open_card: int | None,
        opponents: Sequence[tuple[list[int], int, list[int]]],
    ) -> float:
        """A playout in which every active seat plays (:meth:`_turn`) for ``table_rounds``
        rounds or until one declares: the bot pays the penalty it holds when another
        declares, wins ``loser_points`` from each other seat when it does, and pays the
        penalty left when the rounds end. ``start.waits``: the others play first (after a
        discard); else the bot's first turn is a stock draw. With ``table_schedule`` the
        others still take, draw and let go, but declare by :meth:`_others_declare`'s chance
        a round, not when the world's guessed hands would."""
        stock = world.stock
        others = [(list(h), p, o) for h, p, o in opponents]
        mine, points = list(start.counts), start.points
        win = float(self.loser_points * len(others))
        at = 0
        first = not start.waits
        cost, alive = 0.0, 1.0
        for r in range(self.table_rounds):
            if not first:
                if self.table_schedule:
                    lost = self._others_declare(view, len(others) + 1, r)
                    cost += alive * lost * points
                    alive *= 1.0 - lost
                for k, (hand, their, their_order) in enumerate(others):
                    release, at = self._turn(
                        hand, their, their_order, open_card, stock, at, view, 0
                    )
                    if release is None:
                        return cost + alive * points
                    if release.declare and not self.table_schedule:
                        return float(points)  # (by the schedule, it plays on)
                    others[k] = (hand, release.reading.points, their_order)
                    open_card = release.card.index
            offer = None if first else open_card
            first = False
            release, at = self._turn(
                mine, points, order, offer, stock, at, view, self.release_width
            )
            if release is None:
                return cost + alive * points
            if release.declare:
                return cost - alive * win
            points = release.reading.points
            open_card = release.card.index
        return cost + alive * points

    def _unfinished(self, points: int, step: int) -> float:
        """What a playout that has not ended by its horizon costs: the penalty held (``share``
        0), or, as ``share`` goes to 1, its fair share of the rest of the deal — each of the
        ``step`` active seats as likely to declare first: the penalty paid if another does,
        ``loser_points`` from each other seat if this one does."""
        if not self.share:
            return float(points)
        others = step - 1
        fair = (others * points - self.loser_points * others) / step
        return (1.0 - self.share) * points + self.share * fair

    def _others_declare(self, view: View, step: int, ahead: int) -> float:
        """The chance that one of the ``step - 1`` other active seats declares in the round
        of turns ``ahead`` rounds after the bot's present one: ``hazard`` a turn if set,
        else :func:`declare_chance` of the round they will be in."""
        others = step - 1
        if self.hazard is not None:
            return 1.0 - (1.0 - self.hazard) ** others
        rounds = view.turns // view.players + ahead
        return 1.0 - (1.0 - declare_chance(rounds)) ** others

    def _worlds(self, view: View) -> Iterator[World]:
        rng = random.Random(self.seed * 1_000_003 + view_digest(view))
        public = read_public(view)
        for _ in range(self.samples):
            yield sample_world(view, rng, public)

    def _active(self, view: View) -> int:
        return sum(1 for s in view.seats if s.standing is Standing.ACTIVE)

    def _evaluate(
        self,
        view: View,
        starts: dict[Action, Start],
        opens: dict[Action, int | None] | None = None,
    ) -> dict[Action, list[float]]:
        """Each candidate's playout scores, one per world, over the same worlds; sampling
        stops early only past ``budget_s``."""
        clock = time.thread_time()
        step = self._active(view)
        opens = opens or {}
        scores: dict[Action, list[float]] = {a: [] for a in starts}
        orders: dict[Action, Sequence[int]] = {
            a: release_order(release_readings(list(start.counts), None, view), view.jokers)
            if self.release_width
            else ()
            for a, start in starts.items()
        }
        for world in self._worlds(view):
            if self.table_rounds:
                opponents = self._opponents(view, world)
                for action, start in starts.items():
                    scores[action].append(
                        self._table_playout(
                            start, world, view, orders[action], opens.get(action), opponents
                        )
                    )
            else:
                for action, start in starts.items():
                    scores[action].append(self._playout(start, world, step, view, orders[action]))
            if time.thread_time() - clock > self.budget_s:
                break
        return scores

    # -- decisions ------------------------------------------------------------------------

    def discard_candidates(
        self, view: View, legal: Sequence[Action], fallback: Action
    ) -> list[Action]:
        """The discards the search compares after drawing: ``fallback`` (the base bot's) and
        the next ``width - 1`` legal non-joker cards of the release order that leave the least
        distance (:func:`~rummy21.bots.race.nearest`)."""
        counts = counts_of(view.hand)
        blocked = None if view.blocked is None else view.blocked.index
        ranking = release_readings(counts, blocked, view)
        kinds, _ = nearest(counts, release_order(ranking, view.jokers), view.cut, view.rules)
        candidates: list[Action] = [fallback]
        for i in kinds:
            if len(candidates) >= self.width:
                break
            action = Discard(Card(i))
            if action not in candidates and action in legal:
                candidates.append(action)
        return candidates

    def judge(self, view: View, moves: Sequence[Action]) -> dict[Action, list[float]]:
        """What each of ``moves`` (legal for ``view``) is expected to cost the seat, in
        points, world by world over the same worlds (the playouts the search decides by):

        * a discard: the playout of the 21 cards it leaves, plus ``feed`` points for each card
          near it that the next seat visibly collects;
        * a draw: the stock's playout covers one more draw (its first is the stock's top
          card); the open card's keeps the card taken and lets go the greedy card (a take
          that declares at once wins, below);
        * a declaration: ``-loser_points`` from each other active seat if the 21 cards left
          are valid (the engine's reading), else the wrong declaration's cost;
        * a drop: its cost now (``view.drop_cost``).

        The fixed costs are repeated once per world, so that every list has one entry per
        world. The coach (:mod:`rummy21.review`) asks this for every move it judges, the bot
        for its candidates: the two cannot judge a move differently."""
        step = self._active(view)
        win = float(self.loser_points * (step - 1))
        counts = counts_of(view.hand)
        starts: dict[Action, Start] = {}
        opens: dict[Action, int | None] = {}
        fixed: dict[Action, float] = {}
        extra: dict[Action, float] = {}
        nxt = next_active(view)
        public = read_public(view) if nxt is not None and self.feed else None
        for move in moves:
            if isinstance(move, Drop):
                fixed[move] = float(view.drop_cost)
            elif isinstance(move, Declare):
                left = list(counts)
                left[move.finish.index] -= 1
                valid = penalty_after(left, view.cut, view.rules).valid
                fixed[move] = -win if valid else float(view.rules.wrong_declaration)
            elif isinstance(move, Discard):
                after = list(counts)
                after[move.card.index] -= 1
                points = penalty_after(after, view.cut, view.rules).points
                starts[move] = Start(after, points, step - 1, self.horizon)
                opens[move] = move.card.index
                if public is not None and nxt is not None:
                    extra[move] = self.feed * public.fed(nxt, move.card.index)
            elif isinstance(move, Draw) and move.source is Source.OPEN:
                top = view.top
                assert top is not None
                taking = list(counts)
                taking[top.card.index] += 1
                kept = kept_after_taking(top.card, view.rules)
                taken = best_release(taking, kept, view.jokers, view.rules)
                if taken.declare:
                    fixed[move] = -win
                    continue
                taking[taken.card.index] -= 1
                # Taking the open card keeps it: the next stock draw comes after the others'.
                starts[move] = Start(taking, taken.reading.points, step - 1, self.horizon)
                opens[move] = taken.card.index
            elif isinstance(move, Draw):
                now = penalty_after(counts, view.cut, view.rules).points
                # From the stock: the playout's first draw is the stock's top card, and one
                # more round, so that both draws cover the same turns.
                starts[move] = Start(list(counts), now, 0, self.horizon + 1, False)
            else:
                raise ValueError(f"the search cannot judge {move}")
        scores = self._evaluate(view, starts, opens) if starts else {}
        worlds = max((len(v) for v in scores.values()), default=1)
        judged: dict[Action, list[float]] = {}
        for move in moves:
            if move in fixed:
                judged[move] = [fixed[move]] * worlds
            else:
                shift = extra.get(move, 0.0)
                judged[move] = [cost + shift for cost in scores[move]]
        return judged

    def _discard(self, view: View, legal: Sequence[Action], fallback: Action) -> Action:
        candidates = self.discard_candidates(view, legal, fallback)
        if len(candidates) == 1:
            return fallback
        return self._best(candidates, self.judge(view, candidates))

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
        order = [fallback, *(a for a in (Draw(Source.OPEN), Draw(Source.STOCK)) if a != fallback)]
        return self._best(order, self.judge(view, order))

    def _best(self, order: Sequence[Action], scores: dict[Action, list[float]]) -> Action:
        """The expert's choice (``order[0]``) unless another candidate does better in the
        same worlds by more than ``margin`` standard errors of their paired difference (the
        lowest mean difference among those; the earlier on ties).

        Playouts are noisy: with a few dozen worlds the lowest mean is often the luckiest,
        not the best, and a bot that follows it throws away the base bot's judgment on the
        moves where the worlds cannot tell the candidates apart. Deviating only on evidence
        keeps the base move there and still takes the clearly better ones."""
        base = order[0]
        mine = scores.get(base, [])
        best, best_mean = base, 0.0
        for action in order[1:]:
            theirs = scores.get(action, [])
            n = min(len(mine), len(theirs))
            if n == 0:
                continue
            diffs = [theirs[w] - mine[w] for w in range(n)]
            mean = sum(diffs) / n
            spread = (
                (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 / n**0.5 if n > 1 else 0.0
            )
            if mean < -self.margin * spread and mean < best_mean:
                best, best_mean = action, mean
        return best

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        fallback = self.base.choose(view, legal_actions)
        if isinstance(fallback, Declare | Drop):
            return fallback
        if isinstance(fallback, Draw):
            return self._draw(view, fallback)
        return self._discard(view, legal_actions, fallback)
