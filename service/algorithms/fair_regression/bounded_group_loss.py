"""Fair regression under bounded group loss (Algorithm 2).

Problem 13: minimise ``loss(Q)`` subject to ``γ_a^BGL(Q) = E[ℓ(Y, f(X)) | A = a] ≤ ζ̂_a``
for every group. No discretisation is needed: the best response to ``λ ≥ 0`` is one
weighted risk minimisation,

    min_f  (1/n) Σ_i ℓ(Y_i, f(X_i)) + Σ_a (λ_a / n_a) Σ_{i : A_i = a} ℓ(Y_i, f(X_i)),

i.e. row weights ``1/n + λ_{A_i} / n_{A_i}``. The exponentiated-gradient loop is shared
with Algorithm 1. Afterwards the paper's infeasibility check accepts ``Q̂`` only if
``γ̂_a(Q̂) ≤ ζ̂_a + (1 + 2ν)/B`` for every group; otherwise the bounds cannot be met and the
result says ``feasible = False`` (the paper returns *null*; we still return ``Q̂`` so the
caller can see how close it came).

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 5 (problem 13, Lagrangian
L^BGL, weighted best response), Algorithm 2 (Appendix D), Theorem 3.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from service.algorithms.fair_regression.discretization import Grid
from service.algorithms.fair_regression.inputs import (
    TrainingData,
    check_common,
    per_group_values,
    prepare_training_data,
)
from service.algorithms.fair_regression.learners import Learner, make_learner
from service.algorithms.fair_regression.losses import LOGISTIC_C
from service.algorithms.fair_regression.results import FairRegressionResult, build_result
from service.algorithms.fair_regression.saddle_point import Hypothesis, solve_saddle_point
from service.algorithms.fair_regression.sp_problem import hypothesis_stats, statistical_tolerance

__all__ = ["BoundedGroupLossProblem", "fit_bounded_group_loss"]

# Default B, the ℓ1 bound on λ: large enough that the acceptance margin (1 + 2ν)/B of
# Algorithm 2 is about 5% of the smallest bound — a fixed B would accept violations as
# large as the bounds themselves on a task whose losses are ~0.01 — and at least 100
# (fairlearn's B = 1/eps at its default eps = 0.01). Bounds are floored at 1e-4 here so
# that a zero bound still gives a finite B.
ACCEPTANCE_FRACTION = 0.05
MIN_DEFAULT_BOUND_B = 100.0
MIN_BOUND_FOR_B = 1e-4
# Algorithm 2's acceptance test uses the constraint range ρ = 1 (losses are in [0, 1]).
BGL_RHO = 1.0
# Grid used only to report the SP disparity of the BGL predictor (Section 6's N).
REPORT_GRID_SIZE = 40


class BoundedGroupLossProblem:
    """Loss and constraints ``γ_a^BGL − ζ̂_a`` of problem 13 with the weighted oracle."""

    def __init__(self, data: TrainingData, bounds: np.ndarray, learner: Any) -> None:
        self.data, self.bounds, self.learner = data, bounds, learner
        self.grid = Grid(REPORT_GRID_SIZE)
        self.n_constraints = data.n_groups

    def best_response(self, lambda_: np.ndarray) -> Hypothesis:
        d = self.data
        weights = 1.0 / len(d.y) + (lambda_ / d.group_sizes)[d.group_index]
        return self.evaluate(self.learner.fit(d.y, d.loss, weights))

    def evaluate(self, regressor: Any) -> Hypothesis:
        stats = hypothesis_stats(self.data, regressor.predict(self.data.X), self.grid)
        return Hypothesis(regressor, stats["loss"], stats["group_losses"] - self.bounds, stats)

    def default_tolerance(self, first: Hypothesis) -> float:
        return statistical_tolerance(self.data, first)


def fit_bounded_group_loss(
    X: Any,
    y: Any,
    groups: Any,
    bounds: float | Mapping[Any, float],
    *,
    loss: str = "square",
    learner: Learner | Mapping[str, Any] | None = None,
    max_iterations: int = 50,
    tolerance: float | None = None,
    bound_b: float | None = None,
    rng: np.random.Generator | None = None,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    logistic_c: float = LOGISTIC_C,
    linprog_step: bool = True,
) -> FairRegressionResult:
    """Fit a randomized regressor ``Q`` whose loss on every group is at most its bound (Algorithm 2).

    Parameters
    ----------
    bounds : ζ̂ in ``[0, 1]`` on the loss scale of labels scaled to ``[0, 1]``; one number or
        ``{group: ζ̂_a}``.
    bound_b : B (default ``max(100, 20 / min ζ̂_a)``, so that the acceptance margin is ~5% of
        the smallest bound).
    Others as in :func:`~service.algorithms.fair_regression.statistical_parity.fit_statistical_parity`;
    ``disparity`` in the result is the SP disparity of ``Q`` on a grid of 40, for reference.

    Returns
    -------
    FairRegressionResult
        ``feasible`` is Algorithm 2's check ``γ̂_a(Q̂) ≤ ζ̂_a + (1 + 2ν)/B`` for all ``a``.

    References
    ----------
    Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Algorithm 2, problem 13, Theorem 3.
    """
    check_common(max_iterations, tolerance, bound_b, progress, should_stop)
    the_learner = make_learner(learner)
    data = prepare_training_data(X, y, groups, loss, logistic_c)
    zeta = per_group_values(bounds, data, "bounds", 1.0)
    rng = rng if rng is not None else np.random.default_rng(0)
    problem = BoundedGroupLossProblem(data, zeta, the_learner.bind(data.X, data.group_index,
                                                                   data.n_groups, rng))
    if bound_b is None:
        bound_b = max(MIN_DEFAULT_BOUND_B, 1.0 / (ACCEPTANCE_FRACTION * max(float(zeta.min()), MIN_BOUND_FOR_B)))
    saddle = solve_saddle_point(problem, bound_b=bound_b,
                                tolerance=tolerance, max_iterations=max_iterations,
                                linprog_step=linprog_step, progress=progress, should_stop=should_stop)
    settings = {"bounds": {g: float(z) for g, z in zip(data.group_keys, zeta, strict=True)},
                "loss": loss, "learner": the_learner.kind}
    return build_result(data, saddle, constraint="bounded_group_loss", grid=problem.grid, rho=BGL_RHO,
                        settings=settings)
