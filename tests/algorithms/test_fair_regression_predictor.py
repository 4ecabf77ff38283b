"""Fitted predictors as plain parameters: round trips, identity with scikit-learn, prediction modes."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor
from sklearn.linear_model import LinearRegression

from service.algorithms.fair_regression import (
    FairRegressionPredictor,
    GradientBoostingLearner,
    LabelScaling,
    LinearLearner,
    evaluate_predictor,
    fit_statistical_parity,
    get_loss,
    join_params,
    make_learner,
    split_params,
)
from service.algorithms.fair_regression.regressors import LinearRegressor, TreeEnsembleRegressor
from service.algorithms.validation import InputError

TOL = 1e-10


def _data(n: int = 300, d: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * np.array([1.0, 10.0, 0.1, 3.0]) + 5.0
    y = 1 / (1 + np.exp(-(X[:, 0] - 5))) + 0.05 * rng.normal(size=n)
    groups = (rng.random(n) < 0.4).astype(int)
    return X, np.clip(y, 0, 1), groups


def test_linear_least_squares_equals_sklearn_on_the_raw_feature_scale() -> None:
    X, y, groups = _data()
    bound = LinearLearner(alpha=0.0).bind(X, groups, 2, np.random.default_rng(0))
    regressor = bound.fit(y, get_loss("square"))
    reference = LinearRegression().fit(X, y)
    assert regressor.coef == pytest.approx(reference.coef_, rel=1e-8)
    assert regressor.raw(X) == pytest.approx(reference.predict(X), abs=1e-9)


def test_weighted_least_squares_uses_group_weights_exactly() -> None:
    X, y, groups = _data()
    bound = LinearLearner(alpha=0.0).bind(X, groups, 2, np.random.default_rng(0))
    weights = np.where(groups == 1, 3.0, 0.5)  # constant per group: the Gram fast path
    regressor = bound.fit(y, get_loss("square"), weights)
    reference = LinearRegression().fit(X, y, sample_weight=weights)
    assert regressor.raw(X) == pytest.approx(reference.predict(X), abs=1e-9)
    per_row = weights * (1 + 0.1 * np.arange(len(y)) / len(y))  # general weights: the other path
    assert bound.fit(y, get_loss("square"), per_row).raw(X) == pytest.approx(
        LinearRegression().fit(X, y, sample_weight=per_row).predict(X), abs=1e-9)


def _boosting_round_trip(model, X: np.ndarray, scale: float, offset: float) -> None:
    ensemble = TreeEnsembleRegressor.from_sklearn(model, X.shape[1], scale, offset)
    params = ensemble.to_params()
    rebuilt = FairRegressionPredictor.from_params(
        FairRegressionPredictor([ensemble], np.ones(1), LabelScaling(0.0, 1.0), X.shape[1]).to_params())
    raw_sklearn = model.decision_function(X) if hasattr(model, "predict_proba") else model.predict(X)
    # bit-for-bit: the same float32 comparisons and the same stage-by-stage sum
    assert np.array_equal(ensemble.raw(X), raw_sklearn)
    assert np.array_equal(rebuilt.regressors[0].raw(X), raw_sklearn)
    assert np.array_equal(rebuilt.predict(X), np.clip(offset + scale * raw_sklearn, 0, 1))
    assert set(params) >= {"feature", "threshold", "left", "right", "value", "tree_offsets", "init",
                           "learning_rate"}


def test_gradient_boosting_regressor_round_trip_predicts_identically() -> None:
    X, y, _ = _data(400)
    model = GradientBoostingRegressor(n_estimators=25, max_depth=3, random_state=0).fit(X, y)
    X_new = _data(200, seed=1)[0]
    _boosting_round_trip(model, X_new, 1.0, 0.0)


def test_gradient_boosting_classifier_round_trip_predicts_identically() -> None:
    X, y, _ = _data(400)
    model = GradientBoostingClassifier(n_estimators=20, max_depth=2, random_state=0).fit(X, (y > 0.5).astype(int))
    _boosting_round_trip(model, _data(200, seed=2)[0], 1 / 10, 0.5)


def test_fitted_predictor_survives_json_and_npz_without_pickle() -> None:
    X, y, groups = _data()
    result = fit_statistical_parity(X, 10 * y + 3, groups, 0.05, max_iterations=8,
                                    learner={"type": "gradient_boosting", "params": {"n_estimators": 10}},
                                    rng=np.random.default_rng(3))
    predictor = result.predictor
    meta, arrays = split_params(predictor.to_params())
    text = json.dumps(meta)  # the non-array part is plain JSON
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    buffer.seek(0)
    with np.load(buffer, allow_pickle=False) as stored:
        rebuilt = FairRegressionPredictor.from_params(join_params(json.loads(text), stored))
    assert np.array_equal(rebuilt.predict(X), predictor.predict(X))
    assert rebuilt.weights.sum() == pytest.approx(1.0, abs=TOL)
    # labels come back on the caller's scale: 10 y + 3 lies in [3, 13]
    assert predictor.predict(X).min() >= 3.0 - TOL and predictor.predict(X).max() <= 13.0 + TOL
    assert meta["library_versions"]["numpy"] == np.__version__


def test_expected_and_randomized_predictions() -> None:
    X = np.array([[0.0], [1.0], [2.0]])
    low = LinearRegressor(np.array([0.0]), 0.2)  # always 0.2
    high = LinearRegressor(np.array([0.25]), 0.3)  # 0.3, 0.55, 0.8
    predictor = FairRegressionPredictor([low, high], np.array([0.25, 0.75]), LabelScaling(0.0, 2.0), 1)
    # expected on the unit scale: 0.25*0.2 + 0.75*[0.3, 0.55, 0.8] = [0.275, 0.4625, 0.65]; label scale x2
    assert predictor.predict(X) == pytest.approx([0.55, 0.925, 1.3], abs=TOL)
    draws = np.stack([predictor.predict(X, "randomized", np.random.default_rng(s), unit=True) for s in range(400)])
    assert np.all((draws == 0.2) | np.isin(draws, [0.3, 0.55, 0.8]))  # every row is one h's prediction
    assert (draws[:, 0] == 0.3).mean() == pytest.approx(0.75, abs=0.06)  # drawn with Q(high) = 3/4
    again = predictor.predict(X, "randomized", np.random.default_rng(7))
    assert np.array_equal(again, predictor.predict(X, "randomized", np.random.default_rng(7)))


def test_prediction_input_errors() -> None:
    predictor = FairRegressionPredictor([LinearRegressor(np.zeros(2), 0.5)], np.ones(1), LabelScaling(0, 1), 2)
    with pytest.raises(InputError, match="expected 2"):
        predictor.predict([[1.0, 2.0, 3.0]])
    with pytest.raises(InputError, match="finite"):
        predictor.predict([[1.0, float("nan")]])
    with pytest.raises(InputError, match="unknown mode"):
        predictor.predict([[1.0, 2.0]], mode="median")
    with pytest.raises(InputError, match="random generator"):
        predictor.predict([[1.0, 2.0]], mode="randomized")
    with pytest.raises(ValueError, match="format"):
        FairRegressionPredictor.from_params({"format": "pickle"})


def test_learner_specs_are_validated() -> None:
    assert isinstance(make_learner(None), LinearLearner)
    learner = make_learner({"type": "gradient_boosting", "params": {"n_estimators": 7, "max_depth": 2}})
    assert isinstance(learner, GradientBoostingLearner) and learner.n_estimators == 7
    with pytest.raises(InputError, match="unknown learner"):
        make_learner({"type": "forest"})
    with pytest.raises(InputError, match="unknown hyperparameter"):
        make_learner({"type": "linear", "params": {"depth": 3}})
    with pytest.raises(InputError, match="whole number"):
        make_learner({"type": "gradient_boosting", "params": {"n_estimators": 2.5}})


def test_evaluate_predictor_separates_randomized_and_expected() -> None:
    # h1(x) = x and h2(x) = 1 - x, Q = (1/2, 1/2); group a has x = 1, group b has x = 0; y = x.
    X = np.array([[1.0], [1.0], [0.0], [0.0]])
    h1 = LinearRegressor(np.array([1.0]), 0.0)
    h2 = LinearRegressor(np.array([-1.0]), 1.0)
    predictor = FairRegressionPredictor([h1, h2], np.array([0.5, 0.5]), LabelScaling(0.0, 1.0), 1)
    out = evaluate_predictor(predictor, X, X[:, 0], np.array(["a", "a", "b", "b"]), "square")
    # randomized: h1 is exact (loss 0), h2 is wrong by 1 everywhere (loss 1/2) -> 1/4;
    # P[f >= z | a] = P[f >= z | b] = 1/2 for every z, so the disparity is 0
    assert out["loss"] == pytest.approx(0.25, abs=TOL)
    assert out["group_losses"] == pytest.approx({"a": 0.25, "b": 0.25}, abs=TOL)
    assert out["disparity"] == pytest.approx(0.0, abs=TOL)
    # expected: 1/2 everywhere -> loss (1/2)^2 / 2 = 1/8, also disparity 0
    assert out["loss_expected"] == pytest.approx(0.125, abs=TOL)
    assert out["disparity_expected"] == pytest.approx(0.0, abs=TOL)
