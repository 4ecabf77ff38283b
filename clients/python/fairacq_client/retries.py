"""Retries as an httpx transport: every call of the generated client gets them.

A POST without an ``Idempotency-Key`` is given one (a random UUID) before its first
attempt, and every retry re-sends the very same request, key included: the server
applies the change once and answers a retry with the stored response
(``Idempotent-Replayed: true``). Retried: a connection or read error (the answer may
have been lost after the change was made), 408, 429, 502, 503 and 504, after an
exponential backoff with full jitter (or the server's ``Retry-After``).
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable

import httpx

__all__ = ["IDEMPOTENCY_HEADER", "RETRY_STATUSES", "RetryTransport"]

IDEMPOTENCY_HEADER = "Idempotency-Key"
RETRY_STATUSES = frozenset({408, 429, 502, 503, 504})


class RetryTransport(httpx.BaseTransport):
    """``inner`` with retries (see the module docstring); ``retries`` is the number of attempts after the first."""

    def __init__(self, inner: httpx.BaseTransport, *, retries: int = 3, backoff: float = 0.2,
                 max_backoff: float = 5.0, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None) -> None:
        self.inner, self.retries, self.backoff, self.max_backoff = inner, retries, backoff, max_backoff
        self.sleep, self.rng = sleep, rng or random.Random()

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        """Full jitter: uniform in [0, min(max_backoff, backoff * 2^attempt)]; Retry-After if the server says."""
        if retry_after is not None:
            try:
                return min(float(retry_after), self.max_backoff)
            except ValueError:
                pass
        return self.rng.uniform(0.0, min(self.max_backoff, self.backoff * 2 ** attempt))

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and IDEMPOTENCY_HEADER not in request.headers:
            request.headers[IDEMPOTENCY_HEADER] = str(uuid.uuid4())
        request.read()  # the body is sent again on a retry
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                if last:
                    raise
                self.sleep(self.delay(attempt))
                continue
            if response.status_code not in RETRY_STATUSES or last:
                return response
            response.read()
            response.close()
            self.sleep(self.delay(attempt, response.headers.get("retry-after")))
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        self.inner.close()
