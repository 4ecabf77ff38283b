"""A run job's children on the job queue: queue them, claim one, run it in place, watch them, cancel them.

Children are ordinary jobs (kind ``simulations.repetitions``, the simulation as their
resource), so any worker claims them as it claims every job. The parent claims one of
its own queued children with a conditional UPDATE (queued → running, attempt + 1), the
same transition :func:`service.jobs.queue.claim` makes, and keeps that child's lease
alive itself (:data:`Beat`) since no worker loop is watching it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update

from service import jobs
from service.db import rowcount, transaction, utcnow
from service.jobs import queue
from service.jobs.models import Job
from service.simulations.models import KIND

__all__ = ["CHILD_JOB", "MAX_CHILDREN", "Beat", "Child", "cancel_children", "children", "claim_child", "fan_out",
           "mark_cancelled", "mean_progress", "run_inline", "stopper"]

CHILD_JOB = "simulations.repetitions"
# Children per simulation: enough to keep 8 workers busy, few enough that one simulation
# takes at most this many of a tenant's FAIRACQ_MAX_ACTIVE_JOBS (children are queued
# without that check, their parent having passed it).
MAX_CHILDREN = 8
# How often a child reads whether it (or its parent) was cancelled.
STOP_POLL_SECONDS = 0.5

Beat = Callable[[], bool]  # renews an inline child's lease; True when the child must stop


@dataclass(frozen=True)
class Child:
    id: uuid.UUID
    status: str
    progress: float
    error: str | None
    result: dict[str, Any] | None


def fan_out(ctx: jobs.JobContext, repetitions: int) -> None:
    """Queue the children, once: a retried parent finds those its first attempt queued."""
    with transaction(ctx.sessions) as db:
        if db.scalar(select(Job.id).where(Job.resource_id == ctx.resource, Job.kind == CHILD_JOB).limit(1)):
            return
        n = min(repetitions, MAX_CHILDREN)
        for k in range(n):
            queue.enqueue(db, tenant_id=ctx.tenant_id, kind=CHILD_JOB, resource_type=KIND, resource_id=ctx.resource,
                          payload={"parent": str(ctx.job_id), "repetitions": list(range(k, repetitions, n))},
                          max_attempts=ctx.settings.job_max_attempts)


def children(ctx: jobs.JobContext) -> list[Child]:
    with transaction(ctx.sessions) as db:
        rows = db.execute(select(Job.id, Job.status, Job.progress, Job.error, Job.result)
                          .where(Job.resource_id == ctx.resource, Job.kind == CHILD_JOB)
                          .order_by(Job.created_at, Job.id)).all()
    return [Child(r.id, r.status, r.progress, r.error, r.result) for r in rows]


def mean_progress(kids: list[Child]) -> float:
    return sum(1.0 if c.status == "succeeded" else c.progress for c in kids) / max(len(kids), 1)


def claim_child(ctx: jobs.JobContext) -> jobs.JobContext | None:
    """Claim a queued child of this simulation for the parent's own process; its context, or None."""
    now = utcnow()
    with transaction(ctx.sessions) as db:
        worker = db.scalar(select(Job.worker_id).where(Job.id == ctx.job_id))
        query = (select(Job).where(Job.resource_id == ctx.resource, Job.kind == CHILD_JOB, Job.status == "queued",
                                   Job.run_after <= now).order_by(Job.created_at, Job.id).limit(1))
        if db.get_bind().dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        job = db.scalar(query)
        if job is None:
            return None
        claimed = db.execute(update(Job).where(Job.id == job.id, Job.status == "queued").values(
            status="running", attempts=Job.attempts + 1, worker_id=worker, started_at=job.started_at or now,
            heartbeat_at=now, lease_expires_at=now + timedelta(seconds=ctx.settings.job_lease_seconds))
            .execution_options(synchronize_session=False))
        if rowcount(claimed) == 0:
            return None
        return jobs.JobContext(job_id=job.id, attempt=job.attempts + 1, kind=CHILD_JOB, tenant_id=ctx.tenant_id,
                               resource_id=ctx.resource, payload=dict(job.payload), settings=ctx.settings,
                               sessions=ctx.sessions)


def run_inline(parent: jobs.JobContext, child: jobs.JobContext,
               run: Callable[[jobs.JobContext, Beat], None]) -> None:
    """Run a claimed child here, renewing its lease, and record a failure as a worker would."""
    last = [time.monotonic()]

    def beat() -> bool:
        if time.monotonic() - last[0] < parent.settings.job_heartbeat_seconds:
            return False
        last[0] = time.monotonic()
        with transaction(parent.sessions) as db:
            cancel = queue.heartbeat(db, child.job_id, child.attempt, parent.settings.job_lease_seconds)
        parent.progress(mean_progress(children(parent)))  # the run shows its children's progress meanwhile
        return cancel or parent.cancel_requested()

    try:
        run(child, beat)
    except queue.StaleAttempt:
        return
    except Exception as exc:  # noqa: BLE001  (every failure of a child is recorded, as the worker does)
        retry = not isinstance(exc, jobs.PermanentError | ValueError)
        with transaction(parent.sessions) as db:
            queue.finish_failure(db, child.job_id, child.attempt, f"{type(exc).__name__}: {exc}"
                                 if retry else str(exc), backoff_seconds=parent.settings.job_backoff_seconds,
                                 retry=retry)


def stopper(ctx: jobs.JobContext, parent: uuid.UUID, beat: Beat | None) -> Callable[[], bool]:
    """``should_stop`` of a child: its own cancel, its parent's cancel or end, or its lease keeper's word."""
    last, stop = [-float("inf")], [False]

    def should_stop() -> bool:
        if stop[0] or (beat is not None and beat()):
            stop[0] = True
            return True
        now = time.monotonic()
        if now - last[0] < STOP_POLL_SECONDS:
            return False
        last[0] = now
        with transaction(ctx.sessions) as db:
            own = db.scalar(select(Job.cancel_requested).where(Job.id == ctx.job_id))
            row = db.execute(select(Job.status, Job.cancel_requested).where(Job.id == parent)).first()
        stop[0] = bool(own) or row is None or bool(row.cancel_requested) or row.status in jobs.FINISHED
        return stop[0]

    return should_stop


def mark_cancelled(ctx: jobs.JobContext) -> None:
    """Flag a child that stopped for its simulation as cancelled, so its failure is recorded so."""
    with transaction(ctx.sessions) as db:
        db.execute(update(Job).where(Job.id == ctx.job_id).values(cancel_requested=True)
                   .execution_options(synchronize_session=False))


def cancel_children(ctx: jobs.JobContext) -> None:
    """Cancel the unfinished children: queued ones at once, running ones at their next round."""
    with transaction(ctx.sessions) as db:
        for job in db.scalars(select(Job).where(Job.resource_id == ctx.resource, Job.kind == CHILD_JOB,
                                                Job.status.in_(("queued", "running")))):
            queue.request_cancel(db, job)
