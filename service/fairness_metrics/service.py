"""Compute the requested metrics with ``service.algorithms.metrics``, and their bootstrap intervals."""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from service.algorithms import bootstrap as b
from service.algorithms import metrics as m
from service.algorithms.validation import ambiguous_text_message, same_text
from service.errors import InvalidInput
from service.fairness_metrics.schemas import (
    BootstrapOut,
    IntervalOut,
    MetricCI,
    MetricOut,
    MetricsRequest,
    MetricsResponse,
)
from service.settings import Settings

__all__ = ["MAX_BOOTSTRAP_WORK", "compute_metrics"]

NEEDS_LABELS = {"equal_opportunity", "equalized_odds", "group_loss"}
# Row-operations one request's bootstrap may take (algorithms.bootstrap.work): about 2 s of one
# core — e.g. 10,000 rows × 1,000 resamples of two rate metrics. Checked before any allocation.
MAX_BOOTSTRAP_WORK = 30_000_000
METHOD = "percentile intervals of a bootstrap stratified by group"
SEED_BITS = 63

Shaped = TypeVar("Shaped", MetricOut, MetricCI)
Evaluate = Callable[[np.ndarray, np.ndarray | None, np.ndarray], m.MetricResult]


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _shaped(result: m.MetricResult | b.IntervalResult, cell: Callable[[Any], Any], model: type[Shaped]) -> Shaped:
    """A metric's values (or their intervals) in the response's shape, each cell converted by ``cell``."""
    return model(
        by_group={g: cell(v) for g, v in result.by_group.items()},
        overall=cell(result.overall),
        disparity=cell(result.disparity),
        disparity_vs_overall=cell(result.disparity_vs_overall),
        details={k: {g: cell(v) for g, v in d.items()} for k, d in result.details.items()},
    )


def _out(result: m.MetricResult) -> MetricOut:
    return _shaped(result, _finite, MetricOut)


def _interval(value: b.Interval) -> IntervalOut:
    return IntervalOut(lower=_finite(value.lower), upper=_finite(value.upper))


def _ci(result: b.IntervalResult) -> MetricCI:
    return _shaped(result, _interval, MetricCI)


def _evaluator(name: str, loss: str, names: list[str]) -> Evaluate:
    """The metric as a function of (predictions, labels, codes): on the data, and on each resample."""
    if name == "demographic_parity":
        return lambda p, y, c: m.demographic_parity(p, c, names)
    if name == "sp_ks":
        return lambda p, y, c: m.sp_ks(p, c, names)

    def labelled(p: np.ndarray, y: np.ndarray | None, c: np.ndarray) -> m.MetricResult:
        assert y is not None, "a metric that needs labels is refused without them"
        if name == "equal_opportunity":
            return m.equal_opportunity(p, y, c, names)
        if name == "equalized_odds":
            return m.equalized_odds(p, y, c, names)
        return m.group_loss(p, y, c, loss, names)

    return labelled


def _check(request: MetricsRequest, n_groups: int) -> None:
    """The bootstrap's work against its cap, before anything is drawn or allocated."""
    if request.bootstrap is None:
        return
    costs = [n_groups if name == "sp_ks" else 1 for name in dict.fromkeys(request.metrics)]
    work = b.work(len(request.predictions), request.bootstrap.resamples, costs)
    if work > MAX_BOOTSTRAP_WORK:
        raise InvalidInput(
            f"the bootstrap would take {work:,} row-operations (rows × resamples × (1 + one per metric, "
            f"sp_ks one per group)); the limit is {MAX_BOOTSTRAP_WORK:,}: send fewer resamples or rows",
            ["body", "bootstrap", "resamples"])


def compute_metrics(request: MetricsRequest, settings: Settings) -> MetricsResponse:
    """Check the limits and shapes first, then compute on group codes (memory O(rows + groups))."""
    n = len(request.predictions)
    if n > settings.max_rows:
        raise InvalidInput(f"has {n} rows; the limit is {settings.max_rows} (FAIRACQ_MAX_ROWS)",
                           ["body", "predictions"])
    if len(request.groups) != n:
        raise InvalidInput(f"has {len(request.groups)} values; expected {n} (one per prediction)", ["groups"])
    if request.labels is not None and len(request.labels) != n:
        raise InvalidInput(f"has {len(request.labels)} values; expected {n} (one per prediction)", ["labels"])
    missing = NEEDS_LABELS.intersection(request.metrics)
    if missing and request.labels is None:
        raise InvalidInput(f"labels are needed for {sorted(missing)}", ["labels"])
    distinct = set(request.groups)
    if len(distinct) > settings.max_groups:
        raise InvalidInput(f"has {len(distinct)} distinct groups; the limit is {settings.max_groups} "
                         "(FAIRACQ_MAX_GROUPS)", ["body", "groups"])
    ambiguous = same_text(distinct)
    if ambiguous is not None:
        raise InvalidInput(ambiguous_text_message(ambiguous), ["body", "groups"])
    _check(request, len(distinct))
    names = sorted(str(g) for g in distinct)
    position = {name: i for i, name in enumerate(names)}
    codes = np.fromiter((position[str(g)] for g in request.groups), dtype=np.int64, count=n)
    predictions = np.asarray(request.predictions, dtype=float)
    labels = np.asarray(request.labels, dtype=float) if request.labels is not None else None
    if "group_loss" in request.metrics and request.loss == "log" and ((predictions < 0) | (predictions > 1)).any():
        raise InvalidInput("log loss needs predictions in [0, 1]", ["predictions"])
    evaluators: dict[str, Evaluate] = {name: _evaluator(name, request.loss, names)
                                       for name in dict.fromkeys(request.metrics)}
    points = {name: evaluate(predictions, labels, codes) for name, evaluate in evaluators.items()}
    results = {name: _out(point) for name, point in points.items()}
    counts = np.bincount(codes, minlength=len(names))
    shown = None
    if request.bootstrap is not None:
        options = request.bootstrap
        seed = options.seed if options.seed is not None else secrets.randbits(SEED_BITS)
        draw = b.resample_indices(codes, len(names), options.resamples, np.random.default_rng(seed))

        def on_rows(evaluate: Evaluate) -> b.Metric:
            return lambda rows: evaluate(predictions[rows], None if labels is None else labels[rows], codes[rows])

        intervals = b.bootstrap({name: on_rows(e) for name, e in evaluators.items()}, points, draw,
                                options.resamples, options.level)
        for name, interval in intervals.items():
            results[name].ci = _ci(interval)
        shown = BootstrapOut(resamples=options.resamples, seed=seed, level=options.level, method=METHOD)
    return MetricsResponse(n=n, groups=sorted(distinct, key=str), counts=dict(zip(names, counts.tolist(), strict=True)),
                           metrics=results, bootstrap=shown)
