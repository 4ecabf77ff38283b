"""Bootstrap confidence intervals for group fairness metrics.

The resampling is the nonparametric bootstrap stratified by group (Efron & Tibshirani 1993,
ch. 6 and §8.4 on stratified samples; Davison & Hinkley 1997, §3.2): each resample draws
``n_g`` rows with replacement from each group's ``n_g`` rows, so every group keeps its size
and is present in every resample, and a group's rate is never undefined because the group
went missing. The same resampled rows serve every metric of a request, so their intervals
are joint draws. The interval is the percentile interval (Efron & Tibshirani, eq. 13.5):
the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the resampled values
(``numpy.quantile``'s default, linear interpolation). A value undefined in a resample (a
group with no positive labels drawn, for a true positive rate) is left out of its quantiles.

Draws come from one ``numpy.random.Generator``: the same seed gives the same intervals, bit
for bit. Work is ``resamples × rows`` index draws plus each metric's own work per resample
(:func:`work`), which the caller checks against its limit before anything is allocated.

References
----------
Efron, B., Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman & Hall.
Davison, A. C., Hinkley, D. V. (1997). *Bootstrap Methods and their Application*. CUP.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from service.algorithms.metrics import MetricResult
from service.algorithms.validation import InputError

__all__ = ["Interval", "IntervalResult", "bootstrap", "resample_indices", "work"]

# A metric evaluated on rows given by an index array (into the caller's arrays).
Metric = Callable[[np.ndarray], MetricResult]


@dataclass(frozen=True)
class Interval:
    """A percentile interval; both ends ``nan`` when the value is undefined in every resample."""

    lower: float
    upper: float


@dataclass
class IntervalResult:
    """The intervals of one metric, shaped as its :class:`MetricResult`."""

    by_group: dict[str, Interval]
    overall: Interval
    disparity: Interval
    disparity_vs_overall: Interval
    details: dict[str, dict[str, Interval]] = field(default_factory=dict)


def work(rows: int, resamples: int, costs: Sequence[int]) -> int:
    """The bootstrap's work in row-operations: a draw per row and resample, plus each
    metric's cost per row (1 for a rate or a loss, the number of groups for ``sp_ks``)."""
    return rows * resamples * (1 + sum(costs))


def resample_indices(codes: np.ndarray, n_groups: int, resamples: int,
                     rng: np.random.Generator) -> Callable[[], np.ndarray]:
    """A function drawing one stratified resample: row indices, each group's drawn from its own rows.

    Rows are ordered by group once; each draw is ``start[g] + integers(0, n_g)`` per row,
    one vectorised call, so a resample is O(rows) whatever the number of groups.
    """
    if resamples < 1:
        raise InputError("resamples must be at least 1", ["resamples"])
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes, minlength=n_groups)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    ordered_codes = codes[order]
    row_start = starts[ordered_codes]
    row_size = sizes[ordered_codes]

    def draw() -> np.ndarray:
        return np.asarray(order[row_start + rng.integers(0, row_size)])

    return draw


def _interval(values: np.ndarray, level: float) -> list[Interval]:
    """Percentile intervals of each column of ``values`` (resamples × k), ignoring ``nan``."""
    tail = (1.0 - level) / 2.0
    defined = np.isfinite(values)
    out: list[Interval] = []
    for j in range(values.shape[1]):
        column = values[defined[:, j], j]
        if column.size == 0:
            out.append(Interval(float("nan"), float("nan")))
        else:
            lower, upper = np.quantile(column, [tail, 1.0 - tail])
            out.append(Interval(float(lower), float(upper)))
    return out


def _flatten(result: MetricResult) -> list[float]:
    values = [*result.by_group.values(), result.overall, result.disparity, result.disparity_vs_overall]
    for detail in result.details.values():
        values.extend(detail.values())
    return values


def bootstrap(metrics: dict[str, Metric], points: dict[str, MetricResult], draw: Callable[[], np.ndarray],
              resamples: int, level: float) -> dict[str, IntervalResult]:
    """Percentile intervals at ``level`` for every value of every metric, from ``resamples`` draws.

    ``points`` gives each metric's result on the data itself, which fixes the layout (the
    groups and details) the resampled results are read into. Memory: one row of values per
    resample and metric (O(resamples × groups)) and one resample's indices.
    """
    if not 0.0 < level < 1.0:
        raise InputError("level must be between 0 and 1", ["level"])
    tables = {name: np.empty((resamples, len(_flatten(point)))) for name, point in points.items()}
    for b in range(resamples):
        rows = draw()
        for name, metric in metrics.items():
            tables[name][b] = _flatten(metric(rows))
    results: dict[str, IntervalResult] = {}
    for name, point in points.items():
        intervals = iter(_interval(tables[name], level))
        by_group = {g: next(intervals) for g in point.by_group}
        overall, disparity, vs_overall = next(intervals), next(intervals), next(intervals)
        details = {key: {g: next(intervals) for g in detail} for key, detail in point.details.items()}
        results[name] = IntervalResult(by_group, overall, disparity, vs_overall, details)
    return results
