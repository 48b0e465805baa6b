"""The browser table: ``rummy21 serve`` — multiplayer rooms with bots, saved to SQL.

Layers: :mod:`.protocol` (what a client may send), :mod:`.store` (the database),
:mod:`.present` (what a seat may see), :mod:`.replay` (finished deals step by step),
:mod:`.room` (one live table) and :mod:`.app` (HTTP and WebSocket routes). The pages in
``static/`` draw the cards themselves and load nothing from outside.
"""

from __future__ import annotations

from rummy21.server.app import create_app

__all__ = ["create_app"]
