"""The pages: the lobby, a table, a table's history (the same files for every table: they
load the rest over the API), and the health check."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from rummy21.server.api.deps import CodeDep

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter()


def page(name: str) -> FileResponse:
    return FileResponse(
        STATIC / name, media_type="text/html", headers={"cache-control": "no-cache"}
    )


@router.get("/", include_in_schema=False)
async def lobby_page() -> Response:
    return page("index.html")


@router.get("/t/{code}", include_in_schema=False)
async def table_page(code: CodeDep) -> Response:
    return page("table.html")


@router.get("/t/{code}/history", include_in_schema=False)
async def history_page(code: CodeDep) -> Response:
    return page("history.html")


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The pages' service worker (static/sw.js), served at the root: its scope is the site."""
    return FileResponse(
        STATIC / "sw.js", media_type="text/javascript", headers={"cache-control": "no-cache"}
    )


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}
