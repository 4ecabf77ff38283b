"""Algorithm 2 (bounded group loss) and the shared exponentiated-gradient loop."""

from __future__ import annotations

import numpy as np
import pytest

from service.algorithms.fair_regression import fit_bounded_group_loss, group_losses
from service.algorithms.fair_regression.bounded_group_loss import BoundedGroupLossProblem
from service.algorithms.fair_regression.inputs import prepare_training_data
from service.algorithms.fair_regression.regressors import LinearRegressor
from service.algorithms.fair_regression.saddle_point import Hypothesis, solve_saddle_point
from service.algorithms.validation import InputError

TOL = 1e-9


class _FiniteClass:
    """Two fixed hypotheses: h1 costs 0 and violates by +0.2, h2 costs 1 and has 0.2 to spare.

    The constrained optimum mixes them half and half: g(Q) = 0.5 (0.2) + 0.5 (-0.2) = 0,
    cost(Q) = 0.5; any more weight on h1 violates the constraint.
    """

    n_constraints = 1

    def __init__(self) -> None:
        self.items = [Hypothesis("h1", 0.0, np.array([0.2])), Hypothesis("h2", 1.0, np.array([-0.2]))]

    def best_response(self, lambda_: np.ndarray) -> Hypothesis:
        return min(self.items, key=lambda h: h.cost + h.violations @ lambda_)

    def default_tolerance(self, first: Hypothesis) -> float:
        return 1e-6


def test_saddle_point_finds_the_hand_computed_mixture() -> None:
    result = solve_saddle_point(_FiniteClass(), bound_b=20.0, tolerance=1e-6, max_iterations=50)
    by_name = dict(zip([h.regressor for h in result.hypotheses], result.weights, strict=True))
    assert by_name["h1"] == pytest.approx(0.5, abs=1e-6) and by_name["h2"] == pytest.approx(0.5, abs=1e-6)
    assert result.status == "converged" and result.gap <= 1e-6
    # the LP dual: lambda = 2.5 makes both hypotheses equally good (0 + 0.2 l = 1 - 0.2 l)
    assert result.lambda_[0] == pytest.approx(2.5, abs=1e-6)


def test_exponentiated_gradient_alone_approaches_the_mixture() -> None:
    # B = 3: lambda starts at 1.5 < 2.5, so h1 answers until theta has climbed to log 5 (12 steps
    # of eta = 2/3 times 0.2), then the answers alternate around lambda = 2.5.
    result = solve_saddle_point(_FiniteClass(), bound_b=3.0, tolerance=1e-9, max_iterations=200,
                                linprog_step=False)
    violation = float(result.weights @ np.array([0.2, -0.2]))
    assert abs(violation) <= 0.02 and result.weights.sum() == pytest.approx(1.0, abs=TOL)
    assert result.lambda_[0] == pytest.approx(2.5, abs=0.1)
    assert 0 <= result.lambda_.sum() <= 3.0 + TOL  # lambda stays in its l1 box
    assert result.status == "max_iterations" and result.iterations == 200


def _data(n: int = 500, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Group b (30%) has the opposite slope on x0, which a pooled linear model cannot follow."""
    rng = np.random.default_rng(seed)
    b = rng.random(n) < 0.3
    X = rng.normal(size=(n, 2))
    y = X[:, 0] * np.where(b, -1.0, 1.0) + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n)
    return np.column_stack([X, b]), y, np.where(b, "b", "a")


def test_best_response_weights_rows_by_group() -> None:
    X, y, groups = _data(10)
    data = prepare_training_data(X, y, groups, "square", 5.0)
    seen = {}

    class Recorder:
        def fit(self, targets, loss, weights):
            seen["weights"] = weights
            return LinearRegressor(np.zeros(X.shape[1]), 0.5)

    problem = BoundedGroupLossProblem(data, np.array([0.1, 0.1]), Recorder())
    problem.best_response(np.array([0.0, 2.0]))
    n_b = (groups == "b").sum()
    # 1/n + lambda_a / n_a: group a gets 1/10, group b 1/10 + 2/n_b
    expected = np.where(groups == "b", 0.1 + 2.0 / n_b, 0.1)
    assert seen["weights"] == pytest.approx(expected, abs=TOL)


def test_feasible_bound_is_met_within_the_acceptance_margin() -> None:
    X, y, groups = _data()
    free = fit_bounded_group_loss(X, y, groups, 1.0)
    worst = max(free.group_losses.values())
    bound = 0.8 * worst  # binding but reachable: upweighting group b lowers its loss
    result = fit_bounded_group_loss(X, y, groups, bound)
    margin = (1 + 2 * result.tolerance) / result.bound_b
    assert result.feasible and max(result.group_losses.values()) <= bound + margin
    assert result.train_loss >= free.train_loss - TOL  # the constraint costs overall loss
    assert result.bound_b == pytest.approx(max(100.0, 20.0 / bound), rel=1e-12)
    # the reported group losses are those of the returned predictor
    unit = (y - y.min()) / (y.max() - y.min())
    each = result.predictor.predict_each(X)
    assert group_losses(each, unit, groups, weights=result.weights) == pytest.approx(result.group_losses, abs=TOL)
    assert result.lambda_.min() >= 0 and result.lambda_.sum() <= result.bound_b + TOL


def test_unreachable_bound_is_reported_infeasible() -> None:
    X, y, groups = _data()
    result = fit_bounded_group_loss(X, y, groups, {"a": 0.5, "b": 0.0005})
    assert not result.feasible
    assert "not met" in result.message
    assert result.predictor is not None  # the closest distribution is still returned
    assert result.max_violation > (1 + 2 * result.tolerance) / result.bound_b


@pytest.mark.parametrize("loss", ["absolute", "logistic"])
def test_other_losses(loss: str) -> None:
    X, y, groups = _data(300)
    labels = (y > np.median(y)).astype(float) if loss == "logistic" else y
    free = fit_bounded_group_loss(X, labels, groups, 1.0, loss=loss, max_iterations=10)
    bound = 0.9 * max(free.group_losses.values())
    result = fit_bounded_group_loss(X, labels, groups, bound, loss=loss, max_iterations=30)
    assert result.feasible
    assert max(result.group_losses.values()) <= bound + (1 + 2 * result.tolerance) / result.bound_b


def test_bgl_input_errors() -> None:
    X, y, groups = _data(40)
    with pytest.raises(InputError, match="unknown group"):
        fit_bounded_group_loss(X, y, groups, {"a": 0.1, "b": 0.1, "c": 0.1})
    with pytest.raises(InputError, match="between 0 and 1"):
        fit_bounded_group_loss(X, y, groups, -0.1)
    with pytest.raises(InputError, match="positive"):
        fit_bounded_group_loss(X, y, groups, 0.1, bound_b=0.0)
