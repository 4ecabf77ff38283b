"""Every query on exports and their chunks."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from service.db import rowcount, utcnow
from service.exports.models import Export, ExportChunk
from service.repository import TenantRepository

__all__ = ["ExportRepository", "add_chunk", "chunk", "chunk_numbers", "delete_chunks", "purge_exports"]


class ExportRepository(TenantRepository[Export]):
    model, noun = Export, "export"


# The chunk queries below serve the job and the download, which hold the export's id already
# (read tenant-scoped first); they take it, not a tenant.

def add_chunk(db: Session, export_id: uuid.UUID, attempt: int, seq: int, data: bytes) -> None:
    db.execute(insert(ExportChunk).values(export_id=export_id, attempt=attempt, seq=seq, data=data))


def delete_chunks(db: Session, export_id: uuid.UUID, *, keep_attempt: int | None = None) -> int:
    """Delete the export's chunks (but those of ``keep_attempt``)."""
    query = delete(ExportChunk).where(ExportChunk.export_id == export_id)
    if keep_attempt is not None:
        query = query.where(ExportChunk.attempt != keep_attempt)
    return rowcount(db.execute(query))


def chunk_numbers(db: Session, export_id: uuid.UUID, attempt: int) -> list[int]:
    return list(db.scalars(select(ExportChunk.seq).where(ExportChunk.export_id == export_id,
                                                         ExportChunk.attempt == attempt).order_by(ExportChunk.seq)))


def chunk(db: Session, export_id: uuid.UUID, attempt: int, seq: int) -> bytes | None:
    return db.scalar(select(ExportChunk.data).where(ExportChunk.export_id == export_id,
                                                    ExportChunk.attempt == attempt, ExportChunk.seq == seq))


def purge_exports(db: Session, older_than_days: float) -> int:
    """Delete exports created more than ``older_than_days`` ago (0: keep all), with their files."""
    if older_than_days <= 0:
        return 0
    cutoff = utcnow() - timedelta(days=older_than_days)
    old = select(Export.id).where(Export.created_at < cutoff)
    db.execute(delete(ExportChunk).where(ExportChunk.export_id.in_(old)))
    return rowcount(db.execute(delete(Export).where(Export.created_at < cutoff)))
