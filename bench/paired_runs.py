"""The difference between two bots that each played the same shoes against a third, shoe by
shoe: (A − C) − (B − C) from two tournament journals of the same settings but the bot.

    python bench/paired_runs.py docs/bots/search_expert_p4_s51.jsonl \
        docs/bots/race_expert_p4_s51.jsonl

Both journals must hold the same shoes (the same seed, seats and dealers): a shoe's cards are
the same in both runs, so the difference of the two bots' margins over the common opponent is
paired by shoe, and its interval is far narrower than the two runs' intervals side by side.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rummy21.tournament.stats import mean_interval


def margins(path: Path) -> tuple[dict[int, float], str]:
    """Each shoe's margin of the journal's first bot over its second, and the first's name."""
    lines = path.read_text().splitlines()
    found: dict[int, float] = {}
    name = ""
    for line in lines[1:]:
        row = json.loads(line)
        first, second = list(row["means"])[:2]
        name = first
        found[int(row["shoe"])] = row["means"][first] - row["means"][second]
    return found, name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    args = parser.parse_args()
    a, name_a = margins(args.a)
    b, name_b = margins(args.b)
    shoes = sorted(set(a) & set(b))
    if not shoes:
        parser.error("the journals share no shoe")
    interval = mean_interval([a[s] - b[s] for s in shoes])
    low, high = interval.low, interval.high
    bounds = "n/a" if low is None or high is None else f"{low:+.1f} to {high:+.1f}"
    print(f"{name_a} − {name_b}, paired over {len(shoes)} shoes: {interval.mean:+.1f} ({bounds})")


if __name__ == "__main__":
    main()
