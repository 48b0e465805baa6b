"""The command line's rough edges, as a new user found them (issue 29): a bot that cannot
load is one line and status 2, not a traceback; a closed pipe ends a report quietly, as Unix
tools do; an interrupted simulation still prints what it played; a tournament checks its
report path before playing and prints its results before writing the report; a resume file
is read line by line, never whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

RUMMY21 = [sys.executable, "-m", "rummy21.cli"]
HAND = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUMMY21, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.parametrize("command", ["simulate", "tournament", "play"])
def test_a_bot_file_that_cannot_load_is_one_line(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    for bots in (f"learned:{tmp_path / 'missing.npz'}", f"learned:{empty}"):
        seats = ["--players", "3"] if command == "play" else []
        done = run(command, "--bots", f"{bots},random", "--deals", "1", *seats)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert lines and lines[0].startswith("error: the bot 'learned:")
        assert len(lines) == 1


def test_a_closed_pipe_ends_the_report_quietly() -> None:
    reader = subprocess.Popen(
        [*RUMMY21, "simulate", "--bots", "greedy,random", "--deals", "40", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.readline()
    reader.stdout.close()  # as `| head -1` does
    status = reader.wait(timeout=120)
    assert status == -signal.SIGPIPE  # ended by the signal, as cat or yes are
    assert reader.stderr.read() == b""


def test_an_interrupted_simulation_prints_what_it_played() -> None:
    child = subprocess.Popen(
        [*RUMMY21, "simulate", "--bots", "expert,search", "--deals", "200", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    child.stdout.readline()  # one deal played
    time.sleep(0.2)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130
    assert "interrupted after" in err and "Traceback" not in err
    assert '"summary"' in out.strip().splitlines()[-1]


def test_a_report_that_cannot_be_written_is_refused_before_playing(tmp_path: Path) -> None:
    for where in ("/proc/report.html", str(tmp_path / "no" / "report.html"), str(tmp_path)):
        done = run("tournament", "--bots", "greedy,random", "--deals", "2", "--report", where)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"error: cannot write the report to {where}")
    assert list(tmp_path.iterdir()) == []  # (the probe leaves nothing behind)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_the_results_come_before_a_report_that_fails() -> None:
    done = run(
        "tournament", "--bots", "greedy,random", "--deals", "2", "--json", "--report", "/dev/full"
    )
    assert done.returncode != 0 and "cannot write /dev/full" in done.stderr
    assert '"pairs"' in done.stdout or '"bots"' in done.stdout  # the summary is out


def test_a_resume_file_is_read_line_by_line(tmp_path: Path) -> None:
    done = run(
        "tournament", "--bots", "greedy,random", "--deals", "2", "--resume", "/dev/zero", timeout=30
    )
    assert done.returncode == 2
    assert "is not a file a tournament can resume from" in done.stderr
    long = tmp_path / "long.jsonl"
    long.write_bytes(b"x" * (2 << 20))
    done = run("tournament", "--bots", "greedy,random", "--deals", "2", "--resume", str(long))
    assert done.returncode == 2 and "longer than" in done.stderr


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--lease-seconds", "5"], "--lease-seconds is for many processes"),
        (["--node", "a1"], "--node is for many processes"),
        (["--forwarded-allow-ips", "zzz"], "'zzz' is not an address or network"),
    ],
)
def test_serve_refuses_options_that_would_do_nothing(
    flags: list[str], words: str, tmp_path: Path
) -> None:
    pytest.importorskip("uvicorn")
    done = run("serve", "--db", f"sqlite:///{tmp_path / 'r.db'}", "--port", "18999", *flags)
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_huge_bad_card_is_not_echoed_whole() -> None:
    done = run("analyze", "--cut", "Z" * 100_000, HAND)
    assert done.returncode == 2 and done.stderr.startswith("error: unknown card 'ZZZZ")
    assert len(done.stderr) < 300 and "(100,000 characters)" in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["analyze"],
        ["play"],
        ["simulate"],
        ["tournament"],
        ["serve"],
        ["review"],
        ["learn"],
        ["bot", "connect"],
        ["bot", "check"],
    ],
    ids=" ".join,
)
def test_help_shows_placeholders_not_types_and_cuts_nothing(command: list[str]) -> None:
    done = subprocess.run(
        [*RUMMY21, *command, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "80", "TERM": "dumb"},
    )
    assert done.returncode == 0, done.stderr
    for typer_default in ("<bool>", "<str>", "<int", "<float", "<list", "<path"):
        assert typer_default not in done.stdout, (typer_default, done.stdout)
    assert "…" not in done.stdout, done.stdout
    assert "--help" in done.stdout


def test_simulate_says_seats_in_words_from_seat_1() -> None:
    """As the lobby, the terminal and the engine's messages count them (--json keeps 0)."""
    done = run("simulate", "--deals", "1", "--players", "3", "--turn-limit", "5")
    rows = [line for line in done.stdout.splitlines() if "random" in line]
    assert done.returncode == 0 and len(rows) == 3
    assert [row.split("│")[1].strip() for row in rows] == ["Seat 1", "Seat 2", "Seat 3"]
