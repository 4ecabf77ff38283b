"""The discretisation of Section 4.1 and the statistics Algorithm 1 needs per regressor.

With ``N`` the grid size and ``α = 1/N``:

* thresholds ``Z = {α, 2α, …, 1}``; a prediction ``u`` lies in *cell* ``k = #{z ∈ Z : z ≤ u}``
  (``0 … N``), and ``h_f(x, z) = 1{f(x) ≥ z}`` is 1 exactly for the ``k`` smallest thresholds;
* the representative prediction of cell ``k`` is ``kα + α/2`` (``1`` for ``k = N``), so the
  discretised loss is ``ℓ_α(y, u) = ℓ(y̲, ⌊u⌋_α + α/2)`` (eq. 5, with ``ℓ(y, u) = ℓ(y, 1)``
  for ``u ≥ 1``);
* labels are rounded to ``y̲``, the smallest point of an ``α/2``-cover ``Ỹ ⊆ Y`` within
  ``α/2`` of ``y``;
* the cost-sensitive costs are ``c(y, z) = N (ℓ(y, z + α/2) − ℓ(y, z − α/2))`` (eq. 9), and
  ``ℓ_α(y, u) = ℓ(y̲, α/2) + (1/N) Σ_{z ≤ u} c(y̲, z)`` (eq. 15);
* ``γ_{a,z}(f) = P[f(X) ≥ z | A = a] − P[f(X) ≥ z]`` on the grid (the SP constraints of
  problem 11).

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 4.1 (eq. 5 discretised
loss, cover Ỹ), eq. 9 (costs c), eq. 10 and 11 (empirical cost and constraints),
Appendix A eq. 15 (telescoping), Appendix F (O(n log n + |A| N) evaluation of γ).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.algorithms.fair_regression.losses import Loss

__all__ = ["Grid", "cost_table", "discretized_loss_table", "label_cover", "survival_by_group"]


@dataclass(frozen=True)
class Grid:
    """The threshold grid ``Z = {1/N, …, 1}`` of Section 4.1."""

    size: int

    @property
    def alpha(self) -> float:
        return 1.0 / self.size

    @property
    def thresholds(self) -> np.ndarray:
        return np.arange(1, self.size + 1, dtype=float) / self.size

    @property
    def representatives(self) -> np.ndarray:
        """Prediction standing for each cell ``k = 0 … N``: ``kα + α/2``, and ``1`` for ``k = N``."""
        reps = (np.arange(self.size + 1, dtype=float) + 0.5) / self.size
        reps[-1] = 1.0
        return reps

    def cells(self, u: np.ndarray) -> np.ndarray:
        """Number of thresholds ``z ≤ u`` for each prediction (compared exactly against ``Z``)."""
        return np.searchsorted(self.thresholds, np.asarray(u, dtype=float), side="right")


def label_cover(y: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """An ``α/2``-cover ``Ỹ ⊆ {y_i}`` built left to right, and the index of ``y̲_i`` in it.

    Each new cover point is the largest label within ``α/2`` above the first uncovered
    label, so consecutive points are more than ``α/2`` apart and ``|Ỹ| ≤ 2N``.
    """
    half = alpha / 2.0
    values = np.unique(y)
    cover: list[float] = []
    i = 0
    while i < len(values):
        j = int(np.searchsorted(values, values[i] + half, side="right")) - 1
        cover.append(float(values[j]))
        i = int(np.searchsorted(values, values[j] + half, side="right"))
    points = np.asarray(cover)
    # y̲ is the smallest cover point within α/2 of y: the first point ≥ y − α/2.
    index = np.searchsorted(points, np.asarray(y, dtype=float) - half, side="left")
    return points, np.minimum(index, len(points) - 1)


def cost_table(loss: Loss, cover: np.ndarray, grid: Grid) -> np.ndarray:
    """``c(ỹ, z)`` of eq. 9 for every cover point and threshold, shape ``(|Ỹ|, N)``."""
    z = grid.thresholds[None, :]
    upper = np.minimum(z + grid.alpha / 2.0, 1.0)
    y = cover[:, None]
    return np.asarray(grid.size * (loss(y, upper) - loss(y, z - grid.alpha / 2.0)))


def discretized_loss_table(loss: Loss, cover: np.ndarray, grid: Grid) -> np.ndarray:
    """``ℓ_α(ỹ, u)`` for every cover point and cell ``k = 0 … N`` (eq. 5), shape ``(|Ỹ|, N + 1)``."""
    return loss(cover[:, None], grid.representatives[None, :])


def survival_by_group(cells: np.ndarray, group_index: np.ndarray, group_sizes: np.ndarray,
                      grid: Grid) -> np.ndarray:
    """``P̂[f(X) ≥ z | A = a]`` for every group and threshold, shape ``(|A|, N)``.

    One bincount over (group, cell) and a reverse cumulative sum: O(n + |A| N)
    (Appendix F).
    """
    n_groups = len(group_sizes)
    counts = np.bincount(group_index * (grid.size + 1) + cells, minlength=n_groups * (grid.size + 1))
    at_least = np.cumsum(counts.reshape(n_groups, grid.size + 1)[:, ::-1], axis=1)[:, ::-1]
    return np.asarray(at_least[:, 1:] / group_sizes[:, None])
