"""A filter's running counts: decisions per leaf and the realised balance of accepted points.

Pure session steps on plain data for the service: the state round-trips through
JSON (``to_dict`` / ``from_dict``) and every step returns a new state. The
service is responsible for counting a retried report once (it keys decisions
by candidate id and outcomes by id); these functions just add up what they get.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Definition 2 (imbalance of the collected dataset).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from service.algorithms.balanced_filtering.groups import GroupEncoding

__all__ = ["FilterCounts", "realized_imbalance", "record_decisions", "record_outcomes"]


@dataclass(frozen=True)
class FilterCounts:
    """Decisions so far (total, accepted, per leaf) and groups learned for accepted candidates."""

    total: int = 0
    accepted: int = 0
    by_leaf: tuple[int, ...] = ()
    accepted_by_leaf: tuple[int, ...] = ()
    group_counts: tuple[int, ...] = ()
    outcomes: int = 0

    @classmethod
    def empty(cls, n_leaves: int, n_groups: int) -> FilterCounts:
        return cls(by_leaf=(0,) * n_leaves, accepted_by_leaf=(0,) * n_leaves, group_counts=(0,) * n_groups)

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "accepted": self.accepted,
            "by_leaf": list(self.by_leaf),
            "accepted_by_leaf": list(self.accepted_by_leaf),
            "group_counts": list(self.group_counts),
            "outcomes": self.outcomes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FilterCounts:
        return cls(
            total=int(data["total"]),
            accepted=int(data["accepted"]),
            by_leaf=tuple(int(v) for v in data["by_leaf"]),
            accepted_by_leaf=tuple(int(v) for v in data["accepted_by_leaf"]),
            group_counts=tuple(int(v) for v in data["group_counts"]),
            outcomes=int(data.get("outcomes", 0)),
        )


def record_decisions(state: FilterCounts, leaves: np.ndarray, accept: np.ndarray) -> FilterCounts:
    """Add a batch of decisions (one leaf and answer per candidate)."""
    n_leaves = len(state.by_leaf)
    leaves = np.asarray(leaves, dtype=np.int64)
    accept = np.asarray(accept, dtype=bool)
    by_leaf = np.asarray(state.by_leaf) + np.bincount(leaves, minlength=n_leaves)
    accepted_by_leaf = np.asarray(state.accepted_by_leaf) + np.bincount(leaves[accept], minlength=n_leaves)
    return replace(
        state,
        total=state.total + len(leaves),
        accepted=state.accepted + int(accept.sum()),
        by_leaf=tuple(int(v) for v in by_leaf),
        accepted_by_leaf=tuple(int(v) for v in accepted_by_leaf),
    )


def record_outcomes(state: FilterCounts, encoding: GroupEncoding, groups: Any) -> FilterCounts:
    """Add the groups learned later for accepted candidates (unknown groups raise ``InputError``)."""
    Z = encoding.indicators(groups, ("outcomes",))
    counts = np.asarray(state.group_counts) + Z.sum(axis=0).astype(np.int64)
    return replace(state, group_counts=tuple(int(v) for v in counts), outcomes=state.outcomes + len(Z))


def realized_imbalance(state: FilterCounts, encoding: GroupEncoding, target: np.ndarray) -> dict[str, Any]:
    """Group shares among reported outcomes and their distance to the target (Definition 2)."""
    counts = np.asarray(state.group_counts, dtype=float)
    shares = np.zeros_like(counts)
    if state.outcomes:
        shares = counts / state.outcomes
    return {
        "group_counts": dict(zip(encoding.names, (int(c) for c in counts), strict=True)),
        "group_shares": dict(zip(encoding.names, shares.tolist(), strict=True)),
        "imbalance": float(np.linalg.norm(shares - target)) if state.outcomes else None,
    }

