"""Request and response models for ``POST /v1/fairness-metrics``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from service.datasets.schemas import GroupValue
from service.fields import FiniteFloat, RequestModel

__all__ = ["MetricName", "MetricOut", "MetricsRequest", "MetricsResponse"]

MetricName = Literal["demographic_parity", "equal_opportunity", "equalized_odds", "group_loss", "sp_ks"]


class MetricsRequest(RequestModel):
    predictions: list[FiniteFloat] = Field(
        min_length=1, description="scores or hard labels; >= 0.5 counts as positive for rate metrics"
    )
    labels: list[FiniteFloat] | None = Field(None, description="needed by equal_opportunity, "
                                             "equalized_odds and group_loss")
    groups: list[GroupValue] = Field(min_length=1)
    metrics: list[MetricName] = Field(min_length=1)
    loss: Literal["square", "absolute", "zero_one", "log"] = Field(
        "zero_one", description="the loss group_loss averages"
    )


class MetricOut(BaseModel):
    by_group: dict[str, float | None]
    overall: float | None
    disparity: float | None = Field(description="largest gap between two groups")
    disparity_vs_overall: float | None = Field(description="largest gap between a group and everyone")
    details: dict[str, dict[str, float | None]] = Field(default_factory=dict)


class MetricsResponse(BaseModel):
    n: int
    groups: list[GroupValue]
    metrics: dict[str, MetricOut]
