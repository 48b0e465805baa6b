"""Options several commands share, defined once: the rule set and the bots' turn limit."""

from __future__ import annotations

from typing import Any

import typer

from rummy21.bots import DEFAULT_TURN_LIMIT
from rummy21.ruleset import PRESETS


def rules_option() -> Any:
    """``--rules NAME``: the rule set's preset (default classic)."""
    return typer.Option("classic", "--rules", help=f"Rule set: {' or '.join(PRESETS)}.")


def turn_limit_option() -> Any:
    """``--turn-limit N``: turns before a deal among bots is a wash (0: none)."""
    return typer.Option(
        None,
        "--turn-limit",
        help=f"Turns before a deal is a wash (default {DEFAULT_TURN_LIMIT}"
        " unless the rule set has one; 0 for none).",
    )
