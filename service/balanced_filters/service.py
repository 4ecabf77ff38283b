"""Balanced filter use cases: create (fit queued), store the fitted proxy, read; the proxy cache.

The proxy is learned by a worker (``tasks.py``), which stores ``to_params()``
as blob ``proxy`` through :func:`store_fitted` and makes the filter ready. The
accept path (``decisions.py``) rebuilds the proxy from that blob once per
process and model version (:data:`PROXIES`), so a decision never trains or
solves anything.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service import jobs
from service.algorithms.balanced_filtering import (
    BaseProxy,
    FilterCounts,
    make_proxy,
    proxy_from_params,
    realized_imbalance,
)
from service.balanced_filters import groups as group_checks
from service.balanced_filters.models import PROXY_BLOB, TRAINING_BLOB, SessionRecord
from service.balanced_filters.repository import BalancedFilterRepository, repository
from service.balanced_filters.schemas import BalancedFilterCreate, BalancedFilterOut, Realized
from service.balanced_filters.state import (
    FilterConfig,
    FilterState,
    Fitted,
    ModelSummary,
    ProxyConfig,
    TrainingSource,
    load,
    load_fitted,
)
from service.balanced_filters.summary import diagnostics, fitted_fields
from service.caches import LruCache
from service.datasets.service import load_arrays
from service.sessions.finite import json_safe
from service.sessions.lifecycle import PENDING, READY, new_seed, shown_status, start_job
from service.sessions.repository import Entry
from service.sessions.service import algorithm_errors
from service.settings import Settings

__all__ = ["FIT_JOB", "PROXIES", "WORK", "LoadedProxy", "create_filter", "filter_out", "loaded_proxy",
           "realized_out", "store_fitted", "training_data"]

FIT_JOB = "balanced_filters.fit"
WORK = "fit"  # the preparing job, as status messages name it
# Rebuilt proxies kept per process: a tree's node table is at most a few MB, and a
# deployment serves a handful of active filters; older ones are rebuilt on their next call.
PROXY_CACHE_SIZE = 64


# -- the proxy cache ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadedProxy:
    """A proxy rebuilt from its parameters (no scikit-learn model, no cvxpy), with its stored meta."""

    proxy: BaseProxy
    meta: dict[str, Any]


PROXIES: LruCache[tuple[uuid.UUID, int], LoadedProxy] = LruCache("proxies", PROXY_CACHE_SIZE)


def loaded_proxy(repo: BalancedFilterRepository, record: SessionRecord, model: ModelSummary) -> LoadedProxy:
    """The ready filter's proxy, from this process's cache or rebuilt from blob ``proxy``."""

    def load_blob() -> LoadedProxy:
        found = repo.get_blob(record, PROXY_BLOB)
        assert found is not None, "a ready filter has its proxy blob"
        arrays, blob = found
        return LoadedProxy(proxy_from_params({"meta": blob.meta, "arrays": arrays}), blob.meta)

    return PROXIES.get_or_load((record.id, model.version), load_blob)


# -- create ------------------------------------------------------------------------------------


def create_filter(db: Session, tenant_id: uuid.UUID, settings: Settings,
                  payload: BalancedFilterCreate) -> tuple[SessionRecord, jobs.Job]:
    """Check the request against its groups and training data, store it, and queue the fit."""
    encoding = group_checks.declared_encoding(payload.groups, settings.max_groups)
    target = group_checks.target_of(encoding, payload.target)
    spec = payload.proxy.model_dump(exclude={"type"}, exclude_none=True)
    if "margins" in spec:
        spec["margins"] = tuple(spec["margins"])
    with algorithm_errors():
        proxy = make_proxy(payload.proxy.type, **spec, target=target.tolist())
    repo = repository(db, tenant_id)
    training: tuple[np.ndarray, np.ndarray] | None = None
    if payload.training is not None:
        training = group_checks.inline_training(payload.training, encoding, settings)
        n_rows, n_features = training[0].shape
    else:
        assert payload.training_dataset_id is not None
        dataset = group_checks.training_dataset(db, tenant_id, payload.training_dataset_id, encoding)
        n_rows, n_features = dataset.n_rows, dataset.n_features
    config = FilterConfig.of(payload.groups, encoding, target.tolist(),
                             ProxyConfig.of(payload.proxy.type, proxy.get_params()),
                             TrainingSource(payload.training_dataset_id, int(n_rows), int(n_features)))
    datasets = None if payload.training_dataset_id is None else {"training": payload.training_dataset_id}
    record = repo.create(config=config.to_dict(), state=FilterState().to_dict(), seed=new_seed(payload.seed),
                         status=PENDING, name=payload.name, datasets=datasets)
    if training is not None:
        repo.put_blob(record, TRAINING_BLOB, {"features": training[0], "codes": training[1]})
    job = start_job(db, settings, record, FIT_JOB)
    request = payload.model_dump(mode="json", exclude={"training"})
    request["training"] = None if training is None else {"n_rows": int(n_rows), "n_features": int(n_features)}
    repo.record(record, log=Entry("create", request, {"status": job.status, "job_id": str(job.id)}))
    return record, job


def training_data(db: Session, tenant_id: uuid.UUID, repo: BalancedFilterRepository, record: SessionRecord,
                  config: FilterConfig) -> tuple[np.ndarray, np.ndarray]:
    """The training features and each row's group values (a row of values per class when intersecting)."""
    if config.training.dataset_id is not None:
        table = load_arrays(db, tenant_id, config.training.dataset_id)
        groups = table.groups()
        assert groups is not None, "checked at creation"
        return table.features, groups
    found = repo.get_blob(record, TRAINING_BLOB)
    assert found is not None, "an inline-trained filter has its training blob"
    stored = found[0]
    return stored["features"], group_checks.values_of(config.encoding, stored["codes"])


