"""Tables of the Label Studio adapter: connections and the ledger of annotations received.

* :class:`Connection` ties one Label Studio project's ML backend to one session (a
  managed group sampler or a balanced filter): the field mapping, the digest of the
  token Label Studio authenticates with, and how validation data is held out.
* :class:`LedgerEntry` is one row per Label Studio annotation id the connection has
  received. Its primary key makes "counted once per annotation id" exact; a sampler's
  rows wait here (``observation_id`` empty) until their group's observation is sent.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["ROLES", "Connection", "LedgerEntry"]

# What an annotation became: a training or validation row of a sampler's observation, a
# filter's outcome, or nothing (no usable label, a rejected candidate, an unknown group…).
ROLES = ("train", "validation", "outcome", "ignored")


class Connection(Base):
    __tablename__ = "labelstudio_connections"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    session_kind: Mapped[str] = mapped_column(String(40))
    name: Mapped[str | None] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64))
    mapping: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LedgerEntry(Base):
    __tablename__ = "labelstudio_annotations"

    connection_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("labelstudio_connections.id", ondelete="CASCADE"), primary_key=True)
    annotation_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    task_id: Mapped[str] = mapped_column(String(64))
    group: Mapped[str | None] = mapped_column(String(200))
    label: Mapped[int | None] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(String(300), doc="why an ignored annotation was not counted")
    features: Mapped[list[float] | None] = mapped_column(JSON, doc="kept until the row's observation is sent")
    observation_id: Mapped[str | None] = mapped_column(String(200), doc="the observation or outcome that counted it")
    updates: Mapped[int] = mapped_column(Integer, default=0, doc="ANNOTATION_UPDATED deliveries after the first")
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
