"""The coach: every decision of one seat in a finished deal, judged from what it saw then.

The deal's log is replayed; at each decision of the seat — a draw (stock or open), a drop, a
discard, a declaration — the search (:meth:`~rummy21.bots.search.SearchBot.judge`, the
strongest bot's own evaluation) plays the move played and its alternatives forward **in
worlds sampled from the seat's View at that moment**, never from the true hidden cards: two
deals that differ only in what the seat could not see get the same review. Each move gets
its expected points (the search's estimate of what the deal will bring the seat over its
horizon: a declaration's winnings, the penalty it may pay), and the decision a **loss**, the
best alternative's expected points minus the played move's, paired world by world, with its
standard error.

The alternatives: at a draw, the stock and the open card (when it may be taken); after
drawing, a valid declaration (the engine's finish card), the expert's discard and the
search's other candidates
(:meth:`~rummy21.bots.search.SearchBot.discard_candidates`), and the move played. A drop is
judged against playing on as the bots decide drops (:func:`drop_judgement`).

**Verdicts** (:data:`THRESHOLDS`, in points of loss): ``best`` — the move played is the best
alternative; ``good`` — a loss under 5 points, or within two standard errors (the worlds
cannot tell the two apart); ``inaccuracy`` from 5, ``mistake`` from 15, ``blunder`` from 40
points; and passing up a valid declaration is always a ``blunder``: the deal was the seat's
to take, whatever the playouts say it risked. **Accuracy**: the mean over the seat's
decisions of ``100 · exp(−loss / 40)`` (a seat that played the search's moves throughout
scores about 100; a loss of 40 points counts 37).

>>> from rummy21.bots import ExpertBot, play_deal
>>> from rummy21.game import Table
>>> table = Table(2, seed=3)
>>> _ = play_deal(table, [ExpertBot(), ExpertBot()])
>>> review = review_deal(table.log, seat=0, worlds=4)
>>> review.seat, len(review.decisions) > 0, 0 <= review.accuracy <= 100
(0, True, True)
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Any

from rummy21.bots.evaluate import penalty_after
from rummy21.bots.expert import ExpertBot
from rummy21.bots.greedy import play_on_cost
from rummy21.bots.search import DEFAULT_SAMPLES, SearchBot
from rummy21.bots.tracking import next_active, read_public
from rummy21.cards import Card
from rummy21.env.declaring import sound_declarations
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.events import Declared, Discarded, Drew, Dropped, Event
from rummy21.game.log import load_log
from rummy21.game.narration import Namer, Part, Sentence, plain
from rummy21.game.seat import seat_words
from rummy21.game.table import Table
from rummy21.game.view import Phase, View

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = {"inaccuracy": 5.0, "mistake": 15.0, "blunder": 40.0}
"""The loss (points) from which a decision is an inaccuracy, a mistake, a blunder."""
ACCURACY_SCALE = 40.0
"""A decision's accuracy is ``100 · exp(−loss / ACCURACY_SCALE)``."""


class ReviewError(ValueError):
    """A log that cannot be reviewed: not a deal, unfinished, or a seat it does not have."""


@dataclass(frozen=True)
class Judged:
    """One decision of the seat, judged."""

    record: int
    """The index in the log (header = 0) of the record of the move played."""
    turn: int
    seat: int
    played: Action
    best: Action
    expected: dict[Action, float]
    """Each move compared, its expected points (higher is better)."""
    loss: float
    stderr: float
    verdict: str
    sentence: Sentence
    """Why the best move beats the one played (empty for best and good), to draw as an
    interface draws the narration; :attr:`reason` is its plain text."""

    @property
    def reason(self) -> str:
        return plain(self.sentence)

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "turn": self.turn,
            "seat": self.seat,
            "played": str(self.played),
            "best": str(self.best),
            "loss": round(self.loss, 1),
            "stderr": round(self.stderr, 1),
            "verdict": self.verdict,
            "reason": self.reason,
            "expected": {str(a): round(v, 1) for a, v in self.expected.items()},
        }


