"""What the routes depend on, as FastAPI dependencies: the server's parts (made by the app's
lifespan, :class:`Services`), the client's address, and a table code read from the path."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from rummy21.server.coach import Reviews
from rummy21.server.directory import Tables
from rummy21.server.limits import GuessLimiter
from rummy21.server.model import Settings
from rummy21.server.protocol import check_code
from rummy21.server.store import Store


@dataclass
class Services:
    """The server's parts, shared by every route (``app.state.services``)."""

    settings: Settings
    store: Store
    tables: Tables
    guesses: GuessLimiter
    reviews: Reviews
    damaged: set[tuple[str, int]] = field(default_factory=set)
    """Finished deals whose logs were found damaged (each logged once)."""


def services(connection: HTTPConnection) -> Services:
    found: Services = connection.app.state.services
    return found


def client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client is not None else "unknown"


def table_code(code: str) -> str:
    """A table code from the path, canonical (upper case), or ``not_found``."""
    return check_code(code)


ServicesDep = Annotated[Services, Depends(services)]
AddressDep = Annotated[str, Depends(client_address)]
CodeDep = Annotated[str, Depends(table_code)]
