"""Where the learned bot loses to the expert: its draws or its discards.

    python bench/learned_parts.py --mode expert-draws --shoes 60 --seed 61 --out FILE

One seat among experts (as ``one_seat.py`` measures): each shoe is played by four experts,
then once with the variant in each seat; a seat's figure is the variant's score minus the
expert's in the same seat. The variant is the ``learned`` bot, with the expert choosing its
draws (``expert-draws``: what the learned discards cost), its discards (``expert-discards``:
what the learned draws cost), or neither (``learned``); ``--margin`` keeps its discards
among the expert's candidates (within that many points of the best release, at most
``--width`` of them).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean

from rummy21.bots import Bot, ExpertBot, play_deal
from rummy21.bots.expert import release_readings
from rummy21.cards import counts_of
from rummy21.env.learned import LearnedBot
from rummy21.game import Table
from rummy21.game.actions import Action, Discard
from rummy21.game.view import Phase, View
from rummy21.tournament.play import shoe_dealer, shoe_seed
from rummy21.tournament.stats import mean_interval

MODES = ("learned", "expert-draws", "expert-discards")


class PartLearned(LearnedBot):
    """The learned bot with the expert playing one kind of its decisions."""

    def __init__(self, mode: str, margin: int | None, width: int) -> None:
        super().__init__()
        self.mode, self.margin, self.width = mode, margin, width
        self.teacher = ExpertBot()

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        discarding = view.phase is Phase.DISCARD
        if (self.mode == "expert-draws" and not discarding) or (
            self.mode == "expert-discards" and discarding
        ):
            return self.teacher.choose(view, legal_actions)
        if discarding and self.margin is not None:
            blocked = None if view.blocked is None else view.blocked.index
            ranking = release_readings(counts_of(view.hand), blocked, view)
            keep = ExpertBot(margin=self.margin, width=self.width)._candidates(ranking, view.jokers)
            within = [
                a for a in legal_actions if not isinstance(a, Discard) or a.card.index in keep
            ]
            if any(isinstance(a, Discard) for a in within):
                legal_actions = within
        return super().choose(view, legal_actions)


def play_shoe(job: tuple[str, int | None, int, int, int, int]) -> tuple[int, list[int]]:
    mode, margin, width, players, seed, number = job

    def deal(variant: int | None) -> list[int]:
        table = Table(players, seed=shoe_seed(seed, number), dealer=shoe_dealer(players, number))
        bots: list[Bot] = [ExpertBot() for _ in range(players)]
        if variant is not None:
            bots[variant] = PartLearned(mode, margin, width)
        return list(play_deal(table, bots).scores)

    base = deal(None)
    return number, [deal(s)[s] - base[s] for s in range(players)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, default="learned")
    parser.add_argument("--margin", type=int, default=None)
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--shoes", type=int, default=60)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    jobs = [
        (args.mode, args.margin, args.width, args.players, args.seed, n) for n in range(args.shoes)
    ]
    done: dict[int, list[int]] = {}
    with args.out.open("w") as sink, multiprocessing.Pool(args.jobs) as pool:
        for number, diffs in pool.imap_unordered(play_shoe, jobs):
            done[number] = diffs
            sink.write(json.dumps({"shoe": number, "diffs": diffs}) + "\n")
    interval = mean_interval([fmean(d) for _, d in sorted(done.items())])
    low, high = interval.low or 0.0, interval.high or 0.0
    print(
        f"{args.mode} margin={args.margin}: {interval.mean:+.1f} a deal ({low:+.1f} to {high:+.1f})"
    )


if __name__ == "__main__":
    main()
