"""The ``rummy21`` command line: one sub-command per module of this package.

Exit statuses, for every command: 0 done; 1 a batch had bad lines (``analyze --batch``);
2 bad input or usage (a message on stderr; also a ``RUMMY21_SOLVER`` naming no solver this
installation can run, before the command starts); 74 the output could not be written (disk
full, terminal gone: one line on stderr); 130 interrupted (Ctrl-C; a running ``serve`` stops
cleanly, with 0).
"""

from __future__ import annotations

import errno
import importlib
import os
import re
import signal
import sys
from typing import Any, NoReturn

import typer
from typer.core import TyperArgument, TyperOption

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="21 Card Rummy: analyze hands, play, simulate, run tournaments.",
)

OUTPUT_FAILED = 74
"""The exit status when the output cannot be written (``EX_IOERR`` of sysexits.h)."""

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT, as a shell reports a process it stopped)."""

#: The optional parts worth naming: extra → what it is for.
EXTRAS = {
    "server": "the browser table, rummy21 serve",
    "postgres": "the PostgreSQL driver, serve --db postgresql+psycopg://…",
    "broker": "many serve processes on one database, serve --broker redis://…",
    "ray": "tournaments on Ray, tournament --backend ray",
    "live": "bot programs at live tables, rummy21 bot connect",
}


def fail(message: str) -> NoReturn:
    """Report bad input or usage on stderr, one line (``error: …``), and stop with status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def version_text() -> str:
    """The version, for each optional part whether it is installed (the packages its extra
    declares, read from the installed metadata), and which solver core runs.

    >>> lines = version_text().splitlines()
    >>> lines[0].startswith("rummy21 "), lines[-1].startswith("solver: ")
    (True, True)
    """
    from importlib import metadata

    from rummy21.solver import backend

    try:
        version, requires = metadata.version("rummy21"), metadata.requires("rummy21") or []
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version, requires = "(not installed)", []
    lines = [f"rummy21 {version} (Python {sys.version.split()[0]})"]
    for extra, purpose in EXTRAS.items():
        names = [
            match.group(1)
            for req in requires
            if re.search(rf"""extra\s*==\s*["']{extra}["']""", req)
            and (match := re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req))
        ]
        missing = [name for name in names if not _installed(name)]
        state = (
            f"missing {', '.join(missing)}: pip install 'rummy21[{extra}]'"
            if missing
            else "installed"
        )
        lines.append(f"{extra} extra ({purpose}): {state}")
    lines.append(backend.describe())
    return "\n".join(lines)


def _installed(distribution: str) -> bool:
    from importlib import metadata

    try:
        metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="Print the version, which optional parts are installed and which solver core "
        "runs, and exit.",
    ),
) -> None:
    """21 Card Rummy: analyze hands, play, simulate, run tournaments."""
    from rummy21.solver import backend

    # (a solver asked for that cannot run is bad usage: no command starts on the other one)
    if backend.PROBLEM is not None:
        typer.echo(f"error: {backend.PROBLEM}", err=True)
        raise typer.Exit(2)


#: Sub-command → the module that registers it (imported on demand: start-up stays quick).
COMMANDS = {
    "analyze": "analyze",
    "play": "play",
    "simulate": "simulate",
    "tournament": "tournament",
    "serve": "serve",
    "learn": "learn",
    "review": "review",
    "bot": "bot",
}

#: The commands that only write a report to stdout: when the reader of a pipe goes away
#: (``rummy21 analyze … | head -1``) they end as Unix tools do, quietly, by SIGPIPE (status
#: 141 in a shell). The others (a server, a live table, the terminal game) keep Python's
#: default: a closed connection is an error they handle, never a signal that kills them.
PIPE_COMMANDS = frozenset({"analyze", "simulate", "tournament", "review"})

#: Errors writing the output that are the machine's, not the program's.
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _register(only: str | None = None) -> None:
    """Import the modules that register their commands (just ``only``'s, if given)."""
    for command, module in COMMANDS.items():
        if only is None or command == only:
            importlib.import_module(f"rummy21.cli.{module}")


def main() -> None:
    wanted = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in COMMANDS else None
    _register(wanted)
    if wanted in PIPE_COMMANDS and hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        try:
            _run_app()
        finally:
            sys.stdout.flush()
    except OSError as error:
        # (a broken pipe, as `rummy21 … | head`, is click's: quiet, status 1)
        if error.errno not in _OUTPUT_ERRORS or error.filename is not None:
            raise
        _drop_stdout()
        print(f"error: cannot write the output: {error.strerror}", file=sys.stderr)
        raise SystemExit(OUTPUT_FAILED) from None


try:  # typer 0.2x vendors click; earlier releases use the click package
    from typer._click import core as click_core
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover
    from click import core as click_core  # type: ignore[no-redef]
    from click import exceptions as click_errors  # type: ignore[no-redef]


def _run_app() -> None:
    """Run the command line; a usage error (an unknown option, a value out of range or of
    the wrong kind) is one line, ``error: …``, status 2, as the commands' own checks say
    theirs — not click's usage lines and box."""
    try:
        # (a typer.Exit comes back as its status)
        status = _tidy_help(typer.main.get_command(app))(standalone_mode=False)
    except click_errors.NoArgsIsHelpError as shown:
        shown.show()
        raise SystemExit(shown.exit_code) from None
    except click_errors.UsageError as error:
        command = f"{error.ctx.command_path}: " if error.ctx is not None else ""
        print(f"error: {command}{error.format_message()}", file=sys.stderr)
        raise SystemExit(2) from None
    except typer.Abort:
        print("Aborted!", file=sys.stderr)
        raise SystemExit(1) from None
    except click_errors.ClickException as error:
        error.show()
        raise SystemExit(error.exit_code) from None
    if isinstance(status, int) and status:
        raise SystemExit(status)


def _tidy_help(command: Any) -> Any:
    """Give every parameter of ``command`` (and its sub-commands) the placeholder a Unix tool
    shows in its help, in place of typer's ``<bool>``, ``<str>`` and ``<list[str]>``: a flag
    none, a number ``N`` (its range follows), any other option its name in capitals
    (``--bots BOTS``), an argument its name in capitals and no type. A placeholder a command
    set itself (``--bot-time SECONDS``) stays.

    >>> demo = typer.Typer(add_completion=False)
    >>> @demo.command()
    ... def run(bots: str = "a,b", seed: int = 0, json: bool = False) -> None: ...
    >>> tidied = _tidy_help(typer.main.get_command(demo))
    >>> [(p.name, p.metavar) for p in tidied.params]
    [('bots', 'BOTS'), ('seed', 'N'), ('json', '')]
    """
    help_option = command.get_help_option(click_core.Context(command))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if isinstance(param, TyperArgument):
            param.display_type_rich = _no_type  # type: ignore[method-assign]
        if param.metavar is not None or not param.name:
            continue
        if isinstance(param, TyperOption) and param.is_flag:
            param.metavar = ""
        elif isinstance(param, TyperOption) and param.type_descriptor.annotation in (int, float):
            param.metavar = "N"
        else:
            param.metavar = param.name.upper()
    for sub in getattr(command, "commands", {}).values():
        _tidy_help(sub)
    return command


def _no_type(ctx: Any) -> None:
    """An argument's type in the help: none (its placeholder says what it is)."""
    return None


def _drop_stdout() -> None:
    """Send what is still buffered for stdout nowhere, so that the interpreter's last flush
    does not fail again on its way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
