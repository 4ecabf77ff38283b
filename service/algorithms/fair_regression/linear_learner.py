"""Linear base learner: weighted least squares, L1 and logistic regression, cost-sensitive hinge.

The learner is *bound* to one training matrix (:meth:`LinearLearner.bind`) so that the
work shared by the dozens of oracle calls of one fit — standardising the features and
the per-group Gram matrices ``D_aᵀ D_a`` of the design ``D = [standardised X, 1]`` — is
done once. Both reductions only ever weight rows by group (``1/n + λ_a / n_a`` in
Algorithm 2, uniform in the SP oracles), so a weighted least-squares fit costs one
``O(n d)`` product and a ``(d+1)²`` solve.

Coefficients are fitted on standardised features with an L2 penalty ``alpha/2 ‖β‖²``
(intercept unpenalised) on the per-row mean loss, then mapped back to the raw feature
scale, so the stored :class:`LinearRegressor` applies to raw features.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 3 (risk-minimisation,
least-squares and cost-sensitive oracles), Appendix G (cost-sensitive oracle as a
weighted hinge loss with margin α/2 over box-bounded linear models).
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve
from scipy.optimize import minimize
from sklearn.linear_model import QuantileRegressor

from service.algorithms.fair_regression.discretization import Grid
from service.algorithms.fair_regression.losses import Loss
from service.algorithms.fair_regression.regressors import LinearRegressor

__all__ = ["BoundLinearLearner", "LinearLearner"]

# Relative singular-value cutoff when alpha = 0 and the Gram matrix is singular (one-hot
# blocks that sum to the intercept column); 1e-10 on the Gram is 1e-5 on X itself.
GRAM_RCOND = 1e-10
# L-BFGS stopping rule for the logistic and hinge fits: gradients of a mean loss in
# [0, 1] below 1e-7 move predictions by far less than the grid width 1/N.
LBFGS_GTOL = 1e-7
LBFGS_MAXITER = 500
# Appendix G bounds the cost-sensitive model's coefficients by 1 in the ℓ∞ norm; we apply
# the box to standardised features (the intercept is free).
CS_COEF_BOUND = 1.0
# The hinge loss is smoothed quadratically over a quarter of its margin α/2 so that
# L-BFGS-B sees a continuous gradient (the paper solves the exact LP with Gurobi).
CS_SMOOTHING = 0.25


class LinearLearner:
    """Hyperparameters of the linear class; ``alpha`` is the L2 penalty on standardised coefficients."""

    kind = "linear"

    def __init__(self, alpha: float = 1e-4) -> None:
        self.alpha = alpha

    def bind(self, X: np.ndarray, group_index: np.ndarray, n_groups: int,
             rng: np.random.Generator) -> BoundLinearLearner:
        return BoundLinearLearner(X, group_index, n_groups, float(self.alpha))


class BoundLinearLearner:
    """A :class:`LinearLearner` with the training matrix's statistics precomputed."""

    def __init__(self, X: np.ndarray, group_index: np.ndarray, n_groups: int, alpha: float) -> None:
        self.mean = X.mean(axis=0)
        std = X.std(axis=0)
        self.std = np.where(std > 0, std, 1.0)
        self.design = np.hstack([(X - self.mean) / self.std, np.ones((len(X), 1))])
        self.group_index = group_index
        self.first_of_group = np.array([np.flatnonzero(group_index == a)[0] for a in range(n_groups)])
        self.group_gram = np.stack([self.design[group_index == a].T @ self.design[group_index == a]
                                    for a in range(n_groups)])
        self.alpha = alpha
        self.penalty = np.ones(self.design.shape[1])
        self.penalty[-1] = 0.0
        self._warm: dict[str, np.ndarray] = {}

    def _to_raw(self, theta: np.ndarray, scale: float = 1.0, offset: float = 0.0) -> LinearRegressor:
        coef = theta[:-1] / self.std
        return LinearRegressor(coef, float(theta[-1] - coef @ self.mean), scale, offset)

    def _gram(self, weights: np.ndarray) -> np.ndarray:
        per_group = weights[self.first_of_group]
        if np.array_equal(weights, per_group[self.group_index]):
            return np.tensordot(per_group, self.group_gram, axes=1)
        return np.asarray(self.design.T @ (weights[:, None] * self.design))

    def fit(self, targets: np.ndarray, loss: Loss, weights: np.ndarray | None = None) -> LinearRegressor:
        """Minimise ``Σ w_i ℓ(t_i, f(x_i))`` over linear ``f`` (``t`` are soft labels for logistic)."""
        w = np.ones(len(targets)) if weights is None else weights
        w = w / w.sum()
        if loss.name == "square":
            return self._to_raw(self._least_squares(targets, w))
        if loss.name == "absolute":
            model = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs")
            model.fit(self.design[:, :-1], targets, sample_weight=w * len(w))
            return self._to_raw(np.append(model.coef_, model.intercept_))
        theta = self._logistic(targets, w)
        return self._to_raw(theta, 1.0 / (2.0 * loss.c), 0.5)

    def _least_squares(self, targets: np.ndarray, w: np.ndarray) -> np.ndarray:
        gram = self._gram(w) + self.alpha * np.diag(self.penalty)
        rhs = self.design.T @ (w * targets)
        if self.alpha > 0:
            return np.asarray(solve(gram, rhs, assume_a="pos"))
        return np.asarray(np.linalg.lstsq(gram, rhs, rcond=GRAM_RCOND)[0])

    def _logistic(self, targets: np.ndarray, w: np.ndarray) -> np.ndarray:
        def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
            s = self.design @ theta
            value = w @ (np.logaddexp(0.0, s) - targets * s) + 0.5 * self.alpha * (self.penalty * theta) @ theta
            residual = w * (0.5 * (1.0 + np.tanh(0.5 * s)) - targets)
            return float(value), self.design.T @ residual + self.alpha * self.penalty * theta

        start = self._warm.get("logistic", np.zeros(self.design.shape[1]))
        result = minimize(objective, start, jac=True, method="L-BFGS-B",
                          options={"gtol": LBFGS_GTOL, "maxiter": LBFGS_MAXITER})
        self._warm["logistic"] = result.x
        return np.asarray(result.x)

    def fit_cost_sensitive(self, costs: np.ndarray, grid: Grid, start_targets: np.ndarray) -> LinearRegressor:
        """Minimise the weighted hinge surrogate of ``Σ_{i,z} C_{i,z} 1{f(x_i) ≥ z}`` (Appendix G).

        ``costs`` has shape ``(n, N)``; rows with ``C ≤ 0`` want ``f(x_i) ≥ z`` (label +1),
        the others ``f(x_i) < z``, each weighted by ``|C|``, with margin ``α/2``.
        """
        sign = np.where(costs <= 0, 1.0, -1.0)
        weight = np.abs(costs)
        weight = weight / max(weight.sum(), np.finfo(float).tiny)
        margin = grid.alpha / 2.0
        delta = CS_SMOOTHING * margin
        z = grid.thresholds[None, :]

        def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
            s = self.design @ theta
            v = margin - sign * (s[:, None] - z)
            value = np.where(v >= delta, v - 0.5 * delta, np.where(v > 0, v * v / (2 * delta), 0.0))
            slope = np.clip(v / delta, 0.0, 1.0)
            ds = -(weight * slope * sign).sum(axis=1)
            return float((weight * value).sum()), self.design.T @ ds

        start = self._warm.get("cost_sensitive")
        if start is None:
            start = self._least_squares(start_targets, np.full(len(start_targets), 1.0 / len(start_targets)))
        bounds = [(-CS_COEF_BOUND, CS_COEF_BOUND)] * (self.design.shape[1] - 1) + [(None, None)]
        start = np.append(np.clip(start[:-1], -CS_COEF_BOUND, CS_COEF_BOUND), start[-1])
        result = minimize(objective, start, jac=True, method="L-BFGS-B", bounds=bounds,
                          options={"gtol": LBFGS_GTOL, "maxiter": LBFGS_MAXITER})
        self._warm["cost_sensitive"] = result.x
        return self._to_raw(result.x)
