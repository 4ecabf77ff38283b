"""Every query on jobs made on behalf of a tenant."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.errors import NotFound
from service.jobs.models import Job
from service.pages import in_list_order

__all__ = ["JobRepository"]


class JobRepository:
    def __init__(self, db: Session, tenant_id: uuid.UUID) -> None:
        self.db = db
        self.tenant_id = tenant_id

    def get(self, job_id: uuid.UUID, *, for_update: bool = False) -> Job:
        query = select(Job).where(Job.id == job_id, Job.tenant_id == self.tenant_id)
        if for_update:
            query = query.with_for_update()
        job = self.db.scalar(query)
        if job is None:
            raise NotFound(f"no job with id {job_id}")
        return job

    def list(self, limit: int, after: uuid.UUID | None, status: str | None) -> list[Job]:
        query = select(Job).where(Job.tenant_id == self.tenant_id)
        if status is not None:
            query = query.where(Job.status == status)
        anchor = None if after is None else self.get(after)
        return list(self.db.scalars(in_list_order(query, Job.created_at, Job.id, anchor, limit)))
