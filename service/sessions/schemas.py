"""Schemas shared by every session resource: decision-log entries and pages."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from service.pages import Skipped, SkippedItem

__all__ = ["DecisionList", "DecisionOut", "Skipped", "SkippedItem"]


class DecisionOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    sequence: int = Field(description="position in the session's log, from 1")
    kind: str
    client_ref: str | None = None
    request: dict[str, Any]
    response: dict[str, Any]
    state_version: int
    created_at: datetime


class DecisionList(BaseModel):
    items: list[DecisionOut]
    next_cursor: str | None = Field(None, description="pass as cursor for the next page")
