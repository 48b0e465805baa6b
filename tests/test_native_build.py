"""Building the native core (setup.py) never fails an install: without a compiler, or when the
compile fails, the package is built without the core and says so in one line; an earlier
build of the core is not left behind; RUMMY21_NATIVE=0 leaves it out, =1 requires it. The
sdist carries every source file of the core.

The header of the core's tables is written from the Python definitions before the compile, in
the build's temporary folder: a generator that fails is a failed build like any other.

Each test builds a copy of what setup.py reads, in a temporary directory, with a stand-in
compiler (no compile takes place, and the source tree is not touched)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLVER = Path("src") / "rummy21" / "solver"
BUILT = "_native" + str(sysconfig.get_config_var("EXT_SUFFIX"))
WARNING = "rummy21: the native solver core was not built ("
WILL_RUN = "); the pure-Python solver will be used"
#: The environment of a sanitized run (.ci/sanitize), not meant for the compiler.
SANITIZER_ENV = ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """setup.py, the metadata it reads and the package's sources (the core's C and the Python
    definitions its tables are written from; no core built), copied into a fresh directory."""
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(
        ROOT / SOLVER.parent,
        tmp_path / SOLVER.parent,
        ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info"),
    )
    return tmp_path


def core_sources() -> list[str]:
    """``_native.c`` and the C files it ``#include``s from beside it (not the tables' header,
    which the build writes)."""
    text = (ROOT / SOLVER / "_native.c").read_text()
    return ["_native.c", *re.findall(r'^#include "([^"]+\.c)"', text, re.M)]


def build(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``setup.py build_ext`` in ``project``, with ``env`` added to a clean environment."""
    return setup_py(project, "build_ext", *args, **env)


def setup_py(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``setup.py`` with ``args`` in ``project``, with ``env`` added to a clean environment."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in SANITIZER_ENV and not key.startswith("RUMMY21_NATIVE")
    }
    return subprocess.run(
        [sys.executable, "setup.py", *args],
        cwd=project,
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def separate_dirs(project: Path) -> list[str]:
    """``--build-lib`` and ``--build-temp`` in the project's directory, as pip builds."""
    return ["--build-lib", str(project / "lib"), "--build-temp", str(project / "tmp")]


def warnings(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith(WARNING)]


def built_cores(project: Path) -> list[Path]:
    return sorted(project.rglob("_native*.so")) + sorted(project.rglob("_native*.o"))


def fake_compiler(project: Path, log: Path) -> str:
    """A compiler that writes its arguments to ``log``, "compiles" (an empty object file) and
    fails to link."""
    script = project / "fake-cc"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> "{log}"\n'
        'case " $* " in *" -shared "*) echo "fake-cc: cannot link" >&2; exit 1;; esac\n'
        'while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done\n'
    )
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("compiler", ["/bin/false", "/nonexistent/cc"])
def test_without_a_compiler_the_build_succeeds_without_the_core(
    project: Path, compiler: str
) -> None:
    done = build(project, *separate_dirs(project), CC=compiler)
    assert done.returncode == 0, done.stderr
    [warning] = warnings(done)
    assert compiler in warning and warning.endswith(WILL_RUN)
    assert not list(project.rglob("*.so"))


def test_a_failed_build_in_place_removes_an_earlier_core(project: Path) -> None:
    """As ``pip install -e .`` builds: the core beside its source is an earlier build, which
    may not match the source any more."""
    earlier = project / SOLVER / BUILT
    earlier.write_bytes(b"an earlier build")
    done = build(project, "--inplace", CC="/bin/false")
    assert done.returncode == 0, done.stderr
    assert len(warnings(done)) == 1
    assert not earlier.exists() and not list(project.rglob("*.so"))


def test_flags_from_the_environment_reach_the_compiler_and_the_linker(project: Path) -> None:
    log = project / "cc.log"
    done = build(
        project,
        *separate_dirs(project),
        CC=fake_compiler(project, log),
        RUMMY21_NATIVE_CFLAGS="-DRUMMY21_A=1  -fsanitize=address",
        RUMMY21_NATIVE_LDFLAGS="-fsanitize=address -lfoo",
    )
    assert done.returncode == 0, done.stderr
    [warning] = warnings(done)
    assert "fake-cc" in warning and warning.endswith(WILL_RUN)
    compile_line, link_line = log.read_text().splitlines()
    assert compile_line.endswith("-std=c11 -Wall -Wextra -DRUMMY21_A=1 -fsanitize=address")
    assert "_native.c" in compile_line
    assert link_line.endswith("-fsanitize=address -lfoo") and "-shared" in link_line.split()
    assert not list(project.rglob("*.so"))


