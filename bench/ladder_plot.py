"""Strength against budget, from tournament journals, as one SVG plot (and a table).

Each journal (``rummy21 tournament --resume FILE``) is read for its first bot minus its second,
shoe by shoe (the duplicate pairing): the mean a deal and its 95% interval. The points are
drawn left to right in the order given; a ``--bound`` journal (the clairvoyant's) is drawn as a
dashed line across them: the headroom any honest bot could reach by guessing hidden cards
better.

    python bench/ladder_plot.py "24 worlds=docs/bots/search24_expert_p4_s41.jsonl" \\
        "96 worlds=docs/bots/search_expert_p4_s41.jsonl" \\
        --bound docs/bots/clairvoyant_expert_p4_s41.jsonl --svg docs/bots/search_budgets.svg
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rummy21.tournament.stats import Interval, mean_interval


def difference(journal: Path) -> tuple[str, Interval]:
    """``A − B`` of a two-bot tournament journal: its name and the interval over its shoes."""
    lines = journal.read_text().splitlines()
    first, second = json.loads(lines[0])["tournament"]["bots"][:2]
    diffs = [
        row["means"][first] - row["means"][second]
        for row in map(json.loads, lines[1:])
        if "means" in row
    ]
    return f"{first} − {second}", mean_interval(diffs)


def svg(points: list[tuple[str, Interval]], bound: Interval | None, title: str) -> str:
    """Means with 95% intervals, evenly spaced on x, and the bound as a dashed line."""
    width, height, left, right, pad = 600, 330, 60, 130, 44
    values = [v for _, i in points for v in (i.low, i.high, i.mean) if v is not None]
    if bound is not None:
        values.append(bound.mean)
    top, bottom = max([*values, 1.0]) + 3, min([*values, -1.0]) - 3

    def y(v: float) -> float:
        return pad + (top - v) / (top - bottom) * (height - 2 * pad)

    def x(k: int) -> float:
        return left + 40 + k * (width - left - right) / max(1, len(points) - 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="20">{title}</text>',
        f'<line x1="{left}" x2="{left}" y1="{pad}" y2="{height - pad}" stroke="#999"/>',
    ]
    step = 5 if top - bottom <= 50 else 10
    tick = int(bottom // step) * step
    while tick <= top:
        if tick >= bottom:
            colour = "#999" if tick == 0 else "#eee"
            parts += [
                f'<line x1="{left}" x2="{width - 20}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                f'stroke="{colour}"/>',
                f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:+d}</text>',
            ]
        tick += step
    if bound is not None:
        parts += [
            f'<line x1="{left}" x2="{width - 20}" y1="{y(bound.mean):.1f}" '
            f'y2="{y(bound.mean):.1f}" stroke="#a33" stroke-dasharray="6 4"/>',
            f'<text x="{width - 22}" y="{y(bound.mean) - 6:.1f}" text-anchor="end" '
            f'fill="#a33">clairvoyant {bound.mean:+.1f} (n={bound.n})</text>',
        ]
    for k, (label, interval) in enumerate(points):
        lo = interval.low if interval.low is not None else interval.mean
        hi = interval.high if interval.high is not None else interval.mean
        parts += [
            f'<line x1="{x(k):.1f}" x2="{x(k):.1f}" y1="{y(hi):.1f}" y2="{y(lo):.1f}" '
            'stroke="#246" stroke-width="2"/>',
            f'<circle cx="{x(k):.1f}" cy="{y(interval.mean):.1f}" r="4" fill="#246"/>',
            f'<text x="{x(k) + 8:.1f}" y="{y(interval.mean) + 4:.1f}">'
            f"{interval.mean:+.1f} (n={interval.n})</text>",
            f'<text x="{x(k):.1f}" y="{height - 14}" text-anchor="middle">{label}</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts)


def _shown(interval: Interval) -> str:
    low, high = interval.low, interval.high
    bounds = "n/a" if low is None or high is None else f"{low:+.1f} to {high:+.1f}"
    return f"{interval.mean:+.1f} ({bounds}), {interval.n} shoes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("points", nargs="+", help="LABEL=JOURNAL, in the order drawn")
    parser.add_argument("--bound", type=Path, help="the clairvoyant's journal")
    parser.add_argument("--svg", type=Path, required=True)
    parser.add_argument(
        "--title", default="search minus expert, mean score per deal (95% interval), 4 seats"
    )
    args = parser.parse_args()
    points = []
    for text in args.points:
        label, _, path = text.partition("=")
        name, interval = difference(Path(path))
        points.append((label, interval))
        print(f"{label:>12}  {name}: {_shown(interval)}")
    bound = None
    if args.bound is not None:
        name, bound = difference(args.bound)
        print(f"{'bound':>12}  {name}: {_shown(bound)}")
    args.svg.write_text(svg(points, bound, args.title))


if __name__ == "__main__":
    main()
