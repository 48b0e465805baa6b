"""The ``--report`` page: one self-contained HTML file (inline CSS and SVG, nothing fetched)
that shows each bot's mean score with its interval, the paired differences, and the tables
(with, when bot programs played, each one's protocol faults and time per move).

>>> from rummy21.tournament.play import play_shoe
>>> from rummy21.tournament.settings import Settings
>>> from rummy21.tournament.summary import summarize
>>> settings = Settings(("random", "random"), players=2, deals=2, seed=3, turn_limit=30)
>>> page = render_report(summarize(settings, [play_shoe(settings, n) for n in range(2)]))
>>> page.startswith("<!doctype html>"), "<svg" in page, "http" in page
(True, True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from rummy21.bots.external import Fault
from rummy21.tournament.scheme import lineup_text, lineups
from rummy21.tournament.stats import Interval
from rummy21.tournament.summary import PairResult, Summary

PALETTE = ("#2c6fbb", "#d68910", "#7d3c98", "#148f8f", "#5d6d7e", "#a04000", "#7b7d7d")
"""A colour per bot, in the order named (repeated past seven): no green and no red, which
a reader takes for better and worse whichever bot is stronger."""

STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2327;
  margin: 0 auto; padding: 24px 28px 48px; max-width: 980px; background: #fbfbf8; }
h1 { font-size: 1.55em; margin: 0 0 4px; }
h2 { font-size: 1.15em; margin: 30px 0 6px; }
p.lead { margin: 0 0 8px; color: #50575e; }
figure { margin: 8px 0 4px; background: #fff; border: 1px solid #e2e4e0; border-radius: 8px;
  padding: 10px 12px 4px; }
figcaption { color: #50575e; font-size: 0.9em; margin: 2px 0 8px; }
svg { display: block; width: 100%; height: auto; }
svg text { font: 13px system-ui, -apple-system, "Segoe UI", sans-serif; fill: #1d2327; }
svg .tick { fill: #6b7378; font-size: 11.5px; }
svg .value { font-size: 12px; fill: #50575e; }
table { border-collapse: collapse; margin: 6px 0; background: #fff; font-size: 0.93em; }
th, td { border-bottom: 1px solid #e2e4e0; padding: 5px 10px; text-align: right;
  white-space: nowrap; }
th { background: #f1f2ee; font-weight: 600; white-space: normal; vertical-align: bottom; }
.scroll { overflow-x: auto; }
td:first-child, th:first-child { text-align: left; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  margin-right: 6px; vertical-align: baseline; }
.yes { color: #1b7f4b; font-weight: 600; }
.no { color: #6b7378; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 6px 0; }
dt { font-weight: 600; }
dd { margin: 0; color: #3c434a; }
"""


