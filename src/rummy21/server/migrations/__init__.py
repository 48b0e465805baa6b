"""Schema migrations (Alembic) for the tables of :mod:`rummy21.server.store`, shipped with the
package and run by :func:`upgrade` every time the server starts (SQLite or PostgreSQL alike).

* A new, empty database gets every revision in order.
* A database made before migrations existed (rummy21 0.1.0 made its tables with
  ``metadata.create_all`` and has no ``alembic_version`` table) already has the schema of the
  first revision, :data:`BASELINE`: it is stamped with it, then upgraded like any other.
* A database at the latest revision is left as it is.

Changing the schema: change the tables in ``store.py`` and add a revision in ``versions/``
(from the repository's root:
``alembic -c src/rummy21/server/migrations/alembic.ini revision -m "what changes"``, or with
``--autogenerate`` and ``-x url=sqlite:///a-database-at-head.sqlite3``). A revision never
changes once released. ``tests/test_server_migrations.py`` checks that the revisions build
exactly the tables of ``store.py`` and upgrades a database made by the release before
migrations.
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("rummy21.server.migrations")

HERE = Path(__file__).resolve().parent
BASELINE = "0001"
"""The revision whose schema is that of the databases made before migrations."""
LEGACY_TABLES = frozenset({"rooms", "seats", "deals", "events"})
"""The tables ``metadata.create_all`` made before migrations (all or none of them)."""
_LOCK = 0x72756D6D79  # PostgreSQL advisory lock: one server migrates at a time


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for these revisions (``connection``: run them on it)."""
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The latest revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The revision the database is at (``None``: none recorded)."""
    return MigrationContext.configure(connection).get_current_revision()


class MigrationError(RuntimeError):
    """A database the migrations cannot bring up to date; the message says why."""


def upgrade(engine: Engine) -> None:
    """Bring the database to the latest revision (see the module docstring), in one
    transaction where the database allows it."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        names = set(inspect(conn).get_table_names())
        config = alembic_config(conn)
        if "alembic_version" not in names and names & LEGACY_TABLES:
            missing = LEGACY_TABLES - names
            if missing:
                raise MigrationError(
                    f"the database has some of rummy21's tables but not "
                    f"{', '.join(sorted(missing))}: it was not made by rummy21"
                )
            log.info("a database made before migrations: stamping it as revision %s", BASELINE)
            command.stamp(config, BASELINE)
        before = current(conn)
        command.upgrade(config, "head")
        after = current(conn)
        if after != before:
            log.info("database schema upgraded from %s to %s", before or "nothing", after)
