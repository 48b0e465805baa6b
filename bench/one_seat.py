"""A variant of a bot in one seat among copies of the base bot, against the all-base table.

    PYTHONPATH=src python bench/one_seat.py expert "drop60:drop_points=60" --shoes 200 --jobs 2

Each shoe (the tournament's shoe seeds and dealers) is played once by ``--players`` base bots,
then once for each seat with the variant in that seat; a seat's figure is the variant's deal
score minus the base bot's in the same seat of the all-base deal. Every other seat plays the
same policy in both deals, so a deal in which the variant chooses as the base bot does is
identical and counts exactly 0: this tells small changes apart (a drop threshold, a weight)
in far fewer deals than a two-bot tournament, where every seat's policy changes. It measures
the variant's edge *in a field of base bots*, not a duplicate tournament's pairing.

A variant is ``label:key=value,…`` (keywords of the bot's class: ``ExpertBot`` for
``expert``, ``RaceBot`` for ``race``, ``SearchBot`` for ``search``; booleans as 0 or 1); the
field is always experts. Shoes are appended to ``--out`` as JSON lines, so a run can be resumed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path
from statistics import fmean
from typing import Any

from oracle import OracleBot, RolloutBot  # bench/oracle.py, beside this script

from rummy21.bots import Bot, ExpertBot, SearchBot, play_deal
from rummy21.bots.clairvoyant import ClairvoyantBot
from rummy21.bots.race import RaceBot
from rummy21.game import Table
from rummy21.tournament.play import bots_seed, shoe_dealer, shoe_seed
from rummy21.tournament.stats import mean_interval


def _variant(kind: str, params: dict[str, Any], seed: int, table: Table) -> Bot:
    if kind == "search":
        return SearchBot(seed=seed, **params)
    if kind == "race":
        return RaceBot(**params)
    if kind == "clairvoyant":  # research only: the search told the true deal
        return ClairvoyantBot(table, seed=seed, **params)
    if kind == "oracle":  # research only: exact expert rollouts of the true deal
        return OracleBot(table, **params)
    if kind == "rollout":  # research only: expert rollouts of worlds the View allows
        return RolloutBot(table, seed=seed, **params)
    return ExpertBot(**params)


def play_shoe(job: tuple[str, dict[str, Any], int, int, int]) -> tuple[int, list[int]]:
    """The variant's score minus the base bot's, seat by seat, in shoe ``number``."""
    kind, params, players, seed, number = job

    def deal(variant_seat: int | None) -> list[int]:
        table = Table(players, seed=shoe_seed(seed, number), dealer=shoe_dealer(players, number))
        bots: list[Bot] = [ExpertBot() for _ in range(players)]
        if variant_seat is not None:
            bots[variant_seat] = _variant(
                kind, params, bots_seed(seed, number, variant_seat), table
            )
        return list(play_deal(table, bots).scores)

    base = deal(None)
    return number, [deal(s)[s] - base[s] for s in range(players)]


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``label:key=value,…`` → (label, keywords); numbers with a dot are floats."""
    label, _, body = text.partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, body.split(",")):
        key, _, value = part.partition("=")
        if value.lower() == "none":
            params[key] = None
        else:
            params[key] = float(value) if "." in value else int(value)
    return label, params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "kind", choices=("expert", "race", "search", "clairvoyant", "oracle", "rollout")
    )
    parser.add_argument("variant")
    parser.add_argument("--shoes", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    label, params = parse_variant(args.variant)
    out = args.out or Path(f"one_seat_{args.kind}_{label}.jsonl")
    done: dict[int, list[int]] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[row["shoe"]] = row["diffs"]
    todo = [
        (args.kind, params, args.players, args.seed, n) for n in range(args.shoes) if n not in done
    ]
    with out.open("a") as sink, multiprocessing.Pool(args.jobs) as pool:
        for number, diffs in pool.imap_unordered(play_shoe, todo):
            done[number] = diffs
            sink.write(json.dumps({"shoe": number, "diffs": diffs}) + "\n")
            sink.flush()
    shoes = [fmean(d) for _, d in sorted(done.items())]
    interval = mean_interval(shoes)
    changed = sum(1 for d in done.values() for x in d if x)
    low, high = interval.low, interval.high
    bounds = "n/a" if low is None or high is None else f"{low:+.2f} to {high:+.2f}"
    print(
        f"{args.kind} {label} {params}: {interval.mean:+.2f} per deal "
        f"(95% CI {bounds}), {len(shoes)} shoes, "
        f"{changed} of {len(shoes) * args.players} deals changed"
    )


if __name__ == "__main__":
    main()
