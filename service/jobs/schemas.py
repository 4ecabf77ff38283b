"""Response models for jobs."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from service.jobs.models import JobStatus
from service.pages import Skipped

__all__ = ["JobList", "JobOut", "JobResource"]



class JobResource(BaseModel):
    type: str
    id: uuid.UUID | None


class JobOut(BaseModel):
    id: uuid.UUID
    kind: str
    status: JobStatus
    progress: float
    attempts: int
    error: str | None = None
    resource: JobResource
    result: dict[str, Any] | None = None
    cancel_requested: bool
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None


class JobList(BaseModel):
    items: list[JobOut]
    next_cursor: str | None = None
    skipped: Skipped