def test_the_tables_header_is_written_in_the_build_folder_for_the_compile(project: Path) -> None:
    log = project / "cc.log"
    done = build(project, *separate_dirs(project), CC=fake_compiler(project, log))
    assert done.returncode == 0, done.stderr
    [header] = project.rglob("_native_tables.h")
    assert header.parent == project / "tmp" / "rummy21-tables"
    text = header.read_text()
    assert "static const int CARD_POINTS[CARD_KINDS]" in text
    compile_line = log.read_text().splitlines()[0]
    assert f"-I{header.parent}" in compile_line.split()
    assert not list((project / "src").rglob("*.h")) and not list(project.rglob("__pycache__"))


def test_tables_that_cannot_be_written_leave_the_core_out(project: Path) -> None:
    """Definitions the core cannot take (here, two group codes of the quick pass alike) fail
    the build before the compiler runs: one line, and the pure-Python solver."""
    greedy = project / SOLVER / "greedy.py"
    codes = "PURE_SEQUENCE, IMPURE_SEQUENCE, SET, TUNNELA, JOKER_GROUP = "
    assert codes + "range(5)" in greedy.read_text()
    greedy.write_text(greedy.read_text().replace(codes + "range(5)", codes + "0, 1, 2, 3, 3"))
    log = project / "cc.log"
    done = build(project, *separate_dirs(project), CC=fake_compiler(project, log))
    assert done.returncode == 0, done.stderr
    [warning] = warnings(done)
    assert (
        "(rummy21.solver._native_tables failed: error: the native core's tables: "
        "the group codes of greedy.py are numbered [0, 1, 2, 3, 3], not 0..4)"
    ) in warning
    assert warning.endswith(WILL_RUN) and not log.exists()
    done = build(
        project, *separate_dirs(project), CC=fake_compiler(project, log), RUMMY21_NATIVE="1"
    )
    assert done.returncode != 0 and not log.exists()


def test_native_0_builds_nothing(project: Path) -> None:
    log = project / "cc.log"
    earlier = project / SOLVER / BUILT
    earlier.write_bytes(b"an earlier build")
    done = build(project, "--inplace", CC=fake_compiler(project, log), RUMMY21_NATIVE="0")
    assert done.returncode == 0, done.stderr
    assert warnings(done) == [WARNING + "RUMMY21_NATIVE=0" + WILL_RUN]
    assert not log.exists() and not built_cores(project)


def test_native_1_requires_the_core(project: Path) -> None:
    done = build(project, *separate_dirs(project), CC="/bin/false", RUMMY21_NATIVE="1")
    assert done.returncode != 0 and not warnings(done)
    assert not list(project.rglob("*.so"))


def test_the_sdist_carries_every_source_of_the_core(project: Path) -> None:
    """What ``_native.c`` includes is listed in setup.py's depends (a change to it rebuilds
    the core) and shipped in the sdist (pip builds the core from it), and no more C; the
    tables' generator is shipped, and the header it writes is not."""
    setup_text = (ROOT / "setup.py").read_text()
    for source in core_sources()[1:]:
        assert f'"{(SOLVER / source).as_posix()}"' in setup_text, f"{source} is not in depends"
    done = setup_py(project, "-q", "sdist", "--formats=tar", "-d", str(project / "dist"))
    assert done.returncode == 0, done.stderr
    [sdist] = (project / "dist").glob("*.tar")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    assert {Path(name).name for name in names if name.endswith(".c")} == set(core_sources())
    # (and what writes the tables' header, not the header itself)
    generator = {Path(*Path(name).parts[-2:]) for name in names if "_native_tables/" in name}
    assert generator == {
        Path("_native_tables", "__init__.py"),
        Path("_native_tables", "__main__.py"),
    }
