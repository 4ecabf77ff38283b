"""Queries for fair regressions: the shared session repository plus blob versions."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.fair_regressions.models import KIND, SessionBlob, SessionRecord
from service.sessions.repository import SessionRepository

__all__ = ["FairRegressionRepository", "repository"]


class FairRegressionRepository(SessionRepository):
    def blob_version(self, record: SessionRecord, name: str) -> int | None:
        """The version of a blob without reading its data (``None`` when absent)."""
        return self.db.scalar(
            select(SessionBlob.version).where(SessionBlob.session_id == record.id, SessionBlob.name == name))


def repository(db: Session, tenant_id: uuid.UUID) -> FairRegressionRepository:
    return FairRegressionRepository(db, tenant_id, KIND)
