"""Time per move of the expert (or search) bot: wall and CPU time, median and p99, over seeded
4-seat deals against greedy (CPU time is the fair figure on a shared machine).

    PYTHONPATH=src python bench/bench_expert.py --deals 20 --players 4 --seed 1 [--bot search:96]
"""

from __future__ import annotations

import argparse
import time

from rummy21.bots import GreedyBot, check_bot_name, make_bot
from rummy21.bots.base import Bot
from rummy21.game import Draw, Drop, Table


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot", default="expert", help="the bot timed: expert, search, search:WORLDS, …"
    )
    args = parser.parse_args()
    try:
        args.bot = check_bot_name(args.bot)
    except ValueError as error:
        parser.error(str(error))
    wall: dict[str, list[float]] = {"draw": [], "discard": []}
    cpu: dict[str, list[float]] = {"draw": [], "discard": []}
    for deal in range(args.deals):
        table = Table(args.players, seed=args.seed * 1000 + deal)
        bots: list[Bot] = [
            make_bot(args.bot, seed=deal) if s % 2 == 0 else GreedyBot()
            for s in range(args.players)
        ]
        while not table.over:
            seat = table.turn
            assert seat is not None
            view, legal = table.view(seat), table.legal_actions()
            start, start_cpu = time.perf_counter(), time.process_time()
            action = bots[seat].choose(view, legal)
            if seat % 2 == 0:
                kind = "draw" if isinstance(action, Draw | Drop) else "discard"
                wall[kind].append(time.perf_counter() - start)
                cpu[kind].append(time.process_time() - start_cpu)
            table.apply(action)
    every_wall = wall["draw"] + wall["discard"]
    every_cpu = cpu["draw"] + cpu["discard"]
    print(f"{args.bot} moves: {len(every_wall)} over {args.deals} deals at {args.players} seats")
    for name, values in (
        ("all, wall", every_wall),
        ("all, cpu", every_cpu),
        ("draw, cpu", cpu["draw"]),
        ("discard, cpu", cpu["discard"]),
    ):
        print(
            f"{name:14s} median {1000 * _quantile(values, 0.5):7.2f} ms"
            f"  p99 {1000 * _quantile(values, 0.99):8.1f} ms"
        )


if __name__ == "__main__":
    main()
