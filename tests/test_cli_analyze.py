"""`rummy21 analyze`: report, JSON fields other tools rely on, batch mode, clear errors."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from interrupts import interruptible, live_in_group
from typer.testing import CliRunner

from rummy21.cli import _register, app
from rummy21.cli.analyze import _CHUNK

_register()
RUNNER = CliRunner()
HAND = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_report_is_readable() -> None:
    code, out, _ = run("analyze", "--cut", "7D", HAND)
    assert code == 0
    assert "valid declaration" in out and "♠" in out and "pure sequence" in out
    assert "penalty if another player declares: 0" in out


def test_json_has_the_promised_fields() -> None:
    _, out, _ = run("analyze", "--json", "--cut", "5H", HAND.replace("7S", "5H"))
    data = json.loads(out)
    assert {
        "cut",
        "wild_rank",
        "upper",
        "lower",
        "cards",
        "declaration",
        "penalty",
        "value",
    } <= set(data)
    assert (data["cut"], data["wild_rank"], data["upper"], data["lower"], data["cards"]) == (
        "5H",
        "5",
        "6H",
        "4H",
        21,
    )
    assert {"valid", "options", "groups", "discard"} <= set(data["declaration"])
    assert {"points", "rule", "groups", "loose"} <= set(data["penalty"])
    assert {"points", "marriages"} <= set(data["value"])
    kinds = {"pure_sequence", "impure_sequence", "set", "tunnela", "dublee", "joker_group"}
    assert all(
        g["kind"] in kinds for g in data["declaration"]["groups"] + data["penalty"]["groups"]
    )
    assert data["penalty"]["rule"] in {"full_count", "pure_save", "dublee_save"}


def test_twenty_two_cards_name_the_card_put_aside() -> None:
    code, out, _ = run("analyze", "--json", "--cut", "7D", HAND + " KD")
    data = json.loads(out)
    assert code == 0 and data["cards"] == 22
    # KD and 9H both leave a valid hand worth the same: the earlier card in canonical order goes.
    assert data["declaration"]["valid"] and data["declaration"]["discard"] == "9H"


def test_batch_keeps_order_and_reports_bad_lines(tmp_path: Path) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text(f"# a comment\n\n7D: {HAND}\nXX: AS\n5H: AS\n7D: {HAND}\n")
    code, out, _ = run("analyze", "--json", "--batch", str(batch))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 4
    assert lines[0]["declaration"]["valid"] and lines[3] == lines[0]
    assert "unknown card 'XX'" in lines[1]["error"] and "not 1" in lines[2]["error"]


def run_batch(batch: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``rummy21 analyze --json --batch BATCH *extra`` in a new process."""
    return subprocess.run(
        [sys.executable, "-m", "rummy21.cli", "analyze", "--json", "--batch", str(batch), *extra],
        capture_output=True,
        text=True,
    )


