"""Job use cases for the API: read, list, cancel."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.errors import Conflict
from service.jobs import queue
from service.jobs.models import Job
from service.jobs.repository import JobRepository
from service.jobs.schemas import JobOut, JobResource

__all__ = ["cancel_job", "job_out"]


def job_out(job: Job) -> JobOut:
    return JobOut(
        id=job.id, kind=job.kind, status=job.status, progress=job.progress, attempts=job.attempts,
        error=job.error, resource=JobResource(type=job.resource_type, id=job.resource_id),
        result=job.result, cancel_requested=job.cancel_requested, created_at=job.created_at,
        started_at=job.started_at, finished_at=job.finished_at,
    )


def cancel_job(db: Session, tenant_id: uuid.UUID, job_id: uuid.UUID) -> Job:
    """Cancel a queued or running job; a finished one is a 409 that gives its status."""
    job = JobRepository(db, tenant_id).get_for_update(job_id)
    if job.status in queue.FINISHED:
        raise Conflict(f"job {job.id} has already {job.status}; only a queued or running job can be cancelled",
                       extensions={"job_status": job.status})
    return queue.request_cancel(db, job)
