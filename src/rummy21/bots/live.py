"""A bot program at a live table (``rummy21 bot connect``): it plays a seat of a browser table
(``rummy21 serve``) through the WebSocket a browser uses, spoken to in the bot protocol
(:mod:`rummy21.bots.external`) as it would be in a tournament.

The connector says hello with the seat's token (one it is given, or one it gets by taking an
open seat, :func:`take_seat`), and at each state of the table where its seat is to act asks
the server for the seat's view (``{"type": "view"}``: :meth:`View.to_dict
<rummy21.game.view.View.to_dict>` and the legal actions, built by the server from that seat's
view alone); the program is told the deal's start and events and asked its move, and the
move is sent as the browser sends it. At the end of each deal it is told the public result
(``end``) and the connector says it is ready for the next deal. It leaves when the match is
over.

The table's clock rules: a move has the program's time (``--time``) or what is left of the
turn less :data:`MARGIN`, whichever is shorter. A move the program fails to make (a fault) is
left to the table, which times the seat out as it would a person (RULES §6.4); at a table with
no turn clock, which would wait for ever, the program is asked again (started again if it
crashed), up to :data:`FAULTS_IN_A_ROW` times, and then the connector leaves the seat (its
player is then absent: the absence rules, and the host, take over). A dropped connection is
opened again (with a growing pause, for up to :data:`RECONNECT_FOR` seconds); a move chosen
but perhaps lost with it is sent again, never asked twice.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from rummy21.bots.external import ExecBot
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, parse_action

MARGIN = 0.5
"""Seconds of the table's clock kept for the move to reach the server."""

FAULTS_IN_A_ROW = 3
"""Faults on one move, at a table with no turn clock, before the connector leaves the seat."""

RECONNECT_FOR = 600.0
"""Seconds the connector goes on trying to reach the table once its connection is lost."""

SLOW_DOWN = 0.5
"""Seconds the connector waits before sending again a message the table refused as one too
many (``rate_limited``: a table's seat may send so many a second)."""

LEAVING = {
    4401: "this token holds no seat at this table",
    4404: "there is no such table",
    4409: "the seat was opened in another window",
    4410: "the table has been set aside after a server problem",
    4429: "too many wrong tokens from this address: wait a minute",
    1008: "the table disconnected it for sending too many messages",
}
"""The close codes after which the connector does not reconnect (as the browser's page does
not), and why."""

_TABLE_PATH = re.compile(r"/t/([A-Za-z0-9]{4,12})(?:/history)?/?")


class LiveError(Exception):
    """The connector cannot play (on), said in one line."""


