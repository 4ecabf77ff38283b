"""Fair regression under statistical parity (Algorithm 1), slack sweeps and their Pareto frontier.

``fit_statistical_parity`` solves problem 11 — minimise the discretised loss of a
distribution ``Q`` over regressors subject to ``|γ_{a,z}(Q)| ≤ ε̂_a`` for every group ``a``
and grid threshold ``z`` — with the exponentiated-gradient loop of
:mod:`~service.algorithms.fair_regression.saddle_point` and one of the oracles of
:mod:`~service.algorithms.fair_regression.sp_problem`.

``sweep`` runs it for several slacks on the same data (sharing the learner's
precomputation) and returns the Pareto frontier of the training (loss, disparity) pairs,
the way Section 6 selects the predictors it plots.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 4 (problem 3, discretisation,
problem 11, Algorithm 1, Theorem 4), Section 6 (slack grid, Pareto front, N = 40).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from service.algorithms.fair_regression.discretization import Grid
from service.algorithms.fair_regression.inputs import (
    MAX_GRID_SIZE,
    TrainingData,
    check_common,
    per_group_values,
    prepare_training_data,
)
from service.algorithms.fair_regression.learners import Learner, make_learner
from service.algorithms.fair_regression.losses import LOGISTIC_C
from service.algorithms.fair_regression.results import FairRegressionResult, SweepResult, build_result
from service.algorithms.fair_regression.saddle_point import solve_saddle_point
from service.algorithms.fair_regression.sp_problem import ORACLES, StatisticalParityProblem
from service.algorithms.validation import InputError

__all__ = ["fit_statistical_parity", "pareto_frontier", "sweep"]

# Default B = 1/ε̂ (the reference code's B = 1/eps), with ε̂ floored so that a zero slack
# still gives a finite bound (B = 100).
MIN_SLACK_FOR_BOUND = 0.01
# Theorem 4: |γ̂(Q̂)| ≤ ε̂ + (2 + 2ν)/B, i.e. the constraint range ρ = 2.
SP_RHO = 2.0

Slack = float | Mapping[Any, float]


def _setup(X: Any, y: Any, groups: Any, grid_size: int, loss: str, oracle: str,
           learner: Learner | Mapping[str, Any] | None, max_iterations: int, tolerance: float | None,
           bound_b: float | None, progress: Any, should_stop: Any, logistic_c: float,
           ) -> tuple[TrainingData, Grid, Learner]:
    check_common(max_iterations, tolerance, bound_b, progress, should_stop)
    if isinstance(grid_size, bool) or not isinstance(grid_size, (int, np.integer)) \
            or not 1 <= grid_size <= MAX_GRID_SIZE:
        raise InputError(f"must be a whole number between 1 and {MAX_GRID_SIZE}", ("grid_size",))
    if oracle not in ORACLES:
        raise InputError(f"unknown oracle {oracle!r}; use one of {list(ORACLES)}", ("oracle",))
    the_learner = make_learner(learner)
    if oracle == "cost_sensitive" and the_learner.kind != "linear":
        raise InputError("the cost_sensitive oracle needs the linear learner", ("oracle",))
    data = prepare_training_data(X, y, groups, loss, logistic_c)
    return data, Grid(int(grid_size)), the_learner


def _settings(data: TrainingData, slacks: np.ndarray, grid: Grid, loss: str, oracle: str,
              learner: Learner) -> dict[str, Any]:
    """What one fit was asked for, as its result records it (``slack`` per group name)."""
    return {"slack": {g: float(s) for g, s in zip(data.group_keys, slacks, strict=True)},
            "grid_size": grid.size, "loss": loss, "oracle": oracle, "learner": learner.kind}


def _fit(data: TrainingData, grid: Grid, bound_learner: Any, slack: np.ndarray, *, oracle: str,
         max_iterations: int, tolerance: float | None, bound_b: float | None, linprog_step: bool,
         progress: Callable[[float], None] | None, should_stop: Callable[[], bool] | None,
         settings: dict[str, Any]) -> FairRegressionResult:
    bound = bound_b if bound_b is not None else 1.0 / max(float(slack.min()), MIN_SLACK_FOR_BOUND)
    problem = StatisticalParityProblem(data, slack, grid, oracle, bound_learner)
    saddle = solve_saddle_point(problem, bound_b=bound, tolerance=tolerance, max_iterations=max_iterations,
                                linprog_step=linprog_step, progress=progress, should_stop=should_stop)
    return build_result(data, saddle, constraint="statistical_parity", grid=grid, rho=SP_RHO,
                        settings=settings)


def fit_statistical_parity(
    X: Any,
    y: Any,
    groups: Any,
    slack: Slack = 0.05,
    *,
    grid_size: int = 40,
    loss: str = "square",
    oracle: str = "least_squares",
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
    """Fit a randomized regressor ``Q`` with SP disparity at most ``slack`` (Algorithm 1).

    Parameters
    ----------
    X, y, groups : features ``(n, d)``, labels ``(n,)`` (min–max scaled internally), group per row.
    slack : ε̂ in ``[0, 1]``, one number or ``{group: ε̂_a}``.
    grid_size : N, the number of thresholds ``Z = {1/N, …, 1}`` (Section 4.1).
    loss : ``square`` | ``absolute`` | ``logistic`` (binary labels).
    oracle : ``least_squares`` (default) | ``loss_minimization`` | ``cost_sensitive`` (linear only).
    learner : ``{"type": "linear" | "gradient_boosting", "params": {...}}`` or a learner object.
    max_iterations : T, iterations of the exponentiated-gradient loop.
    tolerance : ν, stop when the duality gap is at most ν (default: half the standard error
        of the unconstrained regressor's loss).
    bound_b : B, the ℓ1 bound on λ (default ``1 / max(min ε̂_a, 0.01)``).
    rng : seeds the gradient-boosting learner; the fit is deterministic given it.
    progress : called once per iteration with the fraction done (1.0 at the end).
    should_stop : polled before every iteration; ``True`` returns the best ``Q`` so far with
        ``status = "cancelled"``.

    Returns
    -------
    FairRegressionResult

    References
    ----------
    Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Algorithm 1, eq. 11, Theorem 4.
    """
    data, grid, the_learner = _setup(X, y, groups, grid_size, loss, oracle, learner, max_iterations,
                                     tolerance, bound_b, progress, should_stop, logistic_c)
    slacks = per_group_values(slack, data, "slack", 1.0)
    rng = rng if rng is not None else np.random.default_rng(0)
    bound_learner = the_learner.bind(data.X, data.group_index, data.n_groups, rng)
    return _fit(data, grid, bound_learner, slacks, oracle=oracle, max_iterations=max_iterations,
                tolerance=tolerance, bound_b=bound_b, linprog_step=linprog_step, progress=progress,
                should_stop=should_stop, settings=_settings(data, slacks, grid, loss, oracle, the_learner))


def pareto_frontier(points: Sequence[tuple[float, float, float]]) -> list[dict[str, float]]:
    """Non-dominated ``(slack, loss, disparity)`` points (lower loss and disparity are better).

    A point is dropped when another has loss and disparity no larger and one of them
    smaller; of identical points the first is kept. Sorted by increasing disparity.
    """
    kept: list[dict[str, float]] = []
    for i, (slack, loss, disparity) in enumerate(points):
        dominated = any(
            (lj <= loss and dj <= disparity and (lj < loss or dj < disparity))
            or (lj == loss and dj == disparity and j < i)
            for j, (_, lj, dj) in enumerate(points) if j != i
        )
        if not dominated:
            kept.append({"slack": float(slack), "loss": float(loss), "disparity": float(disparity)})
    return sorted(kept, key=lambda p: (p["disparity"], p["loss"]))


def sweep(
    slacks: Sequence[float],
    X: Any,
    y: Any,
    groups: Any,
    *,
    grid_size: int = 40,
    loss: str = "square",
    oracle: str = "least_squares",
    learner: Learner | Mapping[str, Any] | None = None,
    max_iterations: int = 50,
    tolerance: float | None = None,
    bound_b: float | None = None,
    rng: np.random.Generator | None = None,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    logistic_c: float = LOGISTIC_C,
    linprog_step: bool = True,
) -> SweepResult:
    """:func:`fit_statistical_parity` for each slack, and the Pareto frontier of the fits.

    ``progress`` runs from 0 to 1 over the whole sweep; ``should_stop`` cancels the
    running fit and skips the rest (``status = "cancelled"``; finished fits are kept).
    The frontier uses the training loss and disparity of each finished fit's randomized
    predictor.

    Returns
    -------
    SweepResult
        ``results`` in the order of ``slacks`` and ``frontier = [{slack, loss, disparity}]``.

    References
    ----------
    Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 6 ("we selected the ones on
    the Pareto front based on their training losses and SP disparity").
    """
    if isinstance(slacks, (str, bytes)) or not isinstance(slacks, Sequence) or len(slacks) == 0:
        raise InputError("must be a non-empty list of slacks", ("slack",))
    data, grid, the_learner = _setup(X, y, groups, grid_size, loss, oracle, learner, max_iterations,
                                     tolerance, bound_b, progress, should_stop, logistic_c)
    per_slack = [per_group_values(s, data, "slack", 1.0) for s in slacks]
    rng = rng if rng is not None else np.random.default_rng(0)
    bound_learner = the_learner.bind(data.X, data.group_index, data.n_groups, rng)
    results: list[FairRegressionResult] = []
    status = "completed"
    for k, values in enumerate(per_slack):
        def sub_progress(fraction: float, k: int = k) -> None:
            if progress is not None:
                progress((k + fraction) / len(per_slack))

        result = _fit(data, grid, bound_learner, values, oracle=oracle, max_iterations=max_iterations,
                      tolerance=tolerance, bound_b=bound_b, linprog_step=linprog_step, progress=sub_progress,
                      should_stop=should_stop, settings=_settings(data, values, grid, loss, oracle, the_learner))
        results.append(result)
        if result.status == "cancelled":
            status = "cancelled"
            break
    points = [(float(np.max(v)), r.train_loss, r.disparity)
              for v, r in zip(per_slack, results, strict=False)
              if r.predictor is not None and r.status != "cancelled"]
    return SweepResult(results, pareto_frontier(points), status)
