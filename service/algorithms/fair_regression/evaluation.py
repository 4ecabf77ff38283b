"""SP disparity on the grid and group losses, for one regressor or a distribution ``Q``.

SPEC §5.5: SP disparity ``= max_{a, z ∈ Z} |P[f(X) ≥ z | A = a] − P[f(X) ≥ z]|`` with
``Z = {1/N, …, 1}``. For a randomized predictor the probabilities include the draw of
``h ~ Q``, so ``γ(Q) = Σ_h Q(h) γ(h)`` is computed exactly, without sampling.

``service.algorithms.metrics.sp_ks`` takes the supremum over every threshold the
predictions take (the continuous KS distance, ≥ the grid value) and its ``group_loss``
uses ``(y − u)²`` and the unscaled log loss, which are not the paper's 1-Lipschitz losses;
hence these variants.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Definition 1 and eq. 1 (SP as a
KS distance), eq. 7 (grid thresholds suffice for rounded-down predictors), Figure 1
(loss and worst constraint violation of the randomized predictor).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service.algorithms.fair_regression.discretization import Grid, survival_by_group
from service.algorithms.fair_regression.losses import LOGISTIC_C, get_loss
from service.algorithms.fair_regression.predictor import FairRegressionPredictor
from service.algorithms.validation import as_matrix, as_vector

__all__ = ["evaluate_predictor", "group_losses", "sp_disparity", "sp_gamma"]


def sp_gamma(unit_predictions: np.ndarray, group_index: np.ndarray, group_sizes: np.ndarray,
             grid: Grid) -> np.ndarray:
    """``γ_{a,z}`` of one regressor's ``[0, 1]`` predictions, shape ``(|A|, N)``."""
    survival = survival_by_group(grid.cells(unit_predictions), group_index, group_sizes, grid)
    overall = (group_sizes / group_sizes.sum()) @ survival
    return np.asarray(survival - overall[None, :])


def _groups(groups: Any) -> tuple[list[str], np.ndarray, np.ndarray]:
    names, index = np.unique(np.asarray(groups), return_inverse=True)
    return [str(g) for g in names], index, np.bincount(index).astype(float)


def sp_disparity(unit_predictions: Any, groups: Any, grid_size: int = 40,
                 weights: Any = None) -> float:
    """SP disparity of ``[0, 1]``-valued predictions on the grid of size ``grid_size``.

    ``unit_predictions`` is ``(n,)`` for one regressor or ``(k, n)`` with ``weights`` (Q) for
    the randomized predictor that draws row ``h`` with probability ``weights[h]``.
    """
    preds = np.atleast_2d(np.asarray(unit_predictions, dtype=float))
    q = np.ones(1) if weights is None else np.asarray(weights, dtype=float)
    _, index, sizes = _groups(groups)
    grid = Grid(int(grid_size))
    gamma = sum(w * sp_gamma(p, index, sizes, grid) for w, p in zip(q, preds, strict=True))
    return float(np.max(np.abs(gamma)))


def group_losses(unit_predictions: Any, unit_labels: Any, groups: Any, loss: str = "square",
                 logistic_c: float = LOGISTIC_C, weights: Any = None) -> dict[str, float]:
    """Mean ``ℓ(y, u)`` per group (unit scales); ``(k, n)`` predictions are mixed by ``weights``."""
    preds = np.atleast_2d(np.asarray(unit_predictions, dtype=float))
    q = np.ones(1) if weights is None else np.asarray(weights, dtype=float)
    values = q @ get_loss(loss, logistic_c)(np.asarray(unit_labels, dtype=float)[None, :], preds)
    names, index, sizes = _groups(groups)
    sums = np.bincount(index, weights=values, minlength=len(names))
    return {g: float(s / n) for g, s, n in zip(names, sums, sizes, strict=True)}


def evaluate_predictor(predictor: FairRegressionPredictor, X: Any, y: Any, groups: Any, loss: str,
                       grid_size: int = 40, logistic_c: float = LOGISTIC_C) -> dict[str, Any]:
    """Loss, group losses and SP disparity of the randomized predictor and of the expected one.

    ``y`` is on the caller's label scale (mapped with the predictor's stored scaling).
    """
    X = as_matrix(X, ("features",), n_features=predictor.n_features)
    labels = predictor.scaling.to_unit(as_vector(y, ("labels",), length=len(X)))
    each = predictor.predict_each(X)
    expected = predictor.weights @ each
    by_group = group_losses(each, labels, groups, loss, logistic_c, predictor.weights)
    by_group_expected = group_losses(expected, labels, groups, loss, logistic_c)
    the_loss = get_loss(loss, logistic_c)
    return {
        "loss": float(predictor.weights @ the_loss(labels[None, :], each).mean(axis=1)),
        "group_losses": by_group,
        "disparity": sp_disparity(each, groups, grid_size, predictor.weights),
        "loss_expected": float(the_loss(labels, expected).mean()),
        "group_losses_expected": by_group_expected,
        "disparity_expected": sp_disparity(expected, groups, grid_size),
    }
