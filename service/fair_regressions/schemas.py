"""Request and response models for ``/v1/fair-regressions``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from service.datasets.schemas import GroupValue
from service.fields import STORABLE, FiniteFloat, Int64, Name, RequestModel, Seed, exactly_one
from service.sessions.lifecycle import SessionStatus
from service.sessions.schemas import Skipped

__all__ = [
    "MAX_SWEEP", "BoundedGroupLossConstraint", "FairRegressionCreate", "FairRegressionList",
    "FairRegressionOut", "FitResult", "FrontierPoint", "LearnerSpec", "PredictionRequest",
    "PredictionResult", "RegressionData", "StatisticalParityConstraint",
]

# A sweep runs one full fit per slack in one job; 50 slacks already draw a fine frontier
# (Section 6 of the paper uses a few dozen) and keep the job's time predictable.
MAX_SWEEP = 50

UnitFloat = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
PositiveFloat = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Loss = Literal["square", "absolute", "logistic"]
Oracle = Literal["least_squares", "loss_minimization", "cost_sensitive"]
GroupKey = Annotated[str, Field(max_length=200), *STORABLE]
ParamName = Annotated[str, Field(max_length=100), *STORABLE]


class RegressionData(RequestModel):
    """Training data sent inline instead of ``dataset_id``."""

    features: list[list[FiniteFloat]] = Field(min_length=2)
    groups: list[GroupValue] = Field(min_length=2, description="the protected attribute, one value per row")
    labels: list[FiniteFloat] = Field(min_length=2, description="regression targets (0/1 for the logistic loss)")


class BoundedGroupLossConstraint(RequestModel):
    """Every group's mean loss at most its bound (Algorithm 2)."""

    type: Literal["bounded_group_loss"]
    bound: UnitFloat | None = Field(None, description="ζ for every group, on the loss of labels scaled to [0, 1]")
    bounds: dict[GroupKey, UnitFloat] | None = Field(
        None, description="ζ_a per group name (as a string); every group needs one")

    @model_validator(mode="after")
    def _one_of(self) -> BoundedGroupLossConstraint:
        exactly_one(self.bound, self.bounds, "send either bound (one value for every group) or bounds (one per group), "
                    "not both")
        return self


class StatisticalParityConstraint(RequestModel):
    """SP disparity at most the slack (Algorithm 1); a list of slacks runs a sweep."""

    type: Literal["statistical_parity"]
    slack: UnitFloat | list[UnitFloat] = Field(
        description="ε̂; a list of distinct values fits one regressor per value and reports the frontier")
    grid_size: int = Field(40, ge=1, le=1000, description="N, the thresholds {1/N, …, 1} of Section 4.1")

    @model_validator(mode="after")
    def _distinct(self) -> StatisticalParityConstraint:
        if isinstance(self.slack, list):
            if not 1 <= len(self.slack) <= MAX_SWEEP:
                raise ValueError(f"a sweep needs between 1 and {MAX_SWEEP} slacks")
            if len(set(self.slack)) != len(self.slack):
                raise ValueError("the slacks of a sweep must be distinct")
        return self


Constraint = Annotated[BoundedGroupLossConstraint | StatisticalParityConstraint, Field(discriminator="type")]


class LearnerSpec(RequestModel):
    """The base regressor class the oracle fits."""

    type: Literal["linear", "gradient_boosting"] = "linear"
    params: dict[ParamName, Int64 | FiniteFloat] = Field(
        default_factory=dict,
        description="linear: alpha (L2 penalty, default 1e-4); gradient_boosting: n_estimators, max_depth, "
                    "learning_rate, subsample, min_samples_leaf (scikit-learn's defaults)")