def render_report(summary: Summary) -> str:
    """The whole page for ``summary``."""
    settings = summary.settings
    colour = {bot.label: PALETTE[i % len(PALETTE)] for i, bot in enumerate(summary.bots)}
    plays = lineups(len(settings.bots), settings.players)
    names = ", ".join(
        f"{letter} {bot.label}" for letter, bot in zip(_letters(), summary.bots, strict=False)
    )
    limit = f"turn limit {settings.turn_limit}" if settings.turn_limit else "no turn limit"
    reasons = dict(summary.reasons)
    title = " vs ".join(bot.label for bot in summary.bots)
    ranked = sorted(summary.bots, key=lambda b: -b.score.mean)
    pairs = sorted((p.better_first() for p in summary.pairs), key=lambda p: -p.difference.mean)
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>rummy21 tournament: {escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Tournament: {escape(title)}</h1>",
        f'<p class="lead">{summary.shoes} shoes, each played by {len(plays)} line-ups '
        f"({escape(', '.join(map(lineup_text, plays)))}; {escape(names)}): "
        f"{summary.deals} deals at {settings.players} seats, rules {escape(settings.rules)}, "
        f"seed {settings.seed}, {limit}. {reasons['declared']} declared, "
        f"{reasons['last_active']} won by the last active player, {reasons['wash']} washed; "
        f"{summary.turns:.1f} turns a deal.</p>",
        "<h2>Mean score per deal</h2>",
        "<figure>",
        _forest(
            [(b.label, b.score, colour[b.label]) for b in ranked],
            axis="points per deal",
        ),
        "<figcaption>Dots: each bot's mean score per deal; bars: 95% intervals over the "
        "shoes (Student's t on the shoe means). The game is zero-sum: the means add up "
        "to 0.</figcaption></figure>",
        "<h2>Differences, paired by shoe</h2>",
        "<figure>",
        _forest(
            [
                (
                    f"{p.first} − {p.second}",
                    p.difference,
                    PALETTE[0] if p.difference.excludes_zero else "#8a9196",
                )
                for p in pairs
            ],
            axis="points per deal",
        ),
        "<figcaption>The first bot's mean minus the second's, shoe by shoe (both played the "
        "same cards). A bar clear of 0 (green) shows a difference at the 95% level; one "
        "across 0 (grey) does not.</figcaption></figure>",
        "<h2>Per bot</h2>",
        _bot_table(summary, colour),
        *_program_table(summary, colour),
        "<h2>Pairs</h2>",
        _pair_table(pairs),
        "<h2>How to read this</h2>",
        _reading(),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _letters() -> str:
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, slots=True)
class _Scale:
    """Data values to x pixels."""

    low: float
    high: float
    left: float
    right: float

    def x(self, value: float) -> float:
        return self.left + (value - self.low) / (self.high - self.low) * (self.right - self.left)


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """About ``count`` round ticks covering ``low`` to ``high`` (steps of 1, 2 or 5 × 10ⁿ).

    >>> nice_ticks(-232.0, 118.0)
    [-300.0, -200.0, -100.0, 0.0, 100.0, 200.0]
    >>> nice_ticks(0.0, 0.0)
    [-1.0, -0.5, 0.0, 0.5, 1.0]
    """
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step * 1e-9:
        ticks.append(round(value, 10) + 0.0)
        value += step
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10) + 0.0)
    return ticks


def _forest(rows: Sequence[tuple[str, Interval, str]], axis: str) -> str:
    """An SVG forest plot: a row per label, a dot at the mean and a bar over the interval."""
    width, label_width, value_width, row = 900, 170, 215, 34
    top, bottom = 14, 46
    height = top + row * len(rows) + bottom
    ends = [0.0]
    for _, interval, _ in rows:
        ends += [interval.mean] + [e for e in (interval.low, interval.high) if e is not None]
    ticks = nice_ticks(min(ends), max(ends))
    scale = _Scale(ticks[0], ticks[-1], label_width, width - value_width)
    plot_bottom = top + row * len(rows)
    out = [
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(axis)}">',
    ]
    for tick in ticks:
        x = scale.x(tick)
        stroke = "#9aa0a6" if tick == 0 else "#eceee9"
        dash = ' stroke-dasharray="4 3"' if tick == 0 else ""
        out.append(
            f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{plot_bottom}" '
            f'stroke="{stroke}"{dash}/>'
        )
        out.append(
            f'<text class="tick" x="{x:.1f}" y="{plot_bottom + 16}" text-anchor="middle">'
            f"{_number(tick)}</text>"
        )
    out.append(
        f'<text class="tick" x="{(scale.left + scale.right) / 2:.1f}" y="{plot_bottom + 36}" '
        f'text-anchor="middle">{escape(axis)}</text>'
    )
    for i, (label, interval, colour) in enumerate(rows):
        y = top + row * i + row / 2
        out.append(
            f'<text x="{label_width - 14}" y="{y + 4.5:.1f}" text-anchor="end">'
            f"{escape(label)}</text>"
        )
        if interval.low is not None and interval.high is not None:
            x1, x2 = scale.x(interval.low), scale.x(interval.high)
            out.append(
                f'<line x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}" '
                f'stroke="{colour}" stroke-width="3" stroke-linecap="round"/>'
            )
            for x in (x1, x2):
                out.append(
                    f'<line x1="{x:.1f}" y1="{y - 7:.1f}" x2="{x:.1f}" y2="{y + 7:.1f}" '
                    f'stroke="{colour}" stroke-width="2"/>'
                )
        out.append(
            f'<circle cx="{scale.x(interval.mean):.1f}" cy="{y:.1f}" r="6" fill="{colour}" '
            'stroke="#fff" stroke-width="1.5"/>'
        )
        out.append(
            f'<text class="value" x="{width - value_width + 14}" y="{y + 4.5:.1f}">'
            f"{escape(_interval_text(interval))}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)


def _number(value: float) -> str:
    return f"{value:+g}" if value else "0"


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+.1f}"


