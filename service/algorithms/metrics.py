"""Group fairness metrics shared by every paper's algorithms and by ``/v1/fairness-metrics``.

Each metric returns a :class:`MetricResult`: the per-group values and two
disparities,

* ``disparity`` — the largest gap between any two groups (the definition the
  minimax-sampling, DataSift and balanced-filtering papers use), and
* ``disparity_vs_overall`` — the largest gap between a group and the whole
  population (FairBatch's experiments section and the fair-regression paper's
  statistical parity, which compare each group with the overall rate).

Predictions are hard labels for the classification metrics (values >= 0.5 count
as positive when scores are passed) and real values for ``group_loss`` and
``sp_ks``.

Groups are an array of group values, or integer codes with ``names`` giving each
code's name (``names[code]``, in the order results list them): codes keep a request
of many rows with long group names from holding one wide string array per call.
Every metric needs memory O(rows + groups), whatever the number of groups, and the rates and
losses time O(rows + groups) too (one ``bincount`` per sum): the bootstrap
(:mod:`.bootstrap`) calls them once per resample.

References
----------
Hardt, Price, Srebro (2016), equal opportunity and equalized odds.
Agarwal, Dudík, Wu (2019), "Fair Regression", eq. for SP via the KS distance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service.algorithms.validation import InputError

__all__ = [
    "MetricResult",
    "demographic_parity",
    "equal_opportunity",
    "equalized_odds",
    "group_loss",
    "group_values",
    "loss_values",
    "sp_ks",
    "LOSSES",
]

# Positive-class threshold applied to score-valued predictions.
POSITIVE_THRESHOLD = 0.5
# Clip for log loss so a confident wrong prediction costs a finite amount.
LOG_LOSS_EPS = 1e-12


@dataclass
class MetricResult:
    """Per-group values of one metric and its disparities (``nan`` when undefined)."""

    name: str
    by_group: dict[str, float]
    overall: float
    disparity: float
    disparity_vs_overall: float
    details: dict[str, dict[str, float]] = field(default_factory=dict)


def group_values(groups: np.ndarray) -> list[Any]:
    """Distinct group values in sorted order (numbers sort numerically)."""
    return sorted(np.unique(groups).tolist())


def _coded(groups: np.ndarray, names: Sequence[str] | None) -> tuple[list[str], np.ndarray]:
    """Each group's name (in result order) and each row's code into them."""
    if names is not None:
        return list(names), np.asarray(groups, dtype=np.int64)
    values, codes = np.unique(np.asarray(groups), return_inverse=True)
    return [str(v) for v in values.tolist()], codes.reshape(-1)


def _gaps(by_group: dict[str, float], overall: float) -> tuple[float, float]:
    values = np.array([v for v in by_group.values() if np.isfinite(v)])
    if values.size == 0:
        return float("nan"), float("nan")
    pairwise = float(values.max() - values.min())
    vs_overall = float(np.max(np.abs(values - overall))) if np.isfinite(overall) else float("nan")
    return pairwise, vs_overall


def _rate(mask: np.ndarray, positive: np.ndarray) -> float:
    return float(positive[mask].mean()) if mask.any() else float("nan")


def _group_means(values: np.ndarray, codes: np.ndarray, weights: np.ndarray, names: list[str]) -> dict[str, float]:
    """Each group's mean of ``values`` over the rows of weight 1, in one pass (O(rows + groups)).

    ``weights`` is 0/1: the rows a group's value rests on (all rows, or a label's rows).
    """
    totals = np.bincount(codes, weights=values * weights, minlength=len(names))
    counts = np.bincount(codes, weights=weights, minlength=len(names))
    return {g: float(totals[i] / counts[i]) if counts[i] > 0 else float("nan") for i, g in enumerate(names)}


def _rate_metric(name: str, positive: np.ndarray, groups: np.ndarray, base: np.ndarray,
                 names: Sequence[str] | None) -> MetricResult:
    labels, codes = _coded(groups, names)
    by_group = _group_means(positive.astype(float), codes, base.astype(float), labels)
    overall = _rate(base, positive)
    disparity, vs_overall = _gaps(by_group, overall)
    return MetricResult(name, by_group, overall, disparity, vs_overall)


def _hard(predictions: np.ndarray) -> np.ndarray:
    return np.asarray(predictions, dtype=float) >= POSITIVE_THRESHOLD


def demographic_parity(predictions: np.ndarray, groups: np.ndarray,
                       names: Sequence[str] | None = None) -> MetricResult:
    """Positive prediction rate P(ŷ = 1 | z) per group."""
    groups = np.asarray(groups)
    return _rate_metric("demographic_parity", _hard(predictions), groups, np.ones(len(groups), bool), names)


def equal_opportunity(predictions: np.ndarray, labels: np.ndarray, groups: np.ndarray,
                      names: Sequence[str] | None = None) -> MetricResult:
    """True positive rate P(ŷ = 1 | y = 1, z) per group."""
    labels = np.asarray(labels, dtype=float)
    return _rate_metric("equal_opportunity", _hard(predictions), np.asarray(groups), labels == 1, names)


def equalized_odds(predictions: np.ndarray, labels: np.ndarray, groups: np.ndarray,
                   names: Sequence[str] | None = None) -> MetricResult:
    """True and false positive rates per group; the disparity is the larger of the two gaps.

    ``by_group`` holds each group's larger deviation from the overall rate of
    its label; ``details`` holds the rates themselves.
    """
    labels = np.asarray(labels, dtype=float)
    groups = np.asarray(groups)
    positive = _hard(predictions)
    tpr = _rate_metric("tpr", positive, groups, labels == 1, names)
    fpr = _rate_metric("fpr", positive, groups, labels == 0, names)
    by_group = {}
    for g in tpr.by_group:
        deviations = [
            abs(tpr.by_group[g] - tpr.overall),
            abs(fpr.by_group[g] - fpr.overall),
        ]
        by_group[g] = float(np.nanmax(deviations)) if np.isfinite(deviations).any() else float("nan")
    return MetricResult(
        "equalized_odds",
        by_group,
        overall=float("nan"),
        disparity=float(np.nanmax([tpr.disparity, fpr.disparity])),
        disparity_vs_overall=float(np.nanmax([tpr.disparity_vs_overall, fpr.disparity_vs_overall])),
        details={"true_positive_rate": tpr.by_group, "false_positive_rate": fpr.by_group},
    )


def loss_values(predictions: np.ndarray, labels: np.ndarray, loss: str) -> np.ndarray:
    """Per-example loss: ``square``, ``absolute``, ``zero_one`` or ``log`` (predictions are P(y=1))."""
    p = np.asarray(predictions, dtype=float)
    y = np.asarray(labels, dtype=float)
    if loss == "square":
        return np.asarray((p - y) ** 2)
    if loss == "absolute":
        return np.asarray(np.abs(p - y))
    if loss == "zero_one":
        return np.asarray((_hard(p) != (y >= POSITIVE_THRESHOLD)).astype(float))
    if loss == "log":
        q = np.clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
        return np.asarray(-(y * np.log(q) + (1 - y) * np.log(1 - q)))
    raise InputError(f"unknown loss {loss!r}; use one of {sorted(LOSSES)}")


LOSSES = frozenset({"square", "absolute", "zero_one", "log"})


def group_loss(
    predictions: np.ndarray, labels: np.ndarray, groups: np.ndarray, loss: str = "square",
    names: Sequence[str] | None = None,
) -> MetricResult:
    """Mean loss per group; the disparity is the gap between the worst and best group."""
    values = loss_values(predictions, labels, loss)
    group_names, codes = _coded(groups, names)
    by_group = _group_means(values, codes, np.ones(len(values)), group_names)
    overall = float(values.mean())
    disparity, vs_overall = _gaps(by_group, overall)
    return MetricResult("group_loss", by_group, overall, disparity, vs_overall)


def sp_ks(predictions: np.ndarray, groups: np.ndarray, names: Sequence[str] | None = None) -> MetricResult:
    """Statistical parity of a real-valued predictor as a Kolmogorov–Smirnov distance.

    For each group a, ``max_z |P[f(X) >= z | A = a] - P[f(X) >= z]|`` over every
    threshold z the predictions take; ``disparity`` is the largest pairwise KS
    distance and ``disparity_vs_overall`` the fair-regression paper's SP measure.

    Memory is O(rows + groups): the rows are sorted once by (group, prediction), and
    each group's survival curve is evaluated by binary search on its sorted slice and
    folded into a running upper and lower envelope over the groups (the largest
    pairwise distance is the envelope's widest gap), so no more than one curve is
    held at a time.
    """
    f = np.asarray(predictions, dtype=float)
    group_names, codes = _coded(groups, names)
    thresholds = np.unique(f)
    overall = _survival(np.sort(f), thresholds)
    order = np.lexsort((f, codes))
    ordered = f[order]
    ends = np.cumsum(np.bincount(codes, minlength=len(group_names)))
    highest = np.full(len(thresholds), -np.inf)
    lowest = np.full(len(thresholds), np.inf)
    by_group: dict[str, float] = {}
    start = 0
    for name, end in zip(group_names, ends.tolist(), strict=True):
        if end > start:
            curve = _survival(ordered[start:end], thresholds)
            by_group[name] = float(np.max(np.abs(curve - overall)))
            np.maximum(highest, curve, out=highest)
            np.minimum(lowest, curve, out=lowest)
        start = end
    pairwise = float(np.max(highest - lowest)) if by_group else float("nan")
    vs_overall = max(by_group.values()) if by_group else float("nan")
    return MetricResult("sp_ks", by_group, float("nan"), pairwise, vs_overall)


def _survival(ordered: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """P[value >= z] for each threshold z, from the values in ascending order."""
    below = np.searchsorted(ordered, thresholds, side="left")
    return 1.0 - below / len(ordered)
