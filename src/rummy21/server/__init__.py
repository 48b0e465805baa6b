"""The browser table: ``rummy21 serve`` — multiplayer rooms with bots, saved to SQL.

The layers, each importing only those before it:

* words and storage: :mod:`.model` (a room's status, seats, config and the server's knobs),
  :mod:`.tokens` (table codes, seat tokens), :mod:`.protocol` (what a client may send),
  :mod:`.store` (the tables and the database thread), :mod:`.migrations` (the schema's
  revisions, run at start), :mod:`.repository` (every SQL statement), :mod:`.lease` (which
  process runs each room, fenced by epochs), :mod:`.broker` (what moves between processes);
* one table: :mod:`.snapshot` (a room at one moment, to show), :mod:`.present` (what a seat
  may see: every message built from a snapshot), :mod:`.replay` (finished deals step by
  step), :mod:`.core` (a room's state and every change to it, no I/O), :mod:`.limits` (what
  one visitor may ask), :mod:`.botpool` (where bots think: worker processes, fair between
  tables), :mod:`.connection` (one browser tab), :mod:`.scheduler` (clocks, bots and
  back-off), :mod:`.room` (a live room: its lock, commits, clocks and connections),
  :mod:`.session` (one client's conversation with a room);
* the tables: :mod:`.directory` (the :class:`~.directory.Tables` every route asks, and a
  process alone), :mod:`.relay` and :mod:`.cluster` (one of many processes: relaying, and
  who runs which room);
* HTTP: :mod:`.api` (the routes, one router a module), :mod:`.app` (the app put together),
  :mod:`.listen` (uvicorn, with limits on what one connection may hold).

The pages in ``static/`` draw the cards themselves and load nothing from outside.
"""

from __future__ import annotations

from rummy21.server.app import create_app

__all__ = ["create_app"]
