"""A fair regression's stored config and state, typed.

``config`` is the validated request with what its training table looked like::

    {"constraint": {"type": "bounded_group_loss", "bound", "bounds"}
                 | {"type": "statistical_parity", "slack", "grid_size"},
     "loss", "oracle", "learner": {"type", "params"}, "max_iterations", "tolerance", "bound_b",
     "dataset_id", "n_rows", "n_features", "groups", "label_range"}

``state`` is ``{"fit": null}`` until the worker stores the fit, then
``{"fit": {"results": [summary, ...], "frontier", "default", "job_id"}}``: one summary
per slack of a sweep (one for a single fit), the sweep's frontier, and the index of the
result predictions use by default. The JSON keeps this shape; only this module reads or
writes it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from service.algorithms.fair_regression import FairRegressionResult
from service.pages import readable
from service.sessions.finite import json_safe
from service.sessions.models import SessionRecord

__all__ = ["BoundedGroupLoss", "Config", "Constraint", "Fit", "FitSummary", "FrontierPoint", "Learner", "State",
           "StatisticalParity", "constraint_from_dict", "load"]


@dataclass(frozen=True)
class BoundedGroupLoss:
    """Every group's mean loss at most ``bound``, or at most its own of ``bounds`` (Algorithm 2)."""

    type: ClassVar[str] = "bounded_group_loss"
    bound: float | None
    bounds: dict[str, float] | None

    @property
    def zeta(self) -> float | dict[str, float]:
        """ζ as the library takes it: one bound for every group, or one per group name."""
        if self.bounds is not None:
            return dict(self.bounds)
        assert self.bound is not None, "the request sends bound or bounds"
        return self.bound

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "bound": self.bound, "bounds": None if self.bounds is None else dict(self.bounds)}


@dataclass(frozen=True)
class StatisticalParity:
    """SP disparity at most ``slack`` (Algorithm 1); a tuple of slacks is a sweep."""

    type: ClassVar[str] = "statistical_parity"
    slack: float | tuple[float, ...]
    grid_size: int

    @property
    def sweep(self) -> bool:
        return isinstance(self.slack, tuple)

    def to_dict(self) -> dict[str, Any]:
        slack = list(self.slack) if isinstance(self.slack, tuple) else self.slack
        return {"type": self.type, "slack": slack, "grid_size": self.grid_size}


Constraint = BoundedGroupLoss | StatisticalParity


def constraint_from_dict(data: dict[str, Any]) -> Constraint:
    if data["type"] == BoundedGroupLoss.type:
        bounds = data["bounds"]
        return BoundedGroupLoss(None if data["bound"] is None else float(data["bound"]),
                                None if bounds is None else {str(k): float(v) for k, v in bounds.items()})
    if data["type"] == StatisticalParity.type:
        slack = data["slack"]
        return StatisticalParity(tuple(float(s) for s in slack) if isinstance(slack, list) else float(slack),
                                 int(data["grid_size"]))
    raise ValueError(f"unknown constraint type {data['type']!r}")


@dataclass(frozen=True)
class Learner:
    """The base regressor class, as the library's ``make_learner`` reads it."""

    type: str
    params: dict[str, int | float]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Learner:
        return cls(str(data["type"]), dict(data["params"]))


