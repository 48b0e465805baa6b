"""What a browser may send: HTTP bodies and WebSocket messages, validated by pydantic.

Every client message is a JSON object of at most :data:`MAX_MESSAGE_BYTES` bytes with a
``type``; anything else is answered with an error that says what was wrong, and changes
nothing. A message may carry an ``id`` (0 .. 2**53); the answer to it — an error too, even
when the rest of the message could not be read — carries the same ``id``. Cards travel in
the text notation of RULES §1.

>>> parse_message('{"type": "action", "action": "draw", "source": "open", "id": 3}')
DrawMsg(id=3, type='action', action='draw', source='open')
>>> parse_message('{"type": "action", "action": "discard", "card": "10h"}').card
'10H'
>>> parse_message('{"type": "action", "action": "discard", "card": "11H"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rummy21.server.protocol.ProtocolError: malformed: card: unknown card '11H': expected a rank ...
>>> parse_message('[1, 2]')
Traceback (most recent call last):
...
rummy21.server.protocol.ProtocolError: malformed: a message is a JSON object with a "type"
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from rummy21.cards import Card, CardError
from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source
from rummy21.game.match import parse_point_value
from rummy21.server.model import BotName, SeatChoice

#: The largest WebSocket message a client may send (a full declaration is well under 1 KiB).
MAX_MESSAGE_BYTES = 8192
MAX_NAME = 24
#: Names longer than this are refused before they are cleaned (control characters included).
MAX_RAW_NAME = 200
CODE_PATTERN = re.compile(r"^[A-Za-z0-9]{4,12}$")


class ProtocolError(ValueError):
    """A message the server cannot accept; ``code`` names the kind, the text says why, and
    ``msg_id`` is the refused message's own ``id`` when it gave a usable one (so that a
    client can tell which of its messages was refused)."""

    def __init__(self, code: str, message: str, msg_id: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.msg_id = msg_id


def _card(text: str) -> str:
    try:
        return str(Card.parse(text))
    except CardError as error:
        raise ValueError(str(error)) from None


CardText = Annotated[str, Field(min_length=2, max_length=3), AfterValidator(_card)]
GroupList = Annotated[list[Annotated[list[CardText], Field(max_length=22)]], Field(max_length=22)]
MAX_MSG_ID = 2**53
"""The largest message id (the largest integer a JavaScript number holds exactly)."""
MsgId = Annotated[int, Field(ge=0, le=MAX_MSG_ID)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: MsgId | None = None


class HelloMsg(_Msg):
    """Claims a seat with its secret token (the first message of a connection)."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=8, max_length=128)]


class DrawMsg(_Msg):
    type: Literal["action"]
    action: Literal["draw"]
    source: Literal["stock", "open"] = "stock"


class DiscardMsg(_Msg):
    type: Literal["action"]
    action: Literal["discard"]
    card: CardText


class DeclareMsg(_Msg):
    type: Literal["action"]
    action: Literal["declare"]
    card: CardText
    groups: GroupList | None = None


class DropMsg(_Msg):
    type: Literal["action"]
    action: Literal["drop"]


class GroupsMsg(_Msg):
    """Asks for the verdict on each group of the player's own layout, and the hand's penalty."""

    type: Literal["groups"]
    groups: GroupList


class ArrangeMsg(_Msg):
    """Asks how to lay out the player's hand: all of it, or (``keep``: the groups the player
    built and keeps) only the other cards."""

    type: Literal["arrange"]
    keep: GroupList | None = None


class CheckDeclareMsg(_Msg):
    """Asks what a declaration with ``card`` on the finish slot and this layout would be."""

    type: Literal["check_declare"]
    card: CardText
    groups: GroupList = []


class ViewMsg(_Msg):
    """Asks for the seat's view of the deal as the bot protocol gives it (a program playing the
    seat: ``rummy21 bot connect``): answered with ``view`` (:func:`.present.bot_view`)."""

    type: Literal["view"]


