"""Queries for batch schedulers: the shared session repository, bound to this kind."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.batch_schedulers.models import KIND
from service.sessions.repository import SessionRepository

__all__ = ["repository"]


def repository(db: Session, tenant_id: uuid.UUID) -> SessionRepository:
    return SessionRepository(db, tenant_id, KIND)
