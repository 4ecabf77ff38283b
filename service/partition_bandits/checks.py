"""Checks of a request against the datasets it names, before anything is stored or queued.

Labels must be 0/1 wherever a logistic regression is trained or evaluated, the test
set needs groups, and every table must have the pool's feature count; a failure is
a 422 that names the field, instead of a job that fails later.
"""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.algorithms.datasift import PartitionStats
from service.datasets.models import Dataset
from service.datasets.repository import DatasetRepository
from service.errors import InvalidInput
from service.partition_bandits.schemas import PartitionBanditCreate, PartitionIn, PartitioningSpec, RunRequest
from service.partition_bandits.state import Config

__all__ = ["client_partitions", "creation_datasets", "default_partitioning", "run_datasets"]

BINARY_LABELS = {0, 1}


def default_partitioning() -> PartitioningSpec:
    return PartitioningSpec()


def _dataset(db: Session, tenant_id: uuid.UUID, dataset_id: uuid.UUID, field: str, *, labels: bool = False,
             groups: bool = False, n_features: int | None = None, why: str = "") -> Dataset:
    dataset = DatasetRepository(db, tenant_id).get(dataset_id)
    loc = ["body", field]
    if labels and (dataset.label_values is None or not set(dataset.label_values) <= BINARY_LABELS):
        raise InvalidInput(f"dataset {dataset_id} needs labels of 0 and 1{why}", loc)
    if groups and not dataset.group_values:
        raise InvalidInput(f"dataset {dataset_id} needs groups{why}", loc)
    if n_features is not None and dataset.n_features != n_features:
        raise InvalidInput(f"dataset {dataset_id} has {dataset.n_features} features; the pool has {n_features}", loc)
    return dataset


def _column(spec: PartitioningSpec | None, pool: Dataset) -> int | None:
    if spec is None or spec.method != "column":
        return None
    loc = ["body", "partitioning", "column"]
    if isinstance(spec.column, str):
        if spec.column not in pool.feature_names:
            raise InvalidInput(f"{spec.column!r} is not a feature of the pool ({', '.join(pool.feature_names)})", loc)
        return pool.feature_names.index(spec.column)
    if spec.column is None or not 0 <= spec.column < pool.n_features:
        raise InvalidInput(f"must be a feature index in 0..{pool.n_features - 1}", loc)
    return spec.column


def creation_datasets(db: Session, tenant_id: uuid.UUID,
                      payload: PartitionBanditCreate) -> tuple[dict[str, uuid.UUID], int | None]:
    """The datasets a new bandit uses, by role, and the resolved partition column."""
    influence = payload.batch_selection == "influence"
    why = " for influence batches" if influence else ""
    datasets: dict[str, uuid.UUID] = {}
    n_features = column = None
    if payload.pool_dataset_id is not None:
        pool = _dataset(db, tenant_id, payload.pool_dataset_id, "pool_dataset_id", labels=influence, why=why)
        datasets["pool"], n_features = pool.id, pool.n_features
        column = _column(payload.partitioning, pool)
    if payload.train_dataset_id is not None:
        train = _dataset(db, tenant_id, payload.train_dataset_id, "train_dataset_id", labels=True,
                         n_features=n_features)
        datasets["train"], n_features = train.id, train.n_features
    if payload.test_dataset_id is not None:
        test = _dataset(db, tenant_id, payload.test_dataset_id, "test_dataset_id", labels=True, groups=True,
                        n_features=n_features)
        datasets["test"] = test.id
    if payload.validation_dataset_id is not None:
        valid = _dataset(db, tenant_id, payload.validation_dataset_id, "validation_dataset_id", labels=True,
                         n_features=n_features, why=" to measure accuracy on")
        datasets["validation"] = valid.id
    return datasets, column


def client_partitions(partitions: list[PartitionIn]) -> list[PartitionStats]:
    ids = [str(p.id) for p in partitions]
    if len(set(ids)) != len(ids):
        raise InvalidInput("partition ids must be unique", ["body", "partitions"])
    width = len(partitions[0].centroid)
    for i, p in enumerate(partitions):
        if len(p.centroid) != width:
            raise InvalidInput(f"has {len(p.centroid)} values but partition 0's has {width}; centroids must be "
                             "equal length", ["body", "partitions", i, "centroid"])
    return [PartitionStats(pid, p.size, list(p.centroid), p.base_rate_difference)
            for pid, p in zip(ids, partitions, strict=True)]


def run_datasets(db: Session, tenant_id: uuid.UUID, config: Config, pool_id: uuid.UUID,
                 payload: RunRequest) -> dict[str, uuid.UUID]:
    """Train, test and (optional) validation datasets of a managed run (the request's, else the bandit's), checked.

    The validation split is required when the bandit uses accuracy (beyond the paper) and must differ from
    the test split: accuracy decisions on the split that reports results would overfit it.
    """
    why = " for a managed run"
    pool = DatasetRepository(db, tenant_id).get(pool_id)
    if pool.label_values is None or not set(pool.label_values) <= BINARY_LABELS:
        raise InvalidInput(f"the bandit's pool (dataset {pool.id}) needs labels of 0 and 1{why}",
                         ["body", "pool_dataset_id"])
    chosen = {}
    for role in ("train", "test", "validation"):
        dataset_id = getattr(payload, f"{role}_dataset_id") or getattr(config, f"{role}_dataset_id")
        if dataset_id is None and role == "validation" and not config.bandit.uses_accuracy:
            continue
        if dataset_id is None:
            because = " and it uses accuracy (accuracy_weight or accuracy_tolerance)" if role == "validation" else ""
            raise InvalidInput(f"send {role}_dataset_id (the bandit has none{because})", ["body", f"{role}_dataset_id"])
        chosen[role] = _dataset(db, tenant_id, dataset_id, f"{role}_dataset_id", labels=True,
                                groups=role == "test", n_features=pool.n_features, why=why).id
    if chosen.get("validation") == chosen["test"]:
        raise InvalidInput("must differ from the test dataset: accuracy is decided on the validation split and "
                           "results are reported on the test split", ["body", "validation_dataset_id"])
    return chosen
