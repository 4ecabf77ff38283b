"""Domain errors carry their HTTP status; one handler renders them as problem+json (RFC 9457).

    ServiceError (500)
    ├── BadRequest (400)
    ├── Unauthorized (401)
    ├── NotFound (404)
    ├── Conflict (409)
    │   ├── BudgetExhausted
    │   ├── NotReady
    │   ├── InUse
    │   └── RequestInFlight
    ├── PreconditionFailed (412)
    ├── PayloadTooLarge (413)
    ├── Unprocessable (422)          carries ``errors``: [{loc, msg}]
    └── ServiceUnavailable (503)

``service.algorithms.validation.InputError`` (raised by the pure library, which
may not import this module) is rendered as 422 too.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.algorithms.validation import InputError

__all__ = [
    "BadRequest",
    "BudgetExhausted",
    "Conflict",
    "InUse",
    "NotFound",
    "NotReady",
    "PayloadTooLarge",
    "PreconditionFailed",
    "RequestInFlight",
    "ServiceError",
    "ServiceUnavailable",
    "Unauthorized",
    "Unprocessable",
    "install_handlers",
    "problem_response",
]

log = logging.getLogger(__name__)
PROBLEM_TYPE_BASE = "https://fairacq.dev/problems/"
PROBLEM_MEDIA_TYPE = "application/problem+json"


class ServiceError(Exception):
    status = 500
    title = "Internal error"
    slug = "internal"

    def __init__(self, detail: str, *, errors: list[dict[str, Any]] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors


class BadRequest(ServiceError):
    status, title, slug = 400, "Bad request", "bad-request"


class Unauthorized(ServiceError):
    status, title, slug = 401, "Unauthorized", "unauthorized"


class NotFound(ServiceError):
    status, title, slug = 404, "Not found", "not-found"


class Conflict(ServiceError):
    status, title, slug = 409, "Conflict", "conflict"


class BudgetExhausted(Conflict):
    title, slug = "Budget exhausted", "budget-exhausted"


class NotReady(Conflict):
    title, slug = "Not ready", "not-ready"


class InUse(Conflict):
    title, slug = "In use", "in-use"


class RequestInFlight(Conflict):
    title, slug = "Request in flight", "request-in-flight"


class PreconditionFailed(ServiceError):
    status, title, slug = 412, "Precondition failed", "precondition-failed"


class PayloadTooLarge(ServiceError):
    status, title, slug = 413, "Payload too large", "payload-too-large"


class Unprocessable(ServiceError):
    status, title, slug = 422, "Unprocessable content", "validation"


class ServiceUnavailable(ServiceError):
    status, title, slug = 503, "Service unavailable", "unavailable"


def problem_response(
    status: int,
    title: str,
    detail: str,
    *,
    slug: str = "about:blank",
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + slug if slug != "about:blank" else slug,
        "title": title,
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = errors
    return JSONResponse(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _loc(parts: Any) -> list[str | int]:
    return [p if isinstance(p, int) else str(p) for p in parts]


def _validation_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        msg = err.get("msg", "invalid value")
        if err.get("type") == "finite_number":
            msg = "must be a finite number (NaN and infinity are not allowed)"
        out.append({"loc": _loc(err.get("loc", ())), "msg": msg})
    return out


_STATUS_TITLES = {404: "Not found", 405: "Method not allowed", 413: "Payload too large"}


def install_handlers(app: FastAPI) -> None:
    """Render every failure — domain, validation, routing, database — as problem+json."""

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError):
        return problem_response(exc.status, exc.title, exc.detail, slug=exc.slug, errors=exc.errors)

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError):
        return problem_response(
            422, "Unprocessable content", str(exc), slug="validation", errors=exc.errors
        )

    @app.exception_handler(RequestValidationError)
    async def _request_validation(request: Request, exc: RequestValidationError):
        errors = _validation_errors(exc)
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        detail = f"{where}: {first['msg']}" if where else first["msg"]
        if len(errors) > 1:
            detail += f" (and {len(errors) - 1} more)"
        return problem_response(422, "Unprocessable content", detail, slug="validation", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        title = _STATUS_TITLES.get(exc.status_code, "HTTP error")
        detail = exc.detail if isinstance(exc.detail, str) else title
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no route matches {request.method} {request.url.path}"
        if exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        return problem_response(exc.status_code, title, detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(OperationalError)
    async def _database_down(request: Request, exc: OperationalError):
        log.warning("database unavailable: %s", exc.orig)
        return problem_response(
            503, "Service unavailable", "the database is not reachable; retry later",
            slug="unavailable", headers={"Retry-After": "1"},
        )

    @app.exception_handler(DBAPIError)
    async def _database_error(request: Request, exc: DBAPIError):
        if exc.connection_invalidated:
            return await _database_down(request, exc)  # type: ignore[arg-type]
        log.exception("database error")
        return problem_response(500, "Internal error", "a database error occurred", slug="internal")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return problem_response(500, "Internal error", "an unexpected error occurred", slug="internal")
