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

from rummy21.bots import Bot, ExpertBot, SearchBot, play_deal
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
            SearchBot(samples=samples, seed=base * 1000 + s, budget_s=float("inf"))
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
    """Means with 95% intervals against the budget (evenly spaced on x), with a y scale."""
    width, height, left, right, pad = 560, 320, 60, 150, 40
    lows = [i.low if i.low is not None else i.mean for _, i in points]
    highs = [i.high if i.high is not None else i.mean for _, i in points]
    top, bottom = max([*highs, 1.0]), min([*lows, -1.0])

    def y(v: float) -> float:
        return pad + (top - v) / (top - bottom) * (height - 2 * pad)

    def x(k: int) -> float:
        return left + 20 + k * (width - left - right) / max(1, len(points) - 1)

    step = 10 if top - bottom <= 100 else 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="20">search minus expert, mean score per deal '
        "(95% interval), 4 seats</text>",
        f'<line x1="{left}" x2="{left}" y1="{pad}" y2="{height - pad}" stroke="#999"/>',
    ]
    tick = int(bottom // step) * step
    while tick <= top:
        if tick >= bottom:
            colour = "#999" if tick == 0 else "#eee"
            parts += [
                f'<line x1="{left}" x2="{width - right + 40}" y1="{y(tick):.1f}" '
                f'y2="{y(tick):.1f}" stroke="{colour}"/>',
                f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:+d}</text>',
            ]
        tick += step
    for k, (samples, interval) in enumerate(points):
        lo = interval.low if interval.low is not None else interval.mean
        hi = interval.high if interval.high is not None else interval.mean
        parts += [
            f'<line x1="{x(k):.1f}" x2="{x(k):.1f}" y1="{y(hi):.1f}" y2="{y(lo):.1f}" '
            'stroke="#246" stroke-width="2"/>',
            f'<circle cx="{x(k):.1f}" cy="{y(interval.mean):.1f}" r="4" fill="#246"/>',
            f'<text x="{x(k) + 8:.1f}" y="{y(interval.mean) + 4:.1f}">'
            f"{interval.mean:+.1f} (n={interval.n})</text>",
            f'<text x="{x(k):.1f}" y="{height - 12}" text-anchor="middle">{samples} worlds</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts)


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
