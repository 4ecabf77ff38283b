"""Balanced filter use cases: create (fit queued), store the fitted proxy, read; the proxy cache.

The proxy is learned by a worker (``tasks.py``), which stores ``to_params()``
as blob ``proxy`` through :func:`store_fitted` and makes the filter ready. The
accept path (``decisions.py``) rebuilds the proxy from that blob once per
process and model version (:data:`PROXIES`), so a decision never trains or
solves anything.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.balanced_filtering import (
    BaseProxy,
    FilterCounts,
    GroupEncoding,
    make_proxy,
    proxy_from_params,
    realized_imbalance,
)
from service.balanced_filters import groups as group_checks
from service.balanced_filters.models import PROXY_BLOB, RESOURCE_TYPE, TRAINING_BLOB, SessionRecord
from service.balanced_filters.repository import BalancedFilterRepository, repository
from service.balanced_filters.schemas import BalancedFilterCreate, BalancedFilterOut, Realized
from service.balanced_filters.summary import diagnostics, fitted_fields, json_safe
from service.datasets.service import load_arrays
from service.jobs.models import Job
from service.jobs.queue import enqueue
from service.sessions.service import algorithm_errors, job_backed_status, record_decision, require_job_done
from service.settings import Settings

__all__ = ["FIT_JOB", "PROXIES", "LoadedProxy", "ProxyCache", "create_filter", "current_status", "encoding_of",
           "filter_out", "loaded_proxy", "realized_out", "require_ready", "store_fitted", "training_data"]

FIT_JOB = "balanced_filters.fit"
# Rebuilt proxies kept per process: a tree's node table is at most a few MB, and a
# deployment serves a handful of active filters; older ones are rebuilt on their next call.
PROXY_CACHE_SIZE = 64


# -- the proxy cache ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadedProxy:
    """A proxy rebuilt from its parameters (no scikit-learn model, no cvxpy), with its stored meta."""

    proxy: BaseProxy
    meta: dict[str, Any]


class ProxyCache:
    """Least-recently-used map of ``(filter id, model version)`` to rebuilt proxies; thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, LoadedProxy] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, load: Callable[[], LoadedProxy]) -> LoadedProxy:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        loaded = load()  # outside the lock: two first calls may both load, both get equal proxies
        with self._lock:
            self._items[key] = loaded
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return loaded

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


PROXIES = ProxyCache(PROXY_CACHE_SIZE)


def loaded_proxy(repo: BalancedFilterRepository, record: SessionRecord) -> LoadedProxy:
    """The ready filter's proxy, from this process's cache or rebuilt from blob ``proxy``."""

    def load() -> LoadedProxy:
        found = repo.get_blob(record, PROXY_BLOB)
        assert found is not None, "a ready filter has its proxy blob"
        arrays, blob = found
        return LoadedProxy(proxy_from_params({"meta": blob.meta, "arrays": arrays}), blob.meta)

    return PROXIES.get((record.id, record.state["model"]["version"]), load)


# -- status -------------------------------------------------------------------------------------


