"""Typed problem errors: every 4xx and 5xx answer of the service is RFC 9457 problem+json.

    ProblemError               any error answer (status, title, detail, errors, type)
    ├── BadRequestError        400, 413, 415
    ├── UnauthorizedError      401
    ├── NotFoundError          404
    ├── ConflictError          409 (job_status: a finished job's status, when cancelling it)
    ├── PreconditionFailedError 412 (If-Match)
    ├── ValidationError        422 (errors: [{loc, msg}])
    ├── RateLimitedError       429 (retry_after)
    └── ServerError            5xx
JobFailedError and WaitTimeoutError come from the waiting helpers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = ["BadRequestError", "ConflictError", "JobFailedError", "NotFoundError", "PreconditionFailedError",
           "ProblemError", "RateLimitedError", "ServerError", "UnauthorizedError", "ValidationError",
           "WaitTimeoutError", "problem_error"]


@dataclass
class FieldError:
    loc: list[str | int]
    msg: str


@dataclass
class ProblemError(Exception):
    status: int
    title: str
    detail: str
    type: str = "about:blank"
    errors: list[FieldError] = field(default_factory=list)
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.status} {self.title}: {self.detail}"

    @property
    def fields(self) -> list[str]:
        """The dotted locations of the field errors (``body.sead``)."""
        return [".".join(str(p) for p in e.loc) for e in self.errors]


class BadRequestError(ProblemError): ...
class UnauthorizedError(ProblemError): ...
class NotFoundError(ProblemError): ...
class PreconditionFailedError(ProblemError): ...
class ValidationError(ProblemError): ...
class ServerError(ProblemError): ...


class ConflictError(ProblemError):
    @property
    def job_status(self) -> str | None:
        return self.body.get("job_status")


class RateLimitedError(ProblemError):
    @property
    def retry_after(self) -> float | None:
        value = self.headers.get("retry-after")
        return float(value) if value else None


class JobFailedError(Exception):
    """A job (or the resource it prepared) ended failed or cancelled."""

    def __init__(self, status: str, error: str | None, job: Any = None) -> None:
        super().__init__(f"the job {status}: {error or 'no error message'}")
        self.status, self.error, self.job = status, error, job


class WaitTimeoutError(TimeoutError):
    """A wait ran past its timeout."""


_CLASSES: dict[int, type[ProblemError]] = {
    400: BadRequestError, 401: UnauthorizedError, 404: NotFoundError, 409: ConflictError,
    412: PreconditionFailedError, 413: BadRequestError, 415: BadRequestError, 422: ValidationError,
    429: RateLimitedError,
}


def problem_error(status: int, content: bytes, headers: httpx.Headers | dict[str, str]) -> ProblemError:
    """The typed error of an error answer (a body that is not problem+json still gives one)."""
    try:
        body = json.loads(content) if content else {}
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    cls = _CLASSES.get(status, ServerError if status >= 500 else ProblemError)
    errors = [FieldError(list(e.get("loc", [])), str(e.get("msg", ""))) for e in body.get("errors") or []
              if isinstance(e, dict)]
    return cls(status=status, title=str(body.get("title", "")), detail=str(body.get("detail", content[:200])),
               type=str(body.get("type", "about:blank")), errors=errors, body=body,
               headers={k.lower(): v for k, v in dict(headers).items()})