def _interval_text(interval: Interval) -> str:
    if interval.low is None or interval.high is None:
        return f"{_signed(interval.mean)} (one shoe)"
    return f"{_signed(interval.mean)} [{_signed(interval.low)}, {_signed(interval.high)}]"


def duration(seconds: float | None) -> str:
    """A move time for a person: ``0.00012`` → ``'120 µs'``, ``0.06`` → ``'60 ms'``.

    >>> duration(0.00012), duration(0.0061), duration(0.06), duration(2.5), duration(None)
    ('120 µs', '6.1 ms', '60 ms', '2.5 s', '–')
    """
    if seconds is None:
        return "–"
    for unit, size in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= size or unit == "µs":
            value = seconds / size
            return f"{value:.2g} {unit}" if value < 10 else f"{value:.0f} {unit}"
    raise AssertionError("unreachable")


def _bot_table(summary: Summary, colour: dict[str, str]) -> str:
    timing = {t.label: t for t in summary.timing}
    head = (
        "<tr><th>bot</th><th>mean / deal</th><th>95% interval</th><th>rating</th>"
        "<th>wins / seats</th><th>drops</th><th>wrong declarations</th>"
        "<th>declared A / B / C</th><th>turns / deal</th><th>move time: median</th>"
        "<th>p99</th></tr>"
    )
    rows = []
    for bot in sorted(summary.bots, key=lambda b: -b.score.mean):
        times = timing.get(bot.label)
        rows.append(
            f'<tr><td><span class="swatch" style="background:{colour[bot.label]}"></span>'
            f"{escape(bot.label)}</td><td>{_signed(bot.score.mean)}</td>"
            f"<td>{_signed(bot.score.low)} to {_signed(bot.score.high)}</td>"
            f"<td>{bot.rating:+.0f}</td><td>{bot.wins} / {bot.plays}</td><td>{bot.drops}</td>"
            f"<td>{bot.wrong}</td>"
            f"<td>{' / '.join(str(n) for _, n in bot.declarations)}</td>"
            f"<td>{bot.turns:.1f}</td>"
            f"<td>{duration(times.median if times else None)}</td>"
            f"<td>{duration(times.p99 if times else None)}</td></tr>"
        )
    return f'<div class="scroll"><table>{head}{"".join(rows)}</table></div>'


