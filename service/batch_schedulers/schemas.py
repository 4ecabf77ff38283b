"""Request and response models for ``/v1/batch-schedulers``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from service.fields import INT64_MAX, Count, FiniteFloat, Name, RequestModel, Scalar, Seed
from service.sessions.lifecycle import SessionStatus
from service.sessions.schemas import Skipped

__all__ = [
    "BatchSchedulerCreate", "BatchSchedulerList", "BatchSchedulerOut", "CellCount", "CellLoss",
    "EpochReport", "EpochResult",
]

# Labels and groups are echoed back exactly as given: strings stay strings, numbers stay numbers.
Value = Annotated[Scalar, Field(description="a string or a number")]
Metric = Literal["equal_opportunity", "equalized_odds", "demographic_parity"]


class CellCount(RequestModel):
    label: Value
    group: Value
    count: Count


class CellLoss(RequestModel):
    label: Value
    group: Value
    loss: FiniteFloat = Field(ge=0, description="mean loss of the cell's training examples")


class CellProbability(BaseModel):
    label: Value
    group: Value
    probability: float


class CellBatchCount(BaseModel):
    label: Value
    group: Value
    count: int


class BatchSchedulerCreate(RequestModel):
    name: Name | None = None
    metric: Metric
    labels: list[Value] = Field(min_length=2, max_length=64)
    groups: list[Value] = Field(min_length=2, max_length=64)
    counts: list[CellCount] = Field(min_length=1, description="training examples per (label, group) cell")
    step_size: FiniteFloat = Field(0.005, gt=0, le=1, description="α: probability moved per epoch (Section 3)")
    batch_size: int = Field(ge=1, le=1_000_000)
    threshold: FiniteFloat = Field(0.0, ge=0, description="T of Appendix B.5: λ moves only above this disparity")
    positive_label: Value | None = Field(None, description="y = 1 of equal opportunity; default 1 or the last")
    seed: Seed | None = None


class EpochReport(RequestModel):
    epoch: int = Field(ge=1, le=INT64_MAX, description="counts up from 1 (may skip; at most 2^63 - 1, the "
                       "int64 the history stores); a repeated epoch returns its first result")
    losses: list[CellLoss] = Field(min_length=1)


class EpochResult(BaseModel):
    epoch: int
    disparity: float = Field(description="largest gap of a group against the overall rate")
    max_pair_disparity: float
    pair_disparities: list[float]
    moved: int | None = Field(description="index of the λ that moved, or null when none did")
    lambdas: list[float]
    sampling_probabilities: list[CellProbability]
    batch_composition: list[CellBatchCount]


class LambdaInfo(BaseModel):
    label: Value
    groups: list[Value]
    box: list[float]


class HistoryEntry(BaseModel):
    epoch: int
    disparity: float
    lambdas: list[float]


class BatchSchedulerOut(BaseModel):
    id: uuid.UUID
    name: str | None
    metric: Metric
    labels: list[Value]
    groups: list[Value]
    positive_label: Value
    step_size: float
    batch_size: int
    threshold: float
    epoch: int = Field(description="last epoch reported (0 before the first)")
    lambdas: list[float]
    lambda_info: list[LambdaInfo]
    sampling_probabilities: list[CellProbability]
    batch_composition: list[CellBatchCount]
    history: list[HistoryEntry] = Field(description="every epoch's disparity and λ (GET one scheduler; "
                                        "empty in lists and create responses)")
    status: SessionStatus = Field(description="ready: a scheduler answers every epoch")
    version: int
    seed: int
    created_at: datetime


class BatchSchedulerList(BaseModel):
    items: list[BatchSchedulerOut]
    next_cursor: str | None = None
    skipped: Skipped