class ReadyMsg(_Msg):
    """The player has seen the deal's result and is ready for the next deal."""

    type: Literal["ready"]


class PingMsg(_Msg):
    type: Literal["ping"]


class AutoplayMsg(_Msg):
    """The host hands the seat of an absent human player to a bot until the player is back."""

    type: Literal["autoplay"]
    seat: Annotated[int, Field(ge=0, le=5)]
    bot: BotName


ActionMsg: TypeAlias = Annotated[
    DrawMsg | DiscardMsg | DeclareMsg | DropMsg, Field(discriminator="action")
]
Message: TypeAlias = (
    HelloMsg
    | DrawMsg
    | DiscardMsg
    | DeclareMsg
    | DropMsg
    | GroupsMsg
    | ArrangeMsg
    | CheckDeclareMsg
    | ViewMsg
    | ReadyMsg
    | PingMsg
    | AutoplayMsg
)

_ACTIONS: TypeAdapter[DrawMsg | DiscardMsg | DeclareMsg | DropMsg] = TypeAdapter(ActionMsg)
_OTHERS: dict[str, type[_Msg]] = {
    "hello": HelloMsg,
    "groups": GroupsMsg,
    "arrange": ArrangeMsg,
    "check_declare": CheckDeclareMsg,
    "view": ViewMsg,
    "ready": ReadyMsg,
    "ping": PingMsg,
    "autoplay": AutoplayMsg,
}


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        loc = [str(p) for p in item["loc"]]
        if loc and loc[0] in ("draw", "discard", "declare", "drop"):
            loc = loc[1:]  # the discriminator's tag, not a field
        where = ".".join(loc)
        text = str(item["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {text}" if where else text)
    return "; ".join(parts)


def parse_message(text: str | bytes) -> Message:
    """The client message ``text`` holds, or :class:`ProtocolError` saying what is wrong."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes, not {size}"
        )
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError("malformed", f"not JSON: {getattr(error, 'msg', error)}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", 'a message is a JSON object with a "type"')
    msg_id = _usable_id(data.get("id"))
    if not isinstance(data.get("type"), str):
        raise ProtocolError("malformed", 'a message is a JSON object with a "type"', msg_id)
    kind = data["type"]
    try:
        if kind == "action":
            if not isinstance(data.get("action"), str):
                raise ProtocolError(
                    "malformed",
                    'an action message needs an "action": draw, discard, declare or drop',
                    msg_id,
                )
            return _ACTIONS.validate_python(data)
        model = _OTHERS.get(kind)
        if model is None:
            raise ProtocolError(
                "malformed",
                f"unknown message type {kind[:40]!r}; expected "
                "one of action, " + ", ".join(_OTHERS),
                msg_id,
            )
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as error:
        raise ProtocolError("malformed", _describe(error), msg_id) from None


def message_id(text: str | bytes) -> int | None:
    """The ``id`` of the client message ``text`` if it has a usable one, without reading the
    rest (for the answers to messages that are refused unread, such as over a rate limit).

    >>> message_id('{"type": "ping", "id": 12}'), message_id("not json"), message_id("[1]")
    (12, None, None)
    """
    if len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return None
    return _usable_id(data.get("id")) if isinstance(data, dict) else None


def _usable_id(value: object) -> int | None:
    """A message's ``id`` read as the messages read it (:data:`MsgId`), else ``None``.

    >>> _usable_id(7), _usable_id("7"), _usable_id(-1), _usable_id("x"), _usable_id(None)
    (7, 7, None, None, None)
    """
    if value is None:
        return None
    try:
        return _MSG_ID.validate_python(value)
    except ValidationError:
        return None


_MSG_ID: TypeAdapter[int] = TypeAdapter(MsgId)


def to_action(msg: DrawMsg | DiscardMsg | DeclareMsg | DropMsg) -> Action:
    """The engine action an action message asks for.

    >>> to_action(parse_message('{"type":"action","action":"declare","card":"7h",'
    ...                         '"groups":[["as","2s","3s"]]}'))   # doctest: +ELLIPSIS
    Declare(finish=Card('7H'), groups=((Card('AS'), Card('2S'), Card('3S')),))
    """
    if isinstance(msg, DrawMsg):
        return Draw(Source(msg.source))
    if isinstance(msg, DiscardMsg):
        return Discard(Card.parse(msg.card))
    if isinstance(msg, DeclareMsg):
        groups = (
            None
            if msg.groups is None
            else tuple(tuple(Card.parse(c) for c in g) for g in msg.groups)
        )
        return Declare(Card.parse(msg.card), groups)
    return Drop()


def groups_of(groups: list[list[str]]) -> list[list[Card]]:
    return [[Card.parse(c) for c in g] for g in groups]


# ------------------------------------------------------------------ HTTP bodies
def _name(text: str) -> str:
    clean = "".join(
        ch for ch in unicodedata.normalize("NFC", text) if unicodedata.category(ch)[0] != "C"
    ).strip()
    clean = " ".join(clean.split())
    if not clean:
        raise ValueError("a display name needs at least one visible character")
    if len(clean) > MAX_NAME:
        raise ValueError(f"a display name has at most {MAX_NAME} characters")
    return clean


def _not_huge(value: Any) -> Any:
    """Refuses an oversized name before cleaning it, with the same message as :func:`_name`."""
    if isinstance(value, str) and len(value) > MAX_RAW_NAME:
        raise ValueError(f"a display name has at most {MAX_NAME} characters")
    return value


DisplayName = Annotated[str, BeforeValidator(_not_huge), AfterValidator(_name)]
"""A player's name: at most :data:`MAX_NAME` visible characters (control characters dropped,
runs of spaces folded); every too-long name gets the same message, however long."""


class CreateTable(BaseModel):
    """A new table: its seats (``human`` or a bot), rules and stakes; the creator sits first."""

    model_config = ConfigDict(extra="forbid")
    name: DisplayName
    seats: Annotated[list[SeatChoice], Field(min_length=2, max_length=6)]
    rules: Literal["classic", "adda52"] = "classic"
    point_value: Annotated[str, Field(max_length=20)] = "1"
    turn_seconds: Annotated[int, Field(ge=0, le=600)] | None = None
    """The turn timer in seconds (0: off); ``None``: the rule set's (``RuleSet.turn_seconds``)."""
    deals: Annotated[int, Field(ge=1, le=100)] = 3
    public_history: bool = False
    """Whether anyone with the code may replay the finished deals (else only the players)."""
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None

    @field_validator("point_value")
    @classmethod
    def _point_value(cls, value: str) -> str:
        """The engine reads the amount (:func:`~rummy21.game.match.parse_point_value`); it is
        kept as plain digits ("100", "0.25"), never in exponent form ("1E+2")."""
        return format(parse_point_value(value), "f")

    @model_validator(mode="after")
    def _someone_plays(self) -> CreateTable:
        if "human" not in self.seats:
            raise ValueError("at least one seat must be human (the creator sits there)")
        return self


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: DisplayName
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


def check_code(code: str) -> str:
    """A room code in canonical (upper) case, or :class:`ProtocolError`."""
    if not CODE_PATTERN.match(code):
        raise ProtocolError("not_found", "a table code is 4 to 12 letters and digits")
    return code.upper()


def error_message(
    code: str,
    message: str,
    msg_id: int | None = None,
    reason: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ``error`` answer: its ``code`` (``syntax`` for a message naming no card or action
    the engine can read, ``illegal`` for a move the rules refuse, …), the sentence, the id it
    answers and, for a refusal, its structured ``reason`` (the engine's code and values, e.g.
    ``{"code": "not_your_turn", "turn": 2}``)."""
    found: dict[str, Any] = {"type": "error", "code": code, "error": message, "id": msg_id}
    if reason is not None:
        found["reason"] = reason
    return found
