"""The ``rummy21`` command line: one sub-command per module of this package."""

from __future__ import annotations

import importlib
import sys

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="21 Card Rummy: analyse hands, play, simulate.")


@app.callback()
def _root() -> None:
    """21 Card Rummy: analyse hands, play, simulate."""


#: Sub-command → the module that registers it (imported on demand: start-up stays quick).
COMMANDS = {"analyze": "analyze", "play": "play", "simulate": "simulate", "serve": "serve"}


def _register(only: str | None = None) -> None:
    """Import the modules that register their commands (just ``only``'s, if given)."""
    for command, module in COMMANDS.items():
        if only is None or command == only:
            importlib.import_module(f"rummy21.cli.{module}")


def main() -> None:
    wanted = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in COMMANDS else None
    _register(wanted)
    app()
