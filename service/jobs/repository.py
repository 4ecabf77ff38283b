"""Every query on jobs made on behalf of a tenant."""

from __future__ import annotations

import uuid

from service.jobs.models import Job
from service.repository import TenantRepository

__all__ = ["JobRepository"]


class JobRepository(TenantRepository[Job]):
    model, noun = Job, "job"

    def list(self, limit: int, after: uuid.UUID | None, status: str | None = None) -> list[Job]:
        query = self._select()
        if status is not None:
            query = query.where(Job.status == status)
        return self._page(query, limit, after)
