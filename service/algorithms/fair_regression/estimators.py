"""scikit-learn-style wrappers: ``__init__`` stores hyperparameters, ``fit`` returns ``self``.

They call :func:`fit_statistical_parity` / :func:`fit_bounded_group_loss` and keep the
result record as ``result_`` and the fitted distribution as ``predictor_``; ``predict``
delegates to :meth:`FairRegressionPredictor.predict`. The functions remain the primary
API (the web layer calls them with hooks); these are for notebooks and pipelines.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Algorithms 1 and 2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service.algorithms.fair_regression.bounded_group_loss import fit_bounded_group_loss
from service.algorithms.fair_regression.predictor import FairRegressionPredictor
from service.algorithms.fair_regression.results import FairRegressionResult
from service.algorithms.fair_regression.statistical_parity import fit_statistical_parity

__all__ = ["BoundedGroupLossRegressor", "StatisticalParityRegressor"]


class _FairRegressor:
    result_: FairRegressionResult
    predictor_: FairRegressionPredictor

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Hyperparameters as given to ``__init__`` (learned attributes end in ``_``)."""
        return {k: v for k, v in self.__dict__.items() if not k.endswith("_")}

    def predict(self, X: Any, mode: str = "expected", rng: np.random.Generator | None = None) -> np.ndarray:
        if not hasattr(self, "predictor_"):
            raise RuntimeError("call fit before predict")
        return self.predictor_.predict(X, mode, rng)

    def _keep(self, result: FairRegressionResult) -> _FairRegressor:
        if result.predictor is None:
            raise RuntimeError(f"the fit returned no predictor ({result.message})")
        self.result_, self.predictor_ = result, result.predictor
        return self


class StatisticalParityRegressor(_FairRegressor):
    """Algorithm 1 as an estimator; ``fit(X, y, groups)``."""

    def __init__(self, slack: float = 0.05, *, grid_size: int = 40, loss: str = "square",
                 oracle: str = "least_squares", learner: Any = None, max_iterations: int = 50,
                 tolerance: float | None = None, bound_b: float | None = None, random_state: int = 0) -> None:
        self.slack = slack
        self.grid_size = grid_size
        self.loss = loss
        self.oracle = oracle
        self.learner = learner
        self.max_iterations = max_iterations
        self.tolerance = tolerance
        self.bound_b = bound_b
        self.random_state = random_state

    def fit(self, X: Any, y: Any, groups: Any) -> StatisticalParityRegressor:
        result = fit_statistical_parity(
            X, y, groups, self.slack, grid_size=self.grid_size, loss=self.loss, oracle=self.oracle,
            learner=self.learner, max_iterations=self.max_iterations, tolerance=self.tolerance,
            bound_b=self.bound_b, rng=np.random.default_rng(self.random_state))
        self._keep(result)
        return self


class BoundedGroupLossRegressor(_FairRegressor):
    """Algorithm 2 as an estimator; ``fit(X, y, groups)``."""

    def __init__(self, bounds: Any = 0.1, *, loss: str = "square", learner: Any = None,
                 max_iterations: int = 50, tolerance: float | None = None, bound_b: float | None = None,
                 random_state: int = 0) -> None:
        self.bounds = bounds
        self.loss = loss
        self.learner = learner
        self.max_iterations = max_iterations
        self.tolerance = tolerance
        self.bound_b = bound_b
        self.random_state = random_state

    def fit(self, X: Any, y: Any, groups: Any) -> BoundedGroupLossRegressor:
        result = fit_bounded_group_loss(
            X, y, groups, self.bounds, loss=self.loss, learner=self.learner,
            max_iterations=self.max_iterations, tolerance=self.tolerance, bound_b=self.bound_b,
            rng=np.random.default_rng(self.random_state))
        self._keep(result)
        return self
