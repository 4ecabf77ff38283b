"""Pool partitioning for DataSift: GMM with BIC or a column's values, and partition statistics.

Each partition is an arm of the bandit. Its statistics are what eq. 1 needs:
the size, the centroid (mean feature vector) and the intra-partition base-rate
difference ΔBR = P(Y=1 | S=0) − P(Y=1 | S=1). With more than two groups ΔBR is
the largest pairwise gap between the groups' base rates; groups absent from a
partition are ignored, and a partition with fewer than two groups has ΔBR = 0.

References
----------
Hasan, Pradhan, DataSift, Section 3.2 (partitioning, base-rate difference) and
Section 4.1.3 (GMM with the number of components chosen by BIC).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.mixture import GaussianMixture

from service.algorithms.validation import InputError

__all__ = [
    "PartitionStats",
    "Partitioning",
    "base_rate_difference",
    "normalized_distances",
    "partition_pool",
    "partition_statistics",
]

# GMM fits (and BIC comparisons) use at most this many rows; the rest are only
# assigned. Keeps partitioning of a 200,000-row pool within a worker's time limit.
GMM_MAX_FIT_ROWS = 50_000
# Smallest BIC candidate: one component would make the bandit a single arm.
GMM_MIN_COMPONENTS = 2
METHODS = ("gmm", "column")


@dataclass(frozen=True)
class PartitionStats:
    """One arm: ``id``, ``size``, ``centroid`` and ``base_rate_difference`` (SPEC §4.4)."""

    id: str
    size: int
    centroid: list[float]
    base_rate_difference: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "size": self.size,
            "centroid": list(self.centroid),
            "base_rate_difference": self.base_rate_difference,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PartitionStats:
        return cls(
            str(data["id"]),
            int(data["size"]),
            [float(v) for v in data["centroid"]],
            float(data["base_rate_difference"]),
        )


@dataclass(frozen=True)
class Partitioning:
    """Result of :func:`partition_pool`: ``assignment[i]`` indexes ``partitions``."""

    assignment: np.ndarray
    partitions: list[PartitionStats]
    method: str
    bic: dict[int, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Small part as JSON-ready values; ``assignment`` stays a numpy array."""
        return {
            "assignment": self.assignment,
            "partitions": [p.to_dict() for p in self.partitions],
            "method": self.method,
            "bic": {str(k): v for k, v in self.bic.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Partitioning:
        return cls(
            np.asarray(data["assignment"], dtype=np.int64),
            [PartitionStats.from_dict(p) for p in data["partitions"]],
            str(data["method"]),
            {int(k): float(v) for k, v in data.get("bic", {}).items()},
        )


def base_rate_difference(labels: np.ndarray | None, groups: np.ndarray | None) -> float:
    """Largest gap between two groups' base rates P(Y = 1 | S = s) (0 if undefined)."""
    if labels is None or groups is None or len(labels) == 0:
        return 0.0
    labels = np.asarray(labels, dtype=float)
    groups = np.asarray(groups)
    rates = [labels[groups == g].mean() for g in np.unique(groups)]
    return float(max(rates) - min(rates)) if len(rates) >= 2 else 0.0


def normalized_distances(centroids: np.ndarray) -> np.ndarray:
    """Euclidean distances between centroids divided by the largest one (eq. 1's dist)."""
    c = np.asarray(centroids, dtype=float)
    d = np.sqrt(np.maximum(((c[:, None, :] - c[None, :, :]) ** 2).sum(axis=-1), 0.0))
    largest = d.max() if d.size else 0.0
    return d / largest if largest > 0 else np.zeros_like(d)


def partition_statistics(
    X: np.ndarray,
    labels: np.ndarray | None,
    groups: np.ndarray | None,
    assignment: np.ndarray,
    ids: list[str] | None = None,
) -> list[PartitionStats]:
    """Size, centroid and base-rate difference of each partition ``0..max(assignment)``."""
    X = np.asarray(X, dtype=float)
    count = int(assignment.max()) + 1 if assignment.size else 0
    ids = ids if ids is not None else [str(j) for j in range(count)]
    stats = []
    for j in range(count):
        rows = assignment == j
        stats.append(
            PartitionStats(
                id=ids[j],
                size=int(rows.sum()),
                centroid=X[rows].mean(axis=0).tolist() if rows.any() else [0.0] * X.shape[1],
                base_rate_difference=base_rate_difference(
                    None if labels is None else np.asarray(labels)[rows],
                    None if groups is None else np.asarray(groups)[rows],
                ),
            )
        )
    return stats


def _gmm(
    X: np.ndarray, max_components: int, rng: np.random.Generator, covariance_type: str
) -> tuple[np.ndarray, dict[int, float]]:
    fit_rows = X
    if len(X) > GMM_MAX_FIT_ROWS:
        fit_rows = X[rng.choice(len(X), GMM_MAX_FIT_ROWS, replace=False)]
    upper = min(max_components, len(fit_rows))
    bic: dict[int, float] = {}
    best, best_bic = None, np.inf
    for k in range(GMM_MIN_COMPONENTS, upper + 1):
        model = GaussianMixture(k, covariance_type=covariance_type, random_state=int(rng.integers(2**31 - 1)))
        model.fit(fit_rows)
        bic[k] = float(model.bic(fit_rows))
        if bic[k] < best_bic:
            best, best_bic = model, bic[k]
    if best is None:
        return np.zeros(len(X), dtype=np.int64), bic
    return best.predict(X).astype(np.int64), bic


def partition_pool(
    X: np.ndarray,
    labels: np.ndarray | None,
    groups: np.ndarray | None,
    *,
    rng: np.random.Generator,
    method: str = "gmm",
    max_components: int = 10,
    column: int | None = None,
    covariance_type: str = "diag",
) -> Partitioning:
    """Split the pool into disjoint partitions and describe each.

    Parameters
    ----------
    X : (n, d) array
        Pool features, on comparable scales (standardise first): both the GMM
        and the centroid distances of eq. 1 are scale-dependent.
    labels, groups : arrays of length n or None
        Used only for the base-rate differences.
    rng : numpy.random.Generator
        Seeds the GMM fits and the subsample of large pools.
    method : ``"gmm"`` or ``"column"``
        ``gmm`` fits Gaussian mixtures with 2..``max_components`` components and
        keeps the one with the lowest BIC; ``column`` makes one partition per
        distinct value of ``X[:, column]`` (e.g. a state code).
    covariance_type : str
        GMM covariance; ``diag`` (default) keeps fits linear in the feature count.

    Returns
    -------
    Partitioning
        Assignment (an index into ``partitions`` per row, empty components
        dropped) and the statistics; ids are ``"0", "1", …`` for GMM and the
        column values for ``column``.

    References
    ----------
    DataSift, Section 4.1.3 (GMM, BIC).
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or len(X) == 0:
        raise InputError("X must be a non-empty 2-D array")
    if method == "gmm":
        if max_components < GMM_MIN_COMPONENTS:
            raise InputError(f"max_components must be at least {GMM_MIN_COMPONENTS}")
        raw, bic = _gmm(X, max_components, rng, covariance_type)
        used, assignment = np.unique(raw, return_inverse=True)
        ids = [str(j) for j in range(len(used))]
    elif method == "column":
        if column is None or not 0 <= column < X.shape[1]:
            raise InputError("method='column' needs a valid column index")
        values, assignment = np.unique(X[:, column], return_inverse=True)
        ids = [f"{v:g}" for v in values]
        bic = {}
    else:
        raise InputError(f"unknown method {method!r}; use one of {METHODS}")
    assignment = assignment.astype(np.int64)
    return Partitioning(assignment, partition_statistics(X, labels, groups, assignment, ids), method, bic)
