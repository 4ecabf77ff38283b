"""Algorithm 1 (statistical parity): oracles, invariants, hooks, sweeps and input checks."""

from __future__ import annotations

import numpy as np
import pytest

from service.algorithms.fair_regression import (
    BoundedGroupLossRegressor,
    StatisticalParityRegressor,
    fit_statistical_parity,
    get_loss,
    pareto_frontier,
    sweep,
)
from service.algorithms.fair_regression.discretization import Grid
from service.algorithms.fair_regression.evaluation import sp_gamma
from service.algorithms.fair_regression.inputs import prepare_training_data
from service.algorithms.fair_regression.linear_learner import LinearLearner
from service.algorithms.fair_regression.sp_problem import StatisticalParityProblem
from service.algorithms.validation import InputError

TOL = 1e-9


def _data(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels depend on the group directly and through shifted features; the group is a feature."""
    rng = np.random.default_rng(seed)
    a = (rng.random(n) < 0.35).astype(int)
    X = rng.normal(size=(n, 3)) + 0.8 * a[:, None]
    y = X @ np.array([1.0, 0.5, -0.3]) + 0.8 * a + 0.4 * rng.normal(size=n)
    return np.column_stack([X, a]), y, np.where(a == 1, "b", "a")


def _problem(slack: float = 0.05, grid_size: int = 4, oracle: str = "least_squares") -> StatisticalParityProblem:
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    data = prepare_training_data(X, np.array([0.0, 0.3, 0.7, 1.0]), np.array([0, 0, 1, 1]), "square", 5.0)
    learner = LinearLearner().bind(data.X, data.group_index, 2, np.random.default_rng(0))
    return StatisticalParityProblem(data, np.full(2, slack), Grid(grid_size), oracle, learner)


def test_lagrangian_costs_follow_eq_12() -> None:
    problem = _problem(grid_size=2)  # p_a = 1/2 for both groups, N = 2
    lam = np.zeros(2 * 2 * 2)
    lam[0] = 0.1  # lambda+ for (a = 0, z = 1/2)
    c = problem.lagrangian_costs(lam)
    # a = 0, z = 1/2: c + N lam / p_0 - N sum_a lam = c + 2(0.1)/0.5 - 2(0.1) = c + 0.2
    # a = 1, z = 1/2: c + 0 - 0.2 = c - 0.2; at z = 1 nothing changes
    assert c[:, 0, 0] - problem.costs[:, 0] == pytest.approx(np.full(len(problem.costs), 0.2), abs=TOL)
    assert c[:, 1, 0] - problem.costs[:, 0] == pytest.approx(np.full(len(problem.costs), -0.2), abs=TOL)
    assert c[:, :, 1] == pytest.approx(np.repeat(problem.costs[:, 1:2], 2, axis=1), abs=TOL)


def test_least_squares_targets_at_zero_lambda_are_the_nearest_cell() -> None:
    problem = _problem(grid_size=4)  # representatives 0.125, 0.375, 0.625, 0.875, 1
    u = problem.targets(problem.lagrangian_costs(np.zeros(problem.n_constraints)))
    # square loss: g_0(y, u) = l_alpha(y, u) + const is smallest at the representative nearest y
    # y = 0 -> 0.125; 0.3 -> 0.375; 0.7 -> 0.625; 1 -> 1
    assert u.tolist() == [0.125, 0.375, 0.625, 1.0]


def test_logistic_weights_put_the_zero_gradient_at_the_target() -> None:
    # Appendix F.3: W ell(1, u) + (1 - W) ell(0, u) must be minimised at u = U; with Example 2's
    # rescaled prediction that needs W = sigmoid(C (2U - 1)), not W = U.
    loss, target = get_loss("logistic"), 0.8
    weight = 1 / (1 + np.exp(-loss.logit(target)))
    u = np.linspace(0, 1, 100001)
    objective = weight * loss(1.0, u) + (1 - weight) * loss(0.0, u)
    assert u[np.argmin(objective)] == pytest.approx(target, abs=1e-4)


@pytest.mark.parametrize("oracle", ["least_squares", "loss_minimization", "cost_sensitive"])
def test_fits_respect_the_slack_and_keep_lambda_in_its_box(oracle: str) -> None:
    X, y, groups = _data()
    unconstrained = fit_statistical_parity(X, y, groups, 1.0, oracle=oracle, max_iterations=10)
    result = fit_statistical_parity(X, y, groups, 0.05, oracle=oracle, max_iterations=30)
    assert unconstrained.disparity > 0.2  # the constraint binds
    # Theorem 4: |gamma(Q)| <= eps + (2 + 2 nu) / B on the training data
    assert result.disparity <= 0.05 + (2 + 2 * result.tolerance) / result.bound_b + TOL
    assert result.feasible
    assert result.bound_b == pytest.approx(1 / 0.05, abs=TOL)
    assert sum(result.weights) == pytest.approx(1.0, abs=TOL) and min(result.weights) > 0
    assert result.n_predictors == len(result.weights) == len(result.predictor.regressors)
    assert result.lambda_.min() >= 0 and result.lambda_.sum() <= result.bound_b + TOL
    assert result.train_loss >= unconstrained.train_loss - TOL
    assert result.status in ("converged", "max_iterations") and result.iterations >= 1


def test_per_group_slacks_bound_each_group() -> None:
    X, y, groups = _data()
    result = fit_statistical_parity(X, y, groups, {"a": 0.02, "b": 0.1}, max_iterations=30)
    margin = (2 + 2 * result.tolerance) / result.bound_b
    index = (groups == "b").astype(int)
    sizes = np.bincount(index).astype(float)
    each = result.predictor.predict_each(X)
    gamma = sum(w * sp_gamma(p, index, sizes, Grid(40)) for w, p in zip(result.weights, each, strict=True))
    assert np.abs(gamma[0]).max() <= 0.02 + margin + TOL
    assert np.abs(gamma[1]).max() <= 0.1 + margin + TOL
    assert result.settings["slack"] == {"a": 0.02, "b": 0.1}
    assert result.bound_b == pytest.approx(50.0, abs=TOL)  # 1 / min slack


def test_progress_is_called_once_per_iteration_and_cancellation_stops() -> None:
    X, y, groups = _data(200)
    calls: list[float] = []
    result = fit_statistical_parity(X, y, groups, 0.05, max_iterations=12, tolerance=1e-12,
                                    progress=calls.append)
    assert len(calls) == result.iterations
    assert calls == sorted(calls) and calls[-1] == pytest.approx(1.0, abs=TOL)
    polls = iter(range(100))
    stopped = fit_statistical_parity(X, y, groups, 0.05, max_iterations=12, tolerance=1e-12,
                                     should_stop=lambda: next(polls) >= 3)
    assert stopped.status == "cancelled" and stopped.iterations == 3 and stopped.predictor is not None
    at_once = fit_statistical_parity(X, y, groups, 0.05, should_stop=lambda: True)
    assert at_once.status == "cancelled" and at_once.predictor is None and at_once.weights == []


def test_fits_are_deterministic_given_rng() -> None:
    X, y, groups = _data(200)
    learner = {"type": "gradient_boosting", "params": {"n_estimators": 8, "subsample": 0.7}}
    first = fit_statistical_parity(X, y, groups, 0.1, learner=learner, max_iterations=6,
                                   rng=np.random.default_rng(11))
    second = fit_statistical_parity(X, y, groups, 0.1, learner=learner, max_iterations=6,
                                    rng=np.random.default_rng(11))
    assert first.weights == second.weights
    assert np.array_equal(first.predictor.predict(X), second.predictor.predict(X))


def test_pareto_frontier_by_hand() -> None:
    points = [(0.01, 0.50, 0.01), (0.05, 0.40, 0.06), (0.1, 0.45, 0.07), (0.2, 0.30, 0.20), (1.0, 0.30, 0.25)]
    # (0.1) is beaten by (0.05) on both; (1.0) ties (0.2) on loss with more disparity
    assert [p["slack"] for p in pareto_frontier(points)] == [0.01, 0.05, 0.2]


def test_sweep_returns_every_fit_and_a_frontier() -> None:
    X, y, groups = _data(300)
    seen: list[float] = []
    result = sweep([0.02, 0.1, 1.0], X, y, groups, max_iterations=10, progress=seen.append)
    assert len(result.results) == 3 and result.status == "completed"
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0, abs=TOL)
    front = result.frontier
    assert [p["disparity"] for p in front] == sorted(p["disparity"] for p in front)
    assert all(later["loss"] < earlier["loss"] for earlier, later in zip(front, front[1:], strict=False))
    assert {p["slack"] for p in front} <= {0.02, 0.1, 1.0}
    polls = iter(range(1000))
    cancelled = sweep([0.02, 0.1, 1.0], X, y, groups, max_iterations=10, tolerance=1e-12,
                      should_stop=lambda: next(polls) >= 13)
    # the first fit uses polls 0-9 (10 iterations), the second runs 3 and stops at poll 13, the
    # third never starts; the frontier only has finished fits
    assert cancelled.status == "cancelled" and len(cancelled.results) == 2
    assert cancelled.results[1].status == "cancelled" and cancelled.results[1].iterations == 3
    assert [p["slack"] for p in cancelled.frontier] == [0.02]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"slack": 1.5}, "between 0 and 1"),
        ({"slack": {"a": 0.1, "zz": 0.1}}, "unknown group"),
        ({"slack": {"a": 0.1}}, "no value for group"),
        ({"oracle": "cost_sensitive", "learner": {"type": "gradient_boosting"}}, "linear learner"),
        ({"oracle": "magic"}, "unknown oracle"),
        ({"grid_size": 0}, "grid_size|between 1"),
        ({"loss": "logistic"}, "binary labels"),
        ({"max_iterations": 0}, "between 1"),
    ],
)
def test_input_errors_say_what_to_fix(kwargs: dict, match: str) -> None:
    X, y, groups = _data(50)
    slack = kwargs.pop("slack", 0.1)
    with pytest.raises(InputError, match=match):
        fit_statistical_parity(X, y, groups, slack, **kwargs)


def test_ragged_or_non_finite_data_is_rejected() -> None:
    X, y, groups = _data(50)
    with pytest.raises(InputError, match="one per row"):
        fit_statistical_parity(X, y[:-1], groups, 0.1)
    X[3, 1] = np.inf
    with pytest.raises(InputError, match="finite"):
        fit_statistical_parity(X, y, groups, 0.1)


def test_estimator_wrappers_follow_the_sklearn_contract() -> None:
    X, y, groups = _data(200)
    model = StatisticalParityRegressor(0.05, max_iterations=10)
    assert model.get_params()["slack"] == 0.05 and not hasattr(model, "predictor_")
    assert model.fit(X, y, groups) is model
    assert np.array_equal(model.predict(X), model.predictor_.predict(X))
    assert model.result_.disparity <= 0.05 + (2 + 2 * model.result_.tolerance) / model.result_.bound_b + TOL
    bgl = BoundedGroupLossRegressor(1.0, max_iterations=5).fit(X, y, groups)
    assert bgl.result_.feasible and bgl.result_.constraint == "bounded_group_loss"
