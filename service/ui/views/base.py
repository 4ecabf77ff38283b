"""What every view module builds: facts, the view's description, the log entries it plots, numbers for reading."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sqlalchemy.orm import Session

from service.sessions.models import SessionRecord
from service.ui import repository
from service.ui.charts import Figure, Slot, Thinning

__all__ = ["Fact", "View", "count", "number", "plotted_entries"]


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


def plotted_entries(db: Session, record: SessionRecord, kind: str) -> Iterator[repository.LogEntry]:
    """The session's ``kind`` log entries a chart plots, in order, thinned as :class:`Thinning` says."""
    thinning = Thinning(repository.count_entries(db, record, [kind]))
    for i, entry in enumerate(repository.entries(db, record, [kind])):
        if thinning.keeps(i):
            yield entry


def number(value: float | None, digits: int = 3) -> str:
    """A measure for reading: ``—`` when there is none, else ``digits`` significant figures."""
    if value is None:
        return "—"
    return f"{value:,.{digits}g}" if abs(value) < 1000 else f"{value:,.0f}"


def count(value: int, of: int | None = None) -> str:
    return f"{value:,}" if of is None else f"{value:,} of {of:,}"
