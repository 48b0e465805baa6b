"""`rummy21 analyze --batch` on any bytes at all: never a traceback, one answer per hand line.

Whatever a batch holds — bytes that are not UTF-8, NUL bytes, stray line ends, a BOM, good
hands in between — every line that is not blank or a ``#`` comment gets exactly one line of
JSON in its place: the analysis for a good hand, ``{"error": …}`` for anything else; the exit
status is 1 if any line was bad, else 0. Lines end in ``\\n``, ``\\r\\n`` or ``\\r``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
from typing import Any

import pytest
from handgen import random_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rummy21.analysis import analyze
from rummy21.cli import _register, app
from rummy21.cli.analyze import MAX_LINE
from rummy21.ruleset import RuleSet

_register()
RUNNER = CliRunner()
RULES = RuleSet()
HAND = "7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C"


def expected(data: bytes) -> list[dict[str, Any]]:
    """What each answered line of ``data`` must be: the analysis as JSON, or ``bad`` for an
    error (``not`` for a line that is not UTF-8 text), with its line number."""
    text = data.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    answers: list[dict[str, Any]] = []
    for number, raw in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if re.search("[\udc80-\udcff]", line):
            answers.append({"not": "utf-8", "line": number})
            continue
        cut, sep, hand = line.partition(":")
        try:
            if not sep:
                raise ValueError("no cut")
            answers.append(json.loads(json.dumps(analyze(hand, cut.strip(), RULES).to_dict())))
        except ValueError:
            answers.append({"bad": True, "line": number})
    return answers


def check(data: bytes, code: int, out: str, err: str) -> None:
    assert "Traceback" not in out + err
    want = expected(data)
    got = [json.loads(line) for line in out.splitlines()]
    assert len(got) == len(want), (got, want)
    for answer, wanted in zip(got, want, strict=True):
        if "bad" in wanted:  # a bad line's answer names it by its number in the input
            assert set(answer) == {"line", "error"} and answer["error"], answer
            assert answer["line"] == wanted["line"], (answer, wanted)
        elif "not" in wanted:
            assert answer["error"].startswith("not UTF-8 text"), answer
            assert answer["line"] == wanted["line"], (answer, wanted)
        else:
            assert answer == wanted
    assert code == (1 if any("bad" in w or "not" in w for w in want) else 0)


def run_stdin(data: bytes) -> None:
    result = RUNNER.invoke(app, ["analyze", "--json", "--batch", "-"], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    check(data, result.exit_code, result.stdout, result.stderr)


def run_file(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "hands.txt")
        with open(path, "wb") as file:
            file.write(data)
        result = RUNNER.invoke(app, ["analyze", "--json", "--batch", path])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    check(data, result.exit_code, result.stdout, result.stderr)


@st.composite
def good_lines(draw: st.DrawFn) -> bytes:
    cut, hand = random_deal(random.Random(draw(st.integers(0, 2**32))), RULES)
    pretty = draw(st.booleans())
    cards = " ".join(card.pretty() if pretty else str(card) for card in hand)
    line = f"{cut}: {cards}"
    return (line.lower() if draw(st.booleans()) else line).encode()


@st.composite
def spoiled_lines(draw: st.DrawFn) -> bytes:
    """A good line with a few random bytes spliced in."""
    line = draw(good_lines())
    at = draw(st.integers(0, len(line)))
    return line[:at] + draw(st.binary(min_size=1, max_size=3)) + line[at:]


LINES = st.one_of(
    good_lines(),
    spoiled_lines(),
    st.binary(max_size=40),
    st.sampled_from(
        [
            b"",
            b"   ",
            b"# a comment \xff",
            b"\x00",
            b"\xef\xbb\xbf",
            b"7D:",
            b":",
            b"\xc3",
            b"7D: " + HAND.encode() + b" KD",
        ]
    ),
)
BATCHES = st.tuples(
    st.lists(LINES, max_size=10),
    st.lists(st.sampled_from([b"\n", b"\r\n", b"\r"]), min_size=10, max_size=10),
    st.booleans(),
    st.booleans(),
).map(
    lambda t: (
        (b"\xef\xbb\xbf" if t[2] else b"")
        + b"".join(line + end for line, end in zip(t[0], t[1], strict=False))[
            : None if t[3] else -1
        ]
    )
)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_on_stdin(data: bytes) -> None:
    run_stdin(data)


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_in_a_file(data: bytes) -> None:
    run_file(data)


@SETTINGS
@given(BATCHES)
def test_good_hands_among_garbage_on_stdin(data: bytes) -> None:
    run_stdin(data)


@SETTINGS
@given(BATCHES)
def test_good_hands_among_garbage_in_a_file(data: bytes) -> None:
    run_file(data)


def test_a_binary_file_with_workers_answers_every_line_in_order(tmp_path: Any) -> None:
    """More than one chunk of lines: worker processes read them, with the same answers as
    one process and as stdin."""
    rng = random.Random(5)
    lines = []
    for n in range(150):
        cut, hand = random_deal(rng, RULES)
        lines.append(
            f"{cut}: {' '.join(map(str, hand))}".encode()
            if n % 3
            else bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
        )
    data = b"\n".join(lines) + b"\n\xff\xfe\x00garbage\n"
    path = tmp_path / "hands.bin"
    path.write_bytes(data)
    runs = [
        subprocess.run(
            [sys.executable, "-m", "rummy21.cli", "analyze", "--json", *args],
            input=stdin,
            capture_output=True,
        )
        for args, stdin in (
            (["--batch", str(path), "--jobs", "2"], None),
            (["--batch", str(path), "--jobs", "1"], None),
            (["--batch", "-"], data),
        )
    ]
    for done in runs:
        check(data, done.returncode, done.stdout.decode(), done.stderr.decode())
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout


def test_a_line_too_long_is_one_error_line() -> None:
    data = f"7D: {HAND}\n{'AS ' * MAX_LINE}\n#{'x' * MAX_LINE * 2}\n7D: {HAND}".encode()
    result = RUNNER.invoke(app, ["analyze", "--json", "--batch", "-"], input=data)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 1 and len(answers) == 3
    assert answers[1] == {"line": 2, "error": f"line longer than {MAX_LINE:,} characters"}
    assert answers[0] == answers[2] and answers[0]["declaration"]["valid"]


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux's /proc")
def test_a_read_error_ends_the_batch_with_one_line() -> None:
    """/proc/self/mem opens but cannot be read from its start: an I/O error, not a bad line."""
    done = subprocess.run(
        [sys.executable, "-m", "rummy21.cli", "analyze", "--json", "--batch", "/proc/self/mem"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: stopped reading /proc/self/mem: Input/output error\n"


def test_a_closed_stdin_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummy21.cli", "analyze", "--json", "--batch", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: cannot read -: standard input is closed\n"


def test_too_many_workers_is_refused() -> None:
    """A mistyped --jobs must not fork thousands of processes."""
    result = RUNNER.invoke(
        app, ["analyze", "--json", "--batch", "-", "--jobs", "100000"], input=f"7D: {HAND}\n"
    )
    assert result.exit_code == 2 and "--jobs" in result.stderr and result.stdout == ""
