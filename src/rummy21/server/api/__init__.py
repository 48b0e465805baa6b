"""The server's routes, one :class:`fastapi.APIRouter` a module: the pages (:mod:`.pages`),
the tables' API (:mod:`.tables`), their history (:mod:`.history`) and play over a WebSocket
(:mod:`.play`). Each route asks its dependencies (:mod:`.deps`) for what it needs — above all
the :class:`~rummy21.server.directory.Tables` — and never which kind of server it runs in;
refusals become answers in :mod:`.errors`.
"""

from __future__ import annotations

from fastapi import APIRouter

from rummy21.server.api import history, pages, play, tables

ROUTERS: tuple[APIRouter, ...] = (pages.router, tables.router, history.router, play.router)

__all__ = ["ROUTERS"]
