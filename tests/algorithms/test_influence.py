"""First-order influence on the fairness surrogate (DataSift eq. 4–5) and its ridge predictor."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits

from service.algorithms.datasift.influence import (
    InfluenceRegressor,
    LogisticModel,
    fairness_influence,
    fairness_surrogate,
    fit_logistic,
)

# Relative agreement between the first-order influence and a retrained model's
# central difference: the difference is O(ε²) plus the solver's tolerance.
INFLUENCE_RTOL = 2e-3
TOL = 1e-9


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(1):
        yield


def _data(seed: int = 0, n: int = 200):
    rng = np.random.default_rng(seed)
    groups = rng.choice(np.array(["a", "b", "c"]), n)
    X = rng.normal(size=(n, 3)) + (groups == "a")[:, None] * 0.7
    y = (rng.random(n) < 1 / (1 + np.exp(-(X[:, 0] - 0.3 * X[:, 2])))).astype(int)
    return X, y, groups


def test_logistic_model_matches_scikit_learn_and_round_trips():
    X, y, _ = _data()
    model = fit_logistic(X, y, C=0.5)
    reference = LogisticRegression(C=0.5, max_iter=2000, tol=1e-6).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), reference.predict_proba(X)[:, 1], atol=1e-6)
    again = LogisticModel.from_params(model.to_params())
    np.testing.assert_allclose(again.predict_proba(X), model.predict_proba(X), atol=TOL)


def test_surrogate_by_hand():
    # w = 1, b = 0. Group a at x = 0: p = 0.5; group b at x = ln 3: p = 0.75.
    # F = 0.75 - 0.5 = 0.25 with the pair (b, a).
    # ∇F = mean_b p(1-p)(x, 1) - mean_a p(1-p)(x, 1) = 0.1875 (ln 3, 1) - 0.25 (0, 1)
    model = LogisticModel(np.array([1.0]), 0.0, 1.0)
    X = np.array([[0.0], [0.0], [np.log(3)], [np.log(3)]])
    surrogate = fairness_surrogate(model, X, np.array(["a", "a", "b", "b"]))
    assert surrogate.pair == ("b", "a") and surrogate.value == pytest.approx(0.25)
    np.testing.assert_allclose(surrogate.gradient, [0.1875 * np.log(3), -0.0625], atol=TOL)
    fixed = fairness_surrogate(model, X, np.array(["a", "a", "b", "b"]), pair=("a", "b"))
    assert fixed.value == pytest.approx(-0.25)


def test_surrogate_gradient_matches_finite_differences_with_three_groups():
    X, y, groups = _data(1)
    model = fit_logistic(X, y)
    surrogate = fairness_surrogate(model, X, groups)
    means = {g: model.predict_proba(X[groups == g]).mean() for g in "abc"}
    assert surrogate.pair == (max(means, key=means.get), min(means, key=means.get))
    assert surrogate.value == pytest.approx(max(means.values()) - min(means.values()))
    theta = np.append(model.coef, model.intercept)
    h = 1e-6
    numeric = []
    for k in range(len(theta)):
        step = np.zeros_like(theta)
        step[k] = h
        up = fairness_surrogate(LogisticModel(theta[:-1] + step[:-1], theta[-1] + step[-1], 1.0), X, groups,
                                pair=surrogate.pair).value
        down = fairness_surrogate(LogisticModel(theta[:-1] - step[:-1], theta[-1] - step[-1], 1.0), X, groups,
                                  pair=surrogate.pair).value
        numeric.append((up - down) / (2 * h))
    np.testing.assert_allclose(surrogate.gradient, numeric, atol=1e-7)


def test_equal_opportunity_surrogate_uses_positive_rows_only():
    model = LogisticModel(np.array([1.0]), 0.0, 1.0)
    X = np.array([[0.0], [5.0], [np.log(3)], [-5.0]])
    groups = np.array(["a", "a", "b", "b"])
    labels = np.array([1, 0, 1, 0])
    # y = 1 rows: a at p = 0.5, b at p = 0.75 -> 0.25; the y = 0 rows are ignored
    surrogate = fairness_surrogate(model, X, groups, labels, metric="equal_opportunity")
    assert surrogate.label == 1 and surrogate.value == pytest.approx(0.25)
    # equalized odds takes the label with the larger gap: y = 0 rows differ by σ(5) - σ(-5) = 0.98661
    odds = fairness_surrogate(model, X, groups, labels, metric="equalized_odds")
    assert odds.label == 0 and odds.value == pytest.approx(0.9866143, abs=1e-6)
    with pytest.raises(ValueError):
        fairness_surrogate(model, X, groups, labels, metric="accuracy")


def test_influence_matches_retraining_with_an_upweighted_point():
    """dF/dε when point i gets weight 1 + nε in the mean loss equals I(x_i) (eq. 5)."""
    X, y, groups = _data(2, n=150)
    C, n = 1.0, len(y)

    def exact_fit(weights):
        lr = LogisticRegression(C=C, tol=1e-12, max_iter=20000).fit(X, y, sample_weight=weights)
        return LogisticModel(lr.coef_[0], float(lr.intercept_[0]), C)

    model = exact_fit(np.ones(n))
    surrogate = fairness_surrogate(model, X, groups)
    influence = fairness_influence(model, X, y, surrogate)
    eps = 0.05 / n
    for i in np.argsort(-np.abs(influence))[:3]:
        values = []
        for sign in (1.0, -1.0):
            weights = np.ones(n)
            weights[i] += sign * eps * n
            values.append(fairness_surrogate(exact_fit(weights), X, groups, pair=surrogate.pair).value)
        numeric = (values[0] - values[1]) / (2 * eps)
        assert influence[i] == pytest.approx(numeric, rel=INFLUENCE_RTOL)


def test_adding_negative_influence_points_lowers_the_surrogate():
    X, y, groups = _data(3, n=300)
    model = fit_logistic(X[:150], y[:150])
    surrogate = fairness_surrogate(model, X[150:], groups[150:])
    influence = fairness_influence(model, X[:150], y[:150], surrogate)
    lowest, highest = np.argsort(influence)[:10], np.argsort(influence)[-10:]

    def gap_after_duplicating(rows):
        refit = fit_logistic(np.vstack([X[:150], X[rows]]), np.concatenate([y[:150], y[rows]]))
        return fairness_surrogate(refit, X[150:], groups[150:], pair=surrogate.pair).value

    assert gap_after_duplicating(lowest) < surrogate.value < gap_after_duplicating(highest)


def test_influence_regressor_learns_a_label_dependent_target():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 2))
    labels = rng.integers(0, 2, 400)
    target = 0.5 + 2.0 * X[:, 0] - labels * X[:, 1]  # sign of x2's effect flips with the label
    model = InfluenceRegressor(alpha=1e-8).fit(X, labels, target)
    np.testing.assert_allclose(model.predict(X, labels), target, atol=1e-6)
    again = InfluenceRegressor.from_params(model.to_params())
    np.testing.assert_allclose(again.predict(X, labels), model.predict(X, labels), atol=TOL)
    plain = InfluenceRegressor(alpha=1e-8, interactions=False).fit(X, labels, target)
    assert plain.coef_.shape == (3,)  # features and label only
    assert np.abs(plain.predict(X, labels) - target).max() > 0.5  # cannot express the interaction
