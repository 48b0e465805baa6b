"""Bots in any language: ``exec:COMMAND`` runs COMMAND and plays it through the bot protocol
(docs: *Bot protocol*), version :data:`PROTOCOL`: JSON lines on its stdin and stdout.

Every message has a ``type``: ``hello`` (the protocol version and the seat), ``start`` (a
deal begins), ``events`` (what happened since), ``end`` (the deal is over: its public result)
and ``move``, the only one answered: an ``id``, the seat's ``view``
(:meth:`~rummy21.game.view.View.to_dict`) and the ``legal`` actions in their text form; the
answer is ``{"id": ID, "action": "one of legal"}`` (a declaration may add the layout it shows,
``"declare 9C: 2S 3S 4S / …"``). A program that crashes, hangs past its time, writes what is
not JSON or names an action that is not legal costs its own move only: a
:class:`~rummy21.game.actions.TimeOut` (RULES §6.4), the :class:`Fault` counted in
:attr:`ExecBot.faults`. One program runs per command and seat in a process, reused deal after
deal (a crashed one is started again for the next deal), and all are stopped when the process
ends. :meth:`ExecBot.ask` and :meth:`ExecBot.end` speak in the views' JSON form, for a table
that is not in this process (:mod:`rummy21.bots.live`).

>>> import shlex, sys
>>> from rummy21.game import Table
>>> example = Path(__file__).parents[3] / "examples" / "bots" / "first_legal.py"
>>> bot = ExecBot(shlex.join([sys.executable, str(example)]), seed=1)
>>> table = Table(2, seed=3)
>>> str(bot.choose(table.view(table.turn), table.legal_actions()))
'draw stock'
>>> bot.faults
Counter()
>>> stop_all()
"""

from __future__ import annotations

import atexit
import hashlib
import json
import multiprocessing.util
import os
import re
import shlex
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from rummy21.bots import BOT_KINDS
from rummy21.bots.pipe import BotProcess
from rummy21.cards import MissingCard, parse_cards, without
from rummy21.game.actions import Action, Declare, TimeOut, parse_action
from rummy21.game.errors import ActionSyntaxError
from rummy21.game.settlement import Settlement
from rummy21.game.view import View

PROTOCOL = 2
"""The protocol's version, sent in every ``hello`` (2: the ``end`` message, and declarations
with a layout; a bot of version 1 plays version 2 unchanged)."""

DEFAULT_MOVE_TIME = 5.0
"""Seconds a bot has for a move unless :data:`TIME_VARIABLE` says otherwise."""

TIME_VARIABLE = "RUMMY21_BOT_TIME"
"""The environment variable that sets the seconds a move (every command, worker processes
included)."""

LOGS_VARIABLE = "RUMMY21_BOT_LOGS"
"""The environment variable naming the folder of the bots' stderr logs (default: the temporary
folder's ``rummy21-bots``)."""

EXAMPLES_KEPT = 3
"""Examples kept of each kind of fault."""


class Fault(StrEnum):
    """What a bot program did wrong; each but ``stale`` costs the move (a time-out)."""

    CRASH = "crash"
    """It could not start, exited or closed its output: the rest of its deal is time-outs,
    and it is started again for the next deal."""
    TIMEOUT = "timeout"
    """No answer with the move's id in time."""
    GARBAGE = "garbage"
    """A line that is not a JSON object with an ``id`` and an ``action`` text."""
    ILLEGAL = "illegal"
    """An ``action`` that is not one of the ``legal`` ones."""
    STALE = "stale"
    """An answer with an id it was not asked for (ignored; the move waits on)."""


def split_command(command: str) -> list[str]:
    """The program and arguments of ``command`` (shell quoting, no shell), or a
    :class:`ValueError`.

    >>> split_command("python3 'my bot.py' --fast")
    ['python3', 'my bot.py', '--fast']
    >>> split_command("python3 'my bot.py")
    Traceback (most recent call last):
    ...
    ValueError: cannot read the bot command "python3 'my bot.py": No closing quotation
    """
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ValueError(f"cannot read the bot command {command!r}: {error}") from None
    if not argv:
        raise ValueError("exec: needs a command to run, e.g. 'exec:python3 mybot.py'")
    return argv


