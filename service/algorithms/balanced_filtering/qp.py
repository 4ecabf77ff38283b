"""Sampling probabilities from a proxy's conditional matrix (Algorithm 1).

``q = argmin ||qA - U||_2`` over the simplex (or, relaxed, over ``q >= 0``),
then ``rho_j = q_j / r_hat_j`` scaled so that ``max rho = 1``. Accepting a
candidate in leaf ``j`` with probability ``rho_j`` (Algorithm 2) makes the
expected group distribution of accepted points ``qA / sum q`` -- exactly ``U``
when ``U`` is in the convex hull of ``A``'s rows (Lemma 2).

The QP is built once per ``(leaves, groups, relaxed)`` shape from cvxpy
``Parameter``s (DPP, so re-solving only refills the numbers), solved with an
explicit solver and its status checked; CLARABEL falls back to OSQP, then SCS,
then to the independent projected-gradient solver of :mod:`.reference`.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Algorithms 1-2, Lemmas 1-2; Section 5 for the relaxation (no ``sum q = 1``).
"""

from __future__ import annotations

import importlib.metadata
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cvxpy as cp
import numpy as np

# Imported from their modules: cvxpy re-exports them by a star import without __all__, which
# mypy --strict (no implicit re-exports) does not follow.
from cvxpy.atoms.affine.sum import sum as cp_sum
from cvxpy.atoms.sum_squares import sum_squares

from service.algorithms.balanced_filtering.measures import accepted_distribution
from service.algorithms.balanced_filtering.reference import optimality_gap, solve_sampling_reference
from service.algorithms.validation import InputError

__all__ = [
    "SOLVERS",
    "SamplingQP",
    "SamplingResult",
    "get_sampling_qp",
    "naive_sampling",
    "sampling_from_q",
    "solve_sampling",
]

SOLVERS = ("CLARABEL", "OSQP", "SCS")
# OSQP 1.0 renamed "polish" to "polishing" (the old name warns).
_OSQP_POLISH = "polishing" if int(importlib.metadata.version("osqp").split(".")[0]) >= 1 else "polish"
# Tight settings for the fallbacks: their defaults (1e-3/1e-4) are far looser than
# the 1e-6 agreement in objective the benchmark holds the QP to.
SOLVER_OPTIONS: dict[str, dict[str, Any]] = {
    "CLARABEL": {},
    "OSQP": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iter": 200_000, _OSQP_POLISH: True},
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
}
# U counts as inside the hull when ||qA - U|| is below this: interior-point
# solvers stop near 1e-8 in the *squared* distance, i.e. 1e-4 in the distance.
IN_HULL_TOL = 1e-4
# The library's balanced-filtering cache (process-wide, functools.lru_cache, least recently
# used out): one compiled SamplingQP per (leaves, groups, relaxed) shape, up to this many
# shapes. Building and compiling a problem costs ~6 ms more than re-solving a built one
# (2 ms against 8 ms at 8-128 leaves), and a tree fit or the stateless
# /v1/sampling-probabilities solves the same few shapes again and again. Each problem
# solves under its own lock, so threads can share it.
QP_CACHE_SIZE = 128


@dataclass
class SamplingResult:
    """Algorithm 1's output and what it achieves.

    ``q`` is the QP solution (0 on empty leaves), ``rho`` the acceptance
    probability per leaf (max 1), ``accepted_distribution`` the expected group
    shares among accepted points, ``imbalance`` its distance to the target
    (Definition 2), ``distance`` the QP's ``||qA - U||`` (the distance from
    ``U`` to the hull -- or, relaxed, to the cone -- of ``A``'s rows),
    ``closest_point`` ``qA`` (``U'`` of Definition 13).
    """

    q: np.ndarray
    rho: np.ndarray
    accepted_distribution: np.ndarray
    imbalance: float
    acceptance_rate: float
    distance: float
    closest_point: np.ndarray
    in_hull: bool
    relaxed: bool
    status: str
    solver: str
    message: str = ""
    iterations: int = 0
    gap: float = 0.0
    attempts: list[str] = field(default_factory=list)

    @property
    def acceptance_probabilities(self) -> np.ndarray:
        """``rho``: the probability of accepting a candidate in each leaf (Algorithm 2)."""
        return self.rho

    def to_dict(self) -> dict[str, Any]:
        return {
            "q": self.q.tolist(),
            "acceptance_probabilities": self.rho.tolist(),
            "accepted_distribution": self.accepted_distribution.tolist(),
            "imbalance": self.imbalance,
            "acceptance_rate": self.acceptance_rate,
            "distance": self.distance,
            "in_hull": self.in_hull,
            "relaxed": self.relaxed,
            "status": self.status,
            "solver": self.solver,
            "message": self.message,
            "iterations": self.iterations,
            "gap": self.gap,
        }


