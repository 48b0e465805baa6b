"""The ``--resume`` file: a tournament's settings, then one JSON line per finished shoe.

Shoes are appended as they finish, each line written whole and flushed, so an interrupted
run loses at most the shoes still being played. Reading the file back checks that it was
written for the same settings and that every line is a shoe record of them; a last line cut
short (no line end: the run was killed while writing it) is dropped and its shoe played again.

>>> import tempfile, pathlib
>>> from rummy21.tournament.play import play_shoe
>>> from rummy21.tournament.settings import Settings
>>> settings = Settings(("random", "random"), players=2, deals=3, seed=1, turn_limit=20)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> with Journal.open(path, settings) as journal:
...     journal.append(play_shoe(settings, 1))
>>> with Journal.open(path, settings) as journal:
...     sorted(journal.done)
[1]
"""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from rummy21.tournament.records import ShoeRecord
from rummy21.tournament.settings import Settings

HEADER = "tournament"
"""The first line's one key: ``{"tournament": {settings}}``."""


class JournalError(ValueError):
    """The file cannot be resumed: other settings, or a line that is no shoe record."""


class Journal:
    """An open ``--resume`` file: the shoes it already holds (``done``, by shoe number) and a
    way to add more (:meth:`append`)."""

    def __init__(self, path: Path, settings: Settings, done: dict[int, ShoeRecord]) -> None:
        self.path, self.settings, self.done = path, settings, done
        self._file: IO[bytes] | None = None

    @classmethod
    def open(cls, path: Path, settings: Settings) -> Journal:
        """Read ``path`` (if it exists) for ``settings``; a :class:`JournalError` if it
        belongs to another tournament or holds a line that is not one of its shoes."""
        if path.exists() and not path.is_file():
            raise JournalError(f"{path} is not a file a tournament can resume from")
        lines, size = _read_lines(path)
        done: dict[int, ShoeRecord] = {}
        if lines:
            _check_header(path, lines[0], settings)
            for number, line in enumerate(lines[1:], start=2):
                try:
                    record = ShoeRecord.from_dict(_object(line), settings)
                except ValueError as error:
                    raise JournalError(f"{path}, line {number}: {error}") from None
                if record.number in done:
                    raise JournalError(f"{path}, line {number}: shoe {record.number} again")
                done[record.number] = record
        journal = cls(path, settings, done)
        journal._file = path.open("r+b" if path.exists() else "wb")
        journal._file.truncate(size)
        journal._file.seek(size)
        if not lines:
            journal._write({HEADER: settings.to_dict()})
        return journal

    def append(self, record: ShoeRecord) -> None:
        """Add a finished shoe."""
        self._write(record.to_dict(self.settings.labels))
        self.done[record.number] = record

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _write(self, data: dict[str, Any]) -> None:
        assert self._file is not None, "the journal is closed"
        try:
            self._file.write(json.dumps(data, separators=(",", ":")).encode() + b"\n")
            self._file.flush()
        except OSError as error:  # (a full disk: name the file, not "the output")
            raise OSError(error.errno, error.strerror, str(self.path)) from None


LONGEST_LINE = 1 << 20
"""The longest line a journal may hold, in bytes: a shoe's record is a few kilobytes."""


def _read_lines(path: Path) -> tuple[list[str], int]:
    """The whole lines of ``path`` (none if it does not exist) and the bytes they take; a
    last line cut short (no line end: the run was killed while writing it) is left out, to
    be played again. Read line by line: a line longer than :data:`LONGEST_LINE` is a
    :class:`JournalError`, not a file read whole into memory."""
    if not path.exists():
        return [], 0
    lines: list[str] = []
    size = 0
    with path.open("rb") as file:
        while True:
            raw = file.readline(LONGEST_LINE + 1)
            if not raw.endswith(b"\n"):
                if len(raw) > LONGEST_LINE:
                    raise JournalError(
                        f"{path}, line {len(lines) + 1}: longer than {LONGEST_LINE} bytes; "
                        "not a tournament's file"
                    )
                return lines, size
            lines.append(raw[:-1].decode("utf-8", "replace"))
            size += len(raw)


def _object(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def _check_header(path: Path, line: str, settings: Settings) -> None:
    try:
        data = _object(line)
        found = Settings.from_dict(data[HEADER])
    except (ValueError, KeyError, TypeError):
        raise JournalError(f"{path} is not a tournament's file (its first line)") from None
    if found != settings:
        ours, theirs = settings.to_dict(), found.to_dict()
        differ = ", ".join(
            f"{key} {_text(theirs[key])} (not {_text(ours[key])})"
            for key in ours
            if ours[key] != theirs[key]
        )
        raise JournalError(f"{path} is another tournament's: {differ}")


def _text(value: object) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)