def seconds_of(text: str, name: str) -> float:
    """The seconds a move ``text`` says (``name`` says where it was read): a positive number,
    or a :class:`ValueError`.

    >>> seconds_of("2.5", "--bot-time")
    2.5
    >>> seconds_of("-1", "--bot-time")
    Traceback (most recent call last):
    ...
    ValueError: --bot-time must be a positive number of seconds, not '-1'
    """
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{name} must be a positive number of seconds, not {text!r}")
    return seconds


def move_time() -> float:
    """The seconds a move from :data:`TIME_VARIABLE`, else :data:`DEFAULT_MOVE_TIME`."""
    text = os.environ.get(TIME_VARIABLE, "").strip()
    return seconds_of(text, TIME_VARIABLE) if text else DEFAULT_MOVE_TIME


def set_move_time(text: str | None) -> None:
    """The seconds a move for every bot program this process and its workers start (a
    command's ``--bot-time``, read by :func:`seconds_of`; ``None``: leave it as it is). It is
    passed on as :data:`TIME_VARIABLE`, which worker processes inherit."""
    if text is not None:
        os.environ[TIME_VARIABLE] = repr(seconds_of(text.strip(), "--bot-time"))


def check_exec_names(names: Iterable[str]) -> None:
    """A :class:`ValueError` if an ``exec:`` name among ``names`` cannot run (a command that
    cannot be read, a bad :data:`TIME_VARIABLE`): refused before play, not in a worker.

    >>> check_exec_names(["expert", "exec:node bot.js"])
    >>> check_exec_names(["exec:node 'bot.js"])
    Traceback (most recent call last):
    ...
    ValueError: cannot read the bot command "node 'bot.js": No closing quotation
    """
    for name in names:
        kind, sep, argument = name.partition(":")
        if sep and kind.strip().lower() == "exec":
            split_command(argument)
            move_time()


def log_path(argv: Sequence[str], seat: int, folder: Path | None = None) -> Path:
    """Where the stderr of ``argv`` playing ``seat`` goes (in ``folder``, else
    :data:`LOGS_VARIABLE`'s, else the temporary folder's ``rummy21-bots``).

    >>> log_path(["node", "bots/first.js"], 1, Path("logs")).name
    'first-a756301e-seat1.log'
    """
    if folder is None:
        named = os.environ.get(LOGS_VARIABLE)
        folder = Path(named) if named else Path(tempfile.gettempdir()) / "rummy21-bots"
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(argv[-1]).stem)[:40] or "bot"
    digest = hashlib.sha256("\0".join(argv).encode()).hexdigest()[:8]
    return folder / f"{stem}-{digest}-seat{seat}.log"


@dataclass(eq=False)
class _Program:
    """A running bot program, the last id it was asked and the ids it failed to answer."""

    process: BotProcess
    asked: int = 0
    abandoned: set[int] = field(default_factory=set)


_running: dict[tuple[tuple[str, ...], int], _Program] = {}
_owner = 0  # (the pid that started them: a forked worker starts its own)


def _program_for(argv: Sequence[str], seat: int, logs: Path | None) -> tuple[_Program, bool]:
    """The running program of ``argv`` for ``seat`` in this process, started (again) if it is
    not running; and whether it was just started."""
    global _owner
    if _owner != os.getpid():
        _running.clear()  # (a fork's copies belong to the parent)
        _owner = os.getpid()
        atexit.register(stop_all)
        # (a pool's worker leaves without atexit; its finalizers run)
        multiprocessing.util.Finalize(None, stop_all, exitpriority=10)
    key = (tuple(argv), seat)
    program = _running.get(key)
    if program is not None and program.process.alive:
        return program, False
    if program is not None:
        program.process.close()
    program = _running[key] = _Program(BotProcess(argv, log_path(argv, seat, logs)))
    program.process.start()
    return program, True


def stop_all() -> None:
    """Stop every bot program this process started."""
    if _owner != os.getpid():
        return
    for program in _running.values():
        program.process.close()
    _running.clear()


