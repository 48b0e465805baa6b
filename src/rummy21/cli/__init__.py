"""The ``rummy21`` command line: one sub-command per module of this package."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="21 Card Rummy: analyse hands, play, simulate.")


@app.callback()
def _root() -> None:
    """21 Card Rummy: analyse hands, play, simulate."""


def _register() -> None:
    from rummy21.cli import analyze  # noqa: F401  (modules register their commands)
    from rummy21.cli import play, simulate  # noqa: F401
    from rummy21.cli import serve  # noqa: F401


def main() -> None:
    _register()
    app()
