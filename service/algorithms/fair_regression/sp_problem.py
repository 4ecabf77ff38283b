"""Algorithm 1's best response ``Best_h(λ)`` through the three oracles of Section 4.4.

With signed multipliers ``λ_{a,z} = λ⁺_{a,z} − λ⁻_{a,z}`` and ``p_a = P̂[A = a]``, minimising
``L(h, λ)`` over ``h`` is the cost-sensitive problem of eq. 12 with costs

    c_λ(y̲, a, z) = c(y̲, z) + N λ_{a,z} / p_a − N Σ_{a'} λ_{a',z}.

* ``cost_sensitive`` — solve it over ``h_f(x, z) = 1{f(x) ≥ z}`` on the ``n N`` examples
  ``((x_i, z), c_λ(y̲_i, a_i, z))`` (linear learner; weighted hinge surrogate, Appendix G);
* ``least_squares`` — ``U_i = argmin_u g_λ(y̲_i, a_i, u)`` with
  ``g_λ(y, a, u) = Σ_{z ≤ u} c_λ(y, a, z) / N``, then least squares on ``(x_i, U_i)``
  (Appendix F.2); ``g_λ`` is minimised over the cell representatives ``kα + α/2``;
* ``loss_minimization`` — the same ``U_i``, then risk minimisation under ``ℓ`` itself
  (Appendix F.3): square and absolute losses regress on ``U_i`` (``U_i`` itself is a
  zero (sub)gradient point), the logistic loss fits two weighted copies labelled 1 and 0
  with weights ``σ(C(2U_i − 1))`` and ``1 − σ(C(2U_i − 1))`` — the weights that make the
  derivative vanish at ``U_i``. (Appendix F.3's "W_{i,2} = U_i" is the right weight when
  the prediction is the probability itself; with Example 2's rescaled prediction the
  zero-gradient condition it states gives ``σ(C(2U_i − 1))``.)

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — eq. 12 (costs c_λ), Section 4.4,
Appendix F.1–F.3, Appendix G (cost-sensitive oracle).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service.algorithms.fair_regression.discretization import (
    Grid,
    cost_table,
    discretized_loss_table,
    label_cover,
)
from service.algorithms.fair_regression.evaluation import sp_gamma
from service.algorithms.fair_regression.inputs import TrainingData
from service.algorithms.fair_regression.losses import Loss
from service.algorithms.fair_regression.saddle_point import Hypothesis

__all__ = ["ORACLES", "StatisticalParityProblem", "hypothesis_stats", "statistical_tolerance"]

ORACLES = ("least_squares", "loss_minimization", "cost_sensitive")
SQUARE = Loss("square")
# Default ν: half the standard error of the first regressor's mean loss, the
# reference code's rule (_ACCURACY_MUL = 0.5): a smaller gap is below sampling noise.
TOLERANCE_MULTIPLIER = 0.5
# ν never drops to 0 (a perfect fit would otherwise never stop before max_iterations).
MIN_TOLERANCE = 1e-6


def hypothesis_stats(data: TrainingData, predictions: np.ndarray, grid: Grid) -> dict[str, Any]:
    """Training loss, group losses, SP γ and the predictions of one regressor."""
    values = data.loss(data.y, predictions)
    return {
        "loss": float(values.mean()),
        "group_losses": np.bincount(data.group_index, weights=values, minlength=data.n_groups) / data.group_sizes,
        "gamma": sp_gamma(predictions, data.group_index, data.group_sizes, grid),
        "predictions": predictions,
    }


def statistical_tolerance(data: TrainingData, first: Hypothesis) -> float:
    values = data.loss(data.y, first.stats["predictions"])
    return float(max(MIN_TOLERANCE, TOLERANCE_MULTIPLIER * float(np.std(values)) / np.sqrt(len(values))))


class StatisticalParityProblem:
    """Cost ``loss_α`` and constraints ``±γ_{a,z} − ε̂_a`` of problem 11, with an oracle."""

    def __init__(self, data: TrainingData, slack: np.ndarray, grid: Grid, oracle: str, learner: Any) -> None:
        self.data, self.slack, self.grid, self.oracle, self.learner = data, slack, grid, oracle, learner
        cover, self.cover_index = label_cover(data.y, grid.alpha)
        self.costs = cost_table(data.loss, cover, grid)
        self.loss_alpha = discretized_loss_table(data.loss, cover, grid)
        self.p = data.group_sizes / data.group_sizes.sum()
        self.n_constraints = 2 * data.n_groups * grid.size

    def lagrangian_costs(self, lambda_: np.ndarray) -> np.ndarray:
        """``c_λ(ỹ, a, z)`` for every cover point, group and threshold, shape ``(|Ỹ|, |A|, N)``."""
        plus, minus = lambda_.reshape(2, self.data.n_groups, self.grid.size)
        signed = self.grid.size * (plus - minus)
        return np.asarray(self.costs[:, None, :] + signed[None] / self.p[None, :, None]
                          - signed.sum(axis=0)[None, None, :])

    def targets(self, c_lambda: np.ndarray) -> np.ndarray:
        """``U_i``: the representative prediction minimising ``g_λ(y̲_i, a_i, ·)``."""
        m, n_groups, n = c_lambda.shape
        g = np.concatenate([np.zeros((m, n_groups, 1)), np.cumsum(c_lambda, axis=2) / n], axis=2)
        table = self.grid.representatives[np.argmin(g, axis=2)]
        return np.asarray(table[self.cover_index, self.data.group_index])

    def best_response(self, lambda_: np.ndarray) -> Hypothesis:
        c_lambda = self.lagrangian_costs(lambda_)
        u = self.targets(c_lambda)
        loss = self.data.loss
        if self.oracle == "least_squares":
            regressor = self.learner.fit(u, SQUARE)
        elif self.oracle == "loss_minimization":
            soft = 1.0 / (1.0 + np.exp(-loss.logit(u))) if loss.name == "logistic" else u
            regressor = self.learner.fit(soft, loss)
        else:
            per_example = c_lambda[self.cover_index, self.data.group_index, :]
            regressor = self.learner.fit_cost_sensitive(per_example, self.grid, u)
        return self.evaluate(regressor)

    def evaluate(self, regressor: Any) -> Hypothesis:
        predictions = regressor.predict(self.data.X)
        stats = hypothesis_stats(self.data, predictions, self.grid)
        cells = self.grid.cells(predictions)
        cost = float(self.loss_alpha[self.cover_index, cells].mean())
        gamma = stats["gamma"]
        violations = np.concatenate([(gamma - self.slack[:, None]).ravel(),
                                     (-gamma - self.slack[:, None]).ravel()])
        return Hypothesis(regressor, cost, violations, stats)

    def default_tolerance(self, first: Hypothesis) -> float:
        return statistical_tolerance(self.data, first)
