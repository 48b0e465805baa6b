"""Child processes that a test interrupts with Ctrl-C (SIGINT to their process group)."""

from __future__ import annotations

import sys
from pathlib import Path

_RESET = (
    "import os, signal, sys; "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
    "signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, '-m', *sys.argv[1:]])"
)


def interruptible(module: str, *args: str) -> list[str]:
    """The command line of ``python -m MODULE ARGS`` with Ctrl-C neither blocked nor ignored.

    A blocked signal mask and an ignored SIGINT survive ``exec``: a test process in which
    some library (a browser driver, Ray) blocked or ignored SIGINT would start children deaf
    to the Ctrl-C the test sends, and they would run on to the end instead (status 0).
    """
    return [sys.executable, "-c", _RESET, module, *args]


def live_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` still running (not zombies), from /proc
    (none where there is no /proc to read)."""
    live: list[int] = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, _, pgrp = stat.rsplit(")", 1)[1].split()[:3]
            if int(pgrp) == group and state != "Z":
                live.append(int(entry.name))
    return live
