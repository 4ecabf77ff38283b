"""Queries for group samplers: the shared session repository plus managed mode's stored samples."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from service import arrays
from service.group_samplers.models import KIND, SAMPLES_PREFIX, SessionBlob, SessionRecord
from service.sessions.repository import SessionRepository

__all__ = ["GroupSamplerRepository", "repository"]


class GroupSamplerRepository(SessionRepository):
    def samples(self, record: SessionRecord) -> list[tuple[dict[str, np.ndarray], dict[str, Any]]]:
        """Every stored managed observation's arrays and meta, in the order they were reported."""
        blobs = self.db.scalars(
            select(SessionBlob)
            .where(SessionBlob.session_id == record.id, SessionBlob.name.startswith(SAMPLES_PREFIX))
            .order_by(SessionBlob.name)
        )
        return [(arrays.unpack(blob.data), blob.meta) for blob in blobs]


def repository(db: Session, tenant_id: uuid.UUID) -> GroupSamplerRepository:
    return GroupSamplerRepository(db, tenant_id, KIND)
