"""Duplicate tournaments between bots, with confidence intervals: every seeded shoe is replayed
with the line-up rotated, so each bot plays each seat's cards and the luck of the deal cancels
out.

* :mod:`~rummy21.tournament.scheme` — which line-ups play each shoe;
* :mod:`~rummy21.tournament.settings` — what a tournament is (and a resumed one must match);
* :mod:`~rummy21.tournament.play` — playing one shoe, from the seed and its number alone;
* :mod:`~rummy21.tournament.records` — what a shoe leaves (a JSON line);
* :mod:`~rummy21.tournament.run` — playing many: this process, local workers, or Ray;
* :mod:`~rummy21.tournament.journal` — the ``--resume`` file;
* :mod:`~rummy21.tournament.stats` and :mod:`~rummy21.tournament.summary` — means with
  Student-t intervals over shoes, paired differences, a Bradley–Terry rating;
* :mod:`~rummy21.tournament.report` — the HTML page.

The rating is Bradley–Terry, fitted here in a few lines, rather than OpenSkill or TrueSkill:
the bots' strength does not change during a tournament, so one fit over all shoes (the same
whatever order they finish in) suits it better than ratings updated shoe by shoe, and the core
needs no new dependency.

>>> settings = Settings(("random", "random"), players=2, deals=2, seed=4, turn_limit=20)
>>> summary = summarize(settings, run_shoes(settings, range(2), jobs=1))
>>> [bot.score.n for bot in summary.bots]
[2, 2]
"""

from __future__ import annotations

from rummy21.tournament.journal import Journal, JournalError
from rummy21.tournament.play import play_shoe
from rummy21.tournament.records import DealOutcome, MoveTimes, ShoeRecord
from rummy21.tournament.report import render_report
from rummy21.tournament.run import (
    BACKENDS,
    MAX_JOBS,
    RAY_MISSING,
    Backend,
    BackendUnavailable,
    run_shoes,
)
from rummy21.tournament.scheme import Lineup, lineup_text, lineups, seat_counts
from rummy21.tournament.settings import Settings
from rummy21.tournament.stats import Interval, bradley_terry, mean_interval, t_quantile
from rummy21.tournament.summary import BotResult, PairResult, Summary, Timing, summarize

__all__ = [
    "BACKENDS",
    "MAX_JOBS",
    "RAY_MISSING",
    "Backend",
    "BackendUnavailable",
    "BotResult",
    "DealOutcome",
    "Interval",
    "Journal",
    "JournalError",
    "Lineup",
    "MoveTimes",
    "PairResult",
    "Settings",
    "ShoeRecord",
    "Summary",
    "Timing",
    "bradley_terry",
    "lineup_text",
    "lineups",
    "mean_interval",
    "play_shoe",
    "render_report",
    "run_shoes",
    "seat_counts",
    "summarize",
    "t_quantile",
]