class ExecBot:
    """The program ``command`` as a bot (``seed`` is passed on in each ``start``); ``seconds``
    a move (default :func:`move_time`), stderr logs in ``logs`` (see :func:`log_path`). It is
    a :class:`~rummy21.bots.base.DealWatcher`: the program hears how each deal ended."""

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        *,
        seconds: float | None = None,
        logs: Path | None = None,
    ) -> None:
        self.argv = split_command(command)
        self.name = f"exec:{command.strip()}"
        self.seed = seed
        self.seconds = move_time() if seconds is None else seconds
        self.logs = logs
        self.faults: Counter[str] = Counter()
        """Faults by kind (:class:`Fault` values)."""
        self.examples: dict[str, list[str]] = {}
        """The first few faults of each kind, described."""
        self.moves = 0
        """Moves asked for."""
        self.answer_times: list[float] = []
        """Seconds each legal answer took."""
        self.deals = 0
        self.log: Path | None = None
        """The stderr log of the program last played."""
        self._program: _Program | None = None
        self._deal: tuple[Any, ...] | None = None
        self._turns = 0
        self._told = 0  # (events of the deal sent)
        self._down = False  # (crashed: time-outs until the deal ends)
        self._again = False  # (the deal started again: resume)

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        """Ask the program for a move; a :class:`TimeOut` if it fails to give a legal one."""
        action = self.ask(view.to_dict(), {str(action): action for action in legal_actions})
        return TimeOut() if action is None else action

    def deal_over(self, view: View, result: Settlement) -> None:
        """Tell the program the deal is over (:meth:`end`)."""
        self.end(view.to_dict(), result.public_dict(view.seat))

    def ask(
        self, view: dict[str, Any], legal: Mapping[str, Action], seconds: float | None = None
    ) -> Action | None:
        """Ask the program for a move in ``view`` (a :meth:`View.to_dict`), one of ``legal``
        (the actions by their text), within ``seconds`` (default :attr:`seconds`): the action
        it names, or ``None`` after a fault (counted). A new deal is started, and the events
        of the view's history not yet told are told, first."""
        deal = _deal_of(view)
        if deal != self._deal or view["turns"] < self._turns:
            self._start(view, deal)
        self._turns = view["turns"]
        program = self._program
        if self._down or program is None or not self._tell(view):
            return None
        program.asked += 1
        self.moves += 1
        asked = program.asked
        limit = self.seconds if seconds is None else seconds
        started = time.monotonic()
        message = {"type": "move", "id": asked, "view": view, "legal": list(legal)}
        if not self._send(message):
            return None
        action = self._answer(program, legal, view["hand"], started + limit, limit)
        if action is None:
            program.abandoned.add(asked)
            return None
        self.answer_times.append(time.monotonic() - started)
        return action

    def end(self, view: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
        """Tell the program that the deal of ``view`` (its seat's last view) is over: the
        events not yet told, then ``end`` with ``result``
        (:meth:`~rummy21.game.settlement.Settlement.public_dict`). Whether it played that
        deal (it is told nothing if not, or if it has crashed in it)."""
        if _deal_of(view) != self._deal or self._program is None:
            return False
        if self._tell(view):
            self._send({"type": "end", "seat": view["seat"], **result})
        self._deal = None
        return True

    def resume(self) -> None:
        """After a crash, start the program again at the next :meth:`ask`, in the same deal
        (told its start and its events again): for a table that waits for the move."""
        if self._down:
            self._deal, self._again = None, True

    def _start(self, view: Mapping[str, Any], deal: tuple[Any, ...]) -> None:
        self._deal, self._told, self._down = deal, 0, False
        if not self._again:
            self.deals += 1
        self._again = False
        seat = view["seat"]
        program, fresh = _program_for(self.argv, seat, self.logs)
        self._program, self.log = program, program.process.log
        if program.process.error is not None:
            self._fault(Fault.CRASH, view["turns"], program.process.error)
            return
        if fresh:
            self._send({"type": "hello", "protocol": PROTOCOL, "seat": seat})
        self._send(
            {
                "type": "start",
                "seat": seat,
                "players": view["players"],
                "dealer": view["dealer"],
                "rules": view["rules"],
                "seed": self.seed,
            }
        )

    def _tell(self, view: Mapping[str, Any]) -> bool:
        """Send the events of ``view``'s history not yet told; whether the program is up."""
        events = view["history"][self._told :]
        self._told += len(events)
        return not events or self._send({"type": "events", "events": list(events)})

    def _send(self, message: Mapping[str, Any]) -> bool:
        assert self._program is not None
        if self._down:
            return False
        if self._program.process.send(json.dumps(message, separators=(",", ":"))):
            return True
        self._fault(Fault.CRASH, self._turns, "the program has ended")
        return False

    def _answer(
        self,
        program: _Program,
        legal: Mapping[str, Action],
        hand: Sequence[str],
        deadline: float,
        seconds: float,
    ) -> Action | None:
        while True:
            try:
                line = program.process.read_line(deadline - time.monotonic())
            except TimeoutError:
                self._fault(Fault.TIMEOUT, self._turns, f"no answer in {seconds:g} s")
                return None
            except EOFError:
                self._fault(Fault.CRASH, self._turns, "the program ended (or closed its output)")
                return None
            text = line.decode("utf-8", "replace").strip()
            try:
                answer = json.loads(text)
            except ValueError:
                answer = None
            if not isinstance(answer, dict) or "id" not in answer:
                self._fault(Fault.GARBAGE, self._turns, f"not a JSON answer: {_clip(text)}")
                return None
            named, said = answer.get("action"), answer["id"]
            if type(said) is not int or said != program.asked:
                if type(said) is int and said in program.abandoned:
                    program.abandoned.discard(said)  # (late: its fault is counted already)
                else:
                    self._fault(Fault.STALE, self._turns, f"an answer to id {_clip(repr(said))}")
                continue
            if not isinstance(named, str):
                self._fault(Fault.GARBAGE, self._turns, f"no action text: {_clip(text)}")
                return None
            action = legal.get(named.strip())
            if action is None:
                action, why = _named(named, legal, hand)
                if action is None:
                    self._fault(Fault.ILLEGAL, self._turns, f"{_clip(named)!r} {why}")
            return action

    def _fault(self, fault: Fault, turns: int, detail: str) -> None:
        self.faults[fault.value] += 1
        if fault is Fault.CRASH:
            self._down = True
        kept = self.examples.setdefault(fault.value, [])
        if len(kept) < EXAMPLES_KEPT:
            kept.append(f"deal {self.deals}, turn {turns}: {detail}")


def _deal_of(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """What tells one deal from the next in its views: the dealer, the seats, how it was
    dealt."""
    history = view["history"]
    return (view["dealer"], view["players"], history[0] if history else None)


def _named(
    text: str, legal: Mapping[str, Action], hand: Sequence[str]
) -> tuple[Action | None, str]:
    """The legal action ``text`` names in another spelling (``DISCARD 7h``), or a declaration
    of a legal finish card with a layout of the other cards (``declare 9C: 2S 3S 4S / …``);
    else ``None`` and why not.

    >>> legal = {"discard 9C": parse_action("discard 9C"), "declare 9C": parse_action("declare 9C")}
    >>> hand = ["2S", "3S", "4S", "9C"]
    >>> str(_named("DECLARE 9c: 2s 3s 4s", legal, hand)[0])
    'declare 9C: 2S 3S 4S'
    >>> _named("declare 9C: 2S 3S 5S", legal, hand)
    (None, 'shows 5S, which is not in its hand (besides the finish card)')
    >>> _named("fly away", legal, hand)
    (None, 'is not legal now')
    """
    try:
        action = parse_action(text)
    except ActionSyntaxError:
        return None, "is not legal now"
    if isinstance(action, Declare) and action.groups is not None:
        if str(Declare(action.finish)) not in legal:
            return None, "is not legal now"
        others = parse_cards(" ".join(hand))
        others.remove(action.finish)
        try:
            without(others, (card for group in action.groups for card in group))
        except MissingCard as error:
            return None, f"shows {error.card}, which is not in its hand (besides the finish card)"
        return action, ""
    found = next((a for a in legal.values() if a == action), None)
    return found, "" if found is not None else "is not legal now"


def _clip(text: str, length: int = 80) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def exec_bot(argument: str, seed: int | None = None) -> ExecBot:
    """The bot ``exec:ARGUMENT`` (:data:`~rummy21.bots.BOT_KINDS`)."""
    return ExecBot(argument, seed)


def fault_counts(bot: object) -> Mapping[str, int]:
    """``bot``'s faults by kind if it is an :class:`ExecBot` (no other bot has any).

    >>> from rummy21.bots import RandomBot
    >>> dict(fault_counts(RandomBot(1)))
    {}
    """
    return bot.faults if isinstance(bot, ExecBot) else {}


BOT_KINDS["exec"] = exec_bot
