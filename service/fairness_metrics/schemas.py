"""Request and response models for ``POST /v1/fairness-metrics``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from service.datasets.schemas import GroupValue
from service.fields import FiniteFloat, RequestModel, Seed

__all__ = ["MAX_RESAMPLES", "Bootstrap", "BootstrapOut", "IntervalOut", "MetricCI", "MetricName", "MetricOut",
           "MetricsRequest", "MetricsResponse"]

MetricName = Literal["demographic_parity", "equal_opportunity", "equalized_odds", "group_loss", "sp_ks"]
# More resamples than this move a 95% percentile interval's ends by well under its Monte Carlo
# error at 2,000 already (Efron & Tibshirani 1993, §19.3); the cap bounds the per-resample table.
MAX_RESAMPLES = 10_000


class Bootstrap(BaseModel):
    """Percentile intervals from a bootstrap stratified by group (every group keeps its size)."""

    model_config = ConfigDict(extra="forbid")

    resamples: int = Field(1_000, ge=1, le=MAX_RESAMPLES,
                           description="number of resamples; rows × resamples is capped (422 beyond)")
    seed: Seed | None = Field(None, description="the same seed gives the same intervals, bit for bit; "
                              "omitted, one is drawn and returned")
    level: FiniteFloat = Field(0.95, gt=0, lt=1, description="coverage of each interval")


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
    bootstrap: Bootstrap | None = Field(None, description="when given, each value gets a confidence interval")


class IntervalOut(BaseModel):
    lower: float | None
    upper: float | None


class MetricCI(BaseModel):
    """The confidence interval of each value of :class:`MetricOut`, in the same layout."""

    by_group: dict[str, IntervalOut]
    overall: IntervalOut
    disparity: IntervalOut
    disparity_vs_overall: IntervalOut
    details: dict[str, dict[str, IntervalOut]] = Field(default_factory=dict)


class MetricOut(BaseModel):
    by_group: dict[str, float | None]
    overall: float | None
    disparity: float | None = Field(description="largest gap between two groups")
    disparity_vs_overall: float | None = Field(description="largest gap between a group and everyone")
    details: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    ci: MetricCI | None = Field(None, description="with bootstrap: the interval of each value above")


class BootstrapOut(BaseModel):
    resamples: int
    seed: int
    level: float
    method: str = Field(description="how the intervals were drawn")


class MetricsResponse(BaseModel):
    n: int
    groups: list[GroupValue]
    counts: dict[str, int] = Field(description="rows per group")
    metrics: dict[str, MetricOut]
    bootstrap: BootstrapOut | None = None
