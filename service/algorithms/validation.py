"""Input checks at the library's boundary, and the exceptions the library raises.

Every public entry point validates once and raises :class:`InputError` with the
location of the first problem, so that the web layer can answer 422 with a
message that says what to fix. Inner functions trust their inputs.

What the library raises::

    ValueError
     ├── InputError            the caller's input is invalid: arguments, data, a config, or
     │                         stored params/state handed back to ``from_dict`` / ``from_params``
     │                         (the web layer: 422, or a stored row it cannot read)
     └── StateError            the input is well-formed but the session's state refuses it
          │                    (the web layer: 409)
          ├── adaptive_sampling.BudgetExhaustedError   the sampler's budget is spent
          ├── datasift.DataSiftError                   the bandit has stopped
          │    ├── BanditFinishedError                 (or the decision is stale)
          │    └── StaleDecisionError
          └── fairbatch.EpochOrderError                an epoch that does not follow the last one

Nothing else is raised for a caller's mistake. A numerical failure inside the
library (a singular Hessian, a solver that fails) is not an exception: each
solver falls back (a damped or least-squares solve, a second solver, the
reference projected-gradient solver) and reports the outcome in its result
record (``status``, ``message``). ``RuntimeError`` is raised only for misuse of a
scikit-learn-style estimator (``predict`` before ``fit``, or a fit that produced no
predictor), and ``NotImplementedError`` only by abstract base methods and by a
learner asked for an oracle that the entry point has already refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = ["InputError", "StateError", "ambiguous_text_message", "as_matrix", "as_vector", "check_groups",
           "check_same_length", "same_text"]


class InputError(ValueError):
    """Invalid input; ``errors`` is a list of ``{loc, msg}`` like pydantic's."""

    def __init__(self, msg: str, loc: Sequence[str | int] = ()) -> None:
        where = ".".join(str(p) for p in loc)
        super().__init__(f"{where}: {msg}" if where else msg)
        self.errors: list[dict[str, Any]] = [{"loc": list(loc), "msg": msg}]


class StateError(ValueError):
    """A well-formed request that the session's current state refuses (a spent budget, a stopped bandit)."""


def as_matrix(
    rows: Any, loc: Sequence[str | int] = ("features",), *, n_features: int | None = None
) -> np.ndarray:
    """A non-empty 2-D float matrix with finite values and rectangular rows."""
    if isinstance(rows, np.ndarray):
        matrix = rows.astype(float, copy=False)
        if matrix.ndim != 2:
            raise InputError("must be a 2-D matrix (a list of rows)", loc)
    else:
        if not isinstance(rows, (list, tuple)) or len(rows) == 0:
            raise InputError("must be a non-empty list of rows", loc)
        width = len(rows[0]) if isinstance(rows[0], (list, tuple)) else -1
        for i, row in enumerate(rows):
            if not isinstance(row, (list, tuple)):
                raise InputError("must be a list of numbers", [*loc, i])
            if len(row) != width:
                raise InputError(f"has {len(row)} values but row 0 has {width}; rows must be equal length",
                                 [*loc, i])
        try:
            matrix = np.asarray(rows, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InputError(f"must contain only numbers ({exc})", loc) from None
    if matrix.shape[0] == 0:
        raise InputError("must have at least one row", loc)
    if matrix.shape[1] == 0:
        raise InputError("rows must have at least one feature", loc)
    if n_features is not None and matrix.shape[1] != n_features:
        raise InputError(f"rows have {matrix.shape[1]} features; expected {n_features}", loc)
    bad = ~np.isfinite(matrix)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InputError("must be a finite number (NaN and infinity are not allowed)", [*loc, int(i), int(j)])
    return matrix


def as_vector(values: Any, loc: Sequence[str | int], *, length: int | None = None) -> np.ndarray:
    """A 1-D float vector of finite values, optionally of a given length."""
    try:
        vector = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InputError("must be a list of numbers", loc) from None
    if vector.ndim != 1:
        raise InputError("must be a flat list of numbers", loc)
    if length is not None and len(vector) != length:
        raise InputError(f"has {len(vector)} values; expected {length} (one per row)", loc)
    bad = ~np.isfinite(vector)
    if bad.any():
        raise InputError("must be a finite number (NaN and infinity are not allowed)",
                         [*loc, int(np.flatnonzero(bad)[0])])
    return vector


def check_same_length(length: int, loc: Sequence[str | int], values: Sequence[Any]) -> None:
    if len(values) != length:
        raise InputError(f"has {len(values)} values; expected {length} (one per row)", loc)


def check_groups(values: Sequence[Any], known: Sequence[Any], loc: Sequence[str | int]) -> None:
    """Every value must be one of ``known`` (compared as given)."""
    allowed = set(known)
    for i, value in enumerate(values):
        if value not in allowed:
            raise InputError(f"unknown group {value!r}; known groups are {list(known)}", [*loc, i])


def same_text(values: Iterable[Any]) -> tuple[Any, Any] | None:
    """Two distinct values that read the same as text (``1`` and ``"1"``), or ``None``.

    A group or label is known by its text wherever it is a key (JSON objects, per-group
    results), so values that print alike cannot be told apart there and are refused.
    """
    seen: dict[str, Any] = {}
    for value in values:
        text = str(value)
        other = seen.setdefault(text, value)
        if other is not value and (type(other) is not type(value) or other != value):
            first, second = sorted((other, value), key=lambda v: isinstance(v, str))
            return first, second
    return None


def ambiguous_text_message(pair: tuple[Any, Any]) -> str:
    """What to say about :func:`same_text`'s pair."""
    a, b = (json.dumps(v, ensure_ascii=False) for v in pair)
    return f"has both {a} and {b}, which read the same: groups and labels are known by their text; use one spelling"
