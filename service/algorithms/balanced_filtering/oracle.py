"""The paired-regression cost-sensitive classification oracle (Definition 14).

In the split game of Algorithm 3, labelling point j with side 1 costs
``w_j (Z_j . phi + phi_0) / W`` more than side 0, where ``phi`` depends only on
the dual variables (see :mod:`.game`). Definition 14 fits one linear
regression to each label's costs and predicts the cheaper label. We take side
0's cost as 0 (only differences matter), so ``h(x) = 1[h1(x) < 0]`` with
``h1`` the least-squares fit of side 1's costs. Least squares is linear in its
targets, so ``h1 = sum_k phi_k g_k + phi_0 g_0`` where ``g_k`` is the fit of
``w * Z[:, k]`` and ``g_0`` the fit of ``w``: the K + 1 regressions are fitted
once per node and every round of the game costs one (n x (K + 1)) product.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Definition 14 (paired regression classifier), Definition 18 (CSC oracle).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

__all__ = ["PairedRegressionOracle", "RIDGE"]

# Ridge added to the Gram matrix, relative to the number of rows: one-hot blocks
# plus the intercept are exactly collinear, and 1e-6 makes the system positive
# definite while moving predictions by about one part in a million.
RIDGE = 1e-6


class PairedRegressionOracle:
    """Least-squares fits of a node's weighted group indicators, reused every round.

    Parameters
    ----------
    X : ndarray, shape (n, d + 1)
        Standardised features of the node's points with an intercept column last.
    weights : ndarray, shape (n,)
        The points' weights at the node (Definition 10), all positive.
    Z : ndarray, shape (n, K)
        Group indicators.
    ridge : float
        Relative ridge (see ``RIDGE``).
    """

    def __init__(self, X: np.ndarray, weights: np.ndarray, Z: np.ndarray, ridge: float = RIDGE) -> None:
        targets = np.column_stack([weights[:, None] * Z, weights])
        gram = X.T @ X
        gram[np.diag_indices_from(gram)] += ridge * len(X)
        rhs = X.T @ targets
        try:
            self.coef = scipy.linalg.solve(gram, rhs, assume_a="pos")
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgError):
            self.coef = np.linalg.lstsq(gram, rhs, rcond=None)[0]
        self.predictions = X @ self.coef

    def best_response(self, phi: np.ndarray) -> np.ndarray:
        """``h(x_j) = 1`` where the fitted cost of side 1 is negative (boolean, one per point)."""
        return np.asarray(self.predictions @ phi < 0)
