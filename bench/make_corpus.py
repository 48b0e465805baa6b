"""Write the fixed benchmark corpus: 1,000 random deals and 1,000 near-complete hands.

    python bench/make_corpus.py            # rewrites bench/corpus_random.txt, bench/corpus_near.txt

Each file is in the ``rummy21 analyze --batch`` format (``CUT: CARD CARD …``), so the CLI
can be timed on it end to end. The near-complete hands cycle through recipes aiming at each
declaration option (A, B, C, D, mixed); the kind is the comment before each line.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the hand generators are test tools

from handgen import corpus  # noqa: E402

from rummy21.analysis import analyze  # noqa: E402
from rummy21.cards import format_cards  # noqa: E402

SEED = 21


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=1000)
    parser.add_argument("--near", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    hands = corpus(args.seed, args.random, args.near)
    options: Counter[str] = Counter()
    halves: list[tuple[str, Callable[[str], bool]]] = [
        ("random", lambda k: k == "random"),
        ("near", lambda k: k != "random"),
    ]
    for name, wanted in halves:
        lines = [f"# {name} hands, seed {args.seed}: `python bench/make_corpus.py`"]
        for cut, hand, kind in hands:
            if wanted(kind):
                lines.append(f"# {kind}")
                lines.append(f"{cut}: {format_cards(hand)}")
                if name == "near":
                    options.update(analyze(hand, cut).options)
        (HERE / f"corpus_{name}.txt").write_text("\n".join(lines) + "\n")
    print("near-complete hands by valid option:", dict(sorted(options.items())))


if __name__ == "__main__":
    main()
