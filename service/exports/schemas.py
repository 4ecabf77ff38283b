"""Request and response models for ``/v1/exports``."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field

from service.jobs.models import JobStatus
from service.pages import Skipped

__all__ = ["DatasetSource", "DecisionLogSource", "ExportCreate", "ExportFormat", "ExportList", "ExportOut",
           "LogResource", "MAX_KINDS"]

ExportFormat = Literal["csv", "jsonl", "parquet"]
LogResource = Literal["group-samplers", "partition-bandits", "balanced-filters", "batch-schedulers",
                      "fair-regressions"]
MAX_KINDS = 50
KIND_LENGTH = 40  # the length of decisions.kind
EntryKind = Annotated[str, Field(min_length=1, max_length=KIND_LENGTH, pattern="^[a-z_]+$")]


class DecisionLogSource(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["decision_log"]
    resource: LogResource = Field(description="the session's collection, as in its URL")
    id: uuid.UUID


class DatasetSource(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["dataset"]
    id: uuid.UUID


class ExportCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: DecisionLogSource | DatasetSource = Field(discriminator="type")
    format: ExportFormat
    since: Moment | None = Field(None, description="decision logs: entries created at or after this")
    until: Moment | None = Field(None, description="decision logs: entries created before this")
    kinds: list[EntryKind] | None = Field(None, max_length=MAX_KINDS,
                                          description="decision logs: only entries of these kinds (create, next…)")


def _utc(value: datetime) -> datetime:
    """The time in UTC, which is how it is compared; a time that has none (year 1 at +14:00) is refused."""
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("must be a time that exists in UTC (years 1 to 9999)") from None


Moment = Annotated[AwareDatetime, AfterValidator(_utc)]


class ExportOut(BaseModel):
    id: uuid.UUID
    status: JobStatus = Field(description="the export job's status; succeeded when the file can be downloaded")
    source: DecisionLogSource | DatasetSource = Field(discriminator="type")
    format: ExportFormat
    since: datetime | None = None
    until: datetime | None = None
    kinds: list[str] | None = None
    job_id: uuid.UUID | None
    progress: float | None = None
    error: str | None = None
    rows: int | None = Field(None, description="entries or dataset rows in the file")
    bytes: int | None = None
    sha256: str | None = Field(None, description="of the file, hex")
    download_url: str | None = Field(None, description="GET it (with the same API key) once succeeded")
    created_at: datetime
    finished_at: datetime | None = None
    expires_at: datetime | None = Field(None, description="when retention deletes the export "
                                        "(FAIRACQ_EXPORT_RETENTION_DAYS)")


class ExportList(BaseModel):
    items: list[ExportOut]
    next_cursor: str | None = None
    skipped: Skipped
