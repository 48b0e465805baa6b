"""Options several commands share, defined once: the rule set, the bots' turn limit and a bot
program's time for a move."""

from __future__ import annotations

from typing import Any

import typer

from rummy21.ruleset import PRESETS


def rules_option() -> Any:
    """``--rules NAME``: the rule set's preset (default classic)."""
    return typer.Option("classic", "--rules", help=f"Rule set: {' or '.join(PRESETS)}.")


def turn_limit_option(default: int) -> Any:
    """``--turn-limit N``: turns before a deal among bots is a wash (0: none), ``default``
    when the rule set has no limit. (Passed in: this module is imported by every command,
    and the bots' own constant would import the bots for ``analyze`` too.)"""
    return typer.Option(
        None,
        "--turn-limit",
        help=f"Turns before a deal is a wash (default {default}"
        " unless the rule set has one; 0 for none).",
    )


def bot_time_option() -> Any:
    """``--bot-time SECONDS``: an ``exec:`` bot program's time for a move (read as text, so
    that a bad value is one line, :func:`rummy21.bots.external.set_move_time`)."""
    return typer.Option(
        None,
        "--bot-time",
        metavar="SECONDS",
        help="Seconds an exec: bot program has for a move (default 5, or RUMMY21_BOT_TIME).",
    )
