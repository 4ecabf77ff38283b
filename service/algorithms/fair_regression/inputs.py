"""One validation pass at the fair-regression entry points; inner code trusts its inputs.

Raises :class:`~service.algorithms.validation.InputError` (a ``ValueError`` carrying
``{loc, msg}``) so that the web layer can answer 422 with a message saying what to fix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.algorithms.fair_regression.losses import LabelScaling, Loss, get_loss
from service.algorithms.validation import InputError, as_matrix, as_vector

__all__ = ["TrainingData", "check_common", "per_group_values", "prepare_training_data"]

# Largest grid the service accepts: every iteration is O(|A| N) and the LP step has
# 2 |A| N rows, so N = 1000 with 64 groups is still well under a second per step.
MAX_GRID_SIZE = 1000
MAX_ITERATIONS = 10_000


@dataclass(frozen=True)
class TrainingData:
    """Validated training data: labels on the unit scale and groups as indices ``0 … |A|-1``."""

    X: np.ndarray
    y: np.ndarray
    scaling: LabelScaling
    group_keys: list[str]
    group_index: np.ndarray
    group_sizes: np.ndarray
    loss: Loss

    @property
    def n_groups(self) -> int:
        return len(self.group_keys)


def prepare_training_data(X: Any, y: Any, groups: Any, loss: str, logistic_c: float) -> TrainingData:
    """Check shapes and values once; scale labels to ``[0, 1]`` (SPEC §5.5)."""
    features = as_matrix(X, ("features",))
    if len(features) < 2:
        raise InputError("needs at least two rows", ("features",))
    labels = as_vector(y, ("labels",), length=len(features))
    group_array = np.asarray(groups)
    if group_array.ndim != 1 or len(group_array) != len(features):
        raise InputError(f"must be a flat list with one group per row ({len(features)} rows)", ("groups",))
    names, index = np.unique(group_array, return_inverse=True)
    the_loss = get_loss(loss, logistic_c)
    if the_loss.name == "logistic" and len(np.unique(labels)) != 2:
        raise InputError("the logistic loss needs binary labels (exactly two distinct values)", ("labels",))
    scaling = LabelScaling.fit(labels)
    return TrainingData(features, scaling.to_unit(labels), scaling, [str(g) for g in names],
                        index.astype(np.int64), np.bincount(index).astype(float), the_loss)


def per_group_values(value: float | Mapping[Any, float], data: TrainingData, name: str,
                     upper: float) -> np.ndarray:
    """A scalar or a ``{group: value}`` mapping (every group, no unknown ones) as an array in ``[0, upper]``."""
    if isinstance(value, Mapping):
        given = {str(k): v for k, v in value.items()}
        unknown = sorted(set(given) - set(data.group_keys))
        if unknown:
            raise InputError(f"unknown group {unknown[0]!r}; known groups are {data.group_keys}", (name,))
        missing = [g for g in data.group_keys if g not in given]
        if missing:
            raise InputError(f"no value for group {missing[0]!r}; give one per group", (name,))
        values = [given[g] for g in data.group_keys]
    else:
        values = [value] * data.n_groups
    out = np.empty(len(values))
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)) \
                or not np.isfinite(v) or not 0.0 <= float(v) <= upper:
            raise InputError(f"must be a number between 0 and {upper:g}", (name, data.group_keys[i]))
        out[i] = float(v)
    return out


def check_common(max_iterations: int, tolerance: float | None, bound_b: float | None,
                 progress: Callable[[float], None] | None, should_stop: Callable[[], bool] | None) -> None:
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, (int, np.integer)) \
            or not 1 <= max_iterations <= MAX_ITERATIONS:
        raise InputError(f"must be a whole number between 1 and {MAX_ITERATIONS}", ("max_iterations",))
    for name, value in (("tolerance", tolerance), ("bound_b", bound_b)):
        if value is not None and not (np.isfinite(value) and value > 0):
            raise InputError("must be a positive number", (name,))
    for name, hook in (("progress", progress), ("should_stop", should_stop)):
        if hook is not None and not callable(hook):
            raise InputError("must be callable", (name,))
