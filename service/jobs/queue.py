"""The database-backed job queue: enqueue, claim with a lease, heartbeat, fence, finish.

This small interface is all the rest of the service knows about the queue, so
a PostgreSQL queue library could replace the table later.

Claiming is atomic: PostgreSQL uses ``FOR UPDATE SKIP LOCKED``; SQLite runs the
claim inside ``BEGIN IMMEDIATE`` (see ``service.db``), which admits one writer.
A job whose lease has expired is claimed again (at-least-once execution); every
write of a running attempt is fenced on ``attempts`` so that a worker presumed
dead cannot overwrite a newer attempt (the result is written at most once).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service import tracing
from service.auth import API_KEY_ID
from service.db import rowcount, utcnow
from service.jobs.models import DURATION_BUCKETS, FINISHED, Job, JobDurationStats
from service.logs import REQUEST_ID
from service.quotas import check_active_jobs
from service.settings import Settings

__all__ = ["StaleAttempt", "any_runnable", "claim", "enqueue", "fence", "finish_failure", "heartbeat", "purge_finished",
           "release", "request_cancel"]


DEFAULT_MAX_ATTEMPTS = 3


class StaleAttempt(Exception):
    """The attempt's fencing token is no longer current: its writes are refused."""


def enqueue(
    db: Session,
    *,
    tenant_id: uuid.UUID,
    kind: str,
    resource_type: str,
    resource_id: uuid.UUID | None,
    payload: dict[str, Any] | None = None,
    settings: Settings | None = None,
    max_attempts: int | None = None,
) -> Job:
    """Add a job in the caller's transaction, so it exists iff the state change that needs it does.

    With ``settings`` (every resource passes them) the job gets ``FAIRACQ_JOB_MAX_ATTEMPTS``
    attempts and a tenant already at ``FAIRACQ_MAX_ACTIVE_JOBS`` queued or running jobs is
    refused (429). The job records the request id and trace context it was queued in.
    """
    if max_attempts is None:
        max_attempts = settings.job_max_attempts if settings is not None else DEFAULT_MAX_ATTEMPTS
    if settings is not None:
        check_active_jobs(db, tenant_id, settings.max_active_jobs)
    job = Job(
        tenant_id=tenant_id, kind=kind, status="queued", payload=payload or {}, progress=0.0,
        attempts=0, max_attempts=max_attempts, resource_type=resource_type, resource_id=resource_id,
        run_after=utcnow(), request_id=REQUEST_ID.get(), trace_context=tracing.current_traceparent(),
        key_id=API_KEY_ID.get(),
    )
    db.add(job)
    db.flush()
    return job


def _end(db: Session, job: Job, status: str) -> None:
    """Put ``job`` in a final status, announce it (``job.finished``, in this transaction) and count its
    run time in the duration histogram."""
    from service.webhooks import outbox  # (it queues its deliveries with this module)

    job.status, job.finished_at, job.lease_expires_at = status, utcnow(), None
    outbox.job_finished(db, job)
    if job.started_at is None:
        return
    seconds = max(0.0, (job.finished_at - job.started_at).total_seconds())
    stats = JobDurationStats
    values: dict[str, Any] = {"count": stats.count + 1, "sum_seconds": stats.sum_seconds + seconds}
    for i, bound in enumerate(DURATION_BUCKETS):
        if seconds <= bound:
            values[f"le_{i}"] = getattr(stats, f"le_{i}") + 1
    increment = update(stats).where(stats.kind == job.kind).values(**values)
    if rowcount(db.execute(increment)):
        return
    try:
        with db.begin_nested():
            db.add(stats(kind=job.kind, count=1, sum_seconds=seconds,
                         **{f"le_{i}": int(seconds <= b) for i, b in enumerate(DURATION_BUCKETS)}))
    except IntegrityError:  # another transaction created the row first
        db.execute(increment)


def _runnable(now: datetime, kinds: list[str] | None) -> Any:
    """Jobs a worker may claim now: queued and due, or running with an expired lease."""
    condition = or_((Job.status == "queued") & (Job.run_after <= now),
                    (Job.status == "running") & (Job.lease_expires_at < now))
    return condition if not kinds else condition & Job.kind.in_(kinds)


def any_runnable(db: Session, kinds: list[str] | None = None) -> bool:
    """Whether :func:`claim` would find a job: a read, for an idle worker's poll in a reader's transaction.

    On SQLite a claim's transaction takes the database's write lock (``BEGIN IMMEDIATE``):
    an idle worker polling by claiming would hold it once a poll for nothing, and every
    API request arriving meanwhile would wait for it.
    """
    return db.scalar(select(Job.id).where(_runnable(utcnow(), kinds)).limit(1)) is not None


