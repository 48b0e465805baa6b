"""``rummy21 serve``: the browser table (lobby, live rooms with bots, history) on one port."""

from __future__ import annotations

import gc
import ipaddress
import logging
import re
import socket
from enum import StrEnum
from pathlib import Path

import typer

from rummy21.cli import app, fail


class LogLevel(StrEnum):
    """uvicorn's log levels."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


def default_db_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("rummy21", appauthor=False))
    return f"sqlite:///{folder / 'rummy21.sqlite3'}"


_NODE = re.compile(r"^[A-Za-z0-9._-]{1,40}$")
_URL_EXAMPLES = "e.g. sqlite:////path/to/rummy21.sqlite3 or postgresql+psycopg://user@host/rummy21"


def check_database(url: str) -> str:
    """Open the database at ``url`` as the server will and make sure it can be written;
    return the URL to show (password hidden). Any problem ends the command with one line.

    >>> check_database("sqlite://")
    'sqlite://'
    """
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from rummy21.server.migrations import MigrationError, upgrade
    from rummy21.server.store import cause_of, make_engine

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        fail(f"--db {url!r} is not a database URL ({_URL_EXAMPLES})")
    shown = parsed.render_as_string(hide_password=True)
    try:
        engine = make_engine(url)
    except NoSuchModuleError:
        fail(f"--db {shown}: unknown kind of database {parsed.drivername!r} ({_URL_EXAMPLES})")
    except ImportError as error:
        if parsed.get_backend_name() == "postgresql":
            fail(
                f"--db {shown} needs the PostgreSQL driver ({error.name or 'psycopg'}), which "
                f"is not installed: pip install 'rummy21[postgres]'"
            )
        fail(
            f"--db {shown} needs the driver {error.name or parsed.drivername}, which is not "
            f"installed"
        )
    except OSError as error:  # the SQLite file's folder cannot be made
        reason = "a file is in the way" if isinstance(error, FileExistsError) else error.strerror
        fail(f"--db {shown}: cannot make the folder {error.filename or ''}: {reason}")
    except SQLAlchemyError as error:
        fail(f"--db {shown}: {cause_of(error)}")
    try:
        # A write the server would need (and its first connection, which sets SQLite's
        # journal mode): a scratch table, made and dropped; then the schema brought to the
        # latest revision, as the server does at start (a database it cannot use says so here).
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE IF NOT EXISTS rummy21_write_check (x INTEGER)"))
            conn.execute(text("DROP TABLE rummy21_write_check"))
        upgrade(engine)
    except SQLAlchemyError as error:
        fail(f"cannot open the database {shown} for writing: {cause_of(error)}")
    except MigrationError as error:
        fail(f"--db {shown}: {error}")
    finally:
        engine.dispose()
    return shown


def in_memory(url: str) -> bool:
    """Whether the SQLite URL ``url`` names a database in memory (nothing kept on disk).

    >>> in_memory("sqlite://"), in_memory("sqlite:///:memory:"), in_memory("sqlite:////tmp/r.db")
    (True, True, False)
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def check_proxies(text: str) -> None:
    """``--forwarded-allow-ips``: ``*`` or addresses and networks, comma-separated; anything
    else ends the command with one line.

    >>> check_proxies("127.0.0.1, 10.0.0.0/8")
    >>> check_proxies("zzz")
    Traceback (most recent call last):
    ...
    click.exceptions.Exit: 2
    """
    parts = [p.strip() for p in text.split(",")]
    for part in parts:
        if part == "*":
            continue
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            fail(
                f"--forwarded-allow-ips: {part[:40]!r} is not an address or network "
                "(e.g. 127.0.0.1 or 10.0.0.0/8, comma-separated, or *)"
            )


def check_broker(url: str, db_url: str) -> str:
    """Make sure the broker at ``url`` (Redis) answers and that the database can be shared by
    many processes (PostgreSQL); return the URL to show (password hidden). Any problem ends
    the command with one line."""
    from sqlalchemy.engine import make_url

    if make_url(db_url).get_backend_name() != "postgresql":
        fail(
            "--broker runs many processes on one database: give --db a PostgreSQL URL "
            "(e.g. postgresql+psycopg://user@host/rummy21)"
        )
    try:
        import redis
    except ImportError:
        fail(f"--broker needs the Redis client (redis), which is not installed: {BROKER_PIP}")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    except ValueError as error:
        fail(f"--broker {url!r} is not a Redis URL ({error}; e.g. redis://127.0.0.1:6379/0)")
    shown = str(client.connection_pool.connection_kwargs.get("host", "?"))
    shown = f"redis://{shown}:{client.connection_pool.connection_kwargs.get('port', 6379)}"
    try:
        client.ping()
    except redis.RedisError as error:
        fail(f"--broker {shown} does not answer: {str(error).partition(chr(10))[0]}")
    finally:
        client.close()
    return shown


BROKER_PIP = "pip install 'rummy21[broker]'"