@dataclass(frozen=True)
class Config:
    """The validated request and the shape of its training table."""

    constraint: Constraint
    loss: str
    oracle: str
    learner: Learner
    max_iterations: int
    tolerance: float | None
    bound_b: float | None
    dataset_id: uuid.UUID | None  # None: the training data is the session's "training" blob
    n_rows: int
    n_features: int
    groups: tuple[str, ...]  # group names as strings, in the table's order
    label_range: tuple[float, float]  # labels are min-max scaled to [0, 1] by this range

    @property
    def sweep(self) -> bool:
        return isinstance(self.constraint, StatisticalParity) and self.constraint.sweep

    def to_dict(self) -> dict[str, Any]:
        return {
            "constraint": self.constraint.to_dict(), "loss": self.loss, "oracle": self.oracle,
            "learner": self.learner.to_dict(), "max_iterations": self.max_iterations, "tolerance": self.tolerance,
            "bound_b": self.bound_b, "dataset_id": None if self.dataset_id is None else str(self.dataset_id),
            "n_rows": self.n_rows, "n_features": self.n_features, "groups": list(self.groups),
            "label_range": list(self.label_range),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        low, high = data["label_range"]
        return cls(
            constraint=constraint_from_dict(data["constraint"]), loss=str(data["loss"]), oracle=str(data["oracle"]),
            learner=Learner.from_dict(data["learner"]), max_iterations=int(data["max_iterations"]),
            tolerance=_optional_float(data["tolerance"]), bound_b=_optional_float(data["bound_b"]),
            dataset_id=None if data["dataset_id"] is None else uuid.UUID(data["dataset_id"]),
            n_rows=int(data["n_rows"]), n_features=int(data["n_features"]),
            groups=tuple(_strings(data["groups"])), label_range=(float(low), float(high)),
        )


@dataclass(frozen=True)
class FitSummary:
    """One fitted ``Q`` as the session keeps it: the library's result without the predictor (a blob),
    the gap history and the echo of the settings (the config holds them). Non-finite measures are None."""

    slack: float | None  # statistical parity: the slack it was fitted for
    weights: tuple[float, ...]
    n_predictors: int
    train_loss: float | None
    group_losses: dict[str, float]
    disparity: float | None
    feasible: bool
    iterations: int
    duality_gap: float | None
    status: str
    message: str
    max_violation: float | None
    tolerance: float
    bound_b: float
    oracle_calls: int
    train_loss_expected: float | None
    disparity_expected: float | None

    @classmethod
    def of(cls, result: FairRegressionResult, slack: float | None) -> FitSummary:
        measures = json_safe({name: getattr(result, name) for name in SUMMARY_FIELDS[1:]})
        return cls.from_dict({"slack": slack, **measures})

    def to_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in SUMMARY_FIELDS}
        data["weights"], data["group_losses"] = list(self.weights), dict(self.group_losses)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FitSummary:
        values = {name: data[name] for name in SUMMARY_FIELDS}
        values["weights"], values["group_losses"] = tuple(data["weights"]), dict(data["group_losses"])
        return cls(**values)


# The stored keys of a summary, in order ("slack" first, then the library's result fields).
SUMMARY_FIELDS = tuple(f.name for f in fields(FitSummary))


@dataclass(frozen=True)
class FrontierPoint:
    """A point of a sweep's Pareto frontier of training (loss, disparity)."""

    slack: float
    loss: float
    disparity: float

    def to_dict(self) -> dict[str, float]:
        return {"slack": self.slack, "loss": self.loss, "disparity": self.disparity}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FrontierPoint:
        return cls(float(data["slack"]), float(data["loss"]), float(data["disparity"]))


@dataclass(frozen=True)
class Fit:
    """The stored fit: every result, a sweep's frontier, and the result predictions use by default."""

    results: tuple[FitSummary, ...]
    frontier: tuple[FrontierPoint, ...] | None
    default: int
    job_id: uuid.UUID

    @classmethod
    def of(cls, results: list[FitSummary], frontier: list[dict[str, float]] | None, job_id: uuid.UUID) -> Fit:
        """The fit of these results; predictions default to the loosest feasible slack, else the first."""
        feasible = [k for k, r in enumerate(results) if r.feasible]
        swept = [r.slack for r in results if r.slack is not None]
        default = max(feasible, key=lambda k: swept[k]) if feasible and len(swept) == len(results) else 0
        points = None if frontier is None else tuple(FrontierPoint.from_dict(p) for p in frontier)
        return cls(tuple(results), points, default, job_id)

    @property
    def chosen(self) -> FitSummary:
        return self.results[self.default]

    def frontier_dicts(self) -> list[dict[str, float]] | None:
        return None if self.frontier is None else [p.to_dict() for p in self.frontier]

    def to_dict(self) -> dict[str, Any]:
        return {"results": [r.to_dict() for r in self.results], "frontier": self.frontier_dicts(),
                "default": self.default, "job_id": str(self.job_id)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fit:
        results = tuple(FitSummary.from_dict(r) for r in data["results"])
        default = int(data["default"])
        if not 0 <= default < len(results):
            raise ValueError(f"the default result {default} is not one of the {len(results)} results")
        frontier = data["frontier"]
        return cls(results, None if frontier is None else tuple(FrontierPoint.from_dict(p) for p in frontier),
                   default, uuid.UUID(data["job_id"]))


@dataclass(frozen=True)
class State:
    """``fit`` is None until the worker stores it."""

    fit: Fit | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"fit": None if self.fit is None else self.fit.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        fit = data["fit"]
        return cls(None if fit is None else Fit.from_dict(fit))


def load(record: SessionRecord) -> tuple[Config, State]:
    """The row's config and state; a corrupt-state problem naming the row when they cannot be read."""
    return readable(record, "fair regression",
                    lambda: (Config.from_dict(record.config), State.from_dict(record.state)))


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _strings(values: Any) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError("groups must be a list of names")
    return values
