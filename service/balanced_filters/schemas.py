"""Request and response models for ``/v1/balanced-filters`` and ``/v1/sampling-probabilities``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from service.balanced_filters.models import MAX_CANDIDATE_ID
from service.datasets.schemas import GroupValue
from service.fields import STORABLE, FiniteFloat, IntId, Name, RequestModel, Seed, exactly_one
from service.sessions.lifecycle import SessionStatus
from service.sessions.schemas import Skipped

__all__ = [
    "AB_TREE_TYPES", "BalancedFilterCreate", "BalancedFilterList", "BalancedFilterOut", "Candidate",
    "CandidateDecision", "DecisionBatch", "DecisionRequest", "FilterTrainingData", "Outcome",
    "OutcomeReport", "OutcomeResult", "ProxySpec", "Realized", "SamplingRequest", "SamplingResponse",
]

ProxyType = Literal["ab_tree", "ab_tree_relaxed", "qp_tree", "qp_logistic", "naive_tree", "naive_logistic"]
AB_TREE_TYPES = ("ab_tree", "ab_tree_relaxed")
CandidateId = Annotated[str, Field(min_length=1, max_length=MAX_CANDIDATE_ID), *STORABLE] | IntId
GroupLabel = GroupValue | list[GroupValue]
GroupKey = Annotated[str, Field(max_length=200), *STORABLE]
Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
# No training set the row limit allows has more points than this: a larger leaf size says nothing more.
MAX_MIN_SAMPLES_LEAF = 10**9


class ProxySpec(RequestModel):
    """The proxy to learn (SPEC §5.3); fields a type does not use are ignored."""

    type: ProxyType
    alpha: FiniteFloat | None = Field(None, ge=0, le=1, description="ab_tree*: disclosivity budget (Definition 5)")
    gamma: FiniteFloat = Field(0.1, gt=0, lt=1, description="ab_tree*: each split shrinks the distance to U by 1 − γ")
    epsilon: FiniteFloat | None = Field(None, gt=0, le=1, description="ab_tree*: accuracy of each split's game")
    max_depth: int = Field(20, ge=1, le=64, description="tree depth limit (every tree type)")
    stop_distance: FiniteFloat = Field(0.1, ge=0, description="ab_tree*: stop when U is this close to the hull")
    max_iterations: int | None = Field(None, ge=1, le=100_000,
                                       description="ab_tree*: cap on each split game's rounds (library: 300)")
    lambda_max: FiniteFloat | None = Field(None, gt=0, description="ab_tree*: dual bound (default from ε)")
    step_size: FiniteFloat | None = Field(None, gt=0, description="ab_tree*: dual step (default λ_max/√(4K))")
    min_leaf_weight: FiniteFloat | None = Field(None, ge=0, description="ab_tree*: least training points per new leaf "
                                                                  "(library: 30)")
    progress: Literal["gamma", "lemma3"] | None = Field(None, description="ab_tree*: split objective (library: "
                                                                          "gamma)")
    margins: list[Positive] | None = Field(None, min_length=1, max_length=10,
                                                                description="ab_tree*: progress margins tried")
    min_samples_leaf: int | None = Field(None, ge=1, le=MAX_MIN_SAMPLES_LEAF,
                                         description="qp_tree, naive_tree: scikit-learn's")
    C: FiniteFloat | None = Field(None, gt=0, le=1e6, description="*_logistic: inverse L2 strength")
    max_iter: int | None = Field(None, ge=1, le=100_000, description="*_logistic: solver iterations")

    @model_validator(mode="after")
    def _ab_tree_needs_alpha_and_epsilon(self) -> ProxySpec:
        if self.type in AB_TREE_TYPES and (self.alpha is None or self.epsilon is None):
            raise ValueError(f"proxy type {self.type!r} needs alpha and epsilon")
        return self


class FilterTrainingData(RequestModel):
    """Training points sent inline: features and each point's group (a list per point for intersecting groups)."""

    features: list[list[FiniteFloat]] = Field(min_length=1)
    groups: list[GroupLabel] = Field(min_length=1)


class BalancedFilterCreate(RequestModel):
    name: Name | None = None
    groups: list[GroupValue] | list[list[GroupValue]] = Field(
        min_length=2, description="the group names (2–64), or one list per group class for intersecting groups")
    target: dict[GroupKey, Share] | list[dict[GroupKey, Share]] | None = Field(
        None, description="U: {group: share} (one per class for intersecting groups); default uniform")
    proxy: ProxySpec
    training_dataset_id: uuid.UUID | None = None
    training: FilterTrainingData | None = None
    seed: Seed | None = None

    @model_validator(mode="after")
    def _one_training_source(self) -> BalancedFilterCreate:
        exactly_one(self.training, self.training_dataset_id,
                    "send either training_dataset_id or inline training, not both")
        return self


class ProxyOut(BaseModel):
    type: ProxyType
    n_leaves: int | None = None
    tree: list[dict[str, Any]] | None = Field(
        None, description="node table of tree proxies (null for logistic proxies or with include_tree=false)")
    hyperparameters: dict[str, Any]
    versions: dict[str, str] | None = Field(None, description="libraries that fitted the proxy")


class DecisionCounts(BaseModel):
    total: int = Field(description="distinct candidate ids decided")
    accepted: int
    by_leaf: list[int]
    accepted_by_leaf: list[int]


