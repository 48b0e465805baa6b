"""The ``--report`` page: placeholder."""

from __future__ import annotations

from rummy21.tournament.summary import Summary


def render_report(summary: Summary) -> str:
    return "<!doctype html><title>tournament</title>"
