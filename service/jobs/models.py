"""The ``jobs`` table: the queue's single source of truth (SPEC §6)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal, get_args

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["DURATION_BUCKETS", "FINISHED", "JOB_STATUSES", "Job", "JobDurationStats", "JobStatus"]

JobStatus = Literal["queued", "running", "succeeded", "failed", "cancelled"]
JOB_STATUSES: tuple[str, ...] = get_args(JobStatus)
FINISHED = ("succeeded", "failed", "cancelled")
# Upper bounds (seconds) of the job-duration histogram's buckets; one column each below.
DURATION_BUCKETS = (0.5, 1, 5, 15, 60, 300, 900, 3600)


class Job(Base):
    """A unit of background work.

    ``attempts`` doubles as the fencing token: a worker may write progress or a
    result only while the row still carries the attempt number it claimed.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_claim", "status", "run_after"),
        Index("ix_jobs_tenant_created", "tenant_id", "created_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(60))
    status: Mapped[str] = mapped_column(String(20), default="queued")
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    max_attempts: Mapped[int] = mapped_column(Integer, default=3)
    resource_type: Mapped[str] = mapped_column(String(40))
    resource_id: Mapped[uuid.UUID | None] = mapped_column()
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    worker_id: Mapped[str | None] = mapped_column(String(100))
    # The request that queued the job (its X-Request-ID) and its W3C traceparent, so the
    # worker's log lines and trace span join the request's.
    request_id: Mapped[str | None] = mapped_column(String(128))
    trace_context: Mapped[str | None] = mapped_column(String(128))
    # The API key of that request: the decision-log entries the job writes carry it.
    key_id: Mapped[uuid.UUID | None] = mapped_column()
    run_after: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    @property
    def resource(self) -> uuid.UUID:
        """The id of the resource the job works for (a session's jobs all have one)."""
        return resource_of(self.id, self.kind, self.resource_id)


def resource_of(job_id: uuid.UUID, kind: str, resource_id: uuid.UUID | None) -> uuid.UUID:
    """``resource_id``; a LookupError for a job queued for no resource (a diagnostic's)."""
    if resource_id is None:
        raise LookupError(f"job {job_id} ({kind}) was queued for no resource")
    return resource_id


class JobDurationStats(Base):
    """Cumulative histogram of finished jobs' run times, per kind, for ``/metrics``.

    Incremented in the transaction that finishes a job, so it only grows: a scrape's
    ``rate()`` stays right however many jobs run and whatever retention deletes.
    ``le_<i>`` counts jobs that ran at most ``DURATION_BUCKETS[i]`` seconds.
    """

    __tablename__ = "job_duration_stats"

    kind: Mapped[str] = mapped_column(String(60), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    sum_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    le_0: Mapped[int] = mapped_column(Integer, default=0)
    le_1: Mapped[int] = mapped_column(Integer, default=0)
    le_2: Mapped[int] = mapped_column(Integer, default=0)
    le_3: Mapped[int] = mapped_column(Integer, default=0)
    le_4: Mapped[int] = mapped_column(Integer, default=0)
    le_5: Mapped[int] = mapped_column(Integer, default=0)
    le_6: Mapped[int] = mapped_column(Integer, default=0)
    le_7: Mapped[int] = mapped_column(Integer, default=0)
