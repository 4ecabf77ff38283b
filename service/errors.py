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
    ├── RequestTimeout (408)
    ├── PreconditionFailed (412)
    ├── PayloadTooLarge (413)
    ├── Unprocessable (422)          carries ``errors``: [{loc, msg}]
    │   └── InvalidInput             one value, at its ``loc``
    ├── TooManyRequests (429)        carries ``Retry-After``
    ├── ServiceUnavailable (503)
    └── InsufficientStorage (507)    the database's disk is full

``service.algorithms.validation.InputError`` (raised by the pure library, which
may not import this module) is rendered as 422 too, and so is a value the database
refuses (``sqlalchemy.exc.DataError``); a lost database is 503. The OpenAPI document says
so: every error response of every operation is documented as a :class:`Problem`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DataError, DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.algorithms.validation import InputError

__all__ = [
    "BadRequest",
    "BudgetExhausted",
    "Conflict",
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
    "Unauthorized",
    "Unprocessable",
    "install_handlers",
    "is_disk_full",
    "problem_response",
]

log = logging.getLogger(__name__)
PROBLEM_TYPE_BASE = "https://fairacq.dev/problems/"
PROBLEM_MEDIA_TYPE = "application/problem+json"


class ServiceError(Exception):
    status = 500
    title = "Internal error"
    slug = "internal"

    def __init__(self, detail: str, *, errors: list[dict[str, Any]] | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors
        self.headers = {"Retry-After": str(retry_after)} if retry_after is not None else None


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
_REF = "#/components/schemas/"


def _refers_to_a_resource(node: Any, schemas: dict[str, Any], seen: set[str]) -> bool:
    """Whether a request schema holds an id (``format: uuid``) of a stored resource, which may not exist."""
    if isinstance(node, list):
        return any(_refers_to_a_resource(item, schemas, seen) for item in node)
    if not isinstance(node, dict):
        return False
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_REF):
        name = ref.removeprefix(_REF)
        if name in seen:
            return False
        seen.add(name)
        return _refers_to_a_resource(schemas.get(name), schemas, seen)
    return node.get("format") == "uuid" or any(_refers_to_a_resource(v, schemas, seen) for v in node.values())


def _errors_of(operation: dict[str, Any], schemas: dict[str, Any]) -> dict[int, str]:
    """The errors any ``/v1`` operation may answer besides those its route declares."""
    errors = {401: "no API key, or one that is not valid", 503: "the database is not reachable; retry later"}
    parameters = operation.get("parameters", [])
    body = operation.get("requestBody")
    if any(p.get("in") == "path" for p in parameters) or _refers_to_a_resource(body, schemas, set()):
        errors[404] = "no such resource for this tenant (named in the path or the body)"
    if body is not None:
        errors[413] = "the request body is over FAIRACQ_MAX_BODY_BYTES"
    if parameters or body is not None:
        errors[422] = "invalid request: `errors` lists where and why"
    return errors


def _document_problems(document: dict[str, Any]) -> None:
    """Document every error response as problem+json, replacing FastAPI's default 422 body."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    problem = Problem.model_json_schema(ref_template=_REF + "{model}")
    schemas.update(problem.pop("$defs", {}))
    schemas["Problem"] = problem
    for path, operations in document.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if path.startswith("/v1/"):
                for status, description in _errors_of(operation, schemas).items():
                    responses.setdefault(str(status), {"description": description})
            for status, response in responses.items():
                if status[0] in "45":
                    response["content"] = {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": _REF + "Problem"}}}
    for unused in ("HTTPValidationError", "ValidationError"):  # FastAPI's 422 body, replaced above
        if f'"{_REF}{unused}"' not in json.dumps(document):
            schemas.pop(unused, None)


def install_handlers(app: FastAPI) -> None:
    """Render every failure — domain, validation, routing, database — as problem+json, and document it so."""
    generate_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _document_problems(generate_openapi())  # FastAPI caches the document it returns
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError):
        return problem_response(exc.status, exc.title, exc.detail, slug=exc.slug, errors=exc.errors,
                                headers=exc.headers)

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
    async def _database_down(request: Request, exc: OperationalError):
        if is_disk_full(exc):
            log.error("the database's disk is full: %s", exc.orig)
            return problem_response(
                507, "Insufficient storage", "the server's database has no space left; nothing was stored. "
                "Retry after its operator has freed space", slug="insufficient-storage",
                headers={"Retry-After": "60"})
        log.warning("database unavailable: %s", exc.orig)
        return problem_response(
            503, "Service unavailable", "the database is not reachable; retry later",
            slug="unavailable", headers={"Retry-After": "1"},
        )

    @app.exception_handler(PoolTimeout)
    async def _pool_exhausted(request: Request, exc: PoolTimeout):
        # Every connection of the pool stayed busy for the pool's whole timeout: an overload,
        # which a client should retry later, not a fault of the request or the server's code.
        log.warning("no database connection free on %s %s: %s", request.method, request.url.path, exc)
        return problem_response(
            503, "Service unavailable", "the database is busy: no connection came free in time; retry later",
            slug="unavailable", headers={"Retry-After": "1"},
        )

    @app.exception_handler(DataError)
    async def _unstorable_value(request: Request, exc: DataError):
        # The database refuses a value the request models let through (a NUL character in a
        # PostgreSQL text, a number beyond a column's range): the input is at fault, not the server.
        reason = str(exc.orig).splitlines()[0] if exc.orig is not None else "a value the database refuses"
        log.warning("database refused a value on %s %s: %s", request.method, request.url.path, reason)
        return problem_response(422, "Unprocessable content", f"a value cannot be stored: {reason}",
                                slug="validation", errors=[{"loc": [], "msg": reason}])

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
