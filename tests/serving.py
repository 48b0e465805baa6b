"""Real ``rummy21 serve`` processes and throw-away PostgreSQL databases, for the tests and the
benches that need them (the benches put this folder on ``sys.path``).

httpx and SQLAlchemy are imported where they are used, so that a test module can skip with
``pytest.importorskip`` when they are missing, whatever the order of its imports.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
SERVE = "from rummy21.cli import main; main()"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def fresh_database(admin_url: str, prefix: str = "rummy21_") -> Iterator[str]:
    """The URL of a new, empty database on the server of ``admin_url``, dropped at the end
    (with its connections, even if the block failed). The URL keeps ``admin_url``'s query
    (``?options=-csynchronous_commit%3Doff``, say).

    >>> from sqlalchemy.engine import make_url
    >>> make_url("postgresql+psycopg://u:p@h/admin?options=-cx%3Dy").set(database="b").render_as_string(hide_password=False)
    'postgresql+psycopg://u:p@h/b?options=-cx%3Dy'
    """
    import sqlalchemy
    from sqlalchemy.engine import make_url

    name = f"{prefix}{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
        try:
            yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def rows(db: str, sql: str, **params: Any) -> list[Any]:
    """The rows ``sql`` (bound to ``params``) reads from the database ``db`` (an engine of
    its own, disposed of after)."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(db)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sqlalchemy.text(sql), params).all())
    finally:
        engine.dispose()


def logged_events(db: str, code: str) -> list[dict[str, Any]]:
    """Every event stored for room ``code``, in the log's order (its JSON records)."""
    found = rows(db, "SELECT data FROM events WHERE code = :c ORDER BY deal, seq", c=code)
    return [json.loads(data) for (data,) in found]


class Server:
    """One ``rummy21 serve`` process on 127.0.0.1, its output appended to ``log``; made once
    its ``/healthz`` answers. ``error`` is raised if it exits first or is not up within
    ``wait`` seconds (tests: :class:`AssertionError`; benches: :class:`SystemExit`)."""

    def __init__(
        self,
        args: Sequence[str],
        log: Path,
        *,
        wait: float,
        error: type[BaseException] = AssertionError,
        port: int | None = None,
    ) -> None:
        import httpx

        self.port = free_port() if port is None else port
        self.log = log
        command = [sys.executable, "-c", SERVE, "serve", "--host", HOST, "--port", str(self.port)]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*command, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise error(f"the server exited: {log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.process.kill()
        raise error("the server did not come up")

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def stop(self, grace: float = 15.0) -> None:
        """Ask the process to end (SIGTERM), and kill it if it has not within ``grace`` s."""
        if self.process.poll() is None:
            # A paused process (SIGSTOP) acts on SIGTERM only once woken; a running one
            # ignores SIGCONT.
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
