"""Result records of the fair-regression fits (SPEC §4.7 ``result`` fields and more).

``train_loss``, ``group_losses`` and ``disparity`` describe the randomized predictor ``Q``
on the training data — the quantities the algorithms control — and the ``*_expected``
fields the expected predictor ``Σ_h Q(h) h(x)`` that ``predict(mode="expected")`` returns.
``feasible`` applies the paper's acceptance test to ``Q``: every constraint value
``g(Q) ≤ (ρ + 2ν)/B`` with ``ρ = 2`` for SP (Theorem 4) and ``ρ = 1`` for BGL (Algorithm 2,
which returns *null* otherwise; we return ``Q`` with ``feasible = False``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service.algorithms.fair_regression.discretization import Grid
from service.algorithms.fair_regression.evaluation import sp_gamma
from service.algorithms.fair_regression.inputs import TrainingData
from service.algorithms.fair_regression.predictor import FairRegressionPredictor
from service.algorithms.fair_regression.saddle_point import SaddlePointResult

__all__ = ["FairRegressionResult", "SweepResult", "build_result"]


@dataclass
class FairRegressionResult:
    """One fit: the predictor and its training-set summary."""

    predictor: FairRegressionPredictor | None
    weights: list[float]
    n_predictors: int
    train_loss: float
    group_losses: dict[str, float]
    disparity: float
    feasible: bool
    iterations: int
    duality_gap: float
    status: str
    message: str
    constraint: str
    max_violation: float
    tolerance: float
    bound_b: float
    oracle_calls: int
    train_loss_expected: float
    disparity_expected: float
    lambda_: np.ndarray = field(repr=False)
    gap_history: list[float] = field(repr=False)
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class SweepResult:
    """Fits for a list of slacks and the Pareto frontier of their training (loss, disparity)."""

    results: list[FairRegressionResult]
    frontier: list[dict[str, float]]
    status: str


def _message(saddle: SaddlePointResult) -> str:
    if saddle.status == "converged":
        return (f"duality gap {saddle.gap:.3g} reached the tolerance {saddle.tolerance:.3g} "
                f"after {saddle.iterations} iterations")
    if saddle.status == "cancelled":
        return f"cancelled after {saddle.iterations} iterations"
    return (f"stopped after {saddle.iterations} iterations with duality gap {saddle.gap:.3g} above the "
            f"tolerance {saddle.tolerance:.3g}; returning the distribution with the smallest gap")


def build_result(data: TrainingData, saddle: SaddlePointResult, *, constraint: str, grid: Grid,
                 rho: float, settings: dict[str, Any]) -> FairRegressionResult:
    """Summarise ``Q`` from the saddle-point loop; ``rho`` is the acceptance test's constant."""
    keep = np.flatnonzero(saddle.weights > 0)
    if keep.size == 0:
        nan = float("nan")
        return FairRegressionResult(None, [], 0, nan, {}, nan, False, saddle.iterations, saddle.gap,
                                    saddle.status, _message(saddle), constraint, nan, saddle.tolerance,
                                    saddle.bound_b, saddle.oracle_calls, nan, nan, saddle.lambda_,
                                    saddle.gap_history, settings)
    hyps = [saddle.hypotheses[i] for i in keep]
    q = saddle.weights[keep] / saddle.weights[keep].sum()
    group_losses = sum(w * h.stats["group_losses"] for w, h in zip(q, hyps, strict=True))
    gamma = sum(w * h.stats["gamma"] for w, h in zip(q, hyps, strict=True))
    violations = sum(w * h.violations for w, h in zip(q, hyps, strict=True))
    expected = q @ np.stack([h.stats["predictions"] for h in hyps])
    max_violation = float(np.max(violations))
    feasible = max_violation <= (rho + 2.0 * saddle.tolerance) / saddle.bound_b
    predictor = FairRegressionPredictor([h.regressor for h in hyps], q, data.scaling, data.X.shape[1])
    message = _message(saddle)
    if not feasible:
        message += (f"; the constraints are not met: largest violation {max_violation:.3g} exceeds "
                    f"(ρ + 2ν)/B = {(rho + 2.0 * saddle.tolerance) / saddle.bound_b:.3g}")
    return FairRegressionResult(
        predictor=predictor,
        weights=[float(w) for w in q],
        n_predictors=len(hyps),
        train_loss=float(sum(w * h.stats["loss"] for w, h in zip(q, hyps, strict=True))),
        group_losses={g: float(v) for g, v in zip(data.group_keys, group_losses, strict=True)},
        disparity=float(np.max(np.abs(gamma))),
        feasible=bool(feasible),
        iterations=saddle.iterations,
        duality_gap=float(saddle.gap),
        status=saddle.status,
        message=message,
        constraint=constraint,
        max_violation=max_violation,
        tolerance=float(saddle.tolerance),
        bound_b=float(saddle.bound_b),
        oracle_calls=saddle.oracle_calls,
        train_loss_expected=float(data.loss(data.y, expected).mean()),
        disparity_expected=float(np.max(np.abs(sp_gamma(expected, data.group_index, data.group_sizes, grid)))),
        lambda_=saddle.lambda_,
        gap_history=[float(g) for g in saddle.gap_history],
        settings=settings,
    )
