"""Request and response models for ``/v1/group-samplers``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from service.fields import COUNT_MAX, STORABLE, Count, FiniteFloat, Name, RequestModel, Seed
from service.jobs.schemas import JobOut
from service.sessions.lifecycle import SessionStatus
from service.sessions.pending import PendingOut
from service.sessions.schemas import DecisionBatchRequest, Skipped

__all__ = [
    "DEFAULT_TREND_WINDOW", "MAX_WAIT_SECONDS", "GroupSamplerCreate", "GroupSamplerList", "GroupSamplerOut",
    "GroupScore", "ObservationReport", "ObservationResult", "SampleSet", "SamplerModelSpec", "SamplerNextDecision",
    "SamplerParams", "SamplerSummary", "GroupSamplerDecisions", "DecisionBatchRequest", "GroupSamplerRelease",
]

# Aopt+ keeps each group's last 30 validation accuracies for the Mann–Kendall trend: enough
# values for S / sqrt(Var S) to be near-normal (n >= 10), recent enough to notice a plateau,
# and a state of at most 64 × 30 floats, so ``next`` stays a small JSON read.
DEFAULT_TREND_WINDOW = 30
# ``next?wait=`` holds a request open at most this long.
MAX_WAIT_SECONDS = 30.0
# A pending decision lives an hour by default (an annotator's task), a week at most.
DEFAULT_PENDING_TTL = 3600
MAX_PENDING_TTL = 7 * 86400


GroupName = Annotated[str, Field(min_length=1, max_length=200), *STORABLE]
ObservationId = Annotated[str, Field(min_length=1, max_length=200), *STORABLE]
Strategy = Literal["aopt", "aopt_plus", "epsilon_greedy", "greedy", "uniform"]
Mode = Literal["reported", "managed"]
Loss = Literal["zero_one", "log_loss"]
Bound = Literal["empirical", "theoretical"]
Reason = Literal["warmup", "forced_exploration", "ucb", "epsilon", "greedy", "uniform"]


class SamplerParams(RequestModel):
    """Hyperparameters of the sampling rule (SPEC §5.1); unknown names are refused."""

    c0: FiniteFloat = Field(0.1, ge=0, description="weight of the exploration bonus c0 / sqrt(N_z) (eq. 6)")
    c1: FiniteFloat | None = Field(None, ge=0, description="weight of the Mann–Kendall trend term; "
                                   "default 0.1 for aopt_plus, and it must be 0 for the other strategies")
    epsilon: FiniteFloat = Field(0.1, ge=0, le=1, description="exploration probability of epsilon_greedy")
    xi: FiniteFloat = Field(0.5, ge=0, lt=1, description="forced exploration when min N_z < t^xi")
    warmup_rounds: int | None = Field(None, ge=0, le=COUNT_MAX,
                                      description="round-robin rounds first; default one per group")
    bound: Bound = Field("empirical", description="empirical: eq. 6; theoretical: the three terms of eq. 4")
    trend_window: int | None = Field(None, ge=3, le=1000, description="aopt_plus: the Mann–Kendall series keeps "
                                     f"each group's last trend_window accuracies (default {DEFAULT_TREND_WINDOW})")
    bound_c: FiniteFloat = Field(0.5, gt=0, description="C of Assumption 3 (bound = theoretical)")
    bound_delta: FiniteFloat = Field(0.05, gt=0, lt=1, description="δ of Remark 1 (bound = theoretical)")
    bound_vc_dim: int = Field(3, ge=1, le=100_000, description="VC dimension in e_z(N) (bound = theoretical)")


class ModelParams(RequestModel):
    l2: FiniteFloat = Field(1.0, gt=0, description="L2 penalty on the coefficients (1 is scikit-learn's C = 1)")
    max_iter: int = Field(50, ge=1, le=1000, description="Newton steps at most per fit")


class SamplerModelSpec(RequestModel):
    """The model managed mode trains in a worker after every observation."""

    type: Literal["logistic_regression"] = "logistic_regression"
    params: ModelParams = Field(default_factory=ModelParams)


class GroupSamplerCreate(RequestModel):
    name: Name | None = None
    groups: list[GroupName] = Field(min_length=2, max_length=64, description="distinct group names")
    strategy: Strategy
    mode: Mode = Field("reported", description="reported: the client trains and reports losses; "
                       "managed: the client sends samples and a worker trains")
    budget: int = Field(ge=1, le=10**12, description="samples to acquire in total")
    batch_size: int = Field(1, ge=1, le=10**9, description="samples to acquire per decision")
    loss: Loss = "zero_one"
    params: SamplerParams = Field(default_factory=SamplerParams)
    model: SamplerModelSpec | None = Field(None, description="managed mode only; default logistic regression")
    seed: Seed | None = None
    pending_ttl_seconds: int = Field(
        DEFAULT_PENDING_TTL, ge=1, le=MAX_PENDING_TTL,
        description="how long a decision holds its batch with no observation naming it before the samples "
                    "return to the budget (it can be released sooner)")


class GroupScore(BaseModel):
    loss: float | None = Field(description="L̂_z, the latest loss on the group's validation data")
    bonus: float | None = Field(description="exploration bonus (Aopt, Aopt+)")
    trend: float | None = Field(description="c1 · S_z / sqrt(Var S_z) (Aopt+)")
    ucb: float | None = Field(description="loss + bonus + trend")


class SamplerNextDecision(BaseModel):
    decision_id: uuid.UUID
    round: int = Field(description="the round this decision is for (observations and pending decisions so far + 1)")
    group: str
    batch_size: int = Field(description="samples to acquire from the group, held until an observation naming "
                            "this decision_id, a release, or expires_at (cut to the remaining budget)")
    reason: Reason
    note: str = Field(description="why the group was chosen, in words")
    scores: dict[str, GroupScore]
    budget_remaining: int = Field(description="samples neither acquired nor held before this batch")
    expires_at: datetime = Field(description="when the batch returns to the budget if nobody reports on it")
    model_version: int | None = Field(None, description="managed mode: the fit the scores come from (0: none yet)")
    fit_pending: bool | None = Field(None, description="managed mode: some counted samples are not in the model yet")


class SampleSet(RequestModel):
    features: list[list[FiniteFloat]] = Field(min_length=1)
    labels: list[FiniteFloat] = Field(min_length=1, description="0 or 1, one per row")


class ObservationReport(RequestModel):
    """One round's result. Reported mode sends ``n_acquired`` and ``group_losses``; managed mode
    sends ``train`` and ``validation`` samples of ``group`` instead."""

    observation_id: ObservationId = Field(description="unique per sampler; a retry counts once")
    decision_id: uuid.UUID | None = Field(None, description="the next decision this observation answers")
    group: GroupName = Field(description="the group the samples were acquired from")
    n_acquired: Count | None = Field(None, description="reported mode: samples acquired from the group")
    group_losses: dict[GroupName, FiniteFloat] | None = Field(
        None, description="reported mode: the retrained model's validation loss per group (others keep theirs)")
    group_accuracies: dict[GroupName, FiniteFloat] | None = Field(
        None, description="reported mode: validation accuracy per group (Aopt+ trend; default from the loss)")
    train: SampleSet | None = Field(None, description="managed mode: the acquired training samples")
    validation: SampleSet | None = Field(None, description="managed mode: validation samples of the group")


class SamplerSummary(BaseModel):
    counts: dict[str, int] = Field(description="N_z: training samples acquired per group")
    mixture: dict[str, float] = Field(description="π(z) = N_z / Σ N")
    group_losses: dict[str, float | None]
    round: int = Field(description="observations applied so far")
    budget_remaining: int = Field(description="samples neither acquired nor held by pending decisions")
    status: SessionStatus = Field(description="ready, or done when the budget is spent")
    pending: dict[str, int] = Field(description="P_z: samples held per group by pending decisions")


class ObservationResult(SamplerSummary):
    observation_id: str
    decision_id: uuid.UUID | None = None
    group: str
    n_acquired: int
    job: JobOut | None = Field(None, description="managed mode: the fit job (also in Location)")


class ParamsOut(BaseModel):
    c0: float
    c1: float
    epsilon: float
    xi: float
    warmup_rounds: int
    bound: Bound
    trend_window: int | None
    bound_c: float
    bound_delta: float
    bound_vc_dim: int


class GroupSamplerOut(SamplerSummary):
    id: uuid.UUID
    name: str | None
    groups: list[str]
    strategy: Strategy
    mode: Mode
    budget: int
    batch_size: int
    loss: Loss
    params: ParamsOut
    model: SamplerModelSpec | None = None
    group_accuracies: dict[str, float | None]
    model_version: int | None = Field(None, description="managed mode: fits applied so far")
    fitted_observations: int | None = Field(None, description="managed mode: observations the model was fitted on")
    fit_job_id: uuid.UUID | None = Field(None, description="managed mode: the latest fit job")
    pending_ttl_seconds: float = Field(description="how long a decision holds its batch")
    pending_decisions: list[PendingOut] = Field(
        default_factory=list, description="the oldest (at most 100) decisions still holding their batch")
    version: int
    seed: int
    created_at: datetime


class GroupSamplerList(BaseModel):
    items: list[GroupSamplerOut]
    next_cursor: str | None = None
    skipped: Skipped


class GroupSamplerDecisions(BaseModel):
    decisions: list[SamplerNextDecision]


class GroupSamplerRelease(SamplerSummary):
    decision_id: uuid.UUID
    group: str
    released: int = Field(description="samples returned to the budget")
