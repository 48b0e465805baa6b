"""Small self-contained SVG line charts (no plotting library): the learned bot's learning
curves, a review's expected score through a deal.

>>> svg = line_chart({"held out": [(0, 50.0), (10, 70.0)]}, "teacher moves matched", "%")
>>> svg.startswith("<svg") and "held out" in svg and svg.count("<polyline") == 1
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

COLOURS = ("#2a7", "#c53", "#36c", "#a3a", "#888")


def line_chart(
    series: Mapping[str, Sequence[tuple[float, float]]],
    title: str,
    unit: str,
    x_label: str = "samples trained on",
) -> str:
    """One line per named series of (x, y) points, on shared axes, with a legend."""
    width, height, pad = 640, 320, 56
    points = [p for line in series.values() for p in line] or [(0.0, 0.0)]
    low_x, high_x = min(p[0] for p in points), max(p[0] for p in points)
    low_y, high_y = min(p[1] for p in points), max(p[1] for p in points)
    span_x, span_y = (high_x - low_x) or 1.0, (high_y - low_y) or 1.0

    def x(value: float) -> float:
        return pad + (width - 2 * pad) * (value - low_x) / span_x

    def y(value: float) -> float:
        return height - pad - (height - 2 * pad) * (value - low_y) / span_y

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{pad}" y="20">{escape(title)}</text>',
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        'stroke="#999"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#999"/>',
        f'<text x="4" y="{y(high_y) + 4:.1f}">{high_y:.4g} {escape(unit)}</text>',
        f'<text x="4" y="{y(low_y) + 4:.1f}">{low_y:.4g} {escape(unit)}</text>',
        f'<text x="{pad}" y="{height - pad + 18}">{low_x:,.0f}</text>',
        f'<text x="{width - pad}" y="{height - pad + 18}" text-anchor="end">{high_x:,.0f}</text>',
        f'<text x="{width / 2:.0f}" y="{height - 12}" text-anchor="middle">'
        f"{escape(x_label)}</text>",
    ]
    for number, (name, line) in enumerate(series.items()):
        colour = COLOURS[number % len(COLOURS)]
        drawn = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in line)
        parts.append(f'<polyline points="{drawn}" fill="none" stroke="{colour}" stroke-width="2"/>')
        lx = pad + 240 * number  # the legend: a row under the title, above the lines
        parts.append(
            f'<line x1="{lx}" y1="38" x2="{lx + 20}" y2="38" stroke="{colour}" stroke-width="2"/>'
        )
        parts.append(f'<text x="{lx + 26}" y="42">{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