def check_address(host: str, port: int) -> None:
    """Make sure the server can listen on ``host``:``port`` (as uvicorn will bind it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8021, min=1, max=65535, help="Port to listen on."),
    db: str | None = typer.Option(
        None,
        help="SQLAlchemy database URL (default: a SQLite file in the user data "
        "directory), e.g. sqlite:///FILE, or postgresql+psycopg:// and the server.",
    ),
    bot_delay: float = typer.Option(
        0.8, min=0.0, max=30.0, help="Seconds a bot waits before each move."
    ),
    next_deal: float = typer.Option(
        20.0,
        "--next-deal",
        min=0.0,
        max=600.0,
        help="Seconds a deal's result stays up before the next "
        "deal (sooner when every player is ready).",
    ),
    absent_grace: float | None = typer.Option(
        None,
        "--absent-grace",
        min=0.0,
        max=3600.0,
        show_default=False,
        help="Seconds a player whose turn it is may stay disconnected before the turn times "
        "out (also at tables without a turn timer; 0: wait for ever) [default: the "
        "server's, one minute].",
    ),
    message_rate: float = typer.Option(
        40.0,
        "--message-rate",
        min=0.0,
        max=10_000.0,
        help="Messages a second one player may send (bursts of twice that; 0: no limit).",
    ),
    bot_workers: int | None = typer.Option(
        None,
        "--bot-workers",
        min=0,
        max=256,
        help="Processes the bots think in: the bots' share of the CPU, in cores (default: one "
        "per core but one; 0: threads of the server's own process).",
    ),
    max_tables: int = typer.Option(
        2000,
        "--max-tables",
        min=0,
        help="Tables running at once (idle ones are evicted first; 0: no cap).",
    ),
    max_search_seats: int = typer.Option(
        60,
        "--max-search-seats",
        min=0,
        help="Seats played by the Master bot (search) at once (0: no cap).",
    ),
    tables_per_address: int = typer.Option(
        30,
        "--tables-per-address",
        min=0,
        help="Tables one client address may create in 10 minutes (0: no cap).",
    ),
    idle_minutes: float = typer.Option(
        10.0,
        "--idle-minutes",
        min=0.01,
        max=10_000.0,
        help="A table nobody has been connected to for this long rests in the database only "
        "(a visit runs it again).",
    ),
    broker: str | None = typer.Option(
        None,
        help="Redis URL, e.g. redis://HOST:6379/0: run as one of many processes on one "
        "PostgreSQL --db; each table is run by one of them at a time, the others relay.",
    ),
    lease_seconds: float | None = typer.Option(
        None,
        "--lease-seconds",
        min=0.3,
        max=120.0,
        show_default=False,
        help="With --broker: how long a table stays with a process that stopped answering "
        "before another takes it over (renewed every third of it) [default: 3].",
    ),
    node: str | None = typer.Option(
        None,
        help="With --broker: this process's name (default: host, pid and a random part).",
    ),
    forwarded_allow_ips: str | None = typer.Option(
        None,
        "--forwarded-allow-ips",
        help="Behind a reverse proxy: the proxy's addresses (comma-separated, e.g. 127.0.0.1), "
        "whose X-Forwarded-For header then names each client (so that the limit on wrong seat "
        "tokens counts each client, not the proxy).",
    ),
    header_timeout: float = typer.Option(
        10.0,
        "--header-timeout",
        min=0.5,
        max=300.0,
        help="Seconds a connection may take to send a request's headers before it is closed (408).",
    ),
    max_connections: int = typer.Option(
        4096,
        "--max-connections",
        min=16,
        max=1_000_000,
        help="Connections served at once (more are answered 503).",
    ),
    log_level: LogLevel = typer.Option(
        LogLevel.info, case_sensitive=False, help="uvicorn log level."
    ),
) -> None:
    """Serve the browser table: create a table, share its link, play against people and bots."""
    try:
        from uvicorn.config import LOG_LEVELS

        from rummy21.server import create_app
        from rummy21.server.listen import run
        from rummy21.server.model import ABSENT_GRACE, LEASE_SECONDS
    except ImportError as error:  # the optional dependencies are missing
        fail(f"rummy21 serve needs the server extras: pip install 'rummy21[server]' ({error})")
    if not host.strip():
        fail("--host must name an address to listen on (e.g. 127.0.0.1, or 0.0.0.0 for all)")
    url = default_db_url() if db is None else db
    shown = check_database(url)
    broker_shown = None if broker is None else check_broker(broker, url)
    if broker is None:
        for given, flag in ((lease_seconds, "--lease-seconds"), (node, "--node")):
            if given is not None:
                fail(f"{flag} is for many processes on one database: give --broker too")
    if node is not None and not _NODE.match(node):
        fail("--node is 1 to 40 letters, digits and . _ -")
    if forwarded_allow_ips is not None:
        check_proxies(forwarded_allow_ips)
    check_address(host, port)
    logging.basicConfig(
        level=LOG_LEVELS[log_level.value], format="%(levelname)s %(name)s: %(message)s"
    )
    typer.echo(f"rummy21: database {shown}")
    if in_memory(url):
        typer.echo("rummy21: that database is in memory: every table is lost when the server stops")
    if broker_shown is not None:
        typer.echo(f"rummy21: broker {broker_shown}")
    typer.echo(f"rummy21: open http://{host}:{port}/ in a browser")
    application = create_app(
        url,
        bot_delay=bot_delay,
        next_deal_seconds=next_deal,
        absent_grace=ABSENT_GRACE if absent_grace is None else absent_grace,
        rate_limit=message_rate or None,
        bot_workers=bot_workers,
        max_tables=max_tables,
        max_search_seats=max_search_seats,
        tables_per_address=tables_per_address,
        idle_seconds=idle_minutes * 60,
        broker=broker,
        lease_seconds=LEASE_SECONDS if lease_seconds is None else lease_seconds,
        node=node,
    )
    # Live tables make many short-lived objects and few cycles: collect the young generation
    # less often, so that hundreds of tables do not pay for frequent full collections.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    run(
        application,
        host,
        port,
        log_level=log_level.value,
        forwarded_allow_ips=forwarded_allow_ips,
        header_seconds=header_timeout,
        max_connections=max_connections,
    )