@dataclass(frozen=True)
class Review:
    """The review of one seat of one deal."""

    seat: int
    decisions: tuple[Judged, ...]
    score: int
    """The seat's score at the end of the deal."""

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def accuracy(self) -> float:
        if not self.decisions:
            return 100.0
        return fmean(100 * math.exp(-d.loss / ACCURACY_SCALE) for d in self.decisions)

    @property
    def verdicts(self) -> dict[str, int]:
        counts = Counter(d.verdict for d in self.decisions)
        return {v: counts[v] for v in VERDICTS}

    def biggest(self, count: int = 3) -> list[Judged]:
        """The decisions that cost most, the worst first: by verdict (blunders first), then
        by loss (only inaccuracies and worse)."""
        costly = [d for d in self.decisions if d.verdict not in ("best", "good")]
        return sorted(costly, key=lambda d: (-VERDICTS.index(d.verdict), -d.loss))[:count]

    def curve(self) -> list[tuple[int, float]]:
        """The points lost so far, by turn, after each decision: where the deal slipped.
        (The search's expected points are made to compare moves over its short horizon, not
        to say what a deal is worth, so the review charts their differences, the losses.)"""
        points, lost = [], 0.0
        for d in self.decisions:
            lost += d.loss
            points.append((d.turn, lost))
        return points

    def summary(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "accuracy": round(self.accuracy, 1),
            "loss": round(self.loss, 1),
            "score": self.score,
            "verdicts": self.verdicts,
        }


def verdict_of(loss: float, stderr: float, played_is_best: bool, missed: bool = False) -> str:
    """The verdict of a decision from its loss (see the module docstring); ``missed``: a
    valid declaration was passed up, always a blunder (the deal was the seat's to take).

    >>> verdict_of(0.0, 0.0, True), verdict_of(3.0, 1.0, False), verdict_of(20.0, 12.0, False)
    ('best', 'good', 'good')
    >>> verdict_of(7.0, 1.0, False), verdict_of(20.0, 2.0, False), verdict_of(90.0, 5.0, False)
    ('inaccuracy', 'mistake', 'blunder')
    """
    if played_is_best:
        return "best"
    if missed:
        return "blunder"
    if loss < THRESHOLDS["inaccuracy"] or loss <= 2 * stderr:
        return "good"
    if loss < THRESHOLDS["mistake"]:
        return "inaccuracy"
    if loss < THRESHOLDS["blunder"]:
        return "mistake"
    return "blunder"


def _moves(search: SearchBot, view: View, legal: Sequence[Action], played: Action) -> list[Action]:
    """The moves a decision compares (the played one first)."""
    if view.phase is Phase.DRAW:
        wanted: list[Action] = [Draw(Source.STOCK), Draw(Source.OPEN)]
    else:
        fallback = search.base.choose(view, legal)
        sound = [a for a in sound_declarations(view, legal) if isinstance(a, Declare)]
        if isinstance(fallback, Declare):  # (its finish card is the one it would let go)
            fallback = Discard(fallback.finish)
        wanted = [*sound, *search.discard_candidates(view, legal, fallback)]
    return [played, *(m for m in wanted if m in legal and m != played)]


def _points_left(view: View, card: Card) -> int:
    """The penalty of the hand left by letting go ``card`` (the bots' cached reading, as the
    search reads it)."""
    counts = list(view.hand.counts)
    counts[card.index] -= 1
    return penalty_after(counts, view.cut, view.rules).points


def default_name(seat: int | None) -> str:
    """A seat as a review names it without the players' names: "Seat 2" for seat 1."""
    return seat_words(seat)


