"""Worker processes for the commands that spread work over cores (``analyze --batch --jobs``,
``tournament --jobs``): how many to start, and how each starts so that it leaves Ctrl-C to
the main process and never outlives it.

A forked worker holds a *lifeline*: the reading end of a pipe whose writing end only the
main process keeps open (:func:`lifeline`). A daemon thread in the worker waits on it and
ends the worker when it reads end-of-file — however the main process ended, ``kill -9``
included. Without it a worker waiting for its next task would wait forever: it holds a
copy of the task queue's writing end itself, so the queue never reads as closed.

>>> line = lifeline()
>>> line is None or len(line) == 2
True
>>> close(line)
"""

from __future__ import annotations

import os
import signal
import sys
import threading

Lifeline = tuple[int, int]
"""The two ends of the pipe (reading, writing)."""


def usable_cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer than
    the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def fork_method() -> str:
    """How workers start: forked where the platform forks safely (Linux), else spawned."""
    return "fork" if sys.platform == "linux" else "spawn"


def lifeline() -> Lifeline | None:
    """A new lifeline for forked workers (``None`` where workers are spawned: a spawned
    worker inherits no pipe, and its pool notices a main process that is gone). The main
    process keeps both ends open while the pool may start workers, then :func:`close`\\ s
    them."""
    return os.pipe() if fork_method() == "fork" else None


def close(line: Lifeline | None) -> None:
    """Close this process's ends of ``line``: workers holding it leave when it was the last."""
    for end in line or ():
        os.close(end)


def start_worker(line: Lifeline | None) -> None:
    """A worker's start (a pool's initializer, with the main process's :func:`lifeline`).

    Ctrl-C is the main process's to handle, so the worker ignores it (and unblocks it, in
    case the main process held it back while forking). With a lifeline the worker leaves as
    soon as the main process is gone; and answers it sends after that end it quietly
    (SIGPIPE), as a pipeline's writer ends when its reader is gone, rather than with a
    broken pipe's traceback printed before the lifeline is read.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if line is not None:
        read_end, write_end = line
        os.close(write_end)  # (its copy: only the main process's end keeps the pipe open)
        threading.Thread(target=_leave_with, args=(read_end,), daemon=True).start()
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _leave_with(read_end: int) -> None:
    """Wait for the main process to close its end of the lifeline (it never writes to it),
    then leave at once."""
    os.read(read_end, 1)
    os._exit(0)
