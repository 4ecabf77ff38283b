"""Sensitive-group encoding: disjoint groups and intersecting group classes.

A filter sees the sensitive attribute only in its training data. Groups come as
one column of labels (disjoint groups, Section 2) or as several columns, one
per group class such as race and sex (intersecting groups, Appendix A.2). Both
are encoded as a 0/1 membership matrix ``Z`` (rows x K) whose columns are the
groups of every class in turn, so that everything downstream -- the conditional
matrix ``A``, disclosivity, imbalance, the Lagrangian game -- is written once
for ``K = sum_i k_i`` columns.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Definition 1 (balance), Appendix A.2 (Definitions 15-16, ``U_intersect``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.algorithms.metrics import group_values
from service.algorithms.validation import InputError

__all__ = ["GroupEncoding", "encode_groups", "target_vector"]

# How far a target's shares may sum from 1 (per group class) before it is rejected:
# loose enough for shares typed as decimals in JSON, tight enough to catch mistakes.
TARGET_SUM_TOL = 1e-6


@dataclass(frozen=True)
class GroupEncoding:
    """The group values of each group class, in column order of ``Z``."""

    values: tuple[tuple[Any, ...], ...]

    @property
    def n_classes(self) -> int:
        return len(self.values)

    @property
    def n_groups(self) -> int:
        return sum(len(v) for v in self.values)

    @property
    def blocks(self) -> list[slice]:
        """Column slice of ``Z`` belonging to each group class."""
        out, start = [], 0
        for vals in self.values:
            out.append(slice(start, start + len(vals)))
            start += len(vals)
        return out

    @property
    def names(self) -> list[str]:
        """Column names: the group value, or ``"<class index>:<value>"`` for several classes."""
        if self.n_classes == 1:
            return [str(v) for v in self.values[0]]
        return [f"{i}:{v}" for i, vals in enumerate(self.values) for v in vals]

    def indicators(self, groups: Any, loc: Sequence[str | int] = ("groups",)) -> np.ndarray:
        """Membership matrix ``Z`` (rows x K) of ``groups``; unknown values raise ``InputError``."""
        columns = _columns(groups, self.n_classes, loc)
        blocks = []
        for c, (col, vals) in enumerate(zip(columns, self.values, strict=True)):
            lookup = {v: i for i, v in enumerate(vals)}
            codes = np.empty(len(col), dtype=np.int64)
            for i, value in enumerate(col.tolist()):
                code = lookup.get(value)
                if code is None:
                    where = [*loc, i] if self.n_classes == 1 else [*loc, i, c]
                    raise InputError(f"unknown group {value!r}; known groups are {list(vals)}", where)
                codes[i] = code
            blocks.append(np.eye(len(vals))[codes])
        return np.hstack(blocks)

    def to_dict(self) -> dict[str, Any]:
        return {"values": [list(v) for v in self.values]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroupEncoding:
        return cls(values=tuple(tuple(v) for v in data["values"]))


def _columns(groups: Any, n_classes: int | None, loc: Sequence[str | int]) -> list[np.ndarray]:
    array = np.asarray(groups, dtype=object)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2 or array.shape[0] == 0:
        raise InputError("must be a non-empty list of group labels (or of rows of labels)", loc)
    if n_classes is not None and array.shape[1] != n_classes:
        raise InputError(f"rows have {array.shape[1]} group columns; expected {n_classes}", loc)
    return [_plain(array[:, c]) for c in range(array.shape[1])]


def _plain(column: np.ndarray) -> np.ndarray:
    """Python ``str``/``int`` values (numpy scalars compare and serialise like them)."""
    return np.asarray([v.item() if isinstance(v, np.generic) else v for v in column], dtype=object)


def encode_groups(
    groups: Any, group_values: Sequence[Any] | Sequence[Sequence[Any]] | None = None
) -> tuple[GroupEncoding, np.ndarray]:
    """Encode group labels as ``(encoding, Z)``.

    Parameters
    ----------
    groups : array-like, shape (n,) or (n, G)
        One label per row (disjoint groups) or one label per group class.
    group_values : sequence, optional
        The allowed values (a list per class when ``G > 1``) in the order the
        columns of ``Z`` should follow; default: the sorted values seen.
        A label outside them raises ``InputError``.
    """
    columns = _columns(groups, None, ("groups",))
    if group_values is None:
        values = tuple(tuple(group_values_of(col)) for col in columns)
    else:
        nested = all(isinstance(v, (list, tuple)) for v in group_values)
        given = [list(group_values)] if len(columns) == 1 and not nested else list(group_values)
        if len(given) != len(columns):
            raise InputError(f"expected {len(columns)} lists of group values", ("group_values",))
        values = tuple(tuple(v) for v in given)
    for c, vals in enumerate(values):
        if len(vals) < 2 or len(set(vals)) != len(vals):
            raise InputError("each group class needs at least two distinct groups", ("groups", c))
    encoding = GroupEncoding(values=values)
    return encoding, encoding.indicators(groups)


def group_values_of(column: np.ndarray) -> list[Any]:
    return group_values(np.asarray(column.tolist()))


def target_vector(encoding: GroupEncoding, target: Any = None) -> np.ndarray:
    """The target distribution ``U`` over the columns of ``Z``.

    ``None`` is uniform within each group class (``U_intersect`` of Appendix
    A.2; ``(1/K, ..., 1/K)`` for disjoint groups). Otherwise a mapping
    ``{group: share}`` (one class), a list of such mappings (one per class), or
    a vector of length K. Missing groups get share 0; the shares of each class
    must be non-negative and sum to 1. Keys match a group value or its ``str``.
    """
    if target is None:
        return np.concatenate([np.full(len(v), 1.0 / len(v)) for v in encoding.values])
    if isinstance(target, Mapping):
        target = [target]
    if isinstance(target, (list, tuple)) and target and all(isinstance(t, Mapping) for t in target):
        if len(target) != encoding.n_classes:
            raise InputError(f"expected {encoding.n_classes} target mappings", ("target",))
        parts = [_shares(t, vals) for t, vals in zip(target, encoding.values, strict=True)]
        vector = np.concatenate(parts)
    else:
        try:
            vector = np.asarray(target, dtype=float)
        except (TypeError, ValueError):
            raise InputError("must be a mapping {group: share} or a list of shares", ("target",)) from None
        if vector.shape != (encoding.n_groups,):
            raise InputError(f"must have {encoding.n_groups} shares", ("target",))
    if not np.all(np.isfinite(vector)) or np.any(vector < 0):
        raise InputError("shares must be finite and non-negative", ("target",))
    for block in encoding.blocks:
        if abs(vector[block].sum() - 1.0) > TARGET_SUM_TOL:
            raise InputError("shares must sum to 1 within each group class", ("target",))
    return vector


def _shares(mapping: Mapping[Any, Any], values: tuple[Any, ...]) -> np.ndarray:
    by_name = {str(v): i for i, v in enumerate(values)}
    out = np.zeros(len(values))
    for key, share in mapping.items():
        index = values.index(key) if key in values else by_name.get(str(key))
        if index is None:
            raise InputError(f"unknown group {key!r}; known groups are {list(values)}", ("target", str(key)))
        out[index] = float(share)
    return out
