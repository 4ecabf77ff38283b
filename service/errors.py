"""Domain errors carry their HTTP status; service.handlers renders them as problem+json (RFC 9457).

    ServiceError (500)
    ├── CorruptState (500)           a stored row that cannot be read (service.pages)
    ├── Unauthorized (401)
    ├── Forbidden (403)              a key without the scope the operation needs
    ├── NotFound (404)
    ├── Conflict (409)
    │   ├── BudgetExhausted
    │   ├── NotReady
    │   ├── InUse
    │   └── RequestInFlight
    ├── RequestTimeout (408)
    ├── PreconditionFailed (412)
    ├── PayloadTooLarge (413)
    ├── UnsupportedMediaType (415)   a body in a media type the operation does not take
    ├── Unprocessable (422)          carries ``errors``: [{loc, msg}]
    │   └── InvalidInput             one value, at its ``loc``
    ├── TooManyRequests (429)        carries ``Retry-After``
    ├── ServiceUnavailable (503)
    └── InsufficientStorage (507)    the database's disk is full

``service.algorithms.validation.InputError`` (raised by the pure library, which
may not import this module) is rendered as 422 too, and so is a value the database
refuses (``sqlalchemy.exc.DataError``); a lost database is 503. The OpenAPI document says
so (service.openapi): every error response of every operation is documented as a :class:`Problem`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

__all__ = [
    "BudgetExhausted",
    "Conflict",
    "Forbidden",
    "InUse",
    "InvalidInput",
    "InsufficientStorage",
    "NotFound",
    "NotReady",
    "PayloadTooLarge",
    "PreconditionFailed",
    "Problem",
    "RequestInFlight",
    "RequestTimeout",
    "ServiceError",
    "ServiceUnavailable",
    "TooManyRequests",
    "UNKNOWN_FIELD",
    "UnsupportedMediaType",
    "Unauthorized",
    "Unprocessable",
    "is_disk_full",
    "problem_of",
    "problem_response",
]

log = logging.getLogger(__name__)
PROBLEM_TYPE_BASE = "https://fairacq.dev/problems/"
PROBLEM_MEDIA_TYPE = "application/problem+json"
UNKNOWN_FIELD = "Extra inputs are not permitted"  # pydantic's words for an unknown field, used by raw-body readers too


class ServiceError(Exception):
    status = 500
    title = "Internal error"
    slug = "internal"

    def __init__(self, detail: str, *, errors: list[dict[str, Any]] | None = None,
                 retry_after: int | None = None, extensions: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors
        self.extensions = extensions  # RFC 9457 extension members, each declared in Problem
        self.headers = {"Retry-After": str(retry_after)} if retry_after is not None else None


class Unauthorized(ServiceError):
    status, title, slug = 401, "Unauthorized", "unauthorized"


class Forbidden(ServiceError):
    status, title, slug = 403, "Forbidden", "forbidden"


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


class RequestTimeout(ServiceError):
    status, title, slug = 408, "Request timeout", "request-timeout"


class TooManyRequests(ServiceError):
    status, title, slug = 429, "Too many requests", "too-many-requests"


class InsufficientStorage(ServiceError):
    status, title, slug = 507, "Insufficient storage", "insufficient-storage"


class PreconditionFailed(ServiceError):
    status, title, slug = 412, "Precondition failed", "precondition-failed"


class PayloadTooLarge(ServiceError):
    status, title, slug = 413, "Payload too large", "payload-too-large"


class UnsupportedMediaType(ServiceError):
    status, title, slug = 415, "Unsupported media type", "unsupported-media-type"


class Unprocessable(ServiceError):
    status, title, slug = 422, "Unprocessable content", "validation"


class InvalidInput(Unprocessable):
    """A request value the web layer refuses, at ``loc`` (as the library's ``InputError`` does for its own)."""

    def __init__(self, msg: str, loc: Sequence[str | int] = ()) -> None:
        where = ".".join(str(p) for p in loc)
        super().__init__(f"{where}: {msg}" if where else msg, errors=[{"loc": list(loc), "msg": msg}])


class ServiceUnavailable(ServiceError):
    status, title, slug = 503, "Service unavailable", "unavailable"


class ProblemError(BaseModel):
    loc: list[str | int]
    msg: str


class Problem(BaseModel):
    """An RFC 9457 problem: the body of every error response."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[ProblemError] | None = None
    job_status: str | None = Field(None, description="a job that can no longer change: its status (409 on cancel)")


def is_disk_full(exc: BaseException) -> bool:
    """Whether a database error says the disk is full (SQLite SQLITE_FULL, PostgreSQL class 53100)."""
    orig = getattr(exc, "orig", exc)
    if getattr(orig, "sqlite_errorname", None) == "SQLITE_FULL" or getattr(orig, "sqlstate", None) == "53100":
        return True
    text = str(orig).lower()
    return "database or disk is full" in text or "no space left on device" in text


def problem_response(
    status: int,
    title: str,
    detail: str,
    *,
    slug: str = "about:blank",
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
    extensions: dict[str, Any] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + slug if slug != "about:blank" else slug,
        "title": title,
        "status": status,
        "detail": detail,
    }
    if errors is not None:
        body["errors"] = errors
    body.update(extensions or {})
    return JSONResponse(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def problem_of(exc: ServiceError, headers: dict[str, str] | None = None) -> JSONResponse:
    """The problem+json response of a domain error (and its Retry-After, if it has one)."""
    return problem_response(exc.status, exc.title, exc.detail, slug=exc.slug, errors=exc.errors,
                            headers={**(exc.headers or {}), **(headers or {})} or None, extensions=exc.extensions)
