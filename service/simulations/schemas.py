"""Request and response models for ``/v1/simulations``.

The request is a union discriminated by ``decision_type``: each type has its own policies
(themselves discriminated by ``policy`` where a type compares a baseline with an algorithm)
and its own settings; what every type shares lives in :class:`_SimulationBase`.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from service.balanced_filters.schemas import GroupKey, ProxySpec
from service.datasets.schemas import GroupValue
from service.fields import FiniteFloat, Name, RequestModel, Seed
from service.sessions.lifecycle import SessionStatus
from service.sessions.schemas import Skipped

__all__ = ["BalancedFilterPolicy", "BalancedFilterSimulation", "BatchSchedulerSimulation", "DataSiftPolicy",
           "DecisionType", "FairBatchPolicy", "GroupSamplerSimulation", "MinibatchPolicy",
           "PartitionBanditSimulation", "PolicySpec", "RandomBatchPolicy", "SimulationCreate", "SimulationData",
           "SimulationList", "SimulationOut"]

DecisionType = Literal["group_sampler", "partition_bandit", "batch_scheduler", "balanced_filter"]
Strategy = Literal["aopt", "aopt_plus", "epsilon_greedy", "greedy", "uniform"]
FairnessMeasure = Literal["demographic_parity", "equal_opportunity", "equalized_odds"]
# Bounds that keep one simulation a job of minutes, not days (each type's total work is
# also capped in service.checks).
MAX_POLICIES = 10
MAX_REPETITIONS = 200
MAX_BUDGET = 10_000
MAX_EPOCHS = 1_000
MAX_CURVE_POINTS = 50


class SimulationData(RequestModel):
    """The labeled table to replay, sent inline instead of ``dataset_id``."""

    features: list[list[FiniteFloat]] = Field(min_length=4)
    groups: list[GroupValue] = Field(min_length=4, description="the group of each row")
    labels: list[FiniteFloat] = Field(min_length=4, description="0/1 labels, one per row")


class PolicySpec(RequestModel):
    """A group sampler's strategy and its parameters (as ``POST /v1/group-samplers`` takes them)."""

    name: Name | None = Field(None, description="how results name it (default: the strategy)")
    strategy: Strategy
    c0: FiniteFloat = Field(0.1, ge=0, le=1000, description="weight of the exploration bonus c0 / sqrt(N_z)")
    c1: FiniteFloat | None = Field(None, ge=0, le=1000, description="Aopt+ trend weight (aopt_plus only)")
    epsilon: FiniteFloat = Field(0.1, ge=0, le=1, description="exploration probability of epsilon_greedy")
    xi: FiniteFloat = Field(0.5, ge=0, lt=1, description="forced exploration when min N_z < t^xi")
    batch_size: int = Field(1, ge=1, le=MAX_BUDGET, description="samples acquired per decision")


class RandomBatchPolicy(RequestModel):
    """Partition bandits' baseline: batches drawn uniformly from the whole pool, every one kept."""

    policy: Literal["random"]
    name: Name | None = Field(None, description="how results name it (default: random)")
    batch_size: int = Field(10, ge=1, le=MAX_BUDGET, description="points acquired per batch")


class DataSiftPolicy(RequestModel):
    """DataSift over GMM partitions of the pool (``POST /v1/partition-bandits`` parameters)."""

    policy: Literal["datasift"]
    name: Name | None = Field(None, description="how results name it (default: datasift_<batch_selection>)")
    batch_size: int = Field(10, ge=1, le=MAX_BUDGET, description="points per evaluated batch")
    batch_selection: Literal["random", "influence"] = "random"
    reward: Literal["base_rate_distance", "distance", "base_rate", "selected_only"] = "base_rate_distance"
    reward_scale: Literal["none", "running_max"] = "none"
    alpha: FiniteFloat = Field(0.1, ge=0, le=100, description="exploration weight of eq. 2's UCB")
    fairness_threshold: FiniteFloat = Field(0.01, ge=0, le=1, description="stop once |F| is this small")
    max_evaluations: int | None = Field(None, ge=1, le=MAX_BUDGET,
                                        description="batches evaluated at most (default 3 × budget / batch_size)")
    refresh_influence: bool = Field(False, description="influence only: recompute it after each kept batch")


class MinibatchPolicy(RequestModel):
    """Batch schedulers' baseline: the training set shuffled and cut into minibatches each epoch."""

    policy: Literal["minibatch"]
    name: Name | None = Field(None, description="how results name it (default: minibatch)")


