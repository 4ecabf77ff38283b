"""``POST /v1/sampling-probabilities``: Algorithm 1 on a client's own conditional matrix (stateless).

The request is checked here (shapes, finiteness, rows and rates that are
distributions) and solved by the library's cached cvxpy problem; this is the
one place a request solves the QP, and it stores nothing.
"""

from __future__ import annotations

import numpy as np

from service.algorithms.balanced_filtering import solve_sampling
from service.algorithms.validation import as_matrix
from service.balanced_filters.schemas import SamplingRequest, SamplingResponse
from service.errors import InvalidInput
from service.sessions.finite import finite_or_none
from service.settings import Settings

__all__ = ["MAX_LEAVES", "SHARE_SUM_TOL", "compute_sampling"]

# How far a row, the leaf rates or the target may sum from 1: loose enough for shares
# typed as rounded decimals, far tighter than any real mistake (the library uses the same).
SHARE_SUM_TOL = 1e-6
# One QP variable per leaf: 4,096 leaves solve in well under a second with CLARABEL.
MAX_LEAVES = 4_096


def _check_distribution(values: np.ndarray, loc: list[str | int], what: str) -> None:
    if np.any(values < 0):
        raise InvalidInput(f"{what} must be non-negative", [*loc, int(np.flatnonzero(values < 0)[0])])
    total = float(values.sum())
    if abs(total - 1.0) > SHARE_SUM_TOL:
        raise InvalidInput(f"{what} must sum to 1 (they sum to {total:.6g})", loc)


def compute_sampling(payload: SamplingRequest, settings: Settings) -> SamplingResponse:
    """q, ρ and the imbalance they achieve for ``A``, ``r̂`` and ``U`` (Algorithm 1)."""
    A = as_matrix(payload.conditional_matrix, ("body", "conditional_matrix"))
    n_leaves, n_groups = A.shape
    if n_leaves > MAX_LEAVES:
        raise InvalidInput(f"has {n_leaves} rows (leaves); the limit is {MAX_LEAVES}", ["body", "conditional_matrix"])
    if not 2 <= n_groups <= settings.max_groups:
        raise InvalidInput(f"has {n_groups} columns (groups); send 2 to {settings.max_groups}",
                         ["body", "conditional_matrix"])
    rates = np.asarray(payload.leaf_rates, dtype=float)
    if len(rates) != n_leaves:
        raise InvalidInput(f"has {len(rates)} values; expected {n_leaves} (one per row of conditional_matrix)",
                         ["body", "leaf_rates"])
    _check_distribution(rates, ["body", "leaf_rates"], "leaf rates")
    for i, row in enumerate(A):
        if rates[i] == 0 and not row.any():
            continue  # an empty leaf's row may be all zeros, as the library makes it
        _check_distribution(row, ["body", "conditional_matrix", i], f"row {i} (the groups' shares in leaf {i})")
    target = None
    if payload.target is not None:
        target = np.asarray(payload.target, dtype=float)
        if len(target) != n_groups:
            raise InvalidInput(f"has {len(target)} shares; expected {n_groups} (one per column of conditional_matrix)",
                             ["body", "target"])
        _check_distribution(target, ["body", "target"], "target shares")
    result = solve_sampling(A, rates, target, relaxed=payload.relaxed).to_dict()
    result["imbalance"] = finite_or_none(result["imbalance"])
    result["gap"] = finite_or_none(result["gap"]) or 0.0
    return SamplingResponse.model_validate(result)