class Realized(BaseModel):
    outcomes: int = Field(description="accepted candidates whose group has been reported")
    group_counts: dict[str, int]
    group_shares: dict[str, float]
    imbalance: float | None = Field(description="‖shares − U‖₂ among reported outcomes (Definition 2)")


class Sampling(BaseModel):
    status: str
    solver: str
    distance: float = Field(description="‖qA − U‖: distance from U to the hull (relaxed: cone) of A's rows")
    in_hull: bool
    relaxed: bool
    message: str
    iterations: int
    gap: float


class Diagnostics(BaseModel):
    warnings: list[str] = Field(description="plain-language notes, e.g. a split game that stopped short of ε")
    stop_reason: str | None = Field(None, description="ab_tree*: within_stop_distance, no_qualifying_split, "
                                                      "max_depth")
    any_stopped_short: bool | None = Field(None, description="ab_tree*: some kept split's game ended with gap > ε")
    splits: list[dict[str, Any]] | None = Field(None, description="ab_tree*: each kept split's game and tests")
    games_played: int | None = None
    rejections: dict[str, int] | None = None
    hull_distance: float | None = None
    converged: bool | None = Field(None, description="*_logistic: the classifier's solver converged")


class TrainingOut(BaseModel):
    dataset_id: uuid.UUID | None
    n_rows: int
    n_features: int


class BalancedFilterOut(BaseModel):
    id: uuid.UUID
    name: str | None
    status: SessionStatus = Field(description="queued or running while a worker fits the proxy, then ready (decisions "
                                  "and outcomes are taken); failed or cancelled if the fit job was")
    job_id: uuid.UUID | None
    error: str | None = Field(None, description="why the fit failed or was cancelled")
    groups: list[Any] = Field(description="as given at creation")
    group_names: list[str] = Field(description="column order of conditional_matrix and the shares")
    target: dict[str, float]
    proxy: ProxyOut
    training: TrainingOut
    conditional_matrix: list[list[float]] | None = Field(None, description="A (leaves × groups): P(group | leaf)")
    leaf_rates: list[float] | None = Field(None, description="r̂: share of training points per leaf")
    base_rates: list[float] | None = Field(None, description="P(group) in the training data")
    q: list[float] | None = Field(None, description="Algorithm 1's QP solution")
    acceptance_probabilities: list[float] | None = Field(None, description="ρ per leaf, max ρ = 1")
    accepted_distribution: list[float] | None = Field(None, description="expected group shares of accepted points")
    disclosivity: float | None = Field(None, description="max_j,i |P(z=i | leaf j) − P(z=i)| (Definition 5)")
    imbalance: float | None = Field(None, description="‖accepted distribution − U‖₂ (Definition 2)")
    acceptance_rate: float | None = Field(None, description="Σ_j r̂_j ρ_j")
    sampling: Sampling | None = None
    diagnostics: Diagnostics | None = None
    decisions: DecisionCounts | None = None
    realized: Realized | None = Field(None, description="after the first outcome report")
    version: int
    seed: int
    created_at: datetime


class BalancedFilterList(BaseModel):
    items: list[BalancedFilterOut]
    next_cursor: str | None = None
    skipped: Skipped


class Candidate(RequestModel):
    id: CandidateId = Field(description="the same id always gets the same answer (compared as a string)")
    features: list[FiniteFloat] = Field(min_length=1)


class DecisionRequest(RequestModel):
    candidates: list[Candidate] = Field(min_length=1, description="at most FAIRACQ_MAX_CANDIDATES (10,000)")


class CandidateDecision(BaseModel):
    id: CandidateId
    accept: bool
    probability: float = Field(description="ρ of the candidate's leaf")
    leaf: int


class DecisionBatch(BaseModel):
    decisions: list[CandidateDecision] = Field(description="in request order")
    new: int = Field(description="candidate ids decided (and counted) by this call")
    repeated: int = Field(description="entries answered from an earlier decision of the same id")


class Outcome(RequestModel):
    id: CandidateId = Field(description="an accepted candidate's id")
    group: GroupLabel = Field(description="its group (a list, one per class, for intersecting groups)")


class OutcomeReport(RequestModel):
    outcomes: list[Outcome] = Field(min_length=1, description="at most FAIRACQ_MAX_CANDIDATES (10,000)")


class OutcomeResult(BaseModel):
    received: int
    counted: int = Field(description="outcomes counted by this call")
    repeated: int = Field(description="outcomes already counted (same id, same group)")
    realized: Realized


class SamplingRequest(RequestModel):
    conditional_matrix: list[list[FiniteFloat]] = Field(
        min_length=1, description="A (leaves × groups): each row a distribution over groups (rows of empty "
                                  "leaves may be all zero)")
    leaf_rates: list[FiniteFloat] = Field(min_length=1, description="r̂ per leaf, summing to 1")
    target: list[FiniteFloat] | None = Field(None, description="U over the groups (columns); default uniform")
    relaxed: bool = Field(False, description="drop Σq = 1 (the relaxed proxy, Section 5)")


class SamplingResponse(BaseModel):
    q: list[float]
    acceptance_probabilities: list[float] = Field(description="ρ = q / r̂ scaled to max 1 (Algorithm 1)")
    accepted_distribution: list[float]
    imbalance: float | None = Field(description="null when nothing would be accepted")
    acceptance_rate: float
    distance: float
    in_hull: bool
    relaxed: bool
    status: str
    solver: str
    message: str
    iterations: int
    gap: float
