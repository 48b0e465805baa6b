"""``rummy21 tournament``: JSON lines, the same results whatever --jobs, resuming, errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from interrupts import live_in_group
from typer.testing import CliRunner, Result

import rummy21.cli.tournament  # noqa: F401  (registers the command)
from rummy21.cli import app
from rummy21.tournament import ShoeRecord, run_shoes

runner = CliRunner()
ENV = {"COLUMNS": "200", "NO_COLOR": "1"}
# Random bots on a short turn limit: a shoe takes a few hundredths of a second.
FAST = ["--bots", "random,random", "--players", "3", "--turn-limit", "200", "--seed", "5"]


def tournament(*args: str) -> Result:
    return runner.invoke(app, ["tournament", *args], env=ENV)


def lines_of(result: Result) -> list[dict[str, Any]]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def without_times(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines less the move times: all that must be equal from run to run."""
    kept = []
    for line in lines:
        line = json.loads(json.dumps(line))
        line.pop("times", None)
        if "summary" in line:
            line["summary"].pop("timing")
        kept.append(line)
    return kept


def test_json_lines_one_per_shoe_in_order_then_the_summary() -> None:
    lines = lines_of(tournament(*FAST, "--deals", "4", "--jobs", "1", "--json"))
    shoes, summary = lines[:-1], lines[-1]["summary"]
    assert [s["shoe"] for s in shoes] == [0, 1, 2, 3]
    for shoe in shoes:
        assert set(shoe) == {"shoe", "seed", "dealer", "means", "deals", "times"}
        assert [d["lineup"] for d in shoe["deals"]] == [[0, 1, 0], [1, 0, 1]]
        assert set(shoe["means"]) == set(shoe["times"]) == {"random#1", "random#2"}
    assert summary["shoes"] == 4 and summary["tables"] == 8
    assert [b["bot"] for b in summary["bots"]] == ["random#1", "random#2"]
    assert {t["bot"] for t in summary["timing"]} == {"random#1", "random#2"}
    first = summary["bots"][0]["score"]
    assert first["low"] < first["mean"] < first["high"] and first["shoes"] == 4
    assert not any("cards" in json.dumps(line) for line in lines)  # no hands logged


def test_the_same_results_whatever_the_jobs() -> None:
    args = [*FAST, "--bots", "random,greedy,random", "--players", "2", "--turn-limit", "6"]
    one = lines_of(tournament(*args, "--deals", "4", "--jobs", "1", "--json"))
    two = lines_of(tournament(*args, "--deals", "4", "--jobs", "2", "--json"))
    assert without_times(one) == without_times(two)
    other = lines_of(tournament(*args, "--deals", "4", "--seed", "6", "--json"))
    assert without_times(other) != without_times(one)


def test_a_resumed_run_equals_an_uninterrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = lines_of(tournament(*FAST, "--deals", "5", "--jobs", "1", "--json"))
    real = run_shoes

    def interrupted(*args: Any, **kwargs: Any) -> Iterator[ShoeRecord]:
        played = real(*args, **kwargs)
        yield next(played)
        yield next(played)
        raise KeyboardInterrupt

    journal = tmp_path / "run.jsonl"
    monkeypatch.setattr("rummy21.cli.tournament.run_shoes", interrupted)
    stopped = tournament(*FAST, "--deals", "5", "--jobs", "1", "--resume", str(journal))
    assert stopped.exit_code == 130
    assert f"interrupted after 2 of 5 shoes; --resume {journal} plays the rest" in stopped.stderr
    assert len(journal.read_text().splitlines()) == 3  # the settings, two shoes
    monkeypatch.setattr("rummy21.cli.tournament.run_shoes", real)
    with journal.open("a") as file:
        file.write('{"shoe": 3, "se')  # a line cut short by the interruption
    resumed = tournament(*FAST, "--deals", "5", "--jobs", "2", "--json", "--resume", str(journal))
    assert without_times(lines_of(resumed)) == without_times(whole)
    assert len(journal.read_text().splitlines()) == 6
    # resumed once more: nothing left to play, the same result again
    again = tournament(*FAST, "--deals", "5", "--json", "--resume", str(journal))
    assert without_times(lines_of(again)) == without_times(whole)


