"""Every refusal in the API's one shape, ``{"error": "…", "code": "…"}``, with the HTTP status
its code means: what the rooms refuse (:class:`~rummy21.server.model.RoomError`), what the
protocol cannot read (:class:`~rummy21.server.protocol.ProtocolError`), invalid bodies, and
Starlette's own refusals (a body that is not UTF-8 JSON, no such path, a wrong method)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummy21.server.model import RoomError
from rummy21.server.protocol import ProtocolError

STATUS = {
    "not_found": 404,
    "full": 409,
    "forbidden": 403,
    "not_finished": 409,
    "rate_limited": 429,
    "set_aside": 410,
    "damaged": 410,
    "busy": 503,
    "server": 503,
}
"""The HTTP status of each refusal's code (any other: 400)."""


def error_response(
    status: int, code: str, message: str, retry_after: float | None = None
) -> JSONResponse:
    reply = JSONResponse({"error": message, "code": code}, status_code=status)
    if retry_after is not None:
        reply.headers["retry-after"] = str(max(1, round(retry_after)))
    return reply


async def _invalid(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    parts = []
    for item in error.errors()[:4]:
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
        text = str(item.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{where}: {text}" if where else text)
    return error_response(422, "invalid", "; ".join(parts) or "invalid request")


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    status = error.status_code
    if status == 400:
        code, message = "malformed", "the request body is not JSON in UTF-8"
    elif status == 404:
        code, message = "not_found", f"nothing at {request.url.path[:80]}"
    elif status == 405:
        code, message = "method_not_allowed", f"{request.method} is not allowed here"
    else:
        code, message = "invalid", str(error.detail)
    reply = error_response(status, code, message)
    reply.headers.update(error.headers or {})
    return reply


async def _room_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RoomError)
    status = STATUS.get(error.code, 400)
    return error_response(status, error.code, error.message, error.retry_after)


async def _protocol_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ProtocolError)
    return error_response(STATUS.get(error.code, 400), error.code, error.message)


def install(app: FastAPI) -> None:
    """Answer every refusal of ``app`` in the API's shape."""
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RoomError, _room_error)
    app.add_exception_handler(ProtocolError, _protocol_error)
