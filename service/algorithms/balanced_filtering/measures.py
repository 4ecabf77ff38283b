"""What a proxy reveals and what filtering with it achieves.

* the conditional matrix ``A`` (leaves x groups) and leaf rates ``r_hat``
  (Algorithm 1's first loop), from hard leaf indices or soft leaf weights;
* disclosivity (Definition 5), the largest shift of a group's share inside a
  proxy value from its base rate;
* the expected distribution of groups among accepted points, its distance to
  the target (imbalance, Definition 2) and the acceptance rate;
* the best imbalance any alpha-disclosive proxy can reach (every leaf's row
  lies in the box ``|a_k - r_k| <= alpha``, so their mixtures do too).

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Definitions 2 and 5, Algorithm 1, Appendix A.2 (Definition 16).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "acceptance_rate",
    "accepted_distribution",
    "conditional_matrix",
    "disclosivity",
    "imbalance",
    "min_imbalance_bound",
]

# Bisection steps for the projection onto the box-and-simplex in min_imbalance_bound:
# each halves an interval of width <= 2, so 100 steps reach float resolution.
BISECTION_STEPS = 100


def conditional_matrix(
    membership: np.ndarray, Z: np.ndarray, n_leaves: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(A, r_hat)``: group distribution inside each proxy value and the values' shares.

    Parameters
    ----------
    membership : ndarray
        Leaf index per row, shape (n,), or leaf weights per row, shape (n, L)
        (a randomised proxy puts a row in several leaves with probabilities).
    Z : ndarray, shape (n, K)
        Group membership indicators.
    n_leaves : int, optional
        Number of leaves when ``membership`` holds indices.

    Returns
    -------
    A : ndarray, shape (L, K)
        Row j is ``P(z = k | proxy = j)``; rows of empty leaves are 0.
    r_hat : ndarray, shape (L,)
        ``P(proxy = j)``.

    References
    ----------
    Algorithm 1 (``a_i = Pr[z = i | z_hat(x) = j]``, ``r_hat_j = Pr[z_hat(x) = j]``).
    """
    membership = np.asarray(membership)
    if membership.ndim == 1:
        L = int(n_leaves if n_leaves is not None else membership.max() + 1)
        mass = np.bincount(membership, minlength=L).astype(float)
        counts = np.zeros((L, Z.shape[1]))
        np.add.at(counts, membership, Z)
    else:
        mass = membership.sum(axis=0)
        counts = membership.T @ Z
    A = np.divide(counts, mass[:, None], out=np.zeros_like(counts), where=mass[:, None] > 0)
    return A, mass / len(Z)


def disclosivity(A: np.ndarray, base_rates: np.ndarray, leaf_rates: np.ndarray | None = None) -> float:
    """``max_{j,i} |P(z = i | proxy = j) - P(z = i)|`` over non-empty proxy values (Definition 5)."""
    rows = A if leaf_rates is None else A[np.asarray(leaf_rates) > 0]
    if rows.size == 0:
        return 0.0
    return float(np.max(np.abs(rows - base_rates)))


def accepted_distribution(A: np.ndarray, leaf_rates: np.ndarray, rho: np.ndarray) -> np.ndarray:
    """Expected group distribution among points accepted by Algorithm 2 (zeros if none are)."""
    weights = leaf_rates * rho
    total = weights.sum()
    if total <= 0:
        return np.zeros(A.shape[1])
    return np.asarray(weights @ A / total)


def imbalance(A: np.ndarray, leaf_rates: np.ndarray, rho: np.ndarray, target: np.ndarray) -> float:
    """``|| accepted distribution - U ||_2`` (Definition 2; Definition 16 for intersecting groups)."""
    return float(np.linalg.norm(accepted_distribution(A, leaf_rates, rho) - target))


def acceptance_rate(leaf_rates: np.ndarray, rho: np.ndarray) -> float:
    """``sum_j r_hat_j rho_j``: the share of candidates Algorithm 2 accepts."""
    return float(np.dot(leaf_rates, rho))


def min_imbalance_bound(
    base_rates: np.ndarray,
    alpha: float,
    target: np.ndarray,
    blocks: list[slice] | None = None,
) -> float:
    """Smallest imbalance an alpha-disclosive proxy can reach on these base rates.

    Every non-empty leaf's row ``a`` satisfies ``r - alpha <= a <= r + alpha``
    and sums to 1 within each group class, and so does any mixture of rows,
    in particular the accepted distribution. The bound is the distance from
    ``U`` to that box-and-simplex set, computed per group class by bisection
    on the shift ``tau`` in ``p = clip(U - tau, r - alpha, r + alpha)``.

    References
    ----------
    Definition 5 (alpha-disclosive), Definition 2 (imbalance).
    """
    base_rates = np.asarray(base_rates, dtype=float)
    target = np.asarray(target, dtype=float)
    blocks = blocks or [slice(0, len(base_rates))]
    total = 0.0
    for block in blocks:
        r, u = base_rates[block], target[block]
        lo, hi = np.clip(r - alpha, 0.0, 1.0), np.clip(r + alpha, 0.0, 1.0)
        left, right = -2.0, 2.0  # clip(u - tau) sums to >= 1 at -2 and <= 1 at +2
        for _ in range(BISECTION_STEPS):
            tau = 0.5 * (left + right)
            if np.clip(u - tau, lo, hi).sum() > 1.0:
                left = tau
            else:
                right = tau
        p = np.clip(u - 0.5 * (left + right), lo, hi)
        total += float(np.sum((p - u) ** 2))
    return float(np.sqrt(total))