# -- writes from the worker --------------------------------------------------------------------


def store_fitted(db: Session, job: jobs.Job, params: dict[str, Any], sequence: int) -> dict[str, Any]:
    """Store the fitted proxy and make the filter ready; the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource)
    if record.status != PENDING or record.sequence + 1 != sequence:
        return {"skipped": f"the filter is {record.status}"}
    config, _ = load(record)
    meta = json_safe(params["meta"])
    blob = repo.put_blob(record, PROXY_BLOB, params["arrays"], meta=meta)
    model = ModelSummary.of(meta, blob.version)
    fitted = Fitted(model, FilterCounts.empty(model.n_leaves, config.encoding.n_groups))
    summary = model.to_dict()
    repo.record(record, state=fitted.to_dict(), status=READY, log=Entry("fit", {"job_id": str(job.id)}, summary))
    return summary


# -- read --------------------------------------------------------------------------------------


def realized_out(config: FilterConfig, counts: FilterCounts) -> Realized:
    data = realized_imbalance(counts, config.encoding, np.asarray(config.target))
    return Realized(outcomes=counts.outcomes, **data)


def filter_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord, *,
               include_tree: bool = True) -> BalancedFilterOut:
    """The filter as the API shows it; the fitted fields once it is ready."""
    shown = shown_status(db, tenant_id, record, WORK)
    ready = record.status == READY
    config, state = load_fitted(record) if ready else load(record)
    hyper = dict(config.proxy.hyperparameters)
    proxy_out: dict[str, Any] = {"type": config.proxy.type, "hyperparameters": hyper}
    fitted: dict[str, Any] = {}
    if isinstance(state, Fitted):
        loaded = loaded_proxy(repository(db, tenant_id), record, state.model)
        proxy = loaded.proxy
        tree = getattr(proxy, "tree_", None)
        proxy_out.update(n_leaves=int(proxy.n_leaves_), versions=loaded.meta.get("versions"),
                         tree=tree.summary() if tree is not None and include_tree else None)
        counts = state.counts
        fitted = {
            **fitted_fields(proxy),
            "diagnostics": diagnostics(proxy, hyper),
            "decisions": {"total": counts.total, "accepted": counts.accepted, "by_leaf": list(counts.by_leaf),
                          "accepted_by_leaf": list(counts.accepted_by_leaf)},
            "realized": realized_out(config, counts) if counts.outcomes else None,
        }
    names = config.encoding.names
    return BalancedFilterOut(
        id=record.id, name=record.name, status=shown.status, job_id=record.job_id, error=shown.error,
        groups=config.given_groups, group_names=names,
        target=dict(zip(names, config.target, strict=True)),
        proxy=proxy_out,
        training=config.training.to_dict(),
        version=record.version, seed=record.seed, created_at=record.created_at, **fitted,
    )
