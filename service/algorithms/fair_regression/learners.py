"""Base-learner specifications: ``{type: linear | gradient_boosting, params}`` → a learner.

A learner holds hyperparameters only (scikit-learn's contract). ``bind(X, group_index,
n_groups, rng)`` returns an object with

* ``fit(targets, loss, weights=None)`` — weighted risk minimisation under ``loss`` (the
  least-squares and loss-minimisation oracles, and Algorithm 2's best response), and
* ``fit_cost_sensitive(costs, grid, start_targets)`` — the cost-sensitive oracle (linear only),

each returning a fitted :mod:`~service.algorithms.fair_regression.regressors` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from service.algorithms.fair_regression.boosting_learner import GradientBoostingLearner
from service.algorithms.fair_regression.linear_learner import LinearLearner
from service.algorithms.validation import InputError

__all__ = ["LEARNER_TYPES", "Learner", "make_learner"]

Learner = LinearLearner | GradientBoostingLearner

LEARNER_TYPES = ("linear", "gradient_boosting")

# Allowed hyperparameters: name -> (type, lowest, highest). The ceilings keep one oracle
# call of a background job within seconds on the service's row limits.
_PARAMS: dict[str, dict[str, tuple[type, float, float]]] = {
    "linear": {"alpha": (float, 0.0, 1e6)},
    "gradient_boosting": {
        "n_estimators": (int, 1, 2000),
        "max_depth": (int, 1, 16),
        "learning_rate": (float, 1e-6, 1.0),
        "subsample": (float, 1e-3, 1.0),
        "min_samples_leaf": (int, 1, 100_000),
    },
}


def make_learner(spec: Learner | Mapping[str, Any] | None) -> Learner:
    """A learner from ``None`` (linear defaults), a ``{type, params}`` mapping or a learner."""
    if isinstance(spec, (LinearLearner, GradientBoostingLearner)):
        return spec
    if spec is None:
        return LinearLearner()
    if not isinstance(spec, Mapping):
        raise InputError("must be an object {type, params}", ("learner",))
    kind = spec.get("type", "linear")
    if kind not in LEARNER_TYPES:
        raise InputError(f"unknown learner {kind!r}; use one of {list(LEARNER_TYPES)}", ("learner", "type"))
    raw = spec.get("params") or {}
    if not isinstance(raw, Mapping):
        raise InputError("must be an object of hyperparameters", ("learner", "params"))
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in _PARAMS[kind]:
            raise InputError(f"unknown hyperparameter for {kind}; allowed: {sorted(_PARAMS[kind])}",
                             ("learner", "params", name))
        cast, lo, hi = _PARAMS[kind][name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
            raise InputError("must be a finite number", ("learner", "params", name))
        if cast is int and float(value) != int(value):
            raise InputError("must be a whole number", ("learner", "params", name))
        if not lo <= value <= hi:
            raise InputError(f"must be between {lo:g} and {hi:g}", ("learner", "params", name))
        params[name] = cast(value)
    return LinearLearner(**params) if kind == "linear" else GradientBoostingLearner(**params)
