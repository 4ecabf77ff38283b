"""fairacq-client: a Python client for the fairacq service.

``api`` and ``models`` are generated from the service's OpenAPI document
(``fairacq_client._generated``, by ``make client``); :class:`Client` adds retries that
re-send the same ``Idempotency-Key``, typed problem errors, dataset uploads, waits
and paging.
"""

from __future__ import annotations

from fairacq_client._generated import api, models
from fairacq_client.client import Client
from fairacq_client.errors import (
    BadRequestError,
    ConflictError,
    JobFailedError,
    NotFoundError,
    PreconditionFailedError,
    ProblemError,
    RateLimitedError,
    ServerError,
    UnauthorizedError,
    ValidationError,
    WaitTimeoutError,
)
from fairacq_client.retries import RetryTransport

__all__ = ["BadRequestError", "Client", "ConflictError", "JobFailedError", "NotFoundError", "PreconditionFailedError",
           "ProblemError", "RateLimitedError", "RetryTransport", "ServerError", "UnauthorizedError", "ValidationError",
           "WaitTimeoutError", "api", "models"]