class SamplingQP:
    """``min ||A^T q - U||^2`` s.t. ``q >= 0`` (and ``sum q = 1``), built once per shape.

    Thread-safe: the parameters are filled and the problem solved under a lock,
    so concurrent requests of the same shape cannot mix their data.
    """

    def __init__(self, n_leaves: int, n_groups: int, relaxed: bool = False) -> None:
        self.shape = (n_leaves, n_groups)
        self.relaxed = relaxed
        self.A = cp.Parameter((n_leaves, n_groups), name="A")
        self.U = cp.Parameter(n_groups, name="U")
        self.q = cp.Variable(n_leaves, name="q")
        constraints = [self.q >= 0]
        if not relaxed:
            constraints.append(cp_sum(self.q) == 1)
        objective = sum_squares(self.A.T @ self.q - self.U)
        self.problem = cp.Problem(cp.Minimize(objective), constraints)
        self._lock = threading.Lock()

    def solve(
        self, A: np.ndarray, U: np.ndarray, solvers: tuple[str, ...] = SOLVERS
    ) -> tuple[np.ndarray, str, str, int, list[str]]:
        """Return ``(q, status, solver, iterations, attempts)``; falls back solver by solver."""
        attempts: list[str] = []
        with self._lock:
            self.A.value, self.U.value = A, U
            for solver in solvers:
                try:
                    # cvxpy's Problem.solve carries no annotations.
                    self.problem.solve(solver=solver, **SOLVER_OPTIONS.get(solver, {}))  # type: ignore[no-untyped-call]
                except cp.error.SolverError as exc:
                    attempts.append(f"{solver}: {exc}")
                    continue
                status = self.problem.status
                attempts.append(f"{solver}: {status}")
                if status == cp.OPTIMAL and self.q.value is not None:
                    stats = self.problem.solver_stats
                    return np.array(self.q.value), status, solver, int(stats.num_iters or 0), attempts
        reference = solve_sampling_reference(A, U, relaxed=self.relaxed)
        status = "optimal" if reference.converged else "optimal_inaccurate"
        attempts.append(f"projected_gradient: {status}")
        return reference.q, status, "projected_gradient", reference.iterations, attempts


@lru_cache(maxsize=QP_CACHE_SIZE)
def get_sampling_qp(n_leaves: int, n_groups: int, relaxed: bool = False) -> SamplingQP:
    """The cached :class:`SamplingQP` for a shape (built on first use)."""
    return SamplingQP(n_leaves, n_groups, relaxed)


