"""A filter's groups at the API edge: declared names, the target, training and outcome labels.

Groups come as one list of names, or one list per group class for intersecting
groups (SPEC §5.3, Appendix A.2); labels are checked against them before
anything is stored or queued, so a mistake is a 422 at creation rather than a
failed job. Labels are stored as codes (indices into each class's names) and
an outcome as its joint code (one integer per combination of groups).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.balanced_filtering import GroupEncoding, target_vector
from service.algorithms.validation import InputError
from service.balanced_filters.schemas import FilterTrainingData
from service.datasets.models import Dataset
from service.datasets.repository import DatasetRepository
from service.datasets.service import bounded_matrix
from service.errors import InvalidInput
from service.settings import Settings

__all__ = ["codes_of", "declared_encoding", "inline_training", "joint_codes", "target_of", "training_dataset",
           "values_of"]


def _at(exc: InputError, *prefix: str | int) -> InputError:
    first = exc.errors[0]
    return InputError(first["msg"], [*prefix, *first["loc"]])


def declared_encoding(groups: Sequence[Any], max_groups: int) -> GroupEncoding:
    """The encoding of the request's ``groups`` (a list of names, or a list per group class)."""
    nested = isinstance(groups[0], list)
    classes = [list(c) for c in groups] if nested else [list(groups)]
    for c, values in enumerate(classes):
        loc: list[str | int] = ["body", "groups", c] if nested else ["body", "groups"]
        if len(values) < 2:
            raise InvalidInput("each group class needs at least two groups", loc)
        if len(set(values)) != len(values):
            raise InvalidInput("group names must be distinct", loc)
    total = sum(len(v) for v in classes)
    if total > max_groups:
        raise InvalidInput(f"has {total} groups; the limit is {max_groups} (FAIRACQ_MAX_GROUPS)", ["body", "groups"])
    encoding = GroupEncoding(values=tuple(tuple(v) for v in classes))
    if len(set(encoding.names)) != total:
        raise InvalidInput("group names must be distinct as strings (1 and \"1\" would be the same group)",
                         ["body", "groups"])
    return encoding


def target_of(encoding: GroupEncoding, target: Any) -> np.ndarray:
    """``U`` over the encoding's columns (uniform within each class by default)."""
    try:
        return target_vector(encoding, target)
    except InputError as exc:
        raise _at(exc, "body") from None


def codes_of(encoding: GroupEncoding, labels: Sequence[Any], loc: Sequence[str | int],
             field: str | None = None) -> np.ndarray:
    """Each label's code per class, shape (n, classes); unknown groups and wrong shapes raise ``InputError``.

    Errors are located at ``[*loc, i]``, or ``[*loc, i, field]`` when the labels are a field of each item.
    """
    n_classes = encoding.n_classes
    tail = [] if field is None else [field]
    lookups = [{v: i for i, v in enumerate(values)} for values in encoding.values]
    out = np.empty((len(labels), n_classes), dtype=np.int32)
    for i, label in enumerate(labels):
        if n_classes == 1:
            if isinstance(label, list):
                raise InvalidInput("must be one group name (the filter has one group class)", [*loc, i, *tail])
            row: Sequence[Any] = (label,)
        else:
            if not isinstance(label, list) or len(label) != n_classes:
                raise InvalidInput(f"must be a list of {n_classes} groups, one per group class", [*loc, i, *tail])
            row = label
        for c, value in enumerate(row):
            code = lookups[c].get(value)
            if code is None:
                where = [*loc, i, *tail] if n_classes == 1 else [*loc, i, *tail, c]
                raise InvalidInput(f"unknown group {value!r}; known groups are {list(encoding.values[c])}", where)
            out[i, c] = code
    return out


def joint_codes(encoding: GroupEncoding, codes: np.ndarray) -> np.ndarray:
    """One integer per row for its combination of groups (its group's index, for one class)."""
    radix = np.cumprod([1, *(len(v) for v in encoding.values[:-1])])
    return codes.astype(np.int64) @ radix


def values_of(encoding: GroupEncoding, codes: np.ndarray) -> np.ndarray:
    """Group values back from codes: one per row, or a row of values per class."""
    columns = [np.asarray(values, dtype=object)[codes[:, c]] for c, values in enumerate(encoding.values)]
    if len(columns) == 1:
        return columns[0]
    out = np.empty((len(codes), len(columns)), dtype=object)
    for c, column in enumerate(columns):
        out[:, c] = column
    return out


def inline_training(training: FilterTrainingData, encoding: GroupEncoding,
                    settings: Settings) -> tuple[np.ndarray, np.ndarray]:
    """Inline training data checked against the limits and the declared groups: ``(X, codes)``."""
    loc = ("body", "training")
    X = bounded_matrix(training.features, settings, loc)
    n = X.shape[0]
    if len(training.groups) != n:
        raise InvalidInput(f"has {len(training.groups)} values; expected {n} (one per row of features)",
                         (*loc, "groups"))
    return X, codes_of(encoding, training.groups, (*loc, "groups"))


def training_dataset(db: Session, tenant_id: uuid.UUID, dataset_id: uuid.UUID, encoding: GroupEncoding) -> Dataset:
    """The training dataset (404 if not this tenant's), checked to have groups the filter knows."""
    dataset = DatasetRepository(db, tenant_id).get(dataset_id)
    loc = ["body", "training_dataset_id"]
    if encoding.n_classes > 1:
        raise InvalidInput("intersecting groups need inline training (a dataset has one group column)", loc)
    if not dataset.group_values:
        raise InvalidInput(f"dataset {dataset_id} has no groups; the filter learns from each row's group", loc)
    known = set(encoding.values[0])
    unknown = [v for v in dataset.group_values if v not in known]
    if unknown:
        raise InvalidInput(f"dataset {dataset_id} has groups {unknown} that are not among groups "
                         f"{list(encoding.values[0])}", loc)
    return dataset
