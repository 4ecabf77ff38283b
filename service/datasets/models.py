"""The ``datasets`` table: metadata as columns, arrays as one compressed ``.npz`` blob."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, deferred, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["Dataset"]


class Dataset(Base):
    __tablename__ = "datasets"
    __table_args__ = (Index("ix_datasets_tenant_created", "tenant_id", "created_at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    name: Mapped[str | None] = mapped_column(String(200))
    n_rows: Mapped[int] = mapped_column(Integer)
    n_features: Mapped[int] = mapped_column(Integer)
    feature_names: Mapped[list[str]] = mapped_column(JSON)
    group_values: Mapped[list[Any] | None] = mapped_column(JSON)
    label_values: Mapped[list[Any] | None] = mapped_column(JSON)
    has_ids: Mapped[bool] = mapped_column(default=False)
    encoding: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    arrays: Mapped[bytes] = deferred(mapped_column(LargeBinary))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
