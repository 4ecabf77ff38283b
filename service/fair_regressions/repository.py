"""Queries for fair regressions: the shared session repository plus the fit job and blob versions."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.fair_regressions.models import KIND, SessionBlob, SessionRecord
from service.jobs.models import Job
from service.sessions.repository import SessionRepository

__all__ = ["FairRegressionRepository", "repository"]


class FairRegressionRepository(SessionRepository):
    def fit_job(self, record: SessionRecord) -> Job | None:
        """The regression's fit job (``None`` once purged)."""
        if record.job_id is None:
            return None
        return self.db.scalar(select(Job).where(Job.id == record.job_id, Job.tenant_id == self.tenant_id))

    def cancel_requested(self, job_id: uuid.UUID) -> bool:
        """Whether a client asked to cancel the job (read by a running fit)."""
        return bool(self.db.scalar(
            select(Job.cancel_requested).where(Job.id == job_id, Job.tenant_id == self.tenant_id)))

    def blob_version(self, record: SessionRecord, name: str) -> int | None:
        """The version of a blob without reading its data (``None`` when absent)."""
        return self.db.scalar(
            select(SessionBlob.version).where(SessionBlob.session_id == record.id, SessionBlob.name == name))


def repository(db: Session, tenant_id: uuid.UUID) -> FairRegressionRepository:
    return FairRegressionRepository(db, tenant_id, KIND)
