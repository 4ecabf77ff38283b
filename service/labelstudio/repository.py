"""Every query on Label Studio connections and their ledger of annotations."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, func, select, update
from sqlalchemy.orm import Session

from service.labelstudio.models import Connection, LedgerEntry
from service.repository import TenantRepository

__all__ = ["ConnectionRepository", "LedgerRepository"]


class ConnectionRepository(TenantRepository[Connection]):
    """Connections as their tenant sees them (``/v1/labelstudio/connections``)."""

    model, noun = Connection, "Label Studio connection"

    def create(self, *, session_id: uuid.UUID, session_kind: str, name: str | None, token_hash: str,
               mapping: dict[str, Any], options: dict[str, Any]) -> Connection:
        return self.add(Connection(session_id=session_id, session_kind=session_kind, name=name,
                                   token_hash=token_hash, mapping=mapping, options=options))


class LedgerRepository:
    """One connection's ledger, as its ML backend endpoints read and write it."""

    def __init__(self, db: Session, connection_id: uuid.UUID) -> None:
        self.db = db
        self.connection_id = connection_id

    def lock_connection(self) -> Connection | None:
        """The connection row, locked until the transaction ends: one webhook at a time counts."""
        return self.db.scalar(select(Connection).where(Connection.id == self.connection_id).with_for_update())

    def find(self, annotation_ids: Sequence[str]) -> dict[str, LedgerEntry]:
        rows = self.db.scalars(select(LedgerEntry).where(
            LedgerEntry.connection_id == self.connection_id, LedgerEntry.annotation_id.in_(list(annotation_ids))))
        return {row.annotation_id: row for row in rows}

    def add(self, annotation_id: str, task_id: str, *, role: str, group: str | None = None,
            label: int | None = None, features: list[float] | None = None, reason: str | None = None,
            observation_id: str | None = None) -> LedgerEntry:
        entry = LedgerEntry(connection_id=self.connection_id, annotation_id=annotation_id, task_id=task_id,
                            role=role, group=group, label=label, features=features, reason=reason,
                            observation_id=observation_id, updates=0)
        self.db.add(entry)
        self.db.flush()
        return entry

    def count_in_group(self, group: str) -> int:
        """Annotations of ``group`` that became sampler rows (train or validation), counted or waiting."""
        return self.db.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.connection_id == self.connection_id, LedgerEntry.group == group,
            LedgerEntry.role.in_(("train", "validation")))) or 0

    def waiting(self, group: str) -> list[LedgerEntry]:
        """The group's rows not yet sent in an observation, oldest first."""
        return list(self.db.scalars(select(LedgerEntry).where(
            LedgerEntry.connection_id == self.connection_id, LedgerEntry.group == group,
            LedgerEntry.role.in_(("train", "validation")), LedgerEntry.observation_id.is_(None),
        ).order_by(LedgerEntry.received_at, LedgerEntry.annotation_id)))

    def mark_sent(self, entries: Sequence[LedgerEntry], observation_id: str) -> None:
        """Rows now in the session: they keep their label and role, not their features."""
        for entry in entries:
            entry.observation_id, entry.features = observation_id, None
        self.db.flush()

    def add_update(self, entry: LedgerEntry) -> None:
        self.db.execute(update(LedgerEntry).where(
            LedgerEntry.connection_id == self.connection_id, LedgerEntry.annotation_id == entry.annotation_id,
        ).values(updates=LedgerEntry.updates + 1))

    def counts(self) -> dict[str, int]:
        counted = (LedgerEntry.observation_id.is_not(None)) & (LedgerEntry.role != "ignored")
        row = self.db.execute(select(
            func.count(),
            func.coalesce(func.sum(case((counted, 1), else_=0)), 0),
            func.coalesce(func.sum(case((LedgerEntry.observation_id.is_(None) & LedgerEntry.role.in_(
                ("train", "validation")), 1), else_=0)), 0),
            func.coalesce(func.sum(case((LedgerEntry.role == "ignored", 1), else_=0)), 0),
            func.coalesce(func.sum(LedgerEntry.updates), 0),
        ).where(LedgerEntry.connection_id == self.connection_id)).one()
        return {"received": int(row[0]), "counted": int(row[1]), "pending": int(row[2]), "ignored": int(row[3]),
                "updates": int(row[4])}
