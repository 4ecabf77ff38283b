"""Schemas shared by every session resource: decision-log entries and pages."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from service.fields import RequestModel
from service.pages import Skipped, SkippedItem

__all__ = ["MAX_BATCH_DECISIONS", "DecisionBatchRequest", "DecisionList", "DecisionOut", "Skipped", "SkippedItem"]


class DecisionOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    sequence: int = Field(description="position in the session's log, from 1")
    kind: str
    client_ref: str | None = None
    request: dict[str, Any]
    response: dict[str, Any]
    state_version: int
    key_id: uuid.UUID | None = Field(None, description="the API key that made it (none in open mode)")
    created_at: datetime


class DecisionList(BaseModel):
    items: list[DecisionOut]
    next_cursor: str | None = Field(None, description="pass as cursor for the next page")


# One call makes at most this many decisions.
MAX_BATCH_DECISIONS = 1000


class DecisionBatchRequest(RequestModel):
    """How many decisions to make at once (one per worker about to acquire)."""

    count: int = Field(1, ge=1, le=MAX_BATCH_DECISIONS, description="decisions to make; fewer come back when the "
                       "budget (or the pool) runs out during the batch")
