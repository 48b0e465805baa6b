"""Benchmark the game engine and the bots.

    python bench/bench_game.py [--deals 500] [--speed-deals 200] [--greedy-deals 20]
                               [--players 4] [--turn-limit 200] [--seed 1] [--json]

Prints

* deals per second with random bots in every seat (engine speed: views, legal actions, moves);
* deals per second with greedy bots in every seat (dominated by the solver, ~22 readings a turn);
* the mean score per deal of greedy against random bots, seated greedy, random, greedy, …
  over ``--deals`` deals (the dealer rotates, so both kinds sit everywhere), with win counts
  and how deals ended.

Seeds are fixed, so two runs play the same deals; only the timings vary.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from typing import Any

from rummy21.bots import make_bots, play_deal
from rummy21.bots.evaluate import cache_info
from rummy21.game import Match
from rummy21.ruleset import RuleSet


def run(names: list[str], deals: int, rules: RuleSet, seed: int) -> tuple[float, Match]:
    match = Match(len(names), rules, seed=seed)
    bots = make_bots(names, seed=seed)
    start = time.perf_counter()
    for _ in range(deals):
        table = match.new_deal()
        play_deal(table, bots)
        match.record(table)
    return time.perf_counter() - start, match


def speed(kind: str, players: int, deals: int, rules: RuleSet, seed: int) -> dict[str, Any]:
    elapsed, match = run([kind] * players, deals, rules, seed)
    turns = sum(d.turns for d in match.deals)
    return {
        "bots": kind,
        "players": players,
        "deals": deals,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(deals / elapsed, 2),
        "turns_per_second": round(turns / elapsed, 1),
        "mean_turns": round(turns / deals, 1),
    }


def head_to_head(players: int, deals: int, rules: RuleSet, seed: int) -> dict[str, Any]:
    names = ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    elapsed, match = run(names, deals, rules, seed)
    per_kind: dict[str, list[int]] = {"greedy": [], "random": []}
    wins: Counter[str] = Counter()
    for record in match.deals:
        for seat, score in enumerate(record.scores):
            per_kind[names[seat]].append(score)
        if record.winner is not None:
            wins[names[record.winner]] += 1
    reasons = Counter(d.reason.value for d in match.deals)
    return {
        "seats": names,
        "deals": deals,
        "seconds": round(elapsed, 1),
        "mean_score_per_deal": {k: round(sum(v) / len(v), 2) for k, v in per_kind.items()},
        "wins": dict(wins),
        "reasons": dict(reasons),
        "mean_turns": round(sum(d.turns for d in match.deals) / deals, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--deals", type=int, default=500, help="deals for greedy against random (default 500)"
    )
    parser.add_argument(
        "--speed-deals",
        type=int,
        default=200,
        help="deals for the random-bot speed run (default 200)",
    )
    parser.add_argument(
        "--greedy-deals",
        type=int,
        default=20,
        help="deals for the greedy-bot speed run (default 20)",
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--turn-limit", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    rules = RuleSet().with_(turn_limit=args.turn_limit)
    if min(args.deals, args.speed_deals, args.greedy_deals) < 1:
        parser.error("--deals, --speed-deals and --greedy-deals must be at least 1")
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "turn_limit": args.turn_limit,
        "seed": args.seed,
        "random_speed": speed("random", args.players, args.speed_deals, rules, args.seed),
        "greedy_speed": speed("greedy", args.players, args.greedy_deals, rules, args.seed),
        "greedy_vs_random": head_to_head(args.players, args.deals, rules, args.seed),
        "reading_cache": cache_info(),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    r, g, h = report["random_speed"], report["greedy_speed"], report["greedy_vs_random"]
    print(
        f"Python {report['python']} on {report['machine']}, turn limit {args.turn_limit}, "
        f"seed {args.seed}"
    )
    for run_ in (r, g):
        print(
            f"{run_['players']} {run_['bots']} bots: {run_['deals_per_second']} deals/s "
            f"({run_['turns_per_second']} turns/s, {run_['mean_turns']} turns a deal, "
            f"{run_['deals']} deals in {run_['seconds']} s)"
        )
    means = h["mean_score_per_deal"]
    print(
        f"greedy vs random ({', '.join(h['seats'])}), {h['deals']} deals in {h['seconds']} s: "
        f"mean score per deal greedy {means['greedy']:+.2f}, random {means['random']:+.2f}; "
        f"wins {h['wins']}; endings {h['reasons']}; {h['mean_turns']} turns a deal"
    )
    print(f"reading cache: {report['reading_cache']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
