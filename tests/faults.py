"""A database that stops accepting writes, for the tests of what the server does then: every
statement that would change rummy21's tables fails as a full disk fails (SQLite's "database or
disk is full"), reads go on. In-process (an app's own engine, :func:`refusing_writes`) or for a
server process on the same SQLite file (:func:`read_only_triggers`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TABLES = ("rooms", "seats", "deals", "events")
WRITES = ("INSERT", "UPDATE", "DELETE")


def refuses(statement: str) -> bool:
    """Whether ``statement`` would change one of rummy21's tables."""
    words = statement.lstrip().split(None, 3)
    return bool(words) and words[0].upper() in WRITES


@contextmanager
def refusing_writes(
    engine: Any, only: Callable[[str, Any], bool] | None = None
) -> Iterator[list[str]]:
    """Within the block, ``engine`` (a SQLAlchemy engine) refuses every write (or those
    ``only(statement, parameters)`` picks): the statements refused, in order."""
    from sqlalchemy import event

    refused: list[str] = []

    def refuse(
        _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
    ) -> None:
        if refuses(statement) and (only is None or only(statement, parameters)):
            refused.append(statement)
            raise sqlite3.OperationalError("database or disk is full")

    event.listen(engine, "before_cursor_execute", refuse)
    try:
        yield refused
    finally:
        event.remove(engine, "before_cursor_execute", refuse)


@contextmanager
def read_only_triggers(db: Path) -> Iterator[None]:
    """Within the block, the SQLite file ``db`` refuses every insert and update of rummy21's
    tables (triggers, for any process using the file)."""
    names = [(f"rummy21_refuse_{w.lower()}_{t}", w, t) for t in TABLES for w in WRITES]
    with sqlite3.connect(db) as conn:
        for name, write, table in names:
            conn.execute(
                f"CREATE TRIGGER IF NOT EXISTS {name} BEFORE {write} ON {table} "
                "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
            )
    try:
        yield
    finally:
        with sqlite3.connect(db) as conn:
            for name, _, _ in names:
                conn.execute(f"DROP TRIGGER IF EXISTS {name}")
