"""The solver core the environment asks for (RUMMY21_SOLVER), as the command line sees it:
``--version`` names the core in use and why; a core that cannot run stops every command
before it starts, with one line on stderr and status 2."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rummy21.cli import _register, app
from rummy21.solver import backend

_register()
HAND = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"
NATIVE_BUILT = "native" in backend.available()
#: Each command, with arguments that would end it quickly (with another message) if it started.
COMMANDS = [
    ["analyze", "--cut", "7D", HAND],
    ["analyze", "--json", "--batch", "-"],
    ["analyze", "--help"],
    ["simulate", "--deals", "1", "--players", "2", "--turn-limit", "5"],
    ["play", "--players", "9"],
    ["serve", "--db", "not a database URL"],
]


def rummy21(*args: str, solver: str) -> subprocess.CompletedProcess[str]:
    """The command line, run with ``RUMMY21_SOLVER=solver``."""
    return subprocess.run(
        [sys.executable, "-m", "rummy21.cli", *args],
        env={**os.environ, backend.ENV: solver},
        input=f"7D: {HAND}\n",
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_solver_that_is_none_stops_every_command(args: list[str]) -> None:
    done = rummy21(*args, solver="bogus")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: RUMMY21_SOLVER='bogus' is not a solver: use python or native\n"


def test_version_names_the_solver_and_what_is_wrong_with_the_one_asked_for() -> None:
    done = rummy21("--version", solver="bogus")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == (
        "solver: python (RUMMY21_SOLVER='bogus' is not a solver: use python or native)"
    )


def test_version_says_python_when_asked() -> None:
    done = rummy21("--version", solver="python")
    assert (done.returncode, done.stderr) == (0, "")
    last = done.stdout.splitlines()[-1]
    if NATIVE_BUILT:
        assert last == "solver: python (RUMMY21_SOLVER=python)"
    else:
        assert last.startswith("solver: python (the native core is not built (")


@pytest.mark.skipif(not NATIVE_BUILT, reason="the native core is not built")
def test_native_when_built() -> None:
    done = rummy21("--version", solver="native")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "solver: native (C core)"
    done = rummy21("analyze", "--cut", "7D", HAND, solver="native")
    assert done.returncode == 0 and done.stdout.startswith("cut 7♦") and done.stderr == ""


@pytest.mark.skipif(NATIVE_BUILT, reason="the native core is built")
def test_native_when_not_built_stops_every_command() -> None:
    done = rummy21("analyze", "--cut", "7D", HAND, solver="native")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: RUMMY21_SOLVER=native, but the native core is not built")
    assert done.stderr.endswith(": reinstall with a C compiler\n") and done.stderr.count("\n") == 1


def test_the_check_runs_in_the_app_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """(as a program that embeds the typer app runs it, without :func:`rummy21.cli.main`)"""
    monkeypatch.setattr(backend, "PROBLEM", "RUMMY21_SOLVER=native, but not here")
    result = CliRunner().invoke(app, ["analyze", "--cut", "7D", HAND])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: RUMMY21_SOLVER=native, but not here\n"
