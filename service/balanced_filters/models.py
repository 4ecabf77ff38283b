"""Balanced filters keep their state in the shared ``sessions`` table (kind ``balanced_filter``).

* the session row's JSON state is small: the fitted model's version and headline
  numbers, and the running counts (decisions per leaf, groups learned later);
* blob ``proxy`` holds the fitted proxy's parameters (``to_params()`` arrays,
  its JSON meta and the summary the API shows); blob ``training`` the inline
  training data until the fit job has read it;
* :class:`FilterCandidate` holds one row per decided candidate id: its first
  decision and, once reported, its group. The primary key makes "decided once"
  and "counted once" exact, and looking a batch up is one indexed query.
"""

from __future__ import annotations

import uuid

from sqlalchemy import Boolean, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base
from service.sessions.models import SessionBlob, SessionRecord

__all__ = ["KIND", "MAX_CANDIDATE_ID", "PROXY_BLOB", "RESOURCE_TYPE", "TRAINING_BLOB", "FilterCandidate",
           "SessionBlob", "SessionRecord"]

KIND = "balanced_filter"
RESOURCE_TYPE = "balanced_filter"
PROXY_BLOB = "proxy"
TRAINING_BLOB = "training"
# Longest candidate id: room for UUIDs, URLs' hashes and composite keys, small enough for an index.
MAX_CANDIDATE_ID = 200


class FilterCandidate(Base):
    """A candidate a balanced filter has decided: its first answer, and the group learned later."""

    __tablename__ = "filter_candidates"
    # SQLite: the primary key is the only access path, so store rows in its B-tree (one insert per row, not two).
    __table_args__ = {"sqlite_with_rowid": False}

    # No foreign key to sessions: PostgreSQL checks one with a trigger per inserted row, which
    # tripled the cost of storing a 10,000-candidate batch (≈100 ms). Rows are written only under
    # the filter's row lock, so the filter exists; deleting a filter deletes its rows (router.py, on_delete).
    session_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    candidate_id: Mapped[str] = mapped_column(String(MAX_CANDIDATE_ID), primary_key=True)
    leaf: Mapped[int] = mapped_column(Integer)
    accept: Mapped[bool] = mapped_column(Boolean)
    sequence: Mapped[int] = mapped_column(Integer, doc="the decision-log entry of the call that decided it")
    outcome: Mapped[int | None] = mapped_column(Integer, doc="the reported group (joint code), once known")