def claim(db: Session, worker_id: str, lease_seconds: float, kinds: list[str] | None = None) -> Job | None:
    """Claim one runnable job: queued and due, or running with an expired lease."""
    query = select(Job).where(_runnable(utcnow(), kinds)).order_by(Job.run_after, Job.created_at).limit(1)
    if db.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    job = db.scalar(query)
    if job is None:
        return None
    # The query may have waited for the lock behind the transaction that created the job:
    # stamp with the time of the claim itself, never earlier than the job's creation.
    now = utcnow()
    if job.cancel_requested:
        _end(db, job, "cancelled")
        db.flush()
        return None
    if job.attempts >= job.max_attempts:  # its last attempt's worker died: give up
        _end(db, job, "failed")
        job.error = job.error or "the worker running the last attempt stopped responding"
        db.flush()
        return None
    job.attempts += 1
    job.status = "running"
    job.worker_id = worker_id
    job.started_at = job.started_at or now
    job.heartbeat_at = now
    job.lease_expires_at = now + timedelta(seconds=lease_seconds)
    db.flush()
    return job


def heartbeat(db: Session, job_id: uuid.UUID, attempt: int, lease_seconds: float,
              progress: float | None = None) -> bool:
    """Renew the lease; return whether cancellation was requested. Raises StaleAttempt."""
    now = utcnow()
    values: dict[str, Any] = {"heartbeat_at": now, "lease_expires_at": now + timedelta(seconds=lease_seconds)}
    if progress is not None:
        values["progress"] = max(0.0, min(1.0, progress))
    result = db.execute(
        update(Job)
        .where(Job.id == job_id, Job.attempts == attempt, Job.status == "running")
        .values(**values)
        .returning(Job.cancel_requested)
    ).first()
    if result is None:
        raise StaleAttempt(f"job {job_id} attempt {attempt} is no longer current")
    return bool(result[0])


def fence(db: Session, job_id: uuid.UUID, attempt: int) -> Job:
    """Lock the job row and check the attempt is still current before writing its result."""
    query = select(Job).where(Job.id == job_id)
    if db.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    job = db.scalar(query)
    if job is None or job.attempts != attempt or job.status != "running":
        raise StaleAttempt(f"job {job_id} attempt {attempt} is no longer current")
    return job


def finish_success(db: Session, job: Job, result: dict[str, Any] | None = None) -> None:
    job.result, job.progress, job.error = result, 1.0, None
    _end(db, job, "succeeded")


def finish_failure(db: Session, job_id: uuid.UUID, attempt: int, error: str, *,
                   backoff_seconds: float, retry: bool = True) -> Job:
    """Record a failed attempt: requeue with exponential backoff, or fail for good."""
    job = fence(db, job_id, attempt)
    job.error = error[:4000]
    job.lease_expires_at = None
    if retry and job.attempts < job.max_attempts and not job.cancel_requested:
        job.status = "queued"
        job.run_after = utcnow() + timedelta(seconds=backoff_seconds * 2 ** (job.attempts - 1))
    else:
        _end(db, job, "cancelled" if job.cancel_requested else "failed")
    db.flush()
    return job


def release(db: Session, job_id: uuid.UUID, attempt: int) -> Job:
    """Give a job back to the queue because its worker is shutting down, not because it failed.

    It is due at once, and the attempt it used is given back (``max_attempts`` grows by
    one), so that stopping workers for a deployment never exhausts a job's retries. The
    fencing token still moves on at the next claim.
    """
    job = fence(db, job_id, attempt)
    job.lease_expires_at = None
    if job.cancel_requested:
        _end(db, job, "cancelled")
    else:
        job.status, job.run_after = "queued", utcnow()
        job.max_attempts += 1
    db.flush()
    return job


def finish_cancelled(db: Session, job_id: uuid.UUID, attempt: int) -> None:
    job = fence(db, job_id, attempt)
    _end(db, job, "cancelled")
    db.flush()


def request_cancel(db: Session, job: Job) -> Job:
    """Queued jobs are cancelled at once; a running one is killed at its next heartbeat."""
    if job.status == "queued":
        job.cancel_requested = True
        _end(db, job, "cancelled")
    elif job.status == "running":
        job.cancel_requested = True
    db.flush()
    return job


def purge_finished(db: Session, older_than_days: float) -> int:
    """Delete jobs finished more than ``older_than_days`` ago (0: keep all), except a session's
    latest job, whose outcome the session's status still reads."""
    from service.sessions.models import SessionRecord

    if older_than_days <= 0:
        return 0
    cutoff = utcnow() - timedelta(days=older_than_days)
    in_use = select(SessionRecord.job_id).where(SessionRecord.job_id.is_not(None))
    result = db.execute(delete(Job).where(Job.status.in_(FINISHED), Job.finished_at < cutoff,
                                          Job.id.not_in(in_use)))
    return rowcount(result) or 0