class FairRegressionCreate(RequestModel):
    name: Name | None = None
    dataset_id: uuid.UUID | None = Field(None, description="a dataset with groups and labels")
    data: RegressionData | None = Field(None, description="inline training data instead of dataset_id")
    constraint: Constraint
    loss: Loss = "square"
    oracle: Oracle | None = Field(
        None, description="statistical parity: default least_squares; cost_sensitive needs the linear learner. "
                          "Bounded group loss always minimises a weighted loss: leave out or loss_minimization")
    learner: LearnerSpec = Field(default_factory=LearnerSpec)
    max_iterations: int = Field(50, ge=1, le=10_000, description="T, iterations of exponentiated gradient")
    tolerance: PositiveFloat | None = Field(
        None, description="ν: stop when the duality gap is at most this (default: half the standard error of "
                          "the unconstrained regressor's loss)")
    bound_b: PositiveFloat | None = Field(None, description="B, the ℓ1 bound on λ (default from the slack or bound)")
    seed: Seed | None = None

    @model_validator(mode="after")
    def _one_source(self) -> FairRegressionCreate:
        exactly_one(self.dataset_id, self.data, "send either dataset_id or data (features, groups, labels), not both")
        return self


class FrontierPoint(BaseModel):
    slack: float
    loss: float
    disparity: float


class FitResult(BaseModel):
    """One fitted distribution ``Q`` and its measures on the training data."""

    slack: float | None = Field(None, description="statistical parity: the slack this result was fitted for")
    weights: list[float] = Field(description="Q: the probability of each base regressor (sums to 1)")
    n_predictors: int
    train_loss: float | None = Field(description="mean loss of the randomized predictor (labels scaled to [0, 1])")
    group_losses: dict[str, float]
    disparity: float | None = Field(description="SP disparity of the randomized predictor on the grid")
    feasible: bool = Field(description="the paper's acceptance test: every constraint within (ρ + 2ν)/B")
    iterations: int
    duality_gap: float | None
    status: Literal["converged", "max_iterations"]
    message: str
    max_violation: float | None
    tolerance: float = Field(description="ν used")
    bound_b: float = Field(description="B used")
    oracle_calls: int
    train_loss_expected: float | None = Field(description="mean loss of the expected predictor Σ Q(h) h(x)")
    disparity_expected: float | None = Field(description="SP disparity of the expected predictor")
    frontier: list[FrontierPoint] | None = Field(
        None, description="a sweep's Pareto frontier of (loss, disparity), by increasing disparity")


class FairRegressionOut(BaseModel):
    id: uuid.UUID
    name: str | None
    status: SessionStatus = Field(description="queued or running while the fit job does, ready once the fit is "
                                              "stored; failed or cancelled if the fit job was")
    job_id: uuid.UUID | None
    progress: float | None = Field(None, description="the fit job's progress, 0..1")
    error: str | None = None
    constraint: Constraint
    loss: Loss
    oracle: Oracle
    learner: LearnerSpec
    max_iterations: int
    tolerance: float | None
    bound_b: float | None
    dataset_id: uuid.UUID | None
    n_rows: int
    n_features: int
    groups: list[str]
    label_range: list[float] = Field(description="[minimum, maximum] of the labels: losses and bounds are on "
                                                 "labels scaled to [0, 1] by this range")
    result: FitResult | None = Field(
        None, description="the fit; for a sweep, the result predictions use by default, with the frontier")
    results: list[FitResult] | None = Field(None, description="a sweep: one result per slack, in request order")
    default_slack: float | None = Field(
        None, description="a sweep: the slack predictions use when none is named (the loosest feasible "
                          "slack; the first slack when none is feasible)")
    version: int
    seed: int
    created_at: datetime


class FairRegressionList(BaseModel):
    items: list[FairRegressionOut]
    next_cursor: str | None = None
    skipped: Skipped


class PredictionRequest(RequestModel):
    features: list[list[FiniteFloat]] = Field(min_length=1)
    mode: Literal["expected", "randomized"] = Field(
        "expected", description="expected: Σ Q(h) h(x); randomized: one h ~ Q drawn per row")
    seed: Seed | None = Field(None, description="randomized: the draw's seed (random when left out; "
                                                                 "the response says which)")
    slack: FiniteFloat | None = Field(None, description="a sweep: which slack's result to use")
    scale: Literal["original", "unit"] = Field(
        "original", description="original: on the labels' scale; unit: on the [0, 1] scale the fit used")


class PredictionResult(BaseModel):
    predictions: list[float]
    mode: Literal["expected", "randomized"]
    scale: Literal["original", "unit"]
    slack: float | None = Field(description="the slack of the result used (statistical parity)")
    seed: int | None = Field(description="randomized: the seed of the draw, to reproduce it")
