"""The summary of a tournament journal so far (a ``--resume`` file still being written).

    PYTHONPATH=src python bench/journal_so_far.py artifacts/search96_vs_expert_seed23.jsonl

Reads the settings line and every complete shoe record; a last line cut short is skipped.
Prints each bot's mean per deal and every pair's difference with their 95% intervals.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rummy21.tournament import Settings, ShoeRecord, summarize
from rummy21.tournament.stats import Interval


def _span(interval: Interval) -> str:
    if interval.low is None or interval.high is None:
        return "no interval yet"
    return f"95% CI {interval.low:+.1f} to {interval.high:+.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("journal", type=Path)
    args = parser.parse_args()
    lines = args.journal.read_text().splitlines()
    try:
        head = json.loads(lines[0])["tournament"]
    except (IndexError, ValueError, KeyError, TypeError):
        raise SystemExit(f"{args.journal}: the first line is not a tournament's settings") from None
    settings = Settings(
        tuple(head["bots"]),
        players=head["players"],
        deals=head["deals"],
        seed=head["seed"],
        rules=head["rules"],
        turn_limit=head["turn_limit"],
    )
    records: dict[int, ShoeRecord] = {}
    for line in lines[1:]:
        try:
            record = ShoeRecord.from_dict(json.loads(line), settings)
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by an interruption
        records[record.number] = record
    summary = summarize(settings, [records[n] for n in sorted(records)])
    print(f"{len(records)} of {settings.deals} shoes")
    for bot in summary.bots:
        print(f"{bot.label:12s} {bot.score.mean:+7.1f} per deal ({_span(bot.score)})")
    for pair in summary.pairs:
        d = pair.difference
        print(
            f"{pair.first} - {pair.second}: {d.mean:+.1f} ({_span(d)}), "
            f"ahead in {pair.ahead} shoes, behind in {pair.behind}"
        )


if __name__ == "__main__":
    main()
