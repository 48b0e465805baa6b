"""Calibrate the expert bot's parameters: each variant against greedy in a duplicate tournament.

    PYTHONPATH=src python bench/calibrate_expert.py --deals 100 --players 4 --seed 7 \
        "base" "win=80:win_bonus=80" "nofeed:feed=0"

A variant is ``label`` or ``label:key=value,key=value`` (keywords of ``ExpertBot``). Each plays
the same shoes (same seed) against greedy; the line printed is expert - greedy per shoe, with
its 95% interval and the expert's median and p99 time per move.
"""

from __future__ import annotations

import argparse
import time

import rummy21.bots as bots
import rummy21.tournament.settings as settings_module
from rummy21.bots.expert import ExpertBot
from rummy21.tournament.run import run_shoes
from rummy21.tournament.settings import Settings
from rummy21.tournament.stats import mean_interval
from rummy21.tournament.summary import summarize

_VARIANTS: dict[str, dict[str, float | int]] = {}
_make_bot = bots.make_bot


def _make(name: str, seed: int | None = None) -> bots.Bot:
    if name in _VARIANTS:
        bot = ExpertBot(**_VARIANTS[name])  # type: ignore[arg-type]
        bot.name = name
        return bot
    return _make_bot(name, seed)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    bots.make_bot = _make
    for text in args.variants:
        label, _, params = text.partition(":")
        kwargs = {
            k: float(v) if "." in v else int(v)
            for k, v in (p.split("=") for p in params.split(",") if p)
        }
        _VARIANTS[label.lower()] = kwargs
    setattr(settings_module, "BOT_NAMES", (*bots.BOT_NAMES, *_VARIANTS))  # noqa: B010
    first: list[float] | None = None
    for label in _VARIANTS:
        settings = Settings((label, "greedy"), args.players, args.deals, args.seed, turn_limit=500)
        start = time.time()
        records = list(run_shoes(settings, range(args.deals), jobs=args.jobs))
        summary = summarize(settings, records)
        per_shoe = [r.means(2)[0] - r.means(2)[1] for r in sorted(records, key=lambda r: r.number)]
        versus = ""
        if first is None:
            first = per_shoe
        else:  # the same shoes: the variant against the first one, paired by shoe
            paired = mean_interval([a - b for a, b in zip(per_shoe, first, strict=True)])
            versus = f" vs first {paired.mean:+.1f} [{paired.low:+.1f}, {paired.high:+.1f}]"
        pair = next(p for p in summary.pairs if {p.first, p.second} == {label, "greedy"})
        sign = 1 if pair.first == label else -1
        d = pair.difference
        low, high = sorted((sign * (d.low or 0.0), sign * (d.high or 0.0)))
        timing = next(t for t in summary.timing if t.label == label)
        print(
            f"{label:12s} {_VARIANTS[label]!s:40s} "
            f"{sign * d.mean:+7.1f} [{low:+6.1f}, {high:+6.1f}] "
            f"median {timing.to_dict()['median_ms']} ms p99 {timing.to_dict()['p99_ms']} ms "
            f"{time.time() - start:.0f}s{versus}",
            flush=True,
        )


if __name__ == "__main__":
    main()
