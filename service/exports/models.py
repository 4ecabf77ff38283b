"""The ``exports`` table and the file each one writes, as ``export_chunks`` rows.

The file lives in the database, cut into chunks of about 1 MiB, so that the API and the
workers need share nothing but the database (PostgreSQL in compose: the containers share no
filesystem). Chunks carry the attempt that wrote them: the export shows only its finishing
attempt's, so a superseded attempt's chunks are never served, and are deleted when one finishes.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["Export", "ExportChunk"]


class Export(Base):
    """One export: what it reads (``source``), how it is written, and, once ready, its file."""

    __tablename__ = "exports"
    __table_args__ = (Index("ix_exports_tenant_created", "tenant_id", "created_at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    # {"type": "decision_log", "resource": "group-samplers", "id": ...} or {"type": "dataset", "id": ...}
    source: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(10))
    # The filters, and the log's sequence when the export was asked for (the snapshot it reads).
    filters: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    last_sequence: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default="pending")  # pending | ready
    job_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("jobs.id", ondelete="SET NULL"))
    attempt: Mapped[int | None] = mapped_column(Integer)  # the attempt whose chunks are the file
    rows: Mapped[int | None] = mapped_column(BigInteger)
    bytes: Mapped[int | None] = mapped_column(BigInteger)
    sha256: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ExportChunk(Base):
    """A piece of an export's file, in order of ``seq`` within an attempt."""

    __tablename__ = "export_chunks"

    export_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("exports.id", ondelete="CASCADE"), primary_key=True)
    attempt: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
