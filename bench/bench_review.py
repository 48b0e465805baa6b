"""Time to review one seat of a finished deal (the coach, ``rummy21 review``): CPU seconds per
review at the default budget, median and percentiles, over seeded 4-seat deals played by
experts (seat 0 reviewed), one process; and the verdicts the expert's own decisions get (the
calibration of the thresholds: a strong bot's play should be nearly all best or good).

    python bench/bench_review.py --deals 10 --seed 1 [--worlds 96]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from rummy21.bots import ExpertBot, play_deal
from rummy21.bots.search import DEFAULT_SAMPLES
from rummy21.game import Table
from rummy21.review import VERDICTS, review_deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=DEFAULT_SAMPLES)
    args = parser.parse_args()
    seconds, turns, decisions = [], [], []
    verdicts: Counter[str] = Counter()
    losses: list[float] = []
    for number in range(args.deals):
        table = Table(args.players, seed=args.seed * 1000 + number)
        play_deal(table, [ExpertBot() for _ in range(args.players)])
        started = time.process_time()
        review = review_deal(table.log, seat=0, worlds=args.worlds)
        seconds.append(time.process_time() - started)
        turns.append(table.turns)
        decisions.append(len(review.decisions))
        verdicts.update(d.verdict for d in review.decisions)
        losses.extend(d.loss for d in review.decisions)
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print(
        f"review of seat 0, {args.deals} deals at {args.players} seats ({args.worlds} worlds): "
        f"{statistics.fmean(turns):.1f} turns and {statistics.fmean(decisions):.1f} decisions "
        f"a deal; CPU s per review: median {statistics.median(seconds):.2f}, p90 {p90:.2f}, "
        f"max {ordered[-1]:.2f}"
    )
    total = sum(verdicts.values())
    shares = ", ".join(f"{v} {100 * verdicts[v] / total:.1f} %" for v in VERDICTS)
    print(f"the expert's {total} decisions: {shares}; mean loss {statistics.fmean(losses):.2f}")


if __name__ == "__main__":
    main()
