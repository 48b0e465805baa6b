"""A bot program's process: lines to its stdin, lines from its stdout waited for with a time
limit, its stderr appended to a log file (never to our output).

Reading and writing each go through a thread of their own, so that a program that hangs, or
stops reading its input, costs the caller no more than the time it allows.

>>> import sys, tempfile
>>> from pathlib import Path
>>> echo = "import sys\\nfor line in sys.stdin: print(line.strip().upper(), flush=True)"
>>> process = BotProcess([sys.executable, "-c", echo], Path(tempfile.mkdtemp()) / "echo.log")
>>> process.start() and process.send("hello") and process.read_line(5.0)
b'HELLO\\n'
>>> process.close()
>>> process.alive
False
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

MAX_LINE = 1 << 22
"""The longest line read from a bot (4 MiB): a longer one reads as pieces, none of them JSON."""


class BotProcess:
    """One run of the program ``argv``; started by :meth:`start`, stopped by :meth:`close`."""

    def __init__(self, argv: Sequence[str], log: Path) -> None:
        self.argv, self.log = list(argv), log
        self.error: str | None = None
        """Why the program could not start, if it could not."""
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._out: queue.Queue[bytes | None] = queue.Queue()
        self._ended = False

    def start(self) -> bool:
        """Start the program (its stderr appended to ``log``); ``False`` (and
        :attr:`error` set) if it cannot be started."""
        try:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            with self.log.open("ab") as err:
                err.write(f"--- rummy21 starts {self.argv!r}\n".encode())
                err.flush()
                self._process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    start_new_session=True,  # (Ctrl-C at the terminal is ours to handle)
                )
        except OSError as error:
            self.error = f"cannot start {self.argv[0]!r}: {error.strerror or error}"
            return False
        assert self._process.stdin is not None and self._process.stdout is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()
        threading.Thread(target=self._write, args=(self._process.stdin,), daemon=True).start()
        return True

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def alive(self) -> bool:
        """Whether the program runs and its output is still open."""
        return self._process is not None and self._process.poll() is None and not self._ended

    def send(self, line: str) -> bool:
        """Queue ``line`` (a newline is added) for the program's stdin; ``False`` if it has
        ended."""
        if not self.alive:
            return False
        self._out.put((line + "\n").encode())
        return True

    def read_line(self, seconds: float) -> bytes:
        """The next line the program writes, waited for at most ``seconds``: a
        :class:`TimeoutError` if none comes, an :class:`EOFError` once its output is closed."""
        if self._ended:
            raise EOFError
        try:
            line = self._lines.get(timeout=max(seconds, 0.0))
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            self._ended = True
            raise EOFError
        return line

    def close(self, grace: float = 2.0) -> None:
        """Close the program's stdin and let it leave within ``grace`` seconds, else kill
        it (a program that has just been told the deal's end may still be writing its log:
        on a loaded machine half a second was not always enough)."""
        process, self._process = self._process, None
        self._ended = True
        if process is None:
            return
        self._out.put(None)
        deadline = time.monotonic() + grace
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if process.poll() is None:
            process.kill()
            process.wait()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while line := stream.readline(MAX_LINE):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _write(self, stream: IO[bytes]) -> None:
        try:
            while (data := self._out.get()) is not None:
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            pass  # (its stdin closed: a crash the reading side reports)
        try:
            stream.close()
        except OSError:
            pass
