"""An independent solver for the sampling QP: accelerated projected gradient.

Used to check the cvxpy solution (tests, benchmark) and as the last resort when
every cvxpy solver fails. It shares no code with :mod:`.qp` beyond numpy.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Algorithm 1 (``min_q ||qA - U||_2`` s.t. ``q >= 0``, ``sum q = 1``).
Duchi, Shalev-Shwartz, Singer, Chandra (2008), projection onto the simplex.
Beck and Teboulle (2009), FISTA; O'Donoghue and Candes (2015), adaptive restart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ReferenceSolution", "project_simplex", "solve_sampling_reference", "optimality_gap"]

# Stop when the certified optimality gap (Frank-Wolfe gap on the simplex, a
# KKT residual bound for the relaxed problem) drops below this: 1e-10 in the
# squared distance leaves a wide margin under the 1e-6 agreement we check.
REFERENCE_GAP_TOL = 1e-10
REFERENCE_MAX_ITER = 50_000


@dataclass
class ReferenceSolution:
    q: np.ndarray
    objective: float
    iterations: int
    gap: float
    converged: bool


def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of ``v`` onto ``{q >= 0, sum q = 1}`` (sort-based)."""
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - 1.0
    index = np.arange(1, len(v) + 1)
    k = np.flatnonzero(u - cumulative / index > 0)[-1]
    return np.asarray(np.maximum(v - cumulative[k] / (k + 1), 0.0))


def optimality_gap(A: np.ndarray, U: np.ndarray, q: np.ndarray, relaxed: bool) -> float:
    """Upper bound on ``f(q) - f*`` for ``f(q) = ||qA - U||^2`` (simplex), or a KKT residual (relaxed).

    On the simplex the Frank-Wolfe gap ``<grad, q> - min_j grad_j`` bounds the
    suboptimality. On the orthant it is ``max_j |min(q_j, grad_j)|`` -- zero
    exactly at a KKT point.
    """
    grad = 2.0 * A @ (q @ A - U)
    if relaxed:
        return float(np.max(np.abs(np.minimum(q, grad))))
    return float(max(grad @ q - grad.min(), 0.0))


def solve_sampling_reference(
    A: np.ndarray, U: np.ndarray, relaxed: bool = False, max_iter: int = REFERENCE_MAX_ITER
) -> ReferenceSolution:
    """FISTA with adaptive restart on ``||qA - U||^2`` over the simplex (or orthant)."""
    n_leaves = A.shape[0]
    lipschitz = 2.0 * np.linalg.eigvalsh(A @ A.T)[-1] + 1e-12
    project = (lambda v: np.maximum(v, 0.0)) if relaxed else project_simplex
    q = np.full(n_leaves, 1.0 / n_leaves)
    y, t = q.copy(), 1.0
    gap = np.inf
    for iteration in range(1, max_iter + 1):
        q_next = project(y - 2.0 * A @ (y @ A - U) / lipschitz)
        t_next = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        if np.dot(y - q_next, q_next - q) > 0:  # restart when momentum points uphill
            y, t_next = q_next.copy(), 1.0
        else:
            y = q_next + (t - 1.0) / t_next * (q_next - q)
        q, t = q_next, t_next
        if iteration % 10 == 0:
            gap = optimality_gap(A, U, q, relaxed)
            if gap <= REFERENCE_GAP_TOL:
                break
    objective = float(np.sum((q @ A - U) ** 2))
    return ReferenceSolution(q, objective, iteration, gap, bool(gap <= REFERENCE_GAP_TOL))
