"""The browser table: ``rummy21 serve`` — multiplayer rooms with bots, saved to SQL.

Modules: :mod:`.model` (a room's status, seats and config), :mod:`.protocol` (what a client
may send), :mod:`.store` (the tables and the database thread), :mod:`.migrations` (the schema's
revisions, run at start), :mod:`.repository` (every SQL statement), :mod:`.present` (what a
seat may see: every message built), :mod:`.replay` (finished deals step by step),
:mod:`.connection` (one browser tab), :mod:`.scheduler` (clocks and bots), :mod:`.room` (one
live table: its seats, its :class:`~rummy21.game.match.Match` and its rules), :mod:`.session`
(one client's conversation with a room) and :mod:`.app` (HTTP and WebSocket routes). Many
processes on one database: :mod:`.lease` (which process runs each room, fenced by epochs),
:mod:`.broker` (what moves between them over Redis) and :mod:`.cluster` (routing, relaying,
take-over). The pages in ``static/`` draw the cards themselves and load
nothing from outside.
"""

from __future__ import annotations

from rummy21.server.app import create_app

__all__ = ["create_app"]
