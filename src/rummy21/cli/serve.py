"""``rummy21 serve``: the browser table (lobby, live rooms with bots, history) on one port."""

from __future__ import annotations

import gc
import logging
from pathlib import Path
from typing import Optional

import typer

from rummy21.cli import app


def default_db_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("rummy21", appauthor=False))
    return f"sqlite:///{folder / 'rummy21.sqlite3'}"


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8021, min=1, max=65535, help="Port to listen on."),
    db: Optional[str] = typer.Option(
        None, help="SQLAlchemy database URL (default: a SQLite file in the user data "
                   "directory; e.g. postgresql+psycopg://user@host/rummy21)."),
    bot_delay: float = typer.Option(0.8, min=0.0, max=30.0,
                                    help="Seconds a bot waits before each move."),
    next_deal: float = typer.Option(20.0, "--next-deal", min=0.0, max=600.0,
                                    help="Seconds a deal's result stays up before the next "
                                         "deal (sooner when every player is ready)."),
    absent_grace: float = typer.Option(
        60.0, "--absent-grace", min=0.0, max=3600.0,
        help="Seconds a player whose turn it is may stay disconnected before the turn times "
             "out (also at tables without a turn timer; 0: wait for ever)."),
    log_level: str = typer.Option("info", help="uvicorn log level."),
) -> None:
    """Serve the browser table: create a table, share its link, play against people and bots."""
    try:
        import uvicorn

        from rummy21.server import create_app
    except ImportError as error:   # the optional dependencies are missing
        typer.echo(f"rummy21 serve needs the server extras: pip install 'rummy21[server]' "
                   f"({error})", err=True)
        raise typer.Exit(2) from None
    url = db or default_db_url()
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    typer.echo(f"rummy21: database {url}")
    typer.echo(f"rummy21: open http://{host}:{port}/ in a browser")
    application = create_app(url, bot_delay=bot_delay, next_deal_seconds=next_deal,
                             absent_grace=absent_grace)
    # Live tables make many short-lived objects and few cycles: collect the young generation
    # less often, so that hundreds of tables do not pay for frequent full collections.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    uvicorn.run(application, host=host, port=port, log_level=log_level.lower(),
                ws_max_size=64 * 1024, proxy_headers=False)
