"""The dashboard's queries: a tenant's recent sessions and jobs, and a session's log entries for charts.

Every query names the tenant, or reads a session row that was found for the tenant
through :class:`SessionRepository` first: a dashboard of tenant A never reads B's rows.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.jobs.models import Job
from service.sessions.models import Decision, SessionRecord
from service.sessions.repository import SessionRepository

__all__ = ["LogEntry", "count_entries", "entries", "find_session", "last_entry", "recent_jobs", "recent_sessions"]

STREAM_ROWS = 1000  # rows fetched at a time while a chart walks a long log


@dataclass(frozen=True)
class LogEntry:
    sequence: int
    kind: str
    request: dict[str, Any]
    response: dict[str, Any]


def find_session(db: Session, tenant_id: uuid.UUID, kind: str, session_id: uuid.UUID) -> SessionRecord:
    """The tenant's session of this kind (NotFound otherwise), through the shared repository."""
    return SessionRepository(db, tenant_id, kind).get(session_id)


def recent_sessions(db: Session, tenant_id: uuid.UUID, kinds: Sequence[str], limit: int) -> list[SessionRecord]:
    """The tenant's sessions of these kinds, most recently active first."""
    query = (select(SessionRecord)
             .where(SessionRecord.tenant_id == tenant_id, SessionRecord.kind.in_(list(kinds)))
             .order_by(SessionRecord.updated_at.desc(), SessionRecord.id).limit(limit))
    return list(db.scalars(query))


def recent_jobs(db: Session, tenant_id: uuid.UUID, *, status: str | None, resource_types: Sequence[str] | None,
                limit: int) -> list[Job]:
    """The tenant's jobs, newest first, by status and by the kind of session they serve."""
    query = select(Job).where(Job.tenant_id == tenant_id)
    if status is not None:
        query = query.where(Job.status == status)
    if resource_types is not None:
        query = query.where(Job.resource_type.in_(list(resource_types)))
    return list(db.scalars(query.order_by(Job.created_at.desc(), Job.id).limit(limit)))


def _log_query(record: SessionRecord, kinds: Sequence[str]) -> Any:
    return (select(Decision.sequence, Decision.kind, Decision.request, Decision.response)
            .where(Decision.session_id == record.id, Decision.kind.in_(list(kinds))))


def count_entries(db: Session, record: SessionRecord, kinds: Sequence[str]) -> int:
    return db.scalar(select(func.count()).select_from(Decision)
                     .where(Decision.session_id == record.id, Decision.kind.in_(list(kinds)))) or 0


def entries(db: Session, record: SessionRecord, kinds: Sequence[str]) -> Iterator[LogEntry]:
    """The session's log entries of these kinds, in order, fetched a thousand at a time."""
    result = db.execute(_log_query(record, kinds).order_by(Decision.sequence)
                        .execution_options(yield_per=STREAM_ROWS))
    for row in result:
        yield LogEntry(row.sequence, row.kind, row.request, row.response)


def last_entry(db: Session, record: SessionRecord, kind: str) -> LogEntry | None:
    row = db.execute(_log_query(record, [kind]).order_by(Decision.sequence.desc()).limit(1)).first()
    return None if row is None else LogEntry(row.sequence, row.kind, row.request, row.response)
