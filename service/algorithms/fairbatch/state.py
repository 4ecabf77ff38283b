"""FairBatch scheduler state and its creation (the ``POST /v1/batch-schedulers`` step).

The state is plain data: configuration, per-cell counts and sampling
probabilities as flat tuples in label-major cell order (cell ``k`` is
``(labels[k // G], groups[k % G])``), the last epoch processed and the λ history
(:mod:`service.algorithms.fairbatch.history`). It never changes in place;
:func:`service.algorithms.fairbatch.epoch_step` returns a new one.

Layout of :meth:`FairBatchState.to_dict` (tables are labels x groups; the history
columns are numpy arrays, which the service stores compressed — ``.tolist()`` each
for JSON, :meth:`FairBatchState.from_dict` takes either)::

    {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["F", "M"],
     "positive_label": 1, "counts": [[m00, m01], [m10, m11]],
     "step_size": 0.005, "batch_size": 100, "threshold": 0.0, "epoch": 3,
     "probabilities": [[p00, p01], [p10, p11]],
     "history": {"epoch": int64[n], "disparity": float[n], "max_pair_disparity": float[n],
                 "lambdas": float[n, n_lambdas], "moved": int64[n] (-1: none)}}

References
----------
Roh, Lee, Whang, Suh (2021), "FairBatch: Batch Selection for Model Fairness",
ICLR — Section 2 (sampling probabilities start at m_{y,z}/m), Appendix B.5 (T).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from service.algorithms.fairbatch.cells import (
    CellLayout,
    Value,
    build_layout,
    check_values,
    count_vector,
    default_positive,
    value_index,
    value_key,
)
from service.algorithms.fairbatch.history import LambdaHistory
from service.algorithms.validation import InputError, StateError

__all__ = ["EpochOrderError", "FairBatchState", "cell_index", "evolve", "init_state"]

# A stored state's probabilities must sum to 1 and sit in their box up to this:
# thousands of ±step_size moves drift by ~1e-15, a corrupted state by far more.
PROBABILITY_ATOL = 1e-9
# The library's one FairBatch cache (process-wide, functools.lru_cache, least recently used
# out): the checked initial state of up to this many distinct scheduler configurations,
# with its cell layout. Every request rebuilds a state from JSON (``from_dict``) and the
# configuration part never changes, so a 64 x 64 scheduler is read in ~2 ms instead of
# ~25 ms. States are immutable, so sharing one between threads is safe; at most 1,024
# layouts of at most 4,096 cells are held.
CONFIG_CACHE_SIZE = 1024
# Values derived from the configuration alone (cached properties). A state made from
# another with the same configuration (:func:`evolve`) takes them over instead of
# rebuilding them.
_DERIVED = ("layout", "cells", "index", "_box")


class EpochOrderError(StateError):
    """An epoch number that does not come after the last one processed."""


@dataclass(frozen=True)
class FairBatchState:
    """One scheduler: configuration, per-cell counts and probabilities (flat, label-major), λ history."""

    metric: str
    labels: tuple[Value, ...]
    groups: tuple[Value, ...]
    positive: int
    counts: tuple[int, ...]
    step_size: float
    batch_size: int
    threshold: float
    probabilities: tuple[float, ...]
    epoch: int
    history: LambdaHistory

    @cached_property
    def layout(self) -> CellLayout:
        return build_layout(self.metric, len(self.labels), len(self.groups), self.positive,
                            np.asarray(self.counts, dtype=np.int64))

    @cached_property
    def cells(self) -> tuple[tuple[Value, Value], ...]:
        """``(label, group)`` of every cell, label-major; built once per state (4,096 at 64 × 64)."""
        return tuple((y, z) for y in self.labels for z in self.groups)

    @cached_property
    def index(self) -> tuple[dict[tuple[str, object], int], dict[tuple[str, object], int]]:
        """Position of each label and each group by comparison key (see :func:`cell_index`)."""
        return value_index(self.labels), value_index(self.groups)

    @property
    def lambdas(self) -> tuple[float, ...]:
        return tuple(self.layout.lambdas(np.asarray(self.probabilities)).tolist())

    @property
    def initial_lambdas(self) -> tuple[float, ...]:
        """λ at creation, from the natural probabilities ``m_{y,z}/m``."""
        counts = np.asarray(self.counts, dtype=float)
        return tuple(self.layout.lambdas(counts / counts.sum()).tolist())

    def box(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-cell feasible probabilities ``[low, high]`` (read-only arrays)."""
        return self._box

    @cached_property
    def _box(self) -> tuple[np.ndarray, np.ndarray]:
        counts = np.asarray(self.counts, dtype=float)
        low, high = self.layout.box(counts / counts.sum())
        low.flags.writeable = high.flags.writeable = False
        return low, high

    def describe_lambdas(self) -> list[dict[str, Any]]:
        """Each λ: its label, the two groups it moves probability between, and its box ``[0, c]``."""
        cells, mass = self.cells, self.layout.block_mass
        return [
            {"label": cells[a][0], "groups": [cells[a][1], cells[b][1]], "box": [0.0, mass[block]]}
            for (a, b), block in zip(self.layout.pairs, self.layout.lambda_blocks, strict=True)
        ]

    def to_dict(self) -> dict[str, Any]:
        shape = (len(self.labels), len(self.groups))
        return {
            "metric": self.metric,
            "labels": list(self.labels),
            "groups": list(self.groups),
            "positive_label": self.labels[self.positive],
            "counts": np.asarray(self.counts).reshape(shape).tolist(),
            "step_size": self.step_size,
            "batch_size": self.batch_size,
            "threshold": self.threshold,
            "epoch": self.epoch,
            "probabilities": np.asarray(self.probabilities).reshape(shape).tolist(),
            "history": self.history.to_arrays(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FairBatchState:
        state = _initial_state(data)
        probabilities = np.asarray(data["probabilities"], dtype=float).ravel()
        _check_probabilities(state, probabilities)
        history = LambdaHistory.from_arrays(data["history"], len(state.layout.pairs))
        epoch = int(data["epoch"])
        if epoch != (int(history.epoch[-1]) if len(history) else 0):
            raise InputError("epoch must be the last epoch of the history (0 before any)")
        return evolve(state, probabilities=tuple(probabilities.tolist()), epoch=epoch, history=history)


def evolve(state: FairBatchState, *, probabilities: tuple[float, ...], epoch: int,
           history: LambdaHistory) -> FairBatchState:
    """``state`` with new probabilities, epoch and history; the configuration and what is derived
    from it (the cell layout, the cell list, the label and group index) carry over."""
    new = replace(state, probabilities=probabilities, epoch=epoch, history=history)
    new.__dict__.update({k: state.__dict__[k] for k in _DERIVED if k in state.__dict__})
    return new


def _typed(values: Sequence[Any]) -> tuple[tuple[str, Any], ...]:
    # 1 and 1.0 hash alike, but a state echoes its labels back as given: keep the type.
    return tuple((type(v).__name__, v) for v in values)


def _config_key(data: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        data["metric"], _typed(data["labels"]), _typed(data["groups"]),
        tuple(tuple(row) for row in data["counts"]), _typed([data["positive_label"]]),
        _typed([data["batch_size"]]), _typed([data["step_size"]]), _typed([data["threshold"]]),
    )


def _init_from_dict(data: Mapping[str, Any]) -> FairBatchState:
    labels, groups = data["labels"], data["groups"]
    counts = {(y, z): c for y, row in zip(labels, data["counts"], strict=True)
              for z, c in zip(groups, row, strict=True)}
    return init_state(
        data["metric"], labels, groups, counts, batch_size=data["batch_size"],
        step_size=data["step_size"], threshold=data["threshold"], positive_label=data["positive_label"],
    )


def _initial_state(data: Mapping[str, Any]) -> FairBatchState:
    """:func:`init_state` for a stored configuration, checked once per process (states are immutable)."""
    try:
        key = _config_key(data)
    except TypeError:  # not JSON data (a list where a value belongs): init_state says what is wrong
        return _init_from_dict(data)
    return _cached_initial_state(key)


@lru_cache(maxsize=CONFIG_CACHE_SIZE)
def _cached_initial_state(key: tuple[Any, ...]) -> FairBatchState:
    """The initial state of the configuration ``key`` (:func:`_config_key`) with its layout built."""
    metric, labels, groups, counts, positive, batch_size, step_size, threshold = key
    state = _init_from_dict({
        "metric": metric, "labels": [v for _, v in labels], "groups": [v for _, v in groups],
        "counts": [list(row) for row in counts], "positive_label": positive[0][1],
        "batch_size": batch_size[0][1], "step_size": step_size[0][1], "threshold": threshold[0][1],
    })
    for name in _DERIVED:  # built once here, carried over by evolve()
        getattr(state, name)
    return state


def _check_probabilities(state: FairBatchState, p: np.ndarray) -> None:
    low, high = state.box()
    if p.shape != low.shape or not np.all(np.isfinite(p)):
        raise InputError("probabilities must be a finite labels x groups table")
    if abs(p.sum() - 1.0) > PROBABILITY_ATOL or np.any(p < low - PROBABILITY_ATOL) or np.any(
        p > high + PROBABILITY_ATOL
    ):
        raise InputError("probabilities must sum to 1 and stay in their feasible box")


def init_state(
    metric: str,
    labels: Sequence[Value],
    groups: Sequence[Value],
    counts: Mapping[tuple[Value, Value], int],
    *,
    batch_size: int,
    step_size: float = 0.005,
    threshold: float = 0.0,
    positive_label: Value | None = None,
) -> FairBatchState:
    """Create a scheduler with probabilities ``m_{y,z} / m`` (uniform sampling, Algorithm 1).

    Parameters
    ----------
    metric : {"equal_opportunity", "equalized_odds", "demographic_parity"}
    labels, groups : lists of distinct strings or numbers, echoed back as given.
        Demographic parity needs exactly two labels.
    counts : ``{(label, group): m_{y,z}}``; cells left out have no examples.
    batch_size : examples per batch, split over cells by :func:`largest_remainder`.
    step_size : α, probability moved per epoch (Section 3; the paper tunes it in [0.0001, 0.05]).
    threshold : T of Appendix B.5; λ moves only while the measure's largest adjacent gap
        exceeds it (EO, ED: the largest pair disparity; DP: the largest parity gap
        ``|P(ŷ=1|z_a) - P(ŷ=1|z_b)|``, see :func:`service.algorithms.fairbatch.disparity.gate_disparity`).
    positive_label : the label of equal opportunity's ``y = 1`` and demographic parity's
        positive prediction; default the label equal to 1, else the last label.

    References
    ----------
    Roh et al. (2021), Section 2 (the bilevel problems), Appendix A.1, Appendix B.5.
    """
    labels = check_values("labels", labels, minimum=2)
    groups = check_values("groups", groups, minimum=2)
    if positive_label is None:
        positive = default_positive(labels)
    else:
        positive = value_index(labels).get(value_key(positive_label), -1)
        if positive < 0:
            raise InputError(f"positive_label {positive_label!r} is not one of the labels {list(labels)!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int | np.integer) or batch_size < 1:
        raise InputError("batch_size must be a positive integer")
    if not (np.isfinite(step_size) and 0.0 < step_size <= 1.0):
        raise InputError("step_size must be in (0, 1]")
    if not (np.isfinite(threshold) and threshold >= 0.0):
        raise InputError("threshold must be a finite number >= 0")
    m = count_vector(labels, groups, counts)
    layout = build_layout(metric, len(labels), len(groups), positive, m)
    probabilities = m / m.sum()
    state = FairBatchState(
        metric=metric, labels=labels, groups=groups, positive=positive,
        counts=tuple(int(c) for c in m), step_size=float(step_size), batch_size=int(batch_size),
        threshold=float(threshold), probabilities=tuple(probabilities.tolist()), epoch=0,
        history=LambdaHistory.empty(len(layout.pairs)),
    )
    state.__dict__["layout"] = layout  # the cached property, already built
    return state


def cell_index(state: FairBatchState, label: Value, group: Value) -> int:
    """Position of cell ``(label, group)``; numbers match by value (1 and 1.0 are the same label)."""
    label_at, group_at = state.index
    if value_key(label) not in label_at:
        raise InputError(f"unknown label {label!r}; labels are {list(state.labels)!r}")
    if value_key(group) not in group_at:
        raise InputError(f"unknown group {group!r}; groups are {list(state.groups)!r}")
    return label_at[value_key(label)] * len(state.groups) + group_at[value_key(group)]


