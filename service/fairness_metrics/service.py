"""Compute the requested metrics with ``service.algorithms.metrics``."""

from __future__ import annotations

import math

import numpy as np

from service.algorithms import metrics as m
from service.algorithms.validation import ambiguous_text_message, same_text
from service.errors import InvalidInput
from service.fairness_metrics.schemas import MetricOut, MetricsRequest, MetricsResponse
from service.settings import Settings

__all__ = ["compute_metrics"]

NEEDS_LABELS = {"equal_opportunity", "equalized_odds", "group_loss"}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _out(result: m.MetricResult) -> MetricOut:
    return MetricOut(
        by_group={g: _finite(v) for g, v in result.by_group.items()},
        overall=_finite(result.overall),
        disparity=_finite(result.disparity),
        disparity_vs_overall=_finite(result.disparity_vs_overall),
        details={k: {g: _finite(v) for g, v in d.items()} for k, d in result.details.items()},
    )


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
    names = sorted(str(g) for g in distinct)
    position = {name: i for i, name in enumerate(names)}
    codes = np.fromiter((position[str(g)] for g in request.groups), dtype=np.int64, count=n)
    predictions = np.asarray(request.predictions, dtype=float)
    labels = np.asarray(request.labels, dtype=float) if request.labels is not None else None
    results: dict[str, MetricOut] = {}
    for name in dict.fromkeys(request.metrics):
        if name == "demographic_parity":
            result = m.demographic_parity(predictions, codes, names)
        elif name not in NEEDS_LABELS:
            result = m.sp_ks(predictions, codes, names)
        else:
            assert labels is not None, "a metric that needs labels is refused without them, above"
            if name == "equal_opportunity":
                result = m.equal_opportunity(predictions, labels, codes, names)
            elif name == "equalized_odds":
                result = m.equalized_odds(predictions, labels, codes, names)
            else:
                if request.loss == "log" and ((predictions < 0) | (predictions > 1)).any():
                    raise InvalidInput("log loss needs predictions in [0, 1]", ["predictions"])
                result = m.group_loss(predictions, labels, codes, request.loss, names)
        results[name] = _out(result)
    return MetricsResponse(n=n, groups=sorted(distinct, key=str), metrics=results)
