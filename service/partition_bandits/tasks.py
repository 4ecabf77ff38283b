"""Background work of partition bandits: partitioning a pool, and managed acquisition runs.

Each handler reads what it needs in a short transaction, does the heavy work
outside any transaction, and stores the outcome with ``ctx.commit`` (fenced on
its attempt). Bad data is a :class:`PermanentError`: retrying cannot fix it.
Randomness is ``default_rng([seed, sequence])`` of the decision-log entry the
work belongs to, so a run can be replayed exactly.
"""

from __future__ import annotations

import uuid

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.datasift import (
    InfluenceData,
    LabeledData,
    Partitioning,
    PreparedPool,
    needs_accuracy_influence,
    partition_space,
    prepare_pool,
    run_acquisition,
)
from service.datasets.service import DatasetArrays, load_arrays
from service.db import transaction
from service.jobs import JobContext, PermanentError, job_handler
from service.partition_bandits import service
from service.partition_bandits.models import SessionRecord
from service.partition_bandits.repository import PartitionBanditRepository, repository
from service.partition_bandits.schemas import MAX_PARTITIONS
from service.partition_bandits.state import Config, State, load

__all__ = ["partition_pool_job", "run_job"]


def _labeled(table: DatasetArrays) -> LabeledData:
    groups = table.groups()
    return LabeledData(table.features, table.labels if table.labels is not None else np.zeros(table.n_rows),
                       groups if groups is not None else np.zeros(table.n_rows))


def build_pool_bandit(config: Config, pool: DatasetArrays, train: DatasetArrays | None,
                      test: DatasetArrays | None, rng: np.random.Generator,
                      validation: DatasetArrays | None = None) -> PreparedPool:
    """Partition the pool (GMM with BIC, or a column), order each partition's items, build the state."""
    spec = config.partitioning
    assert spec is not None, "a pool bandit has its partitioning"
    groups = pool.groups()
    space = partition_space(pool.features, pool.group_codes, len(pool.group_values or []), method=spec.method,
                            include_groups=spec.include_groups, standardize=spec.standardize)
    influence_data = None if train is None or test is None else InfluenceData(
        _labeled(train), _labeled(test), _labeled(pool), C=config.model.C,
        validation=None if validation is None else _labeled(validation))
    return prepare_pool(
        config.bandit, space, pool.labels, None if groups is None else groups.astype(str), rng, method=spec.method,
        max_components=spec.max_components, column=spec.column, max_partitions=MAX_PARTITIONS,
        initial_fairness=config.initial_fairness, influence_data=influence_data)


def _dataset(db: Session, ctx: JobContext, dataset_id: uuid.UUID | None) -> DatasetArrays:
    """A dataset the bandit's config names (creation checked that it names those its work needs)."""
    if dataset_id is None:
        raise PermanentError("the bandit's config names no dataset for this role")
    return load_arrays(db, ctx.tenant_id, dataset_id)


@job_handler("partition_bandits.partition")
def partition_pool_job(ctx: JobContext) -> None:
    with transaction(ctx.sessions) as db:
        record = repository(db, ctx.tenant_id).get(ctx.resource)
        (config, _), seed, sequence = load(record), record.seed, record.sequence + 1
        pool = _dataset(db, ctx, config.pool_dataset_id)
        influence = config.bandit.batch_selection == "influence"
        train = _dataset(db, ctx, config.train_dataset_id) if influence else None
        test = _dataset(db, ctx, config.test_dataset_id) if influence else None
        guarded = needs_accuracy_influence(config.bandit)
        validation = _dataset(db, ctx, config.validation_dataset_id) if guarded else None
    ctx.progress(0.05, force=True)
    try:
        prepared = build_pool_bandit(config, pool, train, test, np.random.default_rng([seed, sequence]), validation)
    except ValueError as exc:
        raise PermanentError(str(exc)) from None
    ctx.commit(lambda db, job: service.store_partitioned(db, job, prepared, pool.ids, sequence))


@job_handler("partition_bandits.run")
def run_job(ctx: JobContext) -> None:
    payload = ctx.payload
    with transaction(ctx.sessions) as db:
        repo = repository(db, ctx.tenant_id)
        record = repo.get(ctx.resource)
        (config, state), seed = load(record), record.seed
        pool = _dataset(db, ctx, config.pool_dataset_id)
        train = load_arrays(db, ctx.tenant_id, uuid.UUID(payload["train_dataset_id"]))
        test = load_arrays(db, ctx.tenant_id, uuid.UUID(payload["test_dataset_id"]))
        valid_id = payload.get("validation_dataset_id")
        validation = None if valid_id is None else load_arrays(db, ctx.tenant_id, uuid.UUID(valid_id))
        partitioning = _stored_partitioning(repo, record, state)
    try:
        result = run_acquisition(
            _labeled(pool), _labeled(train), _labeled(test), config.bandit,
            np.random.default_rng([seed, payload["sequence"]]), partitioning=partitioning,
            C=config.model.C, refresh_influence=payload["refresh_influence"], progress=ctx.progress,
            validation=None if validation is None else _labeled(validation))
    except ValueError as exc:
        raise PermanentError(f"the run failed: {exc}") from None
    rows = result.acquired.tolist()
    acquired_ids = [pool.ids[i] for i in rows] if pool.ids is not None else [str(i) for i in rows]
    ctx.commit(lambda db, job: service.store_run(db, job, result, acquired_ids))


def _stored_partitioning(repo: PartitionBanditRepository, record: SessionRecord, state: State) -> Partitioning:
    """The pool's partitioning as the partitioning job stored it (blobs ``assignment`` and ``partitions``)."""
    stored = repo.get_blob(record, "assignment")
    assert stored is not None and state.partitioning is not None, "a ready pool bandit has been partitioned"
    return Partitioning(stored[0]["assignment"].astype(np.int64), repo.partitions(record), state.partitioning.method)