def test_resuming_checks_the_file(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    assert tournament(*FAST, "--deals", "2", "--resume", str(journal)).exit_code == 0
    other = tournament(*FAST, "--deals", "3", "--resume", str(journal))
    assert other.exit_code == 2
    assert other.stderr == f"error: {journal} is another tournament's: deals 2 (not 3)\n"
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join([lines[0], "{not json", lines[2]]) + "\n")
    corrupt = tournament(*FAST, "--deals", "2", "--resume", str(journal))
    assert corrupt.exit_code == 2
    assert corrupt.stderr.startswith(f"error: {journal}, line 2: not JSON")
    journal.write_text("\n".join([lines[0], lines[1], lines[1]]) + "\n")
    twice = tournament(*FAST, "--deals", "2", "--resume", str(journal))
    assert twice.exit_code == 2 and "line 3: shoe" in twice.stderr
    (tmp_path / "notes.txt").write_text("hello\n")
    foreign = tournament(*FAST, "--deals", "2", "--resume", str(tmp_path / "notes.txt"))
    assert foreign.exit_code == 2 and "is not a tournament's file" in foreign.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,clever"], "unknown bot 'clever'"),
        (["--bots", "random"], "at least 2 bots, not 1"),
        (["--players", "7"], "--players must be 2 to 6"),
        (["--players", "1"], "--players must be 2 to 6"),
        (["--deals", "0"], "--deals must be 1 to 1,000,000, not 0"),
        (["--deals", "1000001"], "--deals must be 1 to 1,000,000, not 1000001"),
        (["--jobs", "-1"], "--jobs must be 0"),
        (["--backend", "dask"], "--backend must be local or ray"),
        (["--address", "auto"], "--address is for --backend ray"),
        (["--rules", "house"], "unknown rule set 'house'"),
        (["--turn-limit", "-3"], "--turn-limit must be a positive number"),
        (["--report", "/nonexistent/r.html"], "cannot write the report to"),
        (["--resume", "/nonexistent/r.jsonl"], "cannot open /nonexistent/r.jsonl"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = tournament("--deals", "1", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_a_missing_ray_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    result = tournament(*FAST, "--deals", "1", "--backend", "ray")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: the ray backend needs Ray, which is not installed: pip install 'rummy21[ray]'\n"
    )


def test_the_tables_for_a_person() -> None:
    result = tournament(*FAST, "--deals", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 shoes × 2 line-ups (ABA, BAB; A random#1, B random#2) = 6 deals at 3 seats" in out
    assert "95% interval" in out and "declared A/B/C" in out
    assert "random#1 − random#2" in out or "random#2 − random#1" in out


def test_the_report_is_one_self_contained_page(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    args = ["--bots", "random,random,random", "--players", "2", "--turn-limit", "100"]
    result = tournament(*args, "--deals", "3", "--report", str(page), "--json")
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
    assert "http://" not in html and "https://" not in html  # nothing fetched
    assert "<script" not in html and "src=" not in html and "<link" not in html
    assert html.count("<svg") == 2  # the means, the differences
    for label in ("random#1", "random#2", "random#3"):
        assert html.count(label) >= 4  # plot, table, pairs
    summary = json.loads(result.stdout.splitlines()[-1])["summary"]
    for bot in summary["bots"]:
        assert f"{bot['score']['mean']:+.1f}" in html


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_report_that_cannot_be_written_is_status_74() -> None:
    result = tournament(*FAST, "--deals", "1", "--report", "/dev/full")
    assert result.exit_code == 74
    assert result.stderr == "error: cannot write /dev/full: No space left on device\n"


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers (elsewhere they are spawned)")
def test_workers_do_not_outlive_a_killed_run() -> None:
    """``kill -9`` of a run with workers (no clean-up possible): the workers leave too,
    instead of waiting for their next shoe for ever."""
    command = [sys.executable, "-m", "rummy21.cli", "tournament", "--bots", "random,greedy"]
    process = subprocess.Popen(
        [*command, "--players", "2", "--deals", "400", "--seed", "1", "--jobs", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline()  # a shoe is done: the workers are running
        assert len(live_in_group(process.pid)) >= 3
        process.kill()
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while (left := live_in_group(process.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not left, f"workers outlived the run: {left}"
    finally:
        for pid in live_in_group(process.pid):
            os.kill(pid, signal.SIGKILL)
