"""The search bot's edge over the expert at three sample budgets, as one SVG plot.

Each budget plays the same duplicate shoes as ``rummy21 tournament --bots search,expert``
(4 seats, both line-ups per shoe, the tournament's shoe seeds and dealers); a shoe's figure is
the search seats' mean deal score minus the expert seats'. The number of worlds alone is the
budget: the bot's time cap (``budget_s``) is lifted, so no move is cut short. Shoes are
appended to a JSON-lines file as they finish, so a run can be stopped and resumed;
``--jobs N`` plays them in N worker processes (the figures do not depend on it).

    PYTHONPATH=src python bench/search_budgets.py --shoes 40 --budgets 6,24,96 \\
        --out runs/search_budgets.jsonl --svg runs/search_budgets.svg --jobs 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path
from statistics import fmean

import ladder_plot  # bench/ladder_plot.py, beside this script

from rummy21.bots import Bot, ExpertBot, SearchBot, play_deal, seat_seed
from rummy21.game import Table
from rummy21.tournament.play import bots_seed, shoe_dealer, shoe_seed
from rummy21.tournament.scheme import lineups
from rummy21.tournament.stats import Interval, mean_interval

PLAYERS = 4


def play(samples: int, seed: int, number: int) -> float:
    """Search seats' mean score minus expert seats', over shoe ``number``'s two line-ups."""
    diffs = []
    for index, lineup in enumerate(lineups(2, PLAYERS)):
        base = bots_seed(seed, number, index)
        bots: list[Bot] = [
            SearchBot(samples=samples, seed=seat_seed(base, s), budget_s=float("inf"))
            if who == 0
            else ExpertBot()
            for s, who in enumerate(lineup)
        ]
        table = Table(PLAYERS, seed=shoe_seed(seed, number), dealer=shoe_dealer(PLAYERS, number))
        scores = play_deal(table, bots).scores
        mine = [x for x, who in zip(scores, lineup, strict=True) if who == 0]
        theirs = [x for x, who in zip(scores, lineup, strict=True) if who == 1]
        diffs.append(fmean(mine) - fmean(theirs))
    return fmean(diffs)


def _play_job(job: tuple[int, int, int]) -> tuple[int, int, float]:
    samples, seed, number = job
    return samples, number, play(samples, seed, number)


def svg(points: list[tuple[int, Interval]]) -> str:
    """Means with 95% intervals against the budget (:func:`ladder_plot.svg`'s drawing)."""
    title = "search minus expert, mean score per deal (95% interval), 4 seats"
    return ladder_plot.svg([(f"{b} worlds", i) for b, i in points], None, title)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=40)
    parser.add_argument("--budgets", default="6,24,96")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=Path("search_budgets.jsonl"))
    parser.add_argument("--svg", type=Path, default=Path("search_budgets.svg"))
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    done: dict[tuple[int, int], float] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[(row["samples"], row["shoe"])] = row["diff"]
    todo = [
        (samples, args.seed, number)
        for number in range(args.shoes)  # shoe by shoe: every budget grows together
        for samples in budgets
        if (samples, number) not in done
    ]
    with args.out.open("a") as sink, multiprocessing.Pool(args.jobs) as pool:
        for samples, number, diff in pool.imap(_play_job, todo):
            done[(samples, number)] = diff
            sink.write(json.dumps({"samples": samples, "shoe": number, "diff": diff}) + "\n")
            sink.flush()
            points = [
                (b, mean_interval(diffs))
                for b in budgets
                if (diffs := [d for (s, _), d in sorted(done.items()) if s == b])
            ]
            args.svg.write_text(svg(points))
            print(" ".join(f"{b}: {i.mean:+.1f} [{i.low}, {i.high}] n={i.n}" for b, i in points))


if __name__ == "__main__":
    main()