def test_batch_with_workers_gives_the_same_lines(tmp_path: Path) -> None:
    batch = tmp_path / "hands.txt"
    near = "5S KS AH 5H 6H 7H 8H JH QH KH AD 2D 3D 4D 5D 6D 7D QD 4C 5C 6C"
    batch.write_text("".join(f"7D: {HAND}\nXX: AS\nKC: {near}\n" for _ in range(50)))
    one, two = run_batch(batch), run_batch(batch, "--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and len(two.stdout.splitlines()) == 150


def test_distance_in_the_report_and_in_json() -> None:
    near = "5S KS AH 5H 6H 7H 8H JH QH KH AD 2D 3D 4D 5D 6D 7D QD 4C 5C 6C"
    code, out, _ = run("analyze", "--distance", "--cut", "KC", near)
    assert code == 0 and "distance to a valid declaration: 1 (option A: out Q♦, in K♠" in out
    code, out, _ = run("analyze", "--json", "--distance", "--cut", "KC", near)
    assert json.loads(out)["distance"] == {
        "cards": 1,
        "option": "A",
        "remove": ["QD"],
        "add": ["KS"],
        "more_than": None,
    }
    code, out, _ = run("analyze", "--json", "--distance", "--batch", "-", stdin=f"7D: {HAND}\n")
    assert json.loads(out)["distance"]["cards"] == 0


def test_batch_from_stdin() -> None:
    code, out, _ = run("analyze", "--json", "--batch", "-", stdin=f"7D: {HAND}\n")
    assert code == 0 and json.loads(out)["value"]["points"] == 20


@pytest.mark.parametrize(
    "args,message",
    [
        (["--cut", "7D", "AS 2S QX"], "unknown card 'QX'"),
        (["--cut", "7D", " ".join(HAND.split()[:20])], "not 20"),
        (["--cut", "7D", HAND + " KD KD"], "not 23"),
        (["--cut", "7D", "AS AS AS AS " + " ".join(HAND.split()[4:])], "4 copies of AS"),
        (["--cut", "ZZ", HAND], "unknown card 'ZZ'"),
        (["--cut", "7D", "--rules", "nope", HAND], "unknown rule set"),
        (["--cut", "7D"], "give a hand"),
        (["--batch", "/no/such/file", "--json"], "cannot read"),
        (["--batch", "-", "--json", "--cut", "7D"], "--cut is for one hand"),
        (["--cut", "7D", "--jobs", "2", HAND], "--jobs is for --batch"),
        (["--cut", "", HAND], "unknown card ''"),
        (["--cut", "7D", "--rules", "", HAND], "unknown rule set ''"),
        (["--batch", "", "--json"], "cannot read"),
        (["--batch", "/", "--json"], "cannot read /: Is a directory"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    code, out, err = run("analyze", *args)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_console_script_has_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummy21.cli", "analyze", "--cut", "7D", "AS"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "not 1" in done.stderr and "Traceback" not in done.stderr


def test_batch_from_a_pipe_answers_each_line_as_it_comes() -> None:
    """A program may wait for each answer before sending the next hand."""
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rummy21.cli", "analyze", "--json", "--batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=buffered,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for _ in range(2):
            process.stdin.write(f"7D: {HAND}\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "no answer while the pipe stays open"
            assert json.loads(process.stdout.readline())["value"]["points"] == 20
    finally:
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_a_batch_file_uses_workers_by_default_with_the_same_lines(tmp_path: Path) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text("".join(f"7D: {HAND}\nXX: AS\n" for _ in range(40)))
    default, one = run_batch(batch), run_batch(batch, "--jobs", "1")
    assert default.returncode == one.returncode == 1
    assert default.stdout == one.stdout and len(one.stdout.splitlines()) == 80


def test_batch_from_a_named_pipe_also_answers_each_line_as_it_comes(tmp_path: Path) -> None:
    fifo = tmp_path / "hands"
    os.mkfifo(fifo)
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rummy21.cli", "analyze", "--json", "--batch", str(fifo)],
        stdout=subprocess.PIPE,
        text=True,
        env=buffered,
    )
    assert process.stdout is not None
    try:
        with open(fifo, "w") as writer:
            for _ in range(2):
                writer.write(f"7D: {HAND}\n")
                writer.flush()
                ready, _, _ = select.select([process.stdout], [], [], 60)
                assert ready, "no answer while the pipe stays open"
                assert json.loads(process.stdout.readline())["value"]["points"] == 20
    finally:
        assert process.wait(timeout=60) == 0


def test_ctrl_c_stops_a_batch_with_workers_quietly() -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) ends the batch with
    status 130 and no traceback from the workers, while its input is still open (a terminal
    or a pipe whose writer waits: the workers' feeder is waiting for the next line) and
    with the answers written so far kept."""
    process = subprocess.Popen(
        interruptible("rummy21.cli", "analyze", "--json", "--batch", "-", "--jobs", "2"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    process.stdin.write(f"7D: {HAND}\n" * 200)  # more than one chunk: workers start
    process.stdin.flush()
    answers = [process.stdout.readline() for _ in range(_CHUNK)]  # the first chunk's
    os.killpg(process.pid, signal.SIGINT)
    with ThreadPoolExecutor(2) as readers:  # (drained while it ends: a full pipe blocks)
        rest, err = readers.submit(process.stdout.read), readers.submit(process.stderr.read)
        try:
            status = process.wait(timeout=60)  # standard input still open
        finally:
            with contextlib.suppress(ProcessLookupError):  # (the workers too, if it hung)
                os.killpg(process.pid, signal.SIGKILL)
            process.stdin.close()
        answers += rest.result().splitlines(keepends=True)
    assert status == 130
    assert "Traceback" not in err.result() and "Worker" not in err.result()
    deadline = time.monotonic() + 10  # the workers leave too (none is left running)
    while (left := live_in_group(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"workers outlived the batch: {left}"
    assert _CHUNK <= len(answers) <= 200
    assert all(json.loads(answer)["value"]["points"] == 20 for answer in answers)