def reason_for(
    view: View,
    played: Action,
    best: Action,
    expected: dict[Action, float],
    name: Namer = default_name,
) -> Sentence:
    """One sentence on why ``best`` beats ``played``, in the narration's words: a
    :data:`~rummy21.game.narration.Sentence` of text and cards, which each interface draws its
    own way (:func:`~rummy21.game.narration.plain`); ``name`` names the other seats."""
    gap = f"{expected[best] - expected[played]:.0f}"
    if isinstance(best, Declare):
        return (
            "You could declare, finishing with ",
            best.finish,
            f", and win about {expected[best]:.0f} points; ",
            *_said(played),
            " gave that up.",
        )
    if isinstance(played, Declare):
        return (f"Declaring now was wrong and costs {view.rules.wrong_declaration} points.",)
    if isinstance(played, Drop):
        return (
            f"Dropping cost {view.drop_cost} points; playing on was expected to cost "
            f"{-expected[best]:.0f}.",
        )
    if isinstance(best, Drop):
        return (
            f"This hand was worth dropping ({view.drop_cost} points): playing on was "
            f"expected to cost {-expected[played]:.0f}.",
        )
    if isinstance(played, Discard) and isinstance(best, Discard):
        mine, theirs = _points_left(view, played.card), _points_left(view, best.card)
        extra: tuple[Part, ...] = ()
        if played.card in view.jokers.value_cards:
            extra += (" (", played.card, " is a value card)")
        nxt = next_active(view)
        if nxt is not None and read_public(view).fed(nxt, played.card.index):
            extra += (", and ", played.card, f" is near cards {name(nxt)} is collecting")
        if mine == theirs:
            return (
                "Letting go ",
                best.card,
                f" instead was about {gap} points better over your next draws: both leave "
                f"{mine} points in hand, but ",
                best.card,
                " keeps more ways to finish",
                *extra,
                ".",
            )
        return (
            "Letting go ",
            best.card,
            f" instead keeps {theirs} points in hand against {mine} after ",
            played.card,
            *extra,
            f": about {gap} points better.",
        )
    if isinstance(best, Draw) and view.top is not None:
        if best.source is Source.OPEN:
            return (
                "Taking ",
                view.top.card,
                f" from the open pile was about {gap} points better than a stock card.",
            )
        return (f"A stock card was about {gap} points better than taking ", view.top.card, ".")
    said = _said(best)
    first = said[0]
    head = (first[:1].upper() + first[1:],) if isinstance(first, str) else (first,)
    return (*head, *said[1:], f" was about {gap} points better.")


def _said(action: Action) -> Sentence:
    if isinstance(action, Discard):
        return ("letting go ", action.card)
    if isinstance(action, Draw):
        return (
            "drawing from the stock" if action.source is Source.STOCK else "taking the open card",
        )
    if isinstance(action, Drop):
        return ("dropping",)
    if isinstance(action, Declare):
        return ("declaring with ", action.finish)
    return (str(action),)


def _played_action(event: Event) -> Action | None:
    if isinstance(event, Drew) and not event.forced:
        return Draw(event.source)
    if isinstance(event, Discarded) and not event.forced:
        return Discard(event.card)
    if isinstance(event, Declared):
        return Declare(event.finish)
    if isinstance(event, Dropped) and not event.forced:
        return Drop()
    return None


def drop_judgement(
    expert: ExpertBot, view: View, legal: Sequence[Action], played: Action
) -> float | None:
    """A drop against playing on, as the bots decide drops (:meth:`ExpertBot.drops
    <rummy21.bots.expert.ExpertBot.drops>`): playing on a hopeless hand is expected to cost
    what the rule counts (:func:`~rummy21.bots.greedy.play_on_cost`). The loss of the choice
    made (0 if it was the rule's), or ``None`` when neither a drop was made nor the rule
    would make one."""
    if Drop() not in legal:
        return None
    counts = list(view.hand.counts)
    now = penalty_after(counts, view.cut, view.rules)
    play_on = play_on_cost(view, now)
    rule = expert.drops(view, counts, now)
    if isinstance(played, Drop):
        return 0.0 if rule else max(0.0, view.drop_cost - play_on)
    return max(0.0, play_on - view.drop_cost) if rule else None


def judge_decision(
    search: SearchBot, view: View, legal: Sequence[Action], played: Action
) -> tuple[Action, dict[Action, float], float, float]:
    """The best move, every compared move's expected points, and the played move's loss
    with its standard error (paired by world). Drops are judged by :func:`drop_judgement`."""
    dropping = drop_judgement(search.base, view, legal, played)
    if dropping is not None:
        if isinstance(played, Drop):
            other = search.base.choose(view, [a for a in legal if not isinstance(a, Drop)])
            if dropping == 0.0:
                return played, {played: -float(view.drop_cost)}, 0.0, 0.0
            return (
                other,
                {played: -float(view.drop_cost), other: dropping - view.drop_cost},
                dropping,
                0.0,
            )
        if dropping > 0.0:
            return (
                Drop(),
                {played: -view.drop_cost - dropping, Drop(): -float(view.drop_cost)},
                dropping,
                0.0,
            )
    moves = _moves(search, view, legal, played)
    costs = search.judge(view, moves)
    expected = {m: -fmean(costs[m]) for m in moves}
    best = max(moves, key=lambda m: (expected[m], m == played))
    diffs = [p - b for p, b in zip(costs[played], costs[best], strict=True)]
    loss = max(0.0, fmean(diffs))
    stderr = stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return best, expected, loss, stderr


