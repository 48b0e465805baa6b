"""The game engine: a table state machine for one deal, its events, views and a match.

>>> from rummy21.game import Table
>>> Table(players=4, seed=3).turn
0
"""

from rummy21.game.actions import Action, Declare, Discard, Draw, Drop, Source, TimeOut, parse_action
from rummy21.game.errors import (
    ActionSyntaxError,
    GameError,
    IllegalActionError,
    NotYourTurnError,
    ReplayError,
    SetupError,
)
from rummy21.game.events import (
    DealEnded,
    DealStarted,
    Declared,
    Discarded,
    Drew,
    DropKind,
    Dropped,
    EndReason,
    Event,
    Reshuffled,
    TimedOut,
)
from rummy21.game.log import dump_log, load_log
from rummy21.game.match import DealRecord, Match
from rummy21.game.seat import Seat, SeatError
from rummy21.game.settlement import SeatResult, Settlement, Standing
from rummy21.game.table import Table
from rummy21.game.view import OpenCard, Phase, PublicEvent, SeatInfo, View

__all__ = [
    "Action",
    "ActionSyntaxError",
    "DealEnded",
    "DealRecord",
    "DealStarted",
    "Declare",
    "Declared",
    "Discard",
    "Discarded",
    "Draw",
    "Drew",
    "Drop",
    "DropKind",
    "Dropped",
    "EndReason",
    "Event",
    "GameError",
    "IllegalActionError",
    "Match",
    "NotYourTurnError",
    "OpenCard",
    "Phase",
    "PublicEvent",
    "ReplayError",
    "Reshuffled",
    "Seat",
    "SeatError",
    "SeatInfo",
    "SeatResult",
    "Settlement",
    "SetupError",
    "Source",
    "Standing",
    "Table",
    "TimeOut",
    "TimedOut",
    "View",
    "dump_log",
    "load_log",
    "parse_action",
]
