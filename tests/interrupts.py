"""Child processes that a test interrupts with Ctrl-C (SIGINT to their process group)."""

from __future__ import annotations

import sys

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
