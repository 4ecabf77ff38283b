"""What every view module builds: facts, the view's description, and numbers for reading."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from service.sessions.models import SessionRecord
from service.ui.charts import Figure, Slot

__all__ = ["Fact", "View", "count", "number"]


@dataclass(frozen=True)
class Fact:
    label: str
    value: str


@dataclass(frozen=True)
class View:
    """One decision type as the dashboard shows it (see service.ui.views)."""

    kind: str  # the stored kind: "group_sampler"
    segment: str  # the URL segment, as /v1 names the resource: "group-samplers"
    noun: str  # "group sampler"
    work: str  # what its job is called in messages: "fit", "partitioning"
    slots: tuple[Slot, ...]
    spent: Callable[[Session, uuid.UUID, SessionRecord], str]
    facts: Callable[[Session, uuid.UUID, SessionRecord], list[Fact]]
    charts: Callable[[Session, uuid.UUID, SessionRecord], dict[str, Figure]]


def number(value: float | None, digits: int = 3) -> str:
    """A measure for reading: ``—`` when there is none, else ``digits`` significant figures."""
    if value is None:
        return "—"
    return f"{value:,.{digits}g}" if abs(value) < 1000 else f"{value:,.0f}"


def count(value: int, of: int | None = None) -> str:
    return f"{value:,}" if of is None else f"{value:,} of {of:,}"