def _check(
    A: np.ndarray, leaf_rates: np.ndarray, target: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    A = np.asarray(A, dtype=float)
    leaf_rates = np.asarray(leaf_rates, dtype=float)
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise InputError("must be a non-empty matrix (leaves x groups)", ("conditional_matrix",))
    if leaf_rates.shape != (A.shape[0],):
        raise InputError(f"must have one rate per leaf ({A.shape[0]})", ("leaf_rates",))
    for name, value in (("conditional_matrix", A), ("leaf_rates", leaf_rates)):
        if not np.all(np.isfinite(value)) or np.any(value < 0):
            raise InputError("values must be finite and non-negative", (name,))
    if leaf_rates.sum() <= 0:
        raise InputError("at least one leaf must have a positive rate", ("leaf_rates",))
    U = np.full(A.shape[1], 1.0 / A.shape[1]) if target is None else np.asarray(target, dtype=float)
    if U.shape != (A.shape[1],) or not np.all(np.isfinite(U)) or np.any(U < 0):
        raise InputError(f"must be {A.shape[1]} finite non-negative shares", ("target",))
    return A, leaf_rates, U


def sampling_from_q(
    A: np.ndarray,
    leaf_rates: np.ndarray,
    q: np.ndarray,
    target: np.ndarray,
    *,
    relaxed: bool,
    status: str,
    solver: str,
    iterations: int = 0,
    attempts: list[str] | None = None,
) -> SamplingResult:
    """Algorithm 1's last lines: ``rho = q / r_hat`` scaled to ``max rho = 1``, plus its measures."""
    q = np.where(leaf_rates > 0, np.maximum(q, 0.0), 0.0)
    if not relaxed and q.sum() > 0:
        q = q / q.sum()
    rho = np.divide(q, leaf_rates, out=np.zeros_like(q), where=leaf_rates > 0)
    message = ""
    if rho.max() > 0:
        rho = rho / rho.max()
    else:
        message = "q is zero on every non-empty leaf: nothing would be accepted"
    closest = q @ A
    distance = float(np.linalg.norm(closest - target))
    accepted = accepted_distribution(A, leaf_rates, rho)
    return SamplingResult(
        q=q,
        rho=rho,
        accepted_distribution=accepted,
        imbalance=float(np.linalg.norm(accepted - target)) if rho.max() > 0 else float("nan"),
        acceptance_rate=float(leaf_rates @ rho),
        distance=distance,
        closest_point=closest,
        in_hull=bool(distance <= IN_HULL_TOL),
        relaxed=relaxed,
        status=status,
        solver=solver,
        message=message,
        iterations=iterations,
        gap=optimality_gap(A, target, q, relaxed) if solver != "naive" else 0.0,
        attempts=attempts or [],
    )


def solve_sampling(
    conditional_matrix: np.ndarray,
    leaf_rates: np.ndarray,
    target: np.ndarray | None = None,
    relaxed: bool = False,
    solvers: tuple[str, ...] = SOLVERS,
) -> SamplingResult:
    """Sampling probabilities for a proxy (Algorithm 1), the relaxed variant if asked.

    Parameters
    ----------
    conditional_matrix : ndarray, shape (L, K)
        ``A``: row j is the group distribution in leaf j.
    leaf_rates : ndarray, shape (L,)
        ``r_hat``: the share of points in each leaf. Leaves with rate 0 are
        left out of the QP and get ``q = rho = 0``.
    target : ndarray, shape (K,), optional
        ``U``; uniform by default.
    relaxed : bool
        Drop ``sum q = 1`` (Section 5's relaxation).
    solvers : tuple of str
        cvxpy solvers to try in order.

    References
    ----------
    Algorithm 1; Lemma 1 (``U`` in the hull iff ``qA = U`` for a stochastic ``q``).
    """
    A, leaf_rates, U = _check(conditional_matrix, leaf_rates, target)
    keep = leaf_rates > 0
    qp = get_sampling_qp(int(keep.sum()), A.shape[1], bool(relaxed))
    q_kept, status, solver, iterations, attempts = qp.solve(A[keep], U, solvers)
    q = np.zeros(len(leaf_rates))
    q[keep] = q_kept
    return sampling_from_q(
        A, leaf_rates, q, U, relaxed=relaxed, status=status, solver=solver,
        iterations=iterations, attempts=attempts,
    )


def naive_sampling(
    conditional_matrix: np.ndarray, leaf_rates: np.ndarray, target: np.ndarray | None = None
) -> SamplingResult:
    """The naive proxies' rule: every non-empty proxy value contributes equally (``q`` uniform).

    References
    ----------
    Section 5, proxies (1): "sample the same number of points from each predicted group".
    """
    A, leaf_rates, U = _check(conditional_matrix, leaf_rates, target)
    keep = leaf_rates > 0
    q = keep / keep.sum()
    return sampling_from_q(A, leaf_rates, q, U, relaxed=False, status="naive", solver="naive")
