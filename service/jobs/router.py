"""``/v1/jobs``: read, list and cancel background jobs."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Query, Response, status

from service.api import LimitQuery, parse_cursor, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.jobs import service
from service.jobs.models import JobStatus
from service.jobs.repository import JobRepository
from service.jobs.schemas import JobList, JobOut
from service.pages import page

router = resource_router("/jobs", "jobs")



@router.get("/{job_id}", operation_id="get_job")
def get_job(job_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> JobOut:
    """Read a job: status, progress, attempts, error."""
    return service.job_out(JobRepository(db, tenant.id).get(job_id))


@router.get("", operation_id="list_jobs")
def list_jobs(db: SessionDep, tenant: TenantDep, status: Annotated[JobStatus | None, Query()] = None,
              limit: LimitQuery = 50, cursor: str | None = None) -> JobList:
    """List jobs, oldest first, optionally by status."""
    rows = JobRepository(db, tenant.id).list(limit, parse_cursor(cursor), status)
    return JobList(**page(rows, limit, "job", service.job_out))


@router.post("/{job_id}/cancel", operation_id="cancel_job", status_code=status.HTTP_202_ACCEPTED,
             responses={409: {"description": "the job has finished: the problem's job_status says how"}})
def cancel_job(job_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response) -> JobOut:
    """Cancel a job: a queued job at once, a running one within one heartbeat; a finished one is 409."""
    job = service.cancel_job(db, tenant.id, job_id)
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return service.job_out(job)
