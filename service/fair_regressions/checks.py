"""Checks of a new fair regression against its training table, before anything is stored or queued.

Everything the fit would refuse — labels all equal, non-binary labels for the logistic
loss, unknown or missing group names in ``bounds``, an oracle the learner cannot serve,
unknown learner hyperparameters, tables over the row or feature limits — is a 422 that
names the field, instead of a job that fails later.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.fair_regression import make_learner
from service.algorithms.validation import InputError
from service.datasets.service import DatasetArrays, build_table, load_arrays
from service.errors import InvalidInput
from service.fair_regressions.schemas import BoundedGroupLossConstraint, FairRegressionCreate
from service.settings import Settings

__all__ = ["effective_oracle", "group_names", "labelled_groups", "training_table", "validate_fit"]

# Bounded group loss has one best response: the weighted risk minimisation of Algorithm 2.
BGL_ORACLE = "loss_minimization"
SP_DEFAULT_ORACLE = "least_squares"


@contextmanager
def _in_body(*prefix: str | int) -> Iterator[None]:
    """Re-locate the library's InputErrors under the request body."""
    try:
        yield
    except InputError as exc:
        first = exc.errors[0]
        raise InvalidInput(first["msg"], ["body", *prefix, *first["loc"]]) from None


def training_table(db: Session, tenant_id: uuid.UUID, settings: Settings,
                   payload: FairRegressionCreate) -> DatasetArrays:
    """The named dataset (checked against the limits) or the inline data, with groups and labels."""
    if payload.data is not None:
        data = payload.data
        return build_table(data.features, data.groups, data.labels, None, settings, loc=("body", "data"))
    assert payload.dataset_id is not None, "the schema requires one source"
    table = load_arrays(db, tenant_id, payload.dataset_id)
    loc = ["body", "dataset_id"]
    n, d = table.features.shape
    if n > settings.max_rows or d > settings.max_features:
        raise InvalidInput(f"dataset {payload.dataset_id} has {n} rows and {d} features; the limits are "
                         f"{settings.max_rows} rows and {settings.max_features} features", loc)
    if table.group_codes is None or table.labels is None:
        raise InvalidInput(f"dataset {payload.dataset_id} needs groups and labels to fit a regressor", loc)
    return table


def group_names(table: DatasetArrays, payload: FairRegressionCreate) -> list[str]:
    """Group names as strings (the keys of ``bounds`` and ``group_losses``), in the table's order."""
    names = [str(v) for v in table.group_values or []]
    if len(set(names)) != len(names):
        loc = ["body", "data", "groups"] if payload.data is not None else ["body", "dataset_id"]
        raise InvalidInput("group values must stay distinct as strings (not both 1 and \"1\")", loc)
    return names


def labelled_groups(table: DatasetArrays, names: list[str]) -> np.ndarray:
    """Each row's group name, the form the library takes."""
    assert table.group_codes is not None
    return np.asarray(names, dtype=str)[table.group_codes]


def effective_oracle(payload: FairRegressionCreate) -> str:
    if isinstance(payload.constraint, BoundedGroupLossConstraint):
        return BGL_ORACLE
    return payload.oracle or SP_DEFAULT_ORACLE


def validate_fit(payload: FairRegressionCreate, table: DatasetArrays, names: list[str]) -> dict[str, Any]:
    """Check the request against the table; the learner spec as the library will read it."""
    labels_loc = ["body", "data", "labels"] if payload.data is not None else ["body", "dataset_id"]
    assert table.labels is not None
    distinct = np.unique(table.labels)
    if len(distinct) < 2:
        raise InvalidInput("labels are all equal; a regressor needs at least two distinct labels", labels_loc)
    if payload.loss == "logistic" and len(distinct) != 2:
        raise InvalidInput(f"the logistic loss needs binary labels (exactly two distinct values); these have "
                         f"{len(distinct)}", labels_loc)
    constraint = payload.constraint
    if isinstance(constraint, BoundedGroupLossConstraint):
        if payload.oracle not in (None, BGL_ORACLE):
            raise InvalidInput("bounded group loss minimises a weighted loss (one oracle); leave oracle out or "
                             f"send {BGL_ORACLE!r}", ["body", "oracle"])
        if constraint.bounds is not None:
            _check_bounds(constraint.bounds, names)
    learner = payload.learner.model_dump()
    with _in_body():
        made = make_learner(learner)
    if effective_oracle(payload) == "cost_sensitive" and made.kind != "linear":
        raise InvalidInput("the cost_sensitive oracle needs the linear learner", ["body", "oracle"])
    return learner


def _check_bounds(bounds: dict[str, float], names: list[str]) -> None:
    loc = ["body", "constraint", "bounds"]
    for name in bounds:
        if name not in names:
            raise InvalidInput(f"unknown group {name!r}; the data's groups are {names}", [*loc, name])
    missing = [g for g in names if g not in bounds]
    if missing:
        raise InvalidInput(f"no bound for group {missing[0]!r}; give one per group (or use bound)", loc)
