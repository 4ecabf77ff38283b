"""Schemas shared by every session resource: decision-log entries and pages."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

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


class SkippedItem(BaseModel):
    """A stored row a list could not show (its stored state is damaged): named, not fatal to the page."""

    id: uuid.UUID
    error: str = Field(description="why the row cannot be read; GET it for the same answer as a problem")


Skipped = Annotated[list[SkippedItem], Field(
    default_factory=list, description="rows of this page that cannot be read (a damaged stored state), by id; the "
    "page's other items and its cursor are unaffected")]