def finished_deal(log: str | Iterable[Any], seat: int) -> tuple[list[Event], list[int], int]:
    """The events of the finished deal ``log``, the records of ``seat``'s decisions in it,
    and the seat's score; a :class:`ReviewError` for a log that is no finished deal or a seat
    it does not have."""
    try:
        events = load_log(log)
        replayed = Table.replay(events)
    except ValueError as error:
        raise ReviewError(f"not a deal's log that replays: {error}") from None
    if not replayed.over or replayed.scores is None:
        raise ReviewError("the deal is not finished: only a finished deal can be reviewed")
    if not isinstance(seat, int) or not 0 <= seat < replayed.players:
        raise ReviewError(f"the deal has seats 0..{replayed.players - 1}, not {seat}")
    records = [
        n for n, e in enumerate(events) if getattr(e, "seat", None) == seat and _played_action(e)
    ]
    return events, records, replayed.scores[seat]


def namer(names: Sequence[str] | None) -> Namer:
    """Seats named by ``names`` (their players' names; an empty one or none: "Seat N").

    >>> name = namer(["Asha", ""])
    >>> name(0), name(1)
    ('Asha', 'Seat 2')
    """
    if not names:
        return default_name

    def name(seat: int | None) -> str:
        if seat is not None and seat < len(names) and names[seat]:
            return names[seat]
        return default_name(seat)

    return name


def _judged(
    search: SearchBot, table: Table, seat: int, record: int, played: Action, name: Namer
) -> Judged:
    view, legal = table.view(seat), table.legal_actions()
    best, expected, loss, stderr = judge_decision(search, view, legal, played)
    missed = isinstance(best, Declare) and not isinstance(played, Declare)
    verdict = verdict_of(loss, stderr, best == played, missed)
    sentence = () if verdict in ("best", "good") else reason_for(view, played, best, expected, name)
    return Judged(
        record, table.turns, seat, played, best, expected, loss, stderr, verdict, sentence
    )


def judge_record(
    log: Sequence[str],
    record: int,
    seat: int,
    worlds: int = DEFAULT_SAMPLES,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> tuple[Judged, float]:
    """One decision of a review on its own — the move of record ``record`` of the log (JSON
    lines), judged as :func:`review_deal` judges it — and the CPU seconds it took: a piece of
    work for a process pool (the server's reviews)."""
    started = time.process_time()
    events = load_log(log)
    played = _played_action(events[record])
    if played is None or getattr(events[record], "seat", None) != seat:
        raise ReviewError(f"record {record} is no decision of seat {seat}")
    table = Table.start_of(events)
    for event in events[1:record]:
        table.apply_recorded(event)
    search = SearchBot(samples=worlds, seed=seed, budget_s=float("inf"))
    judged = _judged(search, table, seat, record, played, namer(names))
    return judged, time.process_time() - started


def review_deal(
    log: str | Iterable[Any],
    seat: int,
    worlds: int = DEFAULT_SAMPLES,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    names: Sequence[str] | None = None,
) -> Review:
    """The review of ``seat`` in the finished deal ``log`` (JSON lines or event records),
    judged with ``worlds`` worlds a decision (seeded: the same review every time);
    ``progress(done, total)`` after each decision; ``names`` name the seats in the reasons.
    A :class:`ReviewError` for a log that is no finished deal or a seat it does not have."""
    events, records, score = finished_deal(log, seat)
    todo, name = set(records), namer(names)
    table = Table.start_of(events)
    search = SearchBot(samples=worlds, seed=seed, budget_s=float("inf"))
    judged: list[Judged] = []
    for number, event in enumerate(events[1:], 1):
        played = _played_action(event)
        if played is not None and number in todo:
            judged.append(_judged(search, table, seat, number, played, name))
            if progress is not None:
                progress(len(judged), len(todo))
        table.apply_recorded(event)
    return Review(seat, tuple(judged), score)
