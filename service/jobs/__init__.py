"""Background jobs: what the resources use of them, and nothing else.

    enqueue(db, settings, ...)   queue a job in the caller's transaction (attempts, quota)
    view(db, tenant_id, job_id)  its status, progress and error (JobView), or None
    describe(db, tenant, id)     the job as the API shows it (JobOut), or None
    cancel_for(db, tenant, id)   cancel the unfinished jobs of a resource (it is being deleted)
    job_handler(kind)            register the function a worker runs for a kind (tasks.py)
    JobContext                   what that function gets: payload, progress(), commit()
    PermanentError               a failure no retry can fix

The queue itself (claims, leases, fencing: ``queue.py``), the worker loop
(``worker.py``), its supervisor and the ``/v1/jobs`` resource live beside this.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.jobs import queue
from service.jobs.models import FINISHED, JOB_STATUSES, Job
from service.jobs.registry import JobContext, PermanentError, job_handler
from service.jobs.schemas import JobOut
from service.jobs.service import job_out
from service.settings import Settings

__all__ = ["FINISHED", "JOB_STATUSES", "Job", "JobContext", "JobView", "PermanentError", "cancel_for", "describe",
           "enqueue", "job_handler", "job_out", "view"]


@dataclass(frozen=True)
class JobView:
    id: uuid.UUID
    status: str
    progress: float
    error: str | None


def enqueue(db: Session, settings: Settings, *, tenant_id: uuid.UUID, kind: str, resource_type: str,
            resource_id: uuid.UUID | None, payload: dict[str, Any] | None = None) -> Job:
    """Queue a job with ``FAIRACQ_JOB_MAX_ATTEMPTS`` attempts; 429 at ``FAIRACQ_MAX_ACTIVE_JOBS``."""
    return queue.enqueue(db, tenant_id=tenant_id, kind=kind, resource_type=resource_type, resource_id=resource_id,
                         payload=payload, settings=settings)


def view(db: Session, tenant_id: uuid.UUID, job_id: uuid.UUID) -> JobView | None:
    row = db.execute(select(Job.id, Job.status, Job.progress, Job.error)
                     .where(Job.id == job_id, Job.tenant_id == tenant_id)).first()
    return None if row is None else JobView(row.id, row.status, row.progress, row.error)


def cancel_for(db: Session, tenant_id: uuid.UUID, resource_id: uuid.UUID) -> int:
    """Cancel every unfinished job of a resource: queued ones at once, running ones at their next beat."""
    unfinished = db.scalars(select(Job).where(Job.tenant_id == tenant_id, Job.resource_id == resource_id,
                                              Job.status.in_(("queued", "running")))).all()
    for job in unfinished:
        queue.request_cancel(db, job)
    return len(unfinished)


def describe(db: Session, tenant_id: uuid.UUID, job_id: uuid.UUID) -> JobOut | None:
    """The job as ``GET /v1/jobs/{id}`` shows it, or None (another tenant's, or purged)."""
    job = db.scalar(select(Job).where(Job.id == job_id, Job.tenant_id == tenant_id))
    return None if job is None else job_out(job)
