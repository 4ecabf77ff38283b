"""Per-tenant limits: request rate, concurrent jobs, stored bytes (429 with ``Retry-After``).

The request rate is a token bucket per tenant in each API process
(``FAIRACQ_RATE_LIMIT_PER_SECOND`` tokens a second, up to ``FAIRACQ_RATE_LIMIT_BURST``
saved), checked right after authentication, before the body is read. With several
API processes the effective rate is the sum over them. Concurrent jobs and stored
bytes are counted in the database when work is queued or data is stored, so they
hold across every process.
"""

from __future__ import annotations

import math
import time
import uuid
from dataclasses import dataclass

from fastapi import Request
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.auth import CurrentTenant
from service.caches import LruCache
from service.errors import TooManyRequests

__all__ = ["RateLimiter", "admit", "check_active_jobs", "check_stored_bytes"]

BUCKETS_MAX = 100_000  # tenants tracked per process; the least recently seen are forgotten (a full bucket)
JOB_RETRY_AFTER_S = 5


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per tenant: ``rate`` tokens a second, at most ``burst`` saved."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self._buckets: LruCache[uuid.UUID, _Bucket] = LruCache("rate_buckets", BUCKETS_MAX)

    def wait_seconds(self, tenant_id: uuid.UUID, now: float | None = None) -> float:
        """Take one token and return 0, or return how long until one is available."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(tenant_id)
        if bucket is None:
            bucket = _Bucket(float(self.burst), now)
            self._buckets.put(tenant_id, bucket)
        else:
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


def admit(request: Request, tenant: CurrentTenant) -> None:
    """Step 2 of every ``/v1`` request: refuse it with 429 when its tenant is over its rate."""
    wait = request.app.state.rate_limiter.wait_seconds(tenant.id)
    if wait > 0:
        raise TooManyRequests(
            f"tenant {tenant.name!r} is over its rate of {request.app.state.rate_limiter.rate:g} requests "
            "a second (FAIRACQ_RATE_LIMIT_PER_SECOND); retry after the Retry-After delay",
            retry_after=max(1, math.ceil(wait)),
        )


def check_active_jobs(db: Session, tenant_id: uuid.UUID, limit: int) -> None:
    """Refuse (429) a new job while the tenant already has ``limit`` queued or running."""
    from service.jobs.models import Job

    if limit <= 0:
        return
    # Webhook deliveries (service.webhooks) are the service's own work, queued by events: not counted.
    active = db.scalar(select(func.count()).select_from(Job).where(
        Job.tenant_id == tenant_id, Job.status.in_(("queued", "running")), Job.kind != "webhooks.deliver")) or 0
    if active >= limit:
        raise TooManyRequests(
            f"the tenant has {active} jobs queued or running, its limit (FAIRACQ_MAX_ACTIVE_JOBS); "
            "retry when one has finished, or cancel one", retry_after=JOB_RETRY_AFTER_S)


def stored_bytes(db: Session, tenant_id: uuid.UUID) -> int:
    """Bytes of datasets and session blobs the tenant stores."""
    from service.datasets.models import Dataset
    from service.sessions.models import SessionBlob, SessionRecord

    datasets = db.scalar(select(func.coalesce(func.sum(func.length(Dataset.arrays)), 0))
                         .where(Dataset.tenant_id == tenant_id)) or 0
    blobs = db.scalar(select(func.coalesce(func.sum(func.length(SessionBlob.data)), 0))
                      .join(SessionRecord, SessionRecord.id == SessionBlob.session_id)
                      .where(SessionRecord.tenant_id == tenant_id)) or 0
    return int(datasets) + int(blobs)


def check_stored_bytes(db: Session, tenant_id: uuid.UUID, adding: int, limit: int) -> None:
    """Refuse (429) to store ``adding`` more bytes when the tenant would pass ``limit``."""
    if limit <= 0:
        return
    used = stored_bytes(db, tenant_id)
    if used + adding > limit:
        raise TooManyRequests(
            f"storing {adding} more bytes would pass the tenant's quota of {limit} bytes "
            f"(FAIRACQ_MAX_STORED_BYTES; {used} in use); delete datasets or sessions first",
            retry_after=3600)