def current_status(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> tuple[str, str | None]:
    """Status and error; a filter whose fitting job failed or was cancelled is ``failed``."""
    return job_backed_status(db, tenant_id, record, "fitting", "fitting")


def require_ready(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> None:
    require_job_done(db, tenant_id, record, "fitting", "fitting", "the proxy is still being fitted")


def encoding_of(record: SessionRecord) -> GroupEncoding:
    return GroupEncoding.from_dict(record.config["encoding"])


# -- create ------------------------------------------------------------------------------------


def create_filter(db: Session, tenant_id: uuid.UUID, settings: Settings,
                  payload: BalancedFilterCreate) -> tuple[SessionRecord, Job]:
    """Check the request against its groups and training data, store it, and queue the fit."""
    encoding = group_checks.declared_encoding(payload.groups, settings.max_groups)
    target = group_checks.target_of(encoding, payload.target)
    spec = payload.proxy.model_dump(exclude={"type"}, exclude_none=True)
    if "margins" in spec:
        spec["margins"] = tuple(spec["margins"])
    with algorithm_errors():
        proxy = make_proxy(payload.proxy.type, **spec, target=target.tolist())
    hyper = {k: list(v) if isinstance(v, tuple) else v for k, v in proxy.get_params().items() if k != "target"}
    repo = repository(db, tenant_id)
    training: tuple[np.ndarray, np.ndarray] | None = None
    if payload.training is not None:
        training = group_checks.inline_training(payload.training, encoding, settings)
        n_rows, n_features = training[0].shape
    else:
        assert payload.training_dataset_id is not None
        dataset = group_checks.training_dataset(db, tenant_id, payload.training_dataset_id, encoding)
        n_rows, n_features = dataset.n_rows, dataset.n_features
    config = {
        "groups": payload.groups,
        "encoding": encoding.to_dict(),
        "target": target.tolist(),
        "proxy": {"type": payload.proxy.type, **hyper},
        "training": {"dataset_id": None if payload.training_dataset_id is None else str(payload.training_dataset_id),
                     "n_rows": int(n_rows), "n_features": int(n_features)},
    }
    seed = payload.seed if payload.seed is not None else secrets.randbits(63)
    record = repo.create(config=config, state={"model": None, "counts": None}, seed=seed, status="fitting",
                         name=payload.name)
    if training is not None:
        repo.put_blob(record, TRAINING_BLOB, {"features": training[0], "codes": training[1]})
    else:
        repo.link_dataset(record, "training", payload.training_dataset_id)  # type: ignore[arg-type]
    job = enqueue(db, tenant_id=tenant_id, kind=FIT_JOB, resource_type=RESOURCE_TYPE, resource_id=record.id,
                  settings=settings)
    record.job_id = job.id
    request = payload.model_dump(mode="json", exclude={"training"})
    request["training"] = None if training is None else {"n_rows": int(n_rows), "n_features": int(n_features)}
    record_decision(repo, record, "create", request, {"status": "fitting", "job_id": str(job.id)})
    return record, job


def training_data(db: Session, tenant_id: uuid.UUID, repo: BalancedFilterRepository,
                  record: SessionRecord) -> tuple[np.ndarray, np.ndarray]:
    """The training features and each row's group values (a row of values per class when intersecting)."""
    dataset_id = record.config["training"]["dataset_id"]
    if dataset_id is not None:
        table = load_arrays(db, tenant_id, uuid.UUID(dataset_id))
        groups = table.groups()
        assert groups is not None, "checked at creation"
        return table.features, groups
    found = repo.get_blob(record, TRAINING_BLOB)
    assert found is not None, "an inline-trained filter has its training blob"
    stored = found[0]
    return stored["features"], group_checks.values_of(encoding_of(record), stored["codes"])


# -- writes from the worker --------------------------------------------------------------------


def store_fitted(db: Session, job: Job, params: dict[str, Any], sequence: int) -> dict[str, Any]:
    """Store the fitted proxy and make the filter ready; the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource_id)  # type: ignore[arg-type]
    if record.status != "fitting" or record.sequence + 1 != sequence:
        return {"skipped": f"the filter is {record.status}"}
    meta = json_safe(params["meta"])
    blob = repo.put_blob(record, PROXY_BLOB, params["arrays"], meta=meta)
    encoding = encoding_of(record)
    summary = {
        "version": blob.version, "type": meta["type"], "n_leaves": meta["n_leaves"],
        "n_features": meta["n_features"], "disclosivity": meta["disclosivity"], "imbalance": meta["imbalance"],
        "acceptance_rate": meta["acceptance_rate"], "in_hull": meta["sampling"]["in_hull"],
        "stop_reason": meta["diagnostics"].get("stop_reason"),
        "any_stopped_short": meta["diagnostics"].get("any_stopped_short"),
    }
    counts = FilterCounts.empty(int(meta["n_leaves"]), encoding.n_groups)
    repo.save_state(record, {"model": summary, "counts": counts.to_dict()}, status="ready")
    record_decision(repo, record, "fit", {"job_id": str(job.id)}, summary)
    return summary


# -- read --------------------------------------------------------------------------------------


def realized_out(record: SessionRecord, counts: FilterCounts) -> Realized:
    encoding = encoding_of(record)
    data = realized_imbalance(counts, encoding, np.asarray(record.config["target"]))
    return Realized(outcomes=counts.outcomes, **data)


def filter_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord, *,
               include_tree: bool = True) -> BalancedFilterOut:
    """The filter as the API shows it; the fitted fields once it is ready."""
    status, error = current_status(db, tenant_id, record)
    config = record.config
    encoding = encoding_of(record)
    names = encoding.names
    hyper = {k: v for k, v in config["proxy"].items() if k != "type"}
    proxy_out: dict[str, Any] = {"type": config["proxy"]["type"], "hyperparameters": hyper}
    fitted: dict[str, Any] = {}
    if record.status == "ready":
        loaded = loaded_proxy(repository(db, tenant_id), record)
        proxy = loaded.proxy
        tree = getattr(proxy, "tree_", None)
        proxy_out.update(n_leaves=int(proxy.n_leaves_), versions=loaded.meta.get("versions"),
                         tree=tree.summary() if tree is not None and include_tree else None)
        counts = FilterCounts.from_dict(record.state["counts"])
        fitted = {
            **fitted_fields(proxy),
            "diagnostics": diagnostics(proxy, hyper),
            "decisions": {"total": counts.total, "accepted": counts.accepted, "by_leaf": list(counts.by_leaf),
                          "accepted_by_leaf": list(counts.accepted_by_leaf)},
            "realized": realized_out(record, counts) if counts.outcomes else None,
        }
    training = config["training"]
    return BalancedFilterOut(
        id=record.id, name=record.name, status=status, job_id=record.job_id, error=error,  # type: ignore[arg-type]
        groups=config["groups"], group_names=names,
        target={n: float(v) for n, v in zip(names, config["target"], strict=True)},
        proxy=proxy_out,  # type: ignore[arg-type]
        training={"dataset_id": training["dataset_id"], "n_rows": training["n_rows"],  # type: ignore[arg-type]
                  "n_features": training["n_features"]},
        version=record.version, seed=record.seed, created_at=record.created_at, **fitted,
    )
