"""`rummy21 serve`: a database or an address it cannot use is one line on stderr and status 2,
before it says where to open the table."""

from __future__ import annotations

import gc
import socket
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import free_port
from typer.testing import CliRunner

pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")

import rummy21.cli.serve  # noqa: F401  (registers the command)
from rummy21.cli import app

RUNNER = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """The server's run (uvicorn) replaced by a note of its arguments (and the collector
    settings serve changes put back)."""
    runs: list[dict[str, Any]] = []

    def run(application: Any, host: str, port: int, **options: Any) -> None:
        runs.append({"host": host, "port": port, **options})

    monkeypatch.setattr("rummy21.server.listen.run", run)
    threshold = gc.get_threshold()
    yield runs
    gc.unfreeze()
    gc.set_threshold(*threshold)


def serve(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, ["serve", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def refused(*args: str) -> str:
    """The one line of a refusal (status 2, nothing on stdout: no 'open http://…')."""
    code, out, err = serve(*args)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    return err


def test_a_good_database_is_named_before_the_address(
    tmp_path: Path, started: list[dict[str, Any]]
) -> None:
    port, path = free_port(), tmp_path / "new" / "r.sqlite3"
    code, out, _ = serve("--db", f"sqlite:///{path}", "--port", str(port), "--log-level", "WARNING")
    assert code == 0 and len(started) == 1
    assert started[0]["port"] == port and started[0]["log_level"] == "warning"
    assert out.splitlines() == [
        f"rummy21: database sqlite:///{path}",
        f"rummy21: open http://127.0.0.1:{port}/ in a browser",
    ]
    assert path.exists()


@pytest.mark.parametrize("url", ["notaurl", "", "postgresql+psycopg://u@h:port/db"])
def test_not_a_url(url: str, started: list[dict[str, Any]]) -> None:
    assert f"--db {url!r} is not a database URL" in refused("--db", url)
    assert not started


def test_an_unknown_kind_of_database(started: list[dict[str, Any]]) -> None:
    assert "unknown kind of database 'nosuchdb'" in refused("--db", "nosuchdb://h/x")


def test_postgres_without_its_driver(
    monkeypatch: pytest.MonkeyPatch, started: list[dict[str, Any]]
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra were not installed
    err = refused("--db", "postgresql+psycopg://rummy@127.0.0.1/rummy21")
    assert "needs the PostgreSQL driver (psycopg)" in err
    assert "pip install 'rummy21[postgres]'" in err and not started


def test_a_database_that_does_not_answer_hides_its_password(started: list[dict[str, Any]]) -> None:
    err = refused("--db", f"postgresql+psycopg://rummy:secret@127.0.0.1:{free_port()}/rummy21")
    assert "cannot open the database postgresql+psycopg://rummy:***@127.0.0.1" in err
    assert "secret" not in err


def test_a_sqlite_folder_that_cannot_be_made(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    (tmp_path / "afile").write_text("")
    err = refused("--db", f"sqlite:///{tmp_path / 'afile' / 'r.sqlite3'}")
    assert f"cannot make the folder {tmp_path / 'afile'}: a file is in the way" in err


def test_a_sqlite_path_that_is_a_folder(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    err = refused("--db", f"sqlite:///{tmp_path}")
    assert "cannot open the database" in err and "unable to open database file" in err


def test_a_database_made_by_something_else(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    """Some of rummy21's table names but not the others: the migrations refuse it, in one
    line, before the server says where to open the table."""
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE rooms (code TEXT)")
    err = refused("--db", f"sqlite:///{path}")
    assert "has some of rummy21's tables but not deals, events, seats" in err and not started


def test_a_read_only_sqlite_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[dict[str, Any]]
) -> None:
    """Opened read-only (root may write any file, so permissions cannot show it)."""
    path = tmp_path / "r.sqlite3"
    assert serve("--db", f"sqlite:///{path}", "--port", str(free_port()))[0] == 0
    monkeypatch.chdir(tmp_path)  # (the store makes a folder 'file:' for such a URL)
    err = refused("--db", f"sqlite:///file:{path}?mode=ro&uri=true")
    assert "for writing: attempt to write a readonly database" in err


def test_an_address_in_use(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        err = refused("--db", f"sqlite:///{tmp_path / 'r.sqlite3'}", "--port", str(port))
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in err
    assert not started


def test_an_empty_host(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    assert "--host must name an address" in refused(
        "--host", " ", "--db", f"sqlite:///{tmp_path / 'r.db'}"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--log-level", "loud"],
        ["--bot-delay", "nan"],
        ["--next-deal", "-1"],
        ["--absent-grace", "inf"],
        ["--port", "0"],
    ],
)
def test_values_typer_refuses(args: list[str], started: list[dict[str, Any]]) -> None:
    code, out, err = serve(*args)
    assert code == 2 and out == "" and "Traceback" not in err and args[0] in err
    assert not started


PG_URL = "postgresql+psycopg://rummy@127.0.0.1/rummy21"


def test_a_broker_needs_a_shared_database(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    err = refused("--db", f"sqlite:///{tmp_path / 'r.sqlite3'}", "--broker", "redis://127.0.0.1")
    assert "--broker runs many processes on one database: give --db a PostgreSQL URL" in err


def test_a_broker_without_its_client(
    monkeypatch: pytest.MonkeyPatch, started: list[dict[str, Any]]
) -> None:
    monkeypatch.setattr("rummy21.cli.serve.check_database", lambda url: url)
    monkeypatch.setitem(sys.modules, "redis", None)  # as if the extra were not installed
    err = refused("--db", PG_URL, "--broker", "redis://127.0.0.1:6379/0")
    assert "--broker needs the Redis client (redis)" in err
    assert "pip install 'rummy21[broker]'" in err and not started


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://127.0.0.1/", "is not a Redis URL"),
        ("redis://127.0.0.1:{port}/0", "does not answer"),
    ],
)
def test_a_broker_it_cannot_use(
    url: str, said: str, monkeypatch: pytest.MonkeyPatch, started: list[dict[str, Any]]
) -> None:
    pytest.importorskip("redis")
    monkeypatch.setattr("rummy21.cli.serve.check_database", lambda url: url)
    err = refused("--db", PG_URL, "--broker", url.format(port=free_port()))
    assert said in err and not started


def test_a_node_name_it_cannot_use(
    monkeypatch: pytest.MonkeyPatch, started: list[dict[str, Any]]
) -> None:
    pytest.importorskip("redis")
    monkeypatch.setattr("rummy21.cli.serve.check_database", lambda url: url)
    monkeypatch.setattr("rummy21.cli.serve.check_broker", lambda url, db: url)
    assert "--node is 1 to 40 letters" in refused("--db", PG_URL, "--broker", "r", "--node", "a b")