def table_address(url: str) -> tuple[str, str]:
    """The server's address and the table's code in the address of a table's page, or a
    :class:`ValueError`.

    >>> table_address("https://cards.example/t/ab12cd")
    ('https://cards.example', 'AB12CD')
    >>> table_address("http://127.0.0.1:8021/t/XYZW99/")
    ('http://127.0.0.1:8021', 'XYZW99')
    >>> table_address("cards.example/t/ab12cd")
    Traceback (most recent call last):
    ...
    ValueError: --url is the address of a table's page, e.g. https://host/t/CODE, not ...
    """
    parts = urllib.parse.urlsplit(url.strip())
    found = _TABLE_PATH.fullmatch(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or found is None:
        raise ValueError(
            f"--url is the address of a table's page, e.g. https://host/t/CODE, not {url!r}"
        )
    return f"{parts.scheme}://{parts.netloc}", found.group(1).upper()


def socket_url(server: str, code: str) -> str:
    """The WebSocket of table ``code`` at ``server`` (the one the table's page opens).

    >>> socket_url("https://cards.example", "AB12CD")
    'wss://cards.example/ws/AB12CD'
    """
    return "ws" + server.removeprefix("http") + f"/ws/{code}"


def take_seat(server: str, code: str, name: str, seat: int | None = None) -> tuple[int, str]:
    """Take an open seat of table ``code`` (the lowest, or ``seat``, from 0) as ``name``, as
    the table's page does (``POST /api/tables/CODE/join``): (seat, token), or a
    :class:`LiveError` saying why not."""
    body = json.dumps({"name": name, "seat": seat}).encode()
    request = urllib.request.Request(
        f"{server}/api/tables/{code}/join",
        data=body,
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as reply:
            joined = json.load(reply)
    except urllib.error.HTTPError as error:
        try:
            why = json.load(error).get("error") or error.reason
        except (ValueError, AttributeError):
            why = error.reason
        raise LiveError(f"cannot take a seat at table {code}: {why}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        why = getattr(error, "reason", error)
        raise LiveError(f"cannot reach {server}: {why}") from None
    return int(joined["seat"]), str(joined["token"])


def action_message(action: Action) -> dict[str, Any]:
    """The message a table's page sends for ``action`` (the server's
    :func:`~rummy21.server.protocol.to_action` reads it back).

    >>> action_message(parse_action("declare 7H: AS 2S 3S"))
    {'type': 'action', 'action': 'declare', 'card': '7H', 'groups': [['AS', '2S', '3S']]}
    >>> action_message(parse_action("draw open")), action_message(parse_action("drop"))
    ({'type': 'action', 'action': 'draw', 'source': 'open'}, {'type': 'action', 'action': 'drop'})
    """
    if isinstance(action, Draw):
        return {"type": "action", "action": "draw", "source": action.source.value}
    if isinstance(action, Discard):
        return {"type": "action", "action": "discard", "card": str(action.card)}
    if isinstance(action, Declare):
        message: dict[str, Any] = {"type": "action", "action": "declare"}
        message["card"] = str(action.finish)
        if action.groups is not None:
            message["groups"] = [[str(card) for card in group] for group in action.groups]
        return message
    if isinstance(action, Drop):
        return {"type": "action", "action": "drop"}
    raise ValueError(f"{action} is not an action a player sends")


Say = Callable[[str], None]


class LiveBot:
    """The program of ``bot`` playing the seat of ``token`` at the table whose WebSocket is
    ``url``; ``say`` is told what happens, a line at a time. :meth:`run` plays until the
    match is over."""

    def __init__(self, bot: ExecBot, url: str, token: str, say: Say) -> None:
        self.bot, self.url, self.token, self.say = bot, url, token, say
        self.seat: int | None = None
        self.scores: list[int] = []
        """The seat's score in each deal played to its end."""
        self.refused: list[str] = []
        """The moves the table refused (it had moved on: a time-out), with why."""
        self.reconnects = 0
        self._state: dict[str, Any] = {}
        self._seen_at = 0.0  # (when the last state came, monotonic)
        self._chosen: dict[tuple[int, int, str], Action] = {}
        self._faults: dict[tuple[int, int, str], int] = {}
        self._ended: set[int] = set()  # (deals told their end)
        self._next_id = 1
        self._last_error: str | None = None
        # Per connection:
        self._handled: set[Any] = set()
        self._asked: tuple[int, Any] | None = None  # (the id and key of the view asked for)
        self._sent: dict[int, tuple[dict[str, Any], str]] = {}  # (not yet answered: what)

    def run(self) -> None:
        """Play until the match is over; a :class:`LiveError` if the table cannot be played
        (reached, or stays unreachable, or sends the connector away)."""
        lost_since: float | None = None
        pause = 0.25
        connected = False
        while True:
            try:
                with connect(self.url, open_timeout=15, close_timeout=2, max_size=2**22) as ws:
                    connected, lost_since, pause = True, None, 0.25
                    if self._play(ws):
                        return
            except ConnectionClosed as closed:
                code = None if closed.rcvd is None else closed.rcvd.code
                if code in LEAVING:
                    raise LiveError(self._last_error or LEAVING[code]) from None
                self.say(f"the connection was lost ({code or 'no close code'}); reconnecting")
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as error:
                if not connected:
                    raise LiveError(f"cannot reach {self.url}: {error}") from None
            self.reconnects += 1
            now = time.monotonic()
            lost_since = now if lost_since is None else lost_since
            if now - lost_since > RECONNECT_FOR:
                raise LiveError(f"{self.url} has not answered for {RECONNECT_FOR:g} s")
            time.sleep(pause)
            pause = min(pause * 2, 5.0)

    def _play(self, ws: ClientConnection) -> bool:
        """One connection, from its hello: whether the match is over."""
        self._handled, self._asked, self._sent = set(), None, {}
        try:
            self._send(ws, {"type": "hello", "token": self.token})
        except ConnectionClosed:
            self._last_words(ws)
            raise
        while True:
            message = json.loads(ws.recv())
            kind = message.get("type")
            if kind == "welcome":
                if self.seat is None:
                    self.say(f"seat {message['seat'] + 1} at table {message['code']}")
                self.seat = message["seat"]
            elif kind == "state":
                self._state, self._seen_at = message, time.monotonic()
                self._ask_view(ws)
            elif kind == "view" and self._sent.pop(message.get("id"), None) is not None:
                if self._asked is not None and message["id"] == self._asked[0]:
                    self._asked = None
                    if self._on_view(ws, message):
                        return True
            elif kind == "error":
                self._on_error(ws, message)
            elif kind == "ack":
                self._sent.pop(message.get("id"), None)
            elif kind == "notice":
                self.say(str(message.get("text")))

    def _ask_view(self, ws: ClientConnection) -> None:
        """Ask for the seat's view if the last state needs the program: its turn, or a deal's
        end it has not been told."""
        state = self._state
        deal, number = state.get("deal"), state["match"]["deal"]
        if deal is None:
            return
        key: Any
        if state.get("result") is not None:
            key = ("end", number)
            if number in self._ended:
                return
        elif deal["my_turn"]:
            key = (number, deal["turns"], deal["phase"])
        else:
            return
        if key in self._handled or (self._asked is not None and self._asked[1] == key):
            return
        self._asked = (self._send(ws, {"type": "view"}), key)

    def _on_view(self, ws: ClientConnection, answer: dict[str, Any]) -> bool:
        """The program told, or asked, what the seat's view calls for: whether the match is
        over."""
        view, number, result = answer["view"], answer["deal"], answer["result"]
        if result is not None:
            if number not in self._ended:
                self._ended.add(number)
                if self.bot.end(view, result):
                    self._deal_over(number, result)
                self._send(ws, {"type": "ready"})
            return bool(self._state["room"]["status"] == "finished")
        key = (number, view["turns"], view["phase"])
        if not answer["legal"] or key in self._handled:
            return False  # (not its turn any more)
        self._handled.add(key)
        action = self._chosen.get(key)
        if action is None:
            action = self._choose(ws, key, view, answer["legal"])
        if action is not None:
            self._send(ws, action_message(action), str(action))
        return False

    def _choose(
        self,
        ws: ClientConnection,
        key: tuple[int, int, str],
        view: dict[str, Any],
        legal: list[str],
    ) -> Action | None:
        """The program's move, or ``None``: left to the table's clock, or asked again soon
        (a table with no clock)."""
        seconds = self._time_left()
        if seconds is not None and seconds <= 0:
            self.say(f"no time left for the move of turn {key[1] + 1}: the table times it out")
            return None
        action = self.bot.ask(view, {text: parse_action(text) for text in legal}, seconds)
        if action is not None:
            self._chosen[key] = action
            return action
        if self._state["room"]["turn_seconds"]:
            return None
        faults = self._faults[key] = self._faults.get(key, 0) + 1
        if faults >= FAULTS_IN_A_ROW:
            raise LiveError(
                f"the program failed the same move {faults} times, and this table has no turn "
                "clock to play it: leaving the seat (its player is now absent)"
            )
        self.bot.resume()
        self._handled.discard(key)
        self._ask_view(ws)
        return None

    def _time_left(self) -> float | None:
        """The seconds the program has for a move now: its own, or what the table's clock
        leaves, less :data:`MARGIN` (``None``: its own, the table has no clock running)."""
        state = self._state
        if state.get("deadline") is None:
            return None
        elapsed = time.monotonic() - self._seen_at
        left = float(state["deadline"] - state["server_now"]) / 1000 - elapsed - MARGIN
        return min(self.bot.seconds, left)

    def _deal_over(self, number: int, result: dict[str, Any]) -> None:
        assert self.seat is not None
        score = result["scores"][self.seat]
        self.scores.append(score)
        winner = result["winner"]
        how = result["reason"].replace("_", " ")
        who = "" if winner is None else f", seat {winner + 1} won"
        self.say(f"deal {number + 1}: {score:+d} ({how}{who})")

    def _last_words(self, ws: ClientConnection) -> None:
        """Read what the table said before it closed the connection (a table that is not
        there answers at once, and may close before the hello is sent): its error, which then
        says why the connector stops, whichever came first on a loaded machine."""
        while True:
            try:
                message = json.loads(ws.recv())
            except (ConnectionClosed, ValueError):
                return
            if isinstance(message, dict) and message.get("type") == "error":
                self._last_error = str(message.get("error"))

    def _on_error(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        text = str(message.get("error"))
        refused = self._sent.pop(message.get("id") or -1, None)
        if refused is None:
            self._last_error = text  # (said before the table closes the connection)
            return
        sent, what = refused
        if message.get("code") == "rate_limited":
            time.sleep(SLOW_DOWN)
            again = self._send(ws, sent, what)
            if self._asked is not None and self._asked[0] == message["id"]:
                self._asked = (again, self._asked[1])
        elif sent["type"] == "action":
            self.refused.append(f"{what}: {text}")
            self.say(f"the table refused {what}: {text}")

    def _send(self, ws: ClientConnection, message: dict[str, Any], what: str = "") -> int:
        """Send ``message`` with a new id (kept, with ``what`` it is, until it is answered);
        the id."""
        sent = self._next_id
        self._next_id += 1
        ws.send(json.dumps({**message, "id": sent}))
        if message["type"] != "hello":
            self._sent[sent] = (message, what)
        return sent


def program_name(argv: list[str]) -> str:
    """The name a program takes a seat under by default: its file's stem.

    >>> program_name(["python3", "examples/bots/first_legal.py"])
    'first_legal'
    """
    return Path(argv[-1]).stem[:24] or "bot"
