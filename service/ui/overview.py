"""The home page's rows: a tenant's sessions of every type and its jobs, filtered by type and status."""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from service.errors import ServiceError
from service.jobs.models import JOB_STATUSES, Job
from service.sessions.lifecycle import SESSION_STATUSES, shown_status
from service.sessions.models import SessionRecord
from service.ui import repository
from service.ui.views import VIEWS, View, by_segment

__all__ = ["FINISHED", "STATUSES", "Filters", "JobRow", "Overview", "SessionRow", "overview"]

SESSION_ROWS = 100  # sessions shown, most recently active first
SCAN_ROWS = 1000  # sessions read at most to find them when a status filter applies
JOB_ROWS = 50
FINISHED = ("done", "failed", "cancelled", "succeeded")  # nothing moves any more: no need to poll
STATUSES = tuple(dict.fromkeys((*SESSION_STATUSES, *JOB_STATUSES)))


@dataclass(frozen=True)
class Filters:
    segment: str | None  # a decision type, as its URL segment
    status: str | None

    @classmethod
    def of(cls, segment: str | None, status: str | None) -> Filters:
        """Only known values count; anything else is no filter."""
        return cls(segment if segment and by_segment(segment) else None, status if status in STATUSES else None)

    def query(self) -> str:
        parts = [f"type={self.segment}" if self.segment else "", f"status={self.status}" if self.status else ""]
        return "&".join(p for p in parts if p)


@dataclass(frozen=True)
class SessionRow:
    id: uuid.UUID
    url: str
    noun: str
    name: str | None
    status: str
    progress: float | None
    spent: str
    updated_at: datetime


@dataclass(frozen=True)
class JobRow:
    id: uuid.UUID
    kind: str
    status: str
    progress: float
    error: str | None
    session_url: str | None
    cancellable: bool
    created_at: datetime


@dataclass(frozen=True)
class Overview:
    sessions: list[SessionRow]
    jobs: list[JobRow]

    @property
    def active(self) -> bool:
        """Whether anything on the page may still change (the page polls while it may)."""
        return any(r.status not in FINISHED for r in self.sessions) or any(j.status not in FINISHED
                                                                            for j in self.jobs)

    def to_json(self) -> dict[str, Any]:
        return {"sessions": [_json(asdict(r)) for r in self.sessions], "jobs": [_json(asdict(j)) for j in self.jobs],
                "active": self.active}


def _json(row: dict[str, Any]) -> dict[str, Any]:
    return {k: str(v) if isinstance(v, uuid.UUID) else v.isoformat() if isinstance(v, datetime) else v
            for k, v in row.items()}


def session_url(view: View, session_id: uuid.UUID) -> str:
    return f"/ui/sessions/{view.segment}/{session_id}"


def _session_row(db: Session, tenant_id: uuid.UUID, view: View, record: SessionRecord) -> SessionRow:
    shown = shown_status(db, tenant_id, record, view.work)
    try:
        spent = view.spent(db, tenant_id, record)
    except ServiceError:  # a damaged stored state (CorruptState): the row is still listed
        spent = "unreadable"
    return SessionRow(record.id, session_url(view, record.id), view.noun, record.name, shown.status, shown.progress,
                      spent, record.updated_at)


def _job_row(job: Job) -> JobRow:
    view = VIEWS.get(job.resource_type)
    url = session_url(view, job.resource_id) if view is not None and job.resource_id is not None else None
    return JobRow(job.id, job.kind, job.status, job.progress, job.error, url, job.status in ("queued", "running"),
                  job.created_at)


def overview(db: Session, tenant_id: uuid.UUID, filters: Filters) -> Overview:
    view = by_segment(filters.segment) if filters.segment else None
    kinds = [view.kind] if view is not None else list(VIEWS)
    rows: list[SessionRow] = []
    scan = SCAN_ROWS if filters.status else SESSION_ROWS
    for record in repository.recent_sessions(db, tenant_id, kinds, scan):
        row = _session_row(db, tenant_id, VIEWS[record.kind], record)
        if filters.status is None or row.status == filters.status:
            rows.append(row)
        if len(rows) == SESSION_ROWS:
            break
    jobs: list[JobRow] = []
    if filters.status is None or filters.status in JOB_STATUSES:
        found = repository.recent_jobs(db, tenant_id, status=filters.status, limit=JOB_ROWS,
                                       resource_types=None if view is None else [view.kind])
        jobs = [_job_row(job) for job in found]
    return Overview(rows, jobs)
