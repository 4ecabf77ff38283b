"""Request and response models for datasets, and the inline data other resources accept."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DatasetCreate", "DatasetList", "DatasetOut", "FiniteFloat", "GroupValue", "InlineData"]

FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]
GroupValue = Annotated[str | int, Field(description="a group name or code, echoed as given")]


class InlineData(BaseModel):
    """Data sent inline instead of a ``*_dataset_id``."""

    features: list[list[FiniteFloat]] = Field(min_length=1)
    groups: list[GroupValue] | None = None
    labels: list[FiniteFloat] | None = None
    ids: list[str] | None = None


class DatasetCreate(InlineData):
    name: str | None = Field(None, max_length=200)


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
