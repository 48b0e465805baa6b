"""What the distance to a valid declaration says of a hand, read off games of four experts.

    PYTHONPATH=src python bench/distance_study.py --deals 300 --seed 10000 --jobs 2

Every seat is the expert. Before each draw, the seat's 21 cards are read (their distance, the
fewest cards to replace, :func:`~rummy21.bots.evaluate.distance_after`, up to 5; their
penalty); at the end the seat's deal score is joined to every reading. After each discard,
the distance the discard left is compared with the least any legal release would have left.
Prints the mean score and the share of deals won by distance (and by distance and penalty),
and how often the expert's discard went further than it had to — the figures behind
:mod:`rummy21.bots.race`.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean

from rummy21.bots import ExpertBot, play_deal
from rummy21.bots.evaluate import distance_after, penalty_after
from rummy21.bots.race import nearest
from rummy21.game import Discard, Table
from rummy21.game.actions import Action
from rummy21.game.view import View

Row = tuple[str, int, int, int, int]
"""(kind, seat, distance, penalty or least distance, round) of one reading."""


class _Reader(ExpertBot):
    """The expert, noting what each of its decisions faced."""

    def __init__(self, rows: list[Row]) -> None:
        super().__init__()
        self.rows = rows

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        action = super().choose(view, legal_actions)
        counts = list(view.hand.counts)
        round_ = view.turns // view.players
        if len(view.hand) == view.rules.hand_size:
            away = distance_after(counts, view.cut, view.rules)
            points = penalty_after(counts, view.cut, view.rules).points
            self.rows.append(("draw", view.seat, away, points, round_))
        elif isinstance(action, Discard):
            mask = view.jokers.joker_mask
            kinds = [
                c.index
                for c in dict.fromkeys(view.releasable)
                if not mask[c.index] and Discard(c) in legal_actions
            ]
            if kinds and not mask[action.card.index]:
                _, least = nearest(counts, kinds, view.cut, view.rules)
                counts[action.card.index] -= 1
                left = distance_after(counts, view.cut, view.rules)
                self.rows.append(("discard", view.seat, left, least, round_))
        return action


def play(seed: int) -> list[tuple[Row, int, bool]]:
    """One deal of four experts: every reading with its seat's score and whether it won."""
    rows: list[Row] = []
    table = Table(4, seed=seed)
    result = play_deal(table, [_Reader(rows) for _ in range(4)])
    return [(row, result.scores[row[1]], result.winner == row[1]) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with multiprocessing.Pool(args.jobs) as pool:
        found = [
            r for deal in pool.map(play, range(args.seed, args.seed + args.deals)) for r in deal
        ]
    draws: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    split: dict[tuple[int, bool], list[int]] = defaultdict(list)
    further: dict[tuple[int, int], int] = defaultdict(int)
    for (kind, _, away, other, _), score, won in found:
        if kind == "draw":
            draws[away].append((score, won))
            split[(away, other >= 100)].append(score)
        else:
            further[(other, away)] += 1
    print(f"{args.deals} deals of four experts (seeds {args.seed}…)")
    print("before a draw, by distance: readings, mean deal score, share won")
    for away in sorted(draws):
        rows = draws[away]
        share = sum(w for _, w in rows) / len(rows)
        print(f"  {away}: {len(rows):5d}  {fmean(s for s, _ in rows):+7.1f}  {share:.3f}")
    print("by distance and penalty (below 100 / 100 or more): mean deal score")
    for away in sorted({a for a, _ in split}):
        low, high = split.get((away, False), []), split.get((away, True), [])
        cells = [f"{fmean(x):+7.1f} ({len(x)})" if x else "   —" for x in (low, high)]
        print(f"  {away}: {cells[0]}  {cells[1]}")
    total = sum(further.values())
    worse = sum(n for (least, left), n in further.items() if left > least)
    print(f"discards: {total}; {worse} left more distance than the least release")
    for (least, left), n in sorted(further.items()):
        print(f"  least {least}, left {left}: {n}")


if __name__ == "__main__":
    main()
