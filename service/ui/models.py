"""The ``ui_sessions`` table: a dashboard login, kept server-side and named by a cookie.

The cookie holds a random token; the table keeps only its SHA-256 digest (as for API
keys), the tenant it acts for and when it expires. ``keyless`` marks a session opened
in open mode without a key: it ends as soon as any API key exists, as open mode does.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["UiSession"]


class UiSession(Base):
    __tablename__ = "ui_sessions"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), index=True)
    keyless: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
