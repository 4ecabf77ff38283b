"""Tables for decision sessions of every kind and their decision log."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["Decision", "SessionBlob", "SessionDataset", "SessionRecord"]


class SessionRecord(Base):
    """One decision session (group sampler, partition bandit, balanced filter, …).

    ``config`` is what the client asked for, ``state`` the algorithm's small JSON
    state; large arrays live in :class:`SessionBlob`. ``version`` increases with
    every state change and is the session's ETag.
    """

    __tablename__ = "sessions"
    __table_args__ = (Index("ix_sessions_tenant_kind_created", "tenant_id", "kind", "created_at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    name: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    seed: Mapped[int] = mapped_column(BigInteger)
    sequence: Mapped[int] = mapped_column(Integer, default=0)
    job_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("jobs.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class SessionBlob(Base):
    """A named bundle of compressed arrays belonging to a session (pool, fitted parameters…)."""

    __tablename__ = "session_blobs"

    session_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(60), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class SessionDataset(Base):
    """Which datasets a session reads; a dataset in use cannot be deleted."""

    __tablename__ = "session_datasets"

    session_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    dataset_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("datasets.id", ondelete="RESTRICT"), primary_key=True, index=True
    )
    role: Mapped[str] = mapped_column(String(40))


class Decision(Base):
    """The decision log: every decision and every counted report, replayable.

    ``client_ref`` holds the client-chosen id of a report (``observation:<id>``,
    ``epoch:<n>``…); the unique constraint makes a retried report count once. ``key_id``
    is the API key the entry was made with (``service.auth.API_KEY_ID``).
    """

    __tablename__ = "decisions"
    __table_args__ = (
        UniqueConstraint("session_id", "sequence"),
        UniqueConstraint("session_id", "client_ref"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    sequence: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    client_ref: Mapped[str | None] = mapped_column(String(300))
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_version: Mapped[int] = mapped_column(Integer)
    # The API key that made the decision (or queued the job that did); None in open mode. No
    # foreign key: the log outlives nothing, and keys are revoked, never deleted.
    key_id: Mapped[uuid.UUID | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
