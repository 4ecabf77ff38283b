"""Request and response models for ``/v1/simulations``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.datasets.schemas import GroupValue
from service.fields import FiniteFloat, Name, Seed
from service.sessions.lifecycle import SessionStatus
from service.sessions.schemas import Skipped

__all__ = ["DecisionType", "PolicySpec", "SimulationCreate", "SimulationData", "SimulationList", "SimulationOut"]

DecisionType = Literal["group_sampler", "partition_bandit", "batch_scheduler", "balanced_filter"]
Strategy = Literal["aopt", "aopt_plus", "epsilon_greedy", "greedy", "uniform"]
# Bounds that keep one simulation a job of minutes, not days: policies × repetitions × budget
# refits at most 10 × 200 × 10,000 (the request is refused above MAX_WORK in service.py).
MAX_POLICIES = 10
MAX_REPETITIONS = 200
MAX_BUDGET = 10_000
MAX_CURVE_POINTS = 50


class SimulationData(BaseModel):
    """The labeled table to replay, sent inline instead of ``dataset_id``."""

    model_config = ConfigDict(extra="forbid")

    features: list[list[FiniteFloat]] = Field(min_length=4)
    groups: list[GroupValue] = Field(min_length=4, description="the group of each row")
    labels: list[FiniteFloat] = Field(min_length=4, description="0/1 labels, one per row")


class PolicySpec(BaseModel):
    """A group sampler's strategy and its parameters (as ``POST /v1/group-samplers`` takes them)."""

    model_config = ConfigDict(extra="forbid")

    name: Name | None = Field(None, description="how results name it (default: the strategy)")
    strategy: Strategy
    c0: FiniteFloat = Field(0.1, ge=0, le=1000, description="weight of the exploration bonus c0 / sqrt(N_z)")
    c1: FiniteFloat | None = Field(None, ge=0, le=1000, description="Aopt+ trend weight (aopt_plus only)")
    epsilon: FiniteFloat = Field(0.1, ge=0, le=1, description="exploration probability of epsilon_greedy")
    xi: FiniteFloat = Field(0.5, ge=0, lt=1, description="forced exploration when min N_z < t^xi")
    batch_size: int = Field(1, ge=1, le=MAX_BUDGET, description="samples acquired per decision")


class SimulationCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name | None = None
    decision_type: DecisionType = Field(description="group_sampler today; the others are refused (422)")
    policies: list[PolicySpec] = Field(min_length=1, max_length=MAX_POLICIES)
    budget: int = Field(ge=2, le=MAX_BUDGET, description="training samples each policy acquires")
    repetitions: int = Field(20, ge=2, le=MAX_REPETITIONS, description="resamples of the data per policy")
    model: Literal["logistic_regression", "gradient_boosting"] = Field(
        "logistic_regression", description="the scikit-learn model scored at each curve point")
    metric: Literal["accuracy", "log_loss"] = Field(
        "accuracy", description="what the recommendation compares: worst-group accuracy or worst-group log loss")
    loss: Literal["zero_one", "log_loss"] = Field("zero_one", description="the loss the samplers are fed")
    test_fraction: FiniteFloat = Field(0.3, ge=0.05, le=0.8, description="share of each group held out for scoring")
    curve_points: int = Field(10, ge=1, le=MAX_CURVE_POINTS, description="points of each curve, evenly spaced")
    dataset_id: uuid.UUID | None = Field(None, description="a stored dataset with groups and labels")
    data: SimulationData | None = Field(None, description="the table inline, instead of dataset_id")
    seed: Seed | None = None


class SimulationOut(BaseModel):
    id: uuid.UUID
    name: str | None
    status: SessionStatus
    progress: float | None = Field(None, description="share of the repetitions done while it runs")
    error: str | None = None
    job_id: uuid.UUID | None
    decision_type: DecisionType
    config: dict[str, Any] = Field(description="the request as stored (without the data)")
    seed: int
    results: dict[str, Any] | None = Field(
        None, description="curves (mean, low, high per point), end-of-budget comparisons and the recommendation")
    created_at: datetime


class SimulationList(BaseModel):
    items: list[SimulationOut]
    next_cursor: str | None
    skipped: Skipped
