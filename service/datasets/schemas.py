"""Request and response models for datasets, and the inline data other resources accept."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from service.fields import MAX_NAME_LENGTH, STORABLE, FiniteFloat, Name, RequestModel, Text, TextOrInt
from service.sessions.schemas import Skipped

__all__ = ["DatasetCreate", "DatasetCsvOptions", "DatasetList", "DatasetOut", "FiniteFloat", "GroupValue", "InlineData",
           "DatasetCsvUpload"]

GroupValue = Annotated[TextOrInt, Field(description="a group name or code, echoed as given; a group is known by "
                                                  "its text, so one request may not name both 1 and \"1\"")]
RowId = Annotated[str, Field(max_length=MAX_NAME_LENGTH), *STORABLE]


class InlineData(RequestModel):
    """Data sent inline instead of a ``*_dataset_id``."""

    features: list[list[FiniteFloat]] = Field(min_length=1)
    groups: list[GroupValue] | None = None
    labels: list[FiniteFloat] | None = None
    ids: list[RowId] | None = None


class DatasetCreate(InlineData):
    name: Name | None = None


class DatasetCsvOptions(RequestModel):
    """How to read a CSV upload's columns: the form fields beside its ``file`` (or, with a raw
    ``text/csv`` body, query parameters of the same names)."""

    name: Name | None = None
    group_column: Text | None = Field(None, description="the column holding each row's group")
    label_column: Text | None = Field(None, description="the column holding each row's label")
    id_column: Text | None = Field(None, description="the column holding each row's id")
    feature_columns: Text | None = Field(None, description="comma-separated names (default: every other column)")

    def columns(self) -> list[str] | None:
        names = self.feature_columns
        return [c.strip() for c in names.split(",") if c.strip()] if names else None


class DatasetCsvUpload(DatasetCsvOptions):
    """The ``multipart/form-data`` body of a CSV upload (documents it: the route reads the form itself)."""

    file: bytes = Field(description="CSV with a header row")


class DatasetOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    name: str | None
    n_rows: int
    n_features: int
    feature_names: list[str]
    group_values: list[Any] | None
    label_values: list[Any] | None = None
    has_ids: bool
    encoding: dict[str, Any] | None = Field(
        None, description="how CSV columns became features (one-hot categories per column)"
    )
    created_at: datetime


class DatasetList(BaseModel):
    items: list[DatasetOut]
    next_cursor: str | None = None
    skipped: Skipped
