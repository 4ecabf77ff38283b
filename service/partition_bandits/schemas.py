"""Request and response models for ``/v1/partition-bandits``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from service.fields import STORABLE, Count, FiniteFloat, Int64, IntId, Name, RequestModel, Seed, exactly_one
from service.partition_bandits.state import LastRun
from service.sessions.lifecycle import SessionStatus
from service.sessions.pending import PendingOut
from service.sessions.schemas import Skipped

__all__ = [
    "MAX_PARTITIONS", "BanditModelSpec", "BanditNextDecision", "FeedbackReport", "FeedbackResult",
    "PartitionBanditCreate", "PartitionBanditDecisions", "PartitionBanditList", "PartitionBanditOut",
    "PartitionBanditRelease", "PartitionIn", "PartitionOut", "PartitionScore", "PartitioningSpec", "RunRequest",
]

# The bandit's JSON state holds a partitions × partitions distance matrix that every
# decision loads; 64 arms keep it to 4,096 numbers (and match the group limit).
MAX_PARTITIONS = 64

Metric = Literal["demographic_parity", "equal_opportunity", "equalized_odds"]
Reward = Literal["base_rate_distance", "distance", "base_rate", "selected_only"]
PartitionId = Annotated[str, Field(min_length=1, max_length=100), *STORABLE]
ColumnName = Annotated[str, Field(max_length=200), *STORABLE]


class PartitionIn(RequestModel):
    """A client-made partition (an arm of the bandit)."""

    id: PartitionId | IntId = Field(description="reported back as a string")
    size: Count = Field(ge=1, description="pool items in the partition")
    centroid: list[FiniteFloat] = Field(min_length=1, max_length=2_000)
    base_rate_difference: FiniteFloat = Field(description="ΔBR within the partition (eq. 1)")


class PartitioningSpec(RequestModel):
    method: Literal["gmm", "column"] = "gmm"
    max_components: int = Field(10, ge=2, le=MAX_PARTITIONS, description="gmm: BIC picks k in 2..this")
    column: ColumnName | Int64 | None = Field(None, description="column: a feature name or index of "
                                                                  "the pool")
    standardize: bool = Field(True, description="gmm: z-score the features before fitting")
    include_groups: bool = Field(False, description="gmm: also cluster on one-hot (standardised) groups")

    @model_validator(mode="after")
    def _column_for_column_method(self) -> PartitioningSpec:
        if self.method == "column" and self.column is None:
            raise ValueError("method 'column' needs column (a feature name or index)")
        return self


class BanditModelSpec(RequestModel):
    """The parametric model of influence batches and managed runs."""

    type: Literal["logistic_regression"] = "logistic_regression"
    C: FiniteFloat = Field(1.0, gt=0, le=1e6, description="inverse L2 strength (scikit-learn's C)")


class PartitionBanditCreate(RequestModel):
    name: Name | None = None
    partitions: list[PartitionIn] | None = Field(None, min_length=1, max_length=MAX_PARTITIONS)
    pool_dataset_id: uuid.UUID | None = None
    partitioning: PartitioningSpec | None = Field(None, description="with pool_dataset_id; default gmm")
    metric: Metric = "demographic_parity"
    reward: Reward = "base_rate_distance"
    reward_scale: Literal["none", "running_max"] = "none"
    batch_selection: Literal["random", "influence"] = "random"
    batch_size: int = Field(ge=1, le=10**9)
    budget: int = Field(ge=1, le=10**9)
    alpha: FiniteFloat = Field(0.1, ge=0, le=1e6, description="α of eq. 2")
    fairness_threshold: FiniteFloat = Field(0.01, ge=0, le=1e6)
    max_evaluations: int | None = Field(None, ge=1, le=10**9)
    initial_fairness: FiniteFloat | None = Field(
        None, description="F of the initial model (F⁰); default: the first feedback's fairness_before")
    train_dataset_id: uuid.UUID | None = Field(None, description="influence batches and managed runs")
    test_dataset_id: uuid.UUID | None = Field(None, description="influence batches and managed runs")
    accuracy_weight: FiniteFloat = Field(
        0.0, ge=0, le=1e6, description="β, beyond the paper: the reward adds β × the change in accuracy (each part "
        "divided by its reward_scale); 0 is the paper's reward. Feedback then needs accuracy_before/after")
    accuracy_tolerance: FiniteFloat | None = Field(
        None, ge=0, le=1e6, description="δ, beyond the paper: keep a batch only if accuracy stays within δ of the "
        "best kept accuracy (and F improves); null is the paper's rule. Feedback then needs accuracy_before/after")
    acceptance: Literal["fairness", "objective"] = Field(
        "fairness", description="beyond the paper: 'objective' keeps a batch when ΔF/s_F + β·ΔA/s_A > 0 (each part "
        "divided by its reward_scale; needs accuracy_weight > 0) instead of only when |F| falls below the best "
        "('fairness', the paper's rule); the δ guard applies to both")
    validation_dataset_id: uuid.UUID | None = Field(
        None, description="where managed runs (and the guard of influence batches) measure accuracy; keep it apart "
        "from test_dataset_id")
    model: BanditModelSpec = Field(default_factory=BanditModelSpec)
    seed: Seed | None = None
    pending_ttl_seconds: int = Field(
        3600, ge=1, le=7 * 86400, description="how long a decision holds its batch with no feedback naming it "
        "before its items return to the pool and its budget to the bandit (it can be released sooner)")

    @model_validator(mode="after")
    def _one_source(self) -> PartitionBanditCreate:
        exactly_one(self.partitions, self.pool_dataset_id, "send either partitions (client-made) or pool_dataset_id, "
                    "not both")
        if self.partitioning is not None and self.pool_dataset_id is None:
            raise ValueError("partitioning applies to pool_dataset_id only")
        if self.batch_selection == "influence" and (
                self.pool_dataset_id is None or self.train_dataset_id is None or self.test_dataset_id is None):
            raise ValueError("batch_selection 'influence' needs pool_dataset_id, train_dataset_id and "
                             "test_dataset_id")
        uses_accuracy_influence = self.accuracy_tolerance is not None or self.acceptance == "objective"
        if self.batch_selection == "influence" and uses_accuracy_influence and self.validation_dataset_id is None:
            raise ValueError("the accuracy guard (accuracy_tolerance) and objective acceptance of influence batches "
                             "need validation_dataset_id")
        if self.acceptance == "objective" and self.accuracy_weight == 0:
            raise ValueError("acceptance 'objective' needs accuracy_weight > 0")
        return self


class PartitionScore(BaseModel):
    reward: float = Field(description="R_j, the mean of the rewards credited to j (eq. 2)")
    bonus: float = Field(description="α·sqrt(2 ln(n / (n_j + 1)))")
    ucb: float
    pulls: int = Field(description="times j was selected and reported on")
    pending: int = Field(0, description="decisions on j awaiting feedback; n_j of eq. 2 is pulls + pending")
    remaining: int = Field(description="items still on offer")
    eligible: bool = Field(description="holds a full batch")


class BanditNextDecision(BaseModel):
    decision_id: uuid.UUID
    round: int
    partition: str
    reason: Literal["untried", "ucb"]
    item_ids: list[str] | None = Field(
        None, description="pool ids (row indices as strings when the pool has no ids); null without a pool")
    batch_size: int = Field(description="items held by this decision until its feedback, a release or expires_at")
    budget_remaining: int = Field(description="budget neither spent nor held before this batch")
    scores: dict[str, PartitionScore]
    expires_at: datetime = Field(description="when the batch returns to the pool if nobody reports on it")


class PartitionBanditDecisions(BaseModel):
    decisions: list[BanditNextDecision]


class PartitionBanditRelease(BaseModel):
    decision_id: uuid.UUID
    partition: str
    released: int = Field(description="items back on offer, and budget back to the bandit")
    budget_remaining: int


class FeedbackReport(RequestModel):
    decision_id: uuid.UUID
    fairness_before: FiniteFloat = Field(description="F of the model before adding the batch")
    fairness_after: FiniteFloat = Field(description="F of the model trained with the batch")
    accuracy_before: FiniteFloat | None = Field(
        None, description="accuracy (or another accuracy-side metric, higher is better) of the model before the "
        "batch, on a validation split; required when the bandit has accuracy_weight > 0 or accuracy_tolerance")
    accuracy_after: FiniteFloat | None = Field(None, description="the same for the model trained with the batch")


class FeedbackResult(BaseModel):
    decision_id: uuid.UUID
    round: int
    accepted: bool
    delta_fairness: float = Field(description="ΔF = |F_before| − |F_after|")
    rewards: dict[str, float] = Field(description="what this feedback credited to each partition (eq. 1)")
    best_fairness: float
    budget_remaining: int
    done: bool
    stop_reason: str | None = None
    delta_accuracy: float | None = Field(None, description="accuracy_after − accuracy_before (bandits using accuracy)")
    best_accuracy: float | None = Field(None, description="the best accuracy of a kept model (bandits using accuracy)")
    accuracy_guard_rejected: bool = Field(False, description="F improved but accuracy fell more than δ below the best")


class RunRequest(RequestModel):
    train_dataset_id: uuid.UUID | None = Field(None, description="default: the bandit's")
    test_dataset_id: uuid.UUID | None = Field(None, description="default: the bandit's")
    validation_dataset_id: uuid.UUID | None = Field(
        None, description="default: the bandit's; accuracy is measured here (needed with accuracy_weight > 0 or "
        "accuracy_tolerance)")
    refresh_influence: bool = Field(False, description="DataSift-Inf: recompute influence after kept batches")


class PartitionOut(BaseModel):
    id: str
    size: int
    centroid: list[float]
    base_rate_difference: float
    reward: float
    bonus: float
    ucb: float
    pulls: int
    remaining: int
    eligible: bool


class PartitionBanditOut(BaseModel):
    id: uuid.UUID
    name: str | None
    status: SessionStatus = Field(description="queued or running: its partitioning job (pool bandits) is; ready: "
                                  "it decides; done: it has stopped (stop_reason); failed or cancelled: its "
                                  "partitioning job was")
    job_id: uuid.UUID | None = Field(None, description="the partitioning job (pool bandits)")
    error: str | None = Field(None, description="why partitioning failed or was cancelled")
    metric: Metric
    reward: Reward
    reward_scale: str
    batch_selection: str
    batch_size: int
    budget: int
    alpha: float
    fairness_threshold: float
    max_evaluations: int | None
    accuracy_weight: float = Field(description="β (0: the paper's reward)")
    accuracy_tolerance: float | None = Field(description="δ (null: the paper's acceptance rule)")
    acceptance: str = Field("fairness", description="fairness: the paper's rule; objective: the reward's objective")
    pool_dataset_id: uuid.UUID | None
    train_dataset_id: uuid.UUID | None
    test_dataset_id: uuid.UUID | None
    validation_dataset_id: uuid.UUID | None = None
    partitioning: dict | None = Field(None, description="method, k chosen and BIC per k (pool bandits)")
    influence_pair: list[str] | None = Field(
        None, description="influence batches: report F as rate(pair[0]) − rate(pair[1]) or as |F|")
    partitions: list[PartitionOut]
    round: int = Field(description="the round the next decision is for")
    evaluations: int
    accepted_batches: int
    budget_spent: int
    budget_remaining: int = Field(description="budget neither spent nor held by pending decisions")
    pending_ttl_seconds: float = Field(description="how long a decision holds its batch")
    pending_decisions: list[PendingOut] = Field(
        default_factory=list, description="the oldest (at most 100) decisions still holding their batch")
    best_fairness: float | None
    best_accuracy: float | None = Field(None, description="the best accuracy of a kept model (bandits using accuracy)")
    done: bool
    stop_reason: str | None
    last_run: LastRun | None = None
    version: int
    seed: int
    created_at: datetime


class PartitionBanditList(BaseModel):
    items: list[PartitionBanditOut]
    next_cursor: str | None = None
    skipped: Skipped
