"""Gradient-boosting base learner (scikit-learn's ``GradientBoosting*``), stored as node arrays.

* square loss — ``GradientBoostingRegressor(loss="squared_error")``;
* absolute loss — ``GradientBoostingRegressor(loss="absolute_error")``;
* logistic loss — ``GradientBoostingClassifier(loss="log_loss")`` on soft labels ``t``: each
  row becomes a positive copy weighted ``w t`` and a negative copy weighted ``w (1 − t)``
  (the pair construction of Appendix F.3); the raw score is the log-odds ``s`` and the
  prediction ``u = 1/2 + s / (2C)`` (Example 2).

The fitted ensemble is converted to a :class:`TreeEnsembleRegressor` at once, so the
predictor never holds a scikit-learn object. There is no cost-sensitive variant: a
tree ensemble of the form ``1{f(x) ≥ z}`` has no off-the-shelf weighted-classification
learner, so ``oracle = cost_sensitive`` needs the linear learner.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 6 (tree-ensemble LS and LR
oracles), Appendix F.3 (two weighted copies per example for the logistic loss).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor

from service.algorithms.fair_regression.losses import Loss
from service.algorithms.fair_regression.regressors import LinearRegressor, TreeEnsembleRegressor

__all__ = ["BoundBoostingLearner", "GradientBoostingLearner"]

# Largest seed handed to scikit-learn (it accepts 32-bit seeds).
MAX_SEED = 2**31 - 1


class GradientBoostingLearner:
    """Hyperparameters of the tree-ensemble class (scikit-learn's defaults unless given)."""

    kind = "gradient_boosting"

    def __init__(self, n_estimators: int = 100, max_depth: int = 3, learning_rate: float = 0.1,
                 subsample: float = 1.0, min_samples_leaf: int = 1) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.subsample = subsample
        self.min_samples_leaf = min_samples_leaf

    def sklearn_params(self) -> dict[str, Any]:
        return {"n_estimators": int(self.n_estimators), "max_depth": int(self.max_depth),
                "learning_rate": float(self.learning_rate), "subsample": float(self.subsample),
                "min_samples_leaf": int(self.min_samples_leaf)}

    def bind(self, X: np.ndarray, group_index: np.ndarray, n_groups: int,
             rng: np.random.Generator) -> BoundBoostingLearner:
        return BoundBoostingLearner(X, self.sklearn_params(), int(rng.integers(MAX_SEED)))


class BoundBoostingLearner:
    """A :class:`GradientBoostingLearner` bound to a training matrix and one seed."""

    def __init__(self, X: np.ndarray, params: dict[str, Any], seed: int) -> None:
        self.X = X
        self.params = params
        self.seed = seed

    def fit(self, targets: np.ndarray, loss: Loss,
            weights: np.ndarray | None = None) -> TreeEnsembleRegressor | LinearRegressor:
        """Minimise ``Σ w_i ℓ(t_i, f(x_i))`` over boosted trees (``t`` are soft labels for logistic)."""
        n, d = self.X.shape
        w = np.ones(n) if weights is None else weights
        w = w * (n / w.sum())
        if loss.name in ("square", "absolute"):
            name = "squared_error" if loss.name == "square" else "absolute_error"
            model = GradientBoostingRegressor(loss=name, random_state=self.seed, **self.params)
            model.fit(self.X, targets, sample_weight=w)
            return TreeEnsembleRegressor.from_sklearn(model, d)
        positive, negative = w * targets, w * (1.0 - targets)
        if not positive.any() or not negative.any():
            # Every unit of weight asks for the same side: the best predictor is the constant end.
            return LinearRegressor(np.zeros(d), 1.0 if positive.any() else 0.0)
        keep_pos, keep_neg = positive > 0, negative > 0
        X = np.vstack([self.X[keep_pos], self.X[keep_neg]])
        labels = np.concatenate([np.ones(keep_pos.sum()), np.zeros(keep_neg.sum())])
        sample_weight = np.concatenate([positive[keep_pos], negative[keep_neg]])
        model = GradientBoostingClassifier(loss="log_loss", random_state=self.seed, **self.params)
        model.fit(X, labels, sample_weight=sample_weight)
        return TreeEnsembleRegressor.from_sklearn(model, d, 1.0 / (2.0 * loss.c), 0.5)

    def fit_cost_sensitive(self, costs: np.ndarray, grid: Any, start_targets: np.ndarray) -> Any:
        raise NotImplementedError("the cost-sensitive oracle needs the linear learner")
