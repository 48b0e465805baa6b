"""The native core's tables come from the Python definitions (``rummy21.solver._native_tables``):
the core in use was compiled with the header the generator writes now; the generator runs as
setup.py runs it (``python -S -m``, the standard library only) and writes the header only when
it changes; definitions the core cannot take are refused in words; a core built from other
tables is not loaded; and no C file defines a table of the header a second time."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import rummy21
from rummy21.cards import ALL_CARDS
from rummy21.solver import _native_tables, backend, runs
from rummy21.solver._native_tables import TablesError, check, header, tables

SOURCES = Path(rummy21.__file__).resolve().parents[1]
"""The ``src`` folder of the package the tests run (a sanitized copy under .ci/sanitize)."""
C_FILES = sorted((SOURCES / "rummy21" / "solver").glob("_native*.c"))


def generate(*args: str) -> subprocess.CompletedProcess[str]:
    """The generator, as setup.py runs it. The environment is this one's, with the package's
    sources first: under .ci/sanitize it carries LD_PRELOAD, without which the sanitized core
    the package loads cannot start."""
    env = os.environ.copy()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCES), env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, "-S", "-m", "rummy21.solver._native_tables", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(backend.NATIVE is None, reason="the native core is not built")
def test_the_core_in_use_was_compiled_with_the_tables_of_these_definitions() -> None:
    assert backend.NATIVE is not None
    assert _native_tables.digest() == backend.NATIVE.TABLES


def test_the_generator_writes_the_header_once_and_again_only_when_it_changes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "include" / "_native_tables.h"
    done = generate(str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert path.read_text() == header()
    os.utime(path, (1_000_000, 1_000_000))
    assert generate(str(path)).returncode == 0
    assert path.stat().st_mtime == 1_000_000  # the same text: not written (no compile)
    path.write_text("/* an earlier header */\n")
    assert generate(str(path)).returncode == 0
    assert path.read_text() == header()
    assert sorted(p.name for p in path.parent.iterdir()) == ["_native_tables.h"]


@pytest.mark.parametrize("args", [[], ["a.h", "b.h"], ["--help"]], ids=repr)
def test_a_wrong_command_line_is_one_line_and_status_2(args: list[str]) -> None:
    done = generate(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "usage: python -S -m rummy21.solver._native_tables HEADER\n"


def test_a_header_it_cannot_write_is_one_line_and_status_2(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    done = generate(str(tmp_path / "file" / "_native_tables.h"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: cannot write {tmp_path}/file/_native_tables.h: ")
    assert done.stderr.count("\n") == 1


def test_the_header_holds_the_definitions() -> None:
    text = header()
    points = re.search(r"CARD_POINTS\[CARD_KINDS\] = \{([^}]*)\}", text)
    assert points is not None
    assert [int(p) for p in points[1].replace(",", " ").split()] == [c.points for c in ALL_CARDS]
    for member in runs.RunClass:
        assert f"RC_{member.name} = {int(member)}" in text
    for phase in runs.Phase:
        assert f"PH_{phase.name} = {int(phase)}" in text
    assert f"#define SLOTS {runs.SLOTS}\n" in text and f"#define RC_HIGH {runs.HIGH}\n" in text


BAD: list[tuple[dict[str, Any], str]] = [
    ({"run_classes": (("P1", 0), ("P2", 2))}, "the run classes are numbered [0, 2], not 0..1"),
    ({"phases": (("FIRST", 0), ("FIRST", 1))}, "the phases' names are not distinct C names"),
    ({"roles": (("NATURAL", 1),)}, "the roles are numbered [1], not 0..0"),
    ({"kinds": 54}, "the core reads 53 card kinds"),
    ({"card_points": (10,) * 52}, "face points are 0..1000, one a kind"),
    ({"high": 3}, "a suit state holds its 7 run classes and then the Aces set aside"),
    ({"state_at": (0,) * 8}, "a suit state's fields overlap or pass its mask"),
    ({"state_width": (2,) * 7 + (40,)}, "a suit state's field is 1..16 bits wide"),
    ({"next_class": ()}, "where a run goes next is a table of (5, 2, 7)"),
    ({"next_class": ((((9,) * 7,) * 2),) * 5}, "where a run goes next is a table"),
    ({"padding": (5,) * 7}, "a run's padding is 0..3 jokers"),
    ({"pure_end": (True,) * 6}, "which classes end pure"),
    ({"impure_of": (1, 1, -1, -1, -1, -1, -1)}, "each pure class has one impure twin"),
    ({"impure_of": (-1, 3, 3, -1, -1, -1, -1)}, "each pure class has one impure twin"),
    ({"open_pure": (0,) * 255}, "open pure runs are 0..64"),
    ({"at_pure": 121}, "at_pure is 121, outside 0..120"),
    ({"owed_mask": 2047}, "a packed state's field is wider than the core allows"),
    ({"layer_bits": 1 << 128}, "layer_bits does not fit 128 bits"),
]


@pytest.mark.parametrize(("change", "said"), BAD, ids=[str(sorted(c)) for c, _ in BAD])
def test_definitions_the_core_cannot_take_are_refused_in_words(
    change: dict[str, Any], said: str
) -> None:
    with pytest.raises(TablesError) as refused:
        check(replace(tables(), **change))
    assert str(refused.value).startswith(said)


def test_a_core_built_from_other_tables_is_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """(As an earlier build left beside the sources after a table changed.)"""
    monkeypatch.setattr("rummy21.solver.backend._native_tables.digest", lambda: "0" * 16)
    native, missing = backend._load_native()
    if backend.NATIVE is None:
        assert native is None and missing is not None and "not built" in missing
    else:
        assert native is None
        assert missing == (
            "the native core is out of date (built from other tables than these sources')"
        )


def test_no_c_file_defines_a_table_of_the_header_again() -> None:
    """Each name the header defines (a macro, an enum member, an array) is defined there only."""
    text = header()
    names = set(re.findall(r"^#define (\w+)", text, re.M))
    names |= set(re.findall(r"static const \w+ (\w+)\[", text))
    names |= {
        name
        for body in re.findall(r"enum \{([^}]*)\}", text)
        for name in re.findall(r"(\w+) =", body)
    }
    assert {"CARD_POINTS", "RC_P1", "PH_CLOSE", "R_JOKER_ONLY", "Q_SET", "RB_SET"} <= names
    names -= {"RUMMY21_NATIVE_TABLES_H"}
    for path in C_FILES:
        found = defined_in(path.read_text()) & names
        assert not found, f"{path.name} defines {sorted(found)} again"


def defined_in(source: str) -> set[str]:
    """The names a C source defines: macros, enum members, and variables of the types the
    tables have (``static int A, B[4];``)."""
    names = set(re.findall(r"^\s*#\s*define\s+(\w+)", source, re.M))
    for body in re.findall(r"\benum\s*\{([^}]*)\}", source):
        names |= set(re.findall(r"(\w+)\s*(?:=[^,]*)?(?:,|$)", body.strip()))
    for declared in re.findall(
        r"^\s*(?:static\s+)?(?:const\s+)?(?:int|long|u128|uint64_t)\s+([^;(]*);", source, re.M
    ):
        names |= set(re.findall(r"(?:^|,)\s*\**\s*(\w+)", declared))
    return names
