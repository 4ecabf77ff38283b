"""Worker processes with fast job timing, diagnostic jobs, and waiting on a job's row.

Shared by the worker, real-job and shutdown tests; the ``workers`` fixture (conftest.py)
starts the processes.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from service.db import transaction
from service.jobs import queue
from service.jobs.models import Job
from tests.factories import default_tenant
from tests.live import wait_for

__all__ = ["HEARTBEAT", "LEASE", "enqueue_sleep", "job_env", "wait_job"]

HEARTBEAT = 0.3
LEASE = 1.5


def job_env(**extra: str) -> dict[str, str]:
    """A worker's environment: beats, leases and polls fast enough for a test; diagnostic jobs on."""
    return {
        "FAIRACQ_JOB_HEARTBEAT_SECONDS": str(HEARTBEAT),
        "FAIRACQ_JOB_LEASE_SECONDS": str(LEASE),
        "FAIRACQ_JOB_POLL_SECONDS": "0.05",
        "FAIRACQ_JOB_BACKOFF_SECONDS": "0.1",
        "FAIRACQ_ENABLE_DIAGNOSTIC_JOBS": "true",
        **extra,
    }


def enqueue_sleep(sessions: sessionmaker[Session], seconds: float, max_attempts: int = 3) -> Job:
    """Queue a ``diagnostics.sleep`` job of ``seconds``."""
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        return queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                             resource_id=None, payload={"seconds": seconds}, max_attempts=max_attempts)


def wait_job(sessions: sessionmaker[Session], job_id: uuid.UUID, predicate: Callable[[Job], bool],
             timeout: float = 20.0) -> Job:
    """The job's row once ``predicate`` holds for it."""
    seen: list[str] = []

    def reached() -> Job | None:
        with sessions() as db:
            job = db.get(Job, job_id)
        assert job is not None, f"job {job_id} is gone"
        seen[:] = [job.status]
        return job if predicate(job) else None

    try:
        return wait_for(reached, timeout, f"job {job_id} to reach the expected state")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; its last status: {seen[-1] if seen else None}") from None
