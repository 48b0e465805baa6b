"""The coach at the server: reviews of finished deals (:mod:`rummy21.review`) for the history page.

A review is worked out decision by decision in the bots' worker processes, through the same
fair queue as the bots' moves (:meth:`~rummy21.server.botpool.BotPool.run`), charged to a queue
of its own (``review``): one decision at a time, so a live table's bot never waits behind more
than one of them, and the reviews share what the tables leave. While it runs, asking again gives
its progress; once done it is kept in the database (``reviews``) and served from there. Who may
ask is the history's rule (:mod:`rummy21.server.api.history`): a player reviews its own seat,
an outsider of a table with a public history any seat — from what that seat saw, as the review
always is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rummy21.bots.search import DEFAULT_SAMPLES
from rummy21.cards import Card
from rummy21.charts import line_chart
from rummy21.game.narration import plain
from rummy21.review import Judged, Review, finished_deal, judge_record, namer
from rummy21.server import repository
from rummy21.server.botpool import BotPool
from rummy21.server.replay import frame_of_records
from rummy21.server.store import Store

log = logging.getLogger("rummy21.server")

QUEUE = "review"
"""The fair queue's name for the reviews' work (a table code never looks like it)."""
WORLDS = DEFAULT_SAMPLES
"""Worlds a decision (the ``review`` command's default)."""


@dataclass
class _Job:
    done: int = 0
    total: int | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


def review_body(review: Review, steps: dict[int, int], name: str) -> dict[str, Any]:
    """The review as the history page shows it: the summary, each decision (with the replay
    step of its move) and the chart of points lost."""
    decisions = []
    for d in review.decisions:
        row = d.to_dict()
        row.pop("expected")
        row["reason"] = plain(d.sentence, Card.pretty)
        row["step"] = steps.get(d.record)
        decisions.append(row)
    biggest = [review.decisions.index(d) for d in review.biggest(3)]
    chart = line_chart(
        {f"{name}: points lost so far": review.curve()},
        f"where the deal slipped (accuracy {review.accuracy:.1f})",
        "points",
        x_label="turn",
    )
    return {
        "summary": review.summary(),
        "decisions": decisions,
        "biggest": biggest,
        "chart": chart,
    }


class Reviews:
    """The reviews being worked out in this process, and the way to ask for one."""

    def __init__(self, store: Store, bots: BotPool, worlds: int = WORLDS) -> None:
        self.store, self.bots, self.worlds = store, bots, worlds
        self._jobs: dict[tuple[str, int, int], _Job] = {}

    async def review(
        self, code: str, number: int, seat: int, lines: Sequence[str], names: Sequence[str]
    ) -> dict[str, Any]:
        """``{"status": "done", "review": …}`` once the review of ``seat`` in deal ``number``
        of table ``code`` is known; else ``{"status": "running", "done": k, "total": n}``
        (starting it on the first ask). A :class:`ValueError` for a deal that cannot be
        reviewed."""
        load = partial(
            repository.load_review, code=code, number=number, seat=seat, worlds=self.worlds
        )
        kept = await self.store.read(load)
        if kept is not None:
            return {"status": "done", "review": kept}
        key = (code, number, seat)
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = _Job()
            job.task = asyncio.create_task(self._work(key, list(lines), list(names), job))
        if job.error is not None:
            self._jobs.pop(key, None)
            raise ValueError(job.error)
        if job.task is not None and job.task.done() and job.error is None:
            kept = await self.store.read(load)
            if kept is not None:
                return {"status": "done", "review": kept}
        return {"status": "running", "done": job.done, "total": job.total}

    async def _work(
        self, key: tuple[str, int, int], lines: list[str], names: list[str], job: _Job
    ) -> None:
        code, number, seat = key
        try:
            _, records, score = await asyncio.to_thread(finished_deal, lines, seat)
            job.total = len(records)
            judged: list[Judged] = []
            for record in records:
                judged.append(
                    await self.bots.run(
                        QUEUE, judge_record, lines, record, seat, self.worlds, 0, names
                    )
                )
                job.done += 1
            steps = await asyncio.to_thread(frame_of_records, lines)
            name = namer(names)(seat)
            body = review_body(Review(seat, tuple(judged), score), steps, name)
            save = partial(
                repository.save_review,
                code=code,
                number=number,
                seat=seat,
                worlds=self.worlds,
                body=body,
            )
            await self.store.write([save])
        except Exception as error:  # (a log that does not replay: said to the asker)
            log.error("room %s: deal %d cannot be reviewed (%s)", code, number + 1, error)
            job.error = f"deal {number + 1} cannot be reviewed: {error}"
        else:
            self._jobs.pop(key, None)

    async def close(self) -> None:
        """Stop the reviews being worked out (the server is stopping)."""
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        self._jobs.clear()