class FairBatchPolicy(RequestModel):
    """FairBatch's λ controller picks each epoch's batch composition (``POST /v1/batch-schedulers``)."""

    policy: Literal["fairbatch"]
    name: Name | None = Field(None, description="how results name it (default: fairbatch)")
    step_size: FiniteFloat = Field(0.005, gt=0, le=0.5, description="α: probability moved per epoch")
    threshold: FiniteFloat = Field(0.0, ge=0, le=1, description="T: λ moves only while the disparity exceeds it")


class BalancedFilterPolicy(RequestModel):
    """A proxy (and its α) fitted on each repetition's training rows, then filtering the candidates."""

    name: Name | None = Field(None, description="how results name it (default: the type and α)")
    proxy: ProxySpec


class _SimulationBase(RequestModel):
    name: Name | None = None
    repetitions: int = Field(20, ge=2, le=MAX_REPETITIONS,
                             description="random splits of the data, each replaying every policy")
    test_fraction: FiniteFloat = Field(0.3, ge=0.05, le=0.8, description="share of each group held out for scoring")
    curve_points: int = Field(10, ge=1, le=MAX_CURVE_POINTS, description="points of each curve, evenly spaced")
    dataset_id: uuid.UUID | None = Field(None, description="a stored dataset with groups and labels")
    data: SimulationData | None = Field(None, description="the table inline, instead of dataset_id")
    seed: Seed | None = None


Model = Literal["logistic_regression", "gradient_boosting"]


class GroupSamplerSimulation(_SimulationBase):
    decision_type: Literal["group_sampler"]
    policies: list[PolicySpec] = Field(min_length=1, max_length=MAX_POLICIES)
    budget: int = Field(ge=2, le=MAX_BUDGET, description="training samples each policy acquires")
    model: Model = Field("logistic_regression", description="the scikit-learn model scored at each curve point")
    metric: Literal["accuracy", "log_loss"] = Field(
        "accuracy", description="what the recommendation compares: worst-group accuracy or worst-group log loss")
    loss: Literal["zero_one", "log_loss"] = Field("zero_one", description="the loss the samplers are fed")


class PartitionBanditSimulation(_SimulationBase):
    decision_type: Literal["partition_bandit"]
    policies: list[Annotated[RandomBatchPolicy | DataSiftPolicy, Field(discriminator="policy")]] = Field(
        min_length=1, max_length=MAX_POLICIES)
    budget: int = Field(ge=2, le=MAX_BUDGET, description="pool points each policy acquires")
    model: Model = Field("logistic_regression", description="the scikit-learn model scored at each curve point")
    metric: FairnessMeasure = Field("demographic_parity", description="the fairness measure decided and compared")
    initial_size: int = Field(50, ge=4, le=MAX_BUDGET, description="rows each repetition trains on before acquiring")
    max_partitions: int = Field(8, ge=2, le=20, description="GMM components tried (BIC picks among 2..this)")


class BatchSchedulerSimulation(_SimulationBase):
    decision_type: Literal["batch_scheduler"]
    policies: list[Annotated[MinibatchPolicy | FairBatchPolicy, Field(discriminator="policy")]] = Field(
        min_length=1, max_length=MAX_POLICIES)
    budget: int = Field(ge=2, le=MAX_EPOCHS, description="training epochs (a logistic regression trained by Adam)")
    metric: FairnessMeasure = Field("equal_opportunity", description="FairBatch's measure, also the one compared")
    batch_size: int = Field(100, ge=2, le=MAX_BUDGET, description="examples per minibatch")
    learning_rate: FiniteFloat = Field(0.005, gt=0, le=1, description="Adam's step size")


class BalancedFilterSimulation(_SimulationBase):
    decision_type: Literal["balanced_filter"]
    policies: list[BalancedFilterPolicy] = Field(min_length=1, max_length=MAX_POLICIES)
    budget: int = Field(ge=2, le=MAX_BUDGET, description="candidates each filter decides on")
    target: dict[GroupKey, Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]] | None = Field(
        None, description="U: {group: share} of accepted points; default uniform")


SimulationCreate = Annotated[
    GroupSamplerSimulation | PartitionBanditSimulation | BatchSchedulerSimulation | BalancedFilterSimulation,
    Field(discriminator="decision_type")]


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
        None, description="curves (mean and 95% bootstrap interval for the population the data was drawn from, "
                          "per point), end-of-budget comparisons and the recommendation")
    created_at: datetime


class SimulationList(BaseModel):
    items: list[SimulationOut]
    next_cursor: str | None
    skipped: Skipped