def _program_table(summary: Summary, colour: dict[str, str]) -> list[str]:
    """The bot programs (``exec:`` bots, and any bot with faults): moves asked, faults by
    kind, moves lost and time per move; nothing if none played.

    >>> from rummy21.tournament.settings import Settings
    >>> from rummy21.tournament.stats import Interval
    >>> from rummy21.tournament.summary import Timing
    >>> settings = Settings(("exec:./bot", "random"), players=2, deals=1, seed=0)
    >>> summary = Summary(settings, 1, 2, (), 9.0, (), (), (Timing("exec:./bot", 40, 0.002,
    ...                   0.5),), (("exec:./bot", (("crash", 1), ("stale", 2))),))
    >>> html = "".join(_program_table(summary, {"exec:./bot": "#000", "random": "#111"}))
    >>> "<td>1</td><td>0</td><td>0</td><td>0</td><td>2</td><td>1</td>" in html
    True
    """
    faults = dict(summary.faults)
    timing = {t.label: t for t in summary.timing}
    labels = [
        label
        for name, label in zip(summary.settings.bots, summary.settings.labels, strict=True)
        if name.startswith("exec:") or label in faults
    ]
    if not labels:
        return []
    kinds = [kind.value for kind in Fault]
    head = (
        "<tr><th>bot</th><th>moves asked</th>"
        + "".join(f"<th>{kind}</th>" for kind in kinds)
        + "<th>moves lost</th><th>move time: median</th><th>p99</th></tr>"
    )
    rows = []
    for label in labels:
        counts = dict(faults.get(label, ()))
        times = timing.get(label)
        lost = sum(n for kind, n in counts.items() if kind != Fault.STALE.value)
        rows.append(
            f'<tr><td><span class="swatch" style="background:{colour[label]}"></span>'
            f"{escape(label)}</td><td>{times.moves if times else 0}</td>"
            + "".join(f"<td>{counts.get(kind, 0)}</td>" for kind in kinds)
            + f"<td>{lost}</td><td>{duration(times.median if times else None)}</td>"
            f"<td>{duration(times.p99 if times else None)}</td></tr>"
        )
    return [
        "<h2>Bot programs</h2>",
        f'<div class="scroll"><table>{head}{"".join(rows)}</table></div>',
        '<p class="lead">Faults of the programs playing the bot protocol, by kind: each but '
        "<i>stale</i> (an answer with another id, ignored) cost the program its move, played "
        "as a time-out (RULES §6.4). A move's time runs from the question to the answer (or "
        "the fault), on the machine that played it.</p>",
    ]


def _pair_table(pairs: Sequence[PairResult]) -> str:
    head = (
        "<tr><th>difference</th><th>mean</th><th>95% interval</th>"
        "<th>shoes ahead / behind</th><th>verdict</th></tr>"
    )
    rows = []
    for pair in pairs:
        interval = pair.difference
        if interval.excludes_zero:
            verdict = f'<span class="yes">{escape(pair.first)} is stronger</span>'
        else:
            verdict = '<span class="no">no difference shown</span>'
        rows.append(
            f"<tr><td>{escape(pair.first)} − {escape(pair.second)}</td>"
            f"<td>{_signed(interval.mean)}</td>"
            f"<td>{_signed(interval.low)} to {_signed(interval.high)}</td>"
            f"<td>{pair.ahead} / {pair.behind}</td><td>{verdict}</td></tr>"
        )
    return f'<div class="scroll"><table>{head}{"".join(rows)}</table></div>'


def _reading() -> str:
    items = {
        "Duplicate shoes": "every shoe (a seeded deal of the cards, one dealer) is played once "
        "per line-up, the bots rotated so that each plays each seat's cards once: what the "
        "cards gave is the same for all, and cancels out of the comparison.",
        "Mean / deal": "points won (+) or paid (−) in a deal, averaged over the bot's seats "
        "of a shoe, then over the shoes.",
        "95% interval": "Student's t over the shoe means (a shoe's line-ups share the cards, "
        "so the shoe is the independent unit). More shoes, narrower intervals.",
        "Differences": "paired by shoe; one whose interval excludes 0 is a real difference "
        "at the 95% level.",
        "Rating": "Bradley–Terry, fitted to which bot did better in each shoe, in Elo "
        "points (the field averages 0; 400 points apart is odds of 10 to 1).",
        "Wins / seats": "deals won out of the seats the bot filled (a bot may fill several "
        "seats of a deal when there are fewer bots than seats).",
        "Move times": "median and 99th percentile of the time a bot took to choose a move, "
        "on the machine that played it (they vary from run to run; nothing else does).",
    }
    body = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in items.items())
    return f"<dl>{body}</dl>"
