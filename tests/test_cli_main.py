"""The `rummy21` command as a whole: --version, and output that cannot be written (the solver
asked for in the environment: test_cli_native.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata

import pytest
from typer.testing import CliRunner

from rummy21.cli import OUTPUT_FAILED, _register, app
from rummy21.solver import backend

_register()
RUNNER = CliRunner()
HAND = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"


def test_version_names_the_package_its_optional_parts_and_the_solver() -> None:
    result = RUNNER.invoke(app, ["--version"])
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and len(lines) == 7
    assert lines[0].startswith(f"rummy21 {metadata.version('rummy21')} (Python ")
    assert lines[1].startswith("server extra (the browser table, rummy21 serve): ")
    assert lines[2].startswith("postgres extra (the PostgreSQL driver")
    assert lines[3].startswith("broker extra (many serve processes on one database, ")
    assert lines[4].startswith("ray extra (tournaments on Ray, tournament --backend ray): ")
    assert lines[5].startswith("live extra (bot programs at live tables, rummy21 bot connect): ")
    assert lines[6] == backend.describe()


def test_version_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real = metadata.version

    def version(name: str) -> str:
        if name in ("psycopg", "fastapi"):
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    lines = RUNNER.invoke(app, ["--version"]).stdout.splitlines()
    assert lines[1].endswith(": missing fastapi: pip install 'rummy21[server]'")
    assert lines[2].endswith(": missing psycopg: pip install 'rummy21[postgres]'")


def test_version_from_the_console_script() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummy21.cli", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.startswith("rummy21 ") and done.stderr == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "--cut", "7D", HAND],
        ["analyze", "--json", "--cut", "7D", HAND],
        ["analyze", "--json", "--batch", "-"],
        ["simulate", "--deals", "1", "--players", "2", "--turn-limit", "5", "--json"],
        ["tournament", "--deals", "1", "--players", "2", "--bots", "random,random", "--json"],
        ["tournament", "--deals", "1", "--players", "2", "--bots", "random,random", "--jobs", "1"],
        ["--version"],
    ],
)
def test_output_that_cannot_be_written_is_one_line(args: list[str]) -> None:
    """A full disk (or a terminal gone) is the machine's trouble, not a traceback."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rummy21.cli", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            input=f"7D: {HAND}\n" * 3,
            text=True,
        )
    assert done.returncode == OUTPUT_FAILED
    assert done.stderr == "error: cannot write the output: No space left on device\n"
