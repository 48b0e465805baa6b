"""Builds the solver's optional native core, ``rummy21.solver._native`` (C); the package's
metadata is all in ``pyproject.toml``.

Before each compile, ``python -S -m rummy21.solver._native_tables`` writes the header of the
tables the core is compiled with — the card kinds and their face points, the enums' values,
the packed state's layout — from the Python definitions (in the build's temporary folder, never
beside the sources).

Without a working C compiler or the Python headers, or when the compile fails for any other
reason, the install still succeeds: one line says the core was not built, and the
pure-Python twin runs (``rummy21 --version`` says which core is in use).

Environment, at build time:

* ``RUMMY21_NATIVE=0`` — do not build the core; ``RUMMY21_NATIVE=1`` — the core is required:
  a failed build fails the install.
* ``RUMMY21_NATIVE_CFLAGS``, ``RUMMY21_NATIVE_LDFLAGS`` — more compiler and linker flags,
  space-separated (``.ci/sanitize`` builds with AddressSanitizer this way).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py as build_py_command
from setuptools.errors import CCompilerError, CompileError, ExecError, PlatformError

NATIVE = "rummy21.solver._native"
TABLES = "rummy21.solver._native_tables"
"""The module that writes the core's tables header (``_native_tables.h``)."""
SOURCES = "src"
#: What a build without a usable compiler or headers raises (``DistutilsExecError`` and
#: ``DistutilsPlatformError`` under their setuptools names; ``OSError``: no compiler at all).
BUILD_ERRORS = (CCompilerError, CompileError, ExecError, PlatformError, OSError)


def _setting() -> str:
    """``RUMMY21_NATIVE``: ``"0"`` skip, ``"1"`` required, anything else try."""
    return os.environ.get("RUMMY21_NATIVE", "").strip()


def _flags(variable: str) -> list[str]:
    return shlex.split(os.environ.get(variable, ""))


def _reason(error: BaseException) -> str:
    """Why a build failed, in a few words."""
    text = " ".join(str(error).split()) or type(error).__name__
    # (newer setuptools quote the whole command line: keep the program and how it ended)
    command = re.fullmatch(r"Command '\['([^']*)'.*\]' (.*?)\.?", text)
    if command:
        return f"command '{command[1]}' {command[2]}"
    return text if len(text) <= 200 else text[:197] + "..."


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves the native core out, with a warning, when it cannot be built
    (and then never leaves an earlier build of it behind: that one may not match the sources)."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self._in_place = False

    def run(self) -> None:
        self._in_place = bool(self.inplace or getattr(self, "editable_mode", False))
        if _setting() == "0":
            self._leave_out(self.extensions, "RUMMY21_NATIVE=0")
            return
        try:
            super().run()
        except BUILD_ERRORS as error:
            self._give_up(self.extensions, error)

    def build_extension(self, ext: Extension) -> None:
        ext.extra_compile_args = [*ext.extra_compile_args, *_flags("RUMMY21_NATIVE_CFLAGS")]
        ext.extra_link_args = [*ext.extra_link_args, *_flags("RUMMY21_NATIVE_LDFLAGS")]
        try:
            self._write_tables(ext)
            super().build_extension(ext)
        except BUILD_ERRORS as error:
            self._give_up([ext], error)

    def _write_tables(self, ext: Extension) -> None:
        """Write the tables header from the Python definitions, where the compile finds it
        (and the header is a dependency: a table that changes compiles the core again)."""
        folder = os.path.abspath(os.path.join(self.build_temp, "rummy21-tables"))
        header = os.path.join(folder, "_native_tables.h")
        # (-S: the sources beside this file and the standard library, nothing installed)
        paths = [os.path.abspath(SOURCES), os.environ.get("PYTHONPATH", "")]
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(p for p in paths if p),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        try:
            done = subprocess.run(
                [sys.executable, "-S", "-m", TABLES, header],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise ExecError(f"{TABLES}: {error}") from error
        if done.returncode != 0:
            said = done.stderr.strip().splitlines()
            raise ExecError(f"{TABLES} failed: {said[-1] if said else done.returncode}")
        if folder not in ext.include_dirs:
            ext.include_dirs.append(folder)
        if header not in ext.depends:
            ext.depends.append(header)

    def copy_extensions_to_source(self) -> None:
        # (--inplace and editable installs: copy only what was built)
        every = self.extensions
        self.extensions = [ext for ext in every if os.path.exists(self._built_path(ext))]
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = every

    def _built_path(self, ext: Extension) -> str:
        name = self.get_ext_filename(self.get_ext_fullname(ext.name))  # type: ignore[no-untyped-call]
        return os.path.join(self.build_lib, name)

    def _give_up(self, extensions: list[Extension], error: BaseException) -> None:
        if _setting() == "1":
            raise error
        self._leave_out(extensions, _reason(error))

    def _leave_out(self, extensions: list[Extension], why: str) -> None:
        """Remove what an earlier build left (in the build directory and, in place, beside
        the sources), and say which solver will run."""
        build_py = self.get_finalized_command("build_py")
        assert isinstance(build_py, build_py_command)
        for ext in extensions:
            built = self._built_path(ext)
            package = self.get_ext_fullname(ext.name).rpartition(".")[0]
            beside = os.path.join(build_py.get_package_dir(package), os.path.basename(built))
            for path in [built, beside] if self._in_place else [built]:
                if os.path.exists(path):
                    os.remove(path)
        print(
            f"rummy21: the native solver core was not built ({why}); "
            "the pure-Python solver will be used",
            file=sys.stderr,
            flush=True,
        )


setup(
    ext_modules=[
        Extension(
            NATIVE,
            ["src/rummy21/solver/_native.c"],
            depends=[  # (#included by _native.c, with the tables header written at build time)
                "src/rummy21/solver/_native_pools.c",
                "src/rummy21/solver/_native_quick.c",
                "src/rummy21/solver/_native_rebuild.c",
                "src/rummy21/solver/_native_sweep.c",
            ],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra"],
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
