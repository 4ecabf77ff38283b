"""The exception handlers that render every failure as problem+json (RFC 9457), and document it so.

Domain errors (service.errors) carry their status; the library's ``InputError`` and a
value the database refuses are 422; a lost database is 503 and a full disk 507;
FastAPI's own validation and routing errors are reshaped into the same problem body.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.algorithms.validation import InputError
from service.errors import InsufficientStorage, ServiceError, is_disk_full, problem_of, problem_response

__all__ = ["install_handlers"]

log = logging.getLogger("service.errors")


def _loc(parts: Any, body: Any) -> list[str | int]:
    """Where the error is in the request as sent.

    Pydantic puts a tagged union's tag into the path (``body.group_sampler.budget`` for
    ``{"decision_type": "group_sampler", ...}``); the client never wrote that key, so a
    part that is not a key of the object it indexes but is one of that object's values,
    and is not the last part, is left out.
    """
    out: list[str | int] = []
    node = body if parts and parts[0] == "body" else None
    for depth, part in enumerate(parts):
        if depth and isinstance(node, dict) and isinstance(part, str) and part not in node \
                and depth < len(parts) - 1 and part in [v for v in node.values() if isinstance(v, str)]:
            continue
        out.append(part if isinstance(part, int) else str(part))
        if depth:
            node = node.get(part) if isinstance(node, dict) else (
                node[part] if isinstance(node, list) and isinstance(part, int) and -len(node) <= part < len(node)
                else None)
    return out


def _validation_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        msg, loc = err.get("msg", "invalid value"), _loc(err.get("loc", ()), exc.body)
        kind, ctx = err.get("type"), err.get("ctx") or {}
        if kind == "finite_number":
            msg = "must be a finite number (NaN and infinity are not allowed)"
        elif kind in ("union_tag_not_found", "union_tag_invalid"):  # the field that picks the body's kind
            loc.append(str(ctx.get("discriminator", "")).strip("'"))
            msg = "Field required" if kind == "union_tag_not_found" else \
                f"Input should be one of {ctx.get('expected_tags')}, not '{ctx.get('tag')}'"
        out.append({"loc": loc, "msg": msg})
    return out


_STATUS_TITLES = {404: "Not found", 405: "Method not allowed", 413: "Payload too large"}
def install_handlers(app: FastAPI) -> None:
    """Render every failure — domain, validation, routing, database — as problem+json, and document it so."""
    from service.openapi import complete_document

    generate_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        document = app.openapi_schema
        if document is None:
            document = generate_openapi()  # FastAPI caches the document it returns
            complete_document(app, document)
        return document

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return problem_of(exc)

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError) -> JSONResponse:
        return problem_response(
            422, "Unprocessable content", str(exc), slug="validation", errors=exc.errors
        )

    @app.exception_handler(RequestValidationError)
    async def _request_validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = _validation_errors(exc)
        first: dict[str, Any] = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        detail = f"{where}: {first['msg']}" if where else first["msg"]
        if len(errors) > 1:
            detail += f" (and {len(errors) - 1} more)"
        return problem_response(422, "Unprocessable content", detail, slug="validation", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and isinstance(exc.__cause__, ValueError | RecursionError):
            # FastAPI's answer to a JSON body it cannot decode (not UTF-8, nested too deep);
            # malformed JSON is 422 everywhere else, so this is too.
            msg = "not valid JSON: send UTF-8 encoded JSON"
            return problem_response(422, "Unprocessable content", f"body: {msg}", slug="validation",
                                    errors=[{"loc": ["body"], "msg": msg}])
        title = _STATUS_TITLES.get(exc.status_code, "HTTP error")
        detail = exc.detail if isinstance(exc.detail, str) else title
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no route matches {request.method} {request.url.path}"
        if exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        return problem_response(exc.status_code, title, detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(OperationalError)
    async def _database_down(request: Request, exc: DBAPIError) -> JSONResponse:
        if is_disk_full(exc):
            log.error("the database's disk is full: %s", exc.orig)
            return problem_of(InsufficientStorage(
                "the server's database has no space left; nothing was stored. Retry after its operator has "
                "freed space", retry_after=60))
        log.warning("database unavailable: %s", exc.orig)
        return problem_response(
            503, "Service unavailable", "the database is not reachable; retry later",
            slug="unavailable", headers={"Retry-After": "1"},
        )

    @app.exception_handler(PoolTimeout)
    async def _pool_exhausted(request: Request, exc: PoolTimeout) -> JSONResponse:
        # Every connection of the pool stayed busy for the pool's whole timeout: an overload,
        # which a client should retry later, not a fault of the request or the server's code.
        log.warning("no database connection free on %s %s: %s", request.method, request.url.path, exc)
        return problem_response(
            503, "Service unavailable", "the database is busy: no connection came free in time; retry later",
            slug="unavailable", headers={"Retry-After": "1"},
        )

    @app.exception_handler(DataError)
    async def _unstorable_value(request: Request, exc: DataError) -> JSONResponse:
        # The database refuses a value the request models let through (a NUL character in a
        # PostgreSQL text, a number beyond a column's range): the input is at fault, not the server.
        reason = str(exc.orig).splitlines()[0] if exc.orig is not None else "a value the database refuses"
        log.warning("database refused a value on %s %s: %s", request.method, request.url.path, reason)
        return problem_response(422, "Unprocessable content", f"a value cannot be stored: {reason}",
                                slug="validation", errors=[{"loc": [], "msg": reason}])

    @app.exception_handler(DBAPIError)
    async def _database_error(request: Request, exc: DBAPIError) -> JSONResponse:
        if exc.connection_invalidated:
            return await _database_down(request, exc)
        log.exception("database error")
        return problem_response(500, "Internal error", "a database error occurred", slug="internal")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return problem_response(500, "Internal error", "an unexpected error occurred", slug="internal")
