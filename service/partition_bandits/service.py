"""Partition bandit use cases: create, next, feedback (counted once), managed runs, read.

The bandit's small state (per-partition windows, reward sums, pulls, distances) is
JSON on the session row; ``next`` loads only that, plus the offer chunks its batch
falls in when the bandit knows the pool. Pool bandits are partitioned by a worker
(``tasks.py``), which stores its result through :func:`store_partitioned`.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms import datasift
from service.algorithms.datasift import AcquisitionResult, DataSiftError, Partitioning, PartitionStats
from service.errors import Conflict, InvalidInput
from service.jobs.models import Job
from service.jobs.queue import enqueue
from service.partition_bandits import checks
from service.partition_bandits.models import RESOURCE_TYPE, SessionRecord
from service.partition_bandits.repository import PartitionBanditRepository, repository
from service.partition_bandits.schemas import (
    FeedbackReport,
    PartitionBanditCreate,
    PartitionBanditOut,
    PartitionOut,
    RunRequest,
)
from service.sessions.service import (
    algorithm_errors,
    job_backed_status,
    record_decision,
    report_once,
    require_job_done,
)
from service.settings import Settings

__all__ = ["PoolBandit", "bandit_out", "create_bandit", "current_status", "load", "next_decision",
           "report_feedback", "start_run", "store_partitioned", "store_run"]

PARTITION_JOB = "partition_bandits.partition"
RUN_JOB = "partition_bandits.run"


def load(record: SessionRecord) -> tuple[datasift.BanditConfig, datasift.BanditState]:
    """The bandit's config and small state (without the pool's item order)."""
    config = datasift.BanditConfig.from_dict(record.config["bandit"])
    return config, datasift.BanditState.from_dict(record.state["bandit"])


def _bandit_json(state: datasift.BanditState) -> dict[str, Any]:
    data = state.to_dict()
    data.pop("items")
    return data


def _status_of(state: datasift.BanditState) -> str:
    return "done" if state.done else "ready"


def current_status(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> tuple[str, str | None]:
    """Status and error; a bandit whose partitioning job failed or was cancelled is ``failed``."""
    return job_backed_status(db, tenant_id, record, "partitioning", "partitioning")


def _require_ready(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> None:
    require_job_done(db, tenant_id, record, "partitioning", "partitioning", "the pool is still being partitioned")


# -- create ------------------------------------------------------------------------------------


def create_bandit(db: Session, tenant_id: uuid.UUID, settings: Settings,
                  payload: PartitionBanditCreate) -> tuple[SessionRecord, Job | None]:
    """A ready bandit over client-made partitions, or a pool bandit with its partitioning job."""
    if payload.batch_size > settings.max_candidates:
        raise InvalidInput(f"is {payload.batch_size}; the limit is {settings.max_candidates} items per decision "
                         "(FAIRACQ_MAX_CANDIDATES)", ["body", "batch_size"])
    with algorithm_errors():
        config = datasift.BanditConfig(
            batch_size=payload.batch_size, budget=payload.budget, metric=payload.metric, reward=payload.reward,
            reward_scale=payload.reward_scale, batch_selection=payload.batch_selection, alpha=payload.alpha,
            fairness_threshold=payload.fairness_threshold, max_evaluations=payload.max_evaluations)
    datasets, column = checks.creation_datasets(db, tenant_id, payload)
    partitioning = None
    if payload.pool_dataset_id is not None:
        spec = payload.partitioning or checks.default_partitioning()
        partitioning = {**spec.model_dump(), "column": column}
    stored_config = {
        "bandit": config.to_dict(),
        "pool_dataset_id": _str(payload.pool_dataset_id),
        "train_dataset_id": _str(payload.train_dataset_id),
        "test_dataset_id": _str(payload.test_dataset_id),
        "partitioning": partitioning,
        "model": payload.model.model_dump(),
        "initial_fairness": payload.initial_fairness,
    }
    seed = payload.seed if payload.seed is not None else secrets.randbits(63)
    repo = repository(db, tenant_id)
    if payload.partitions is None:
        record = repo.create(config=stored_config, state=_state_json(None), seed=seed, status="partitioning",
                             name=payload.name)
        repo.link_datasets(record, datasets)
        job = enqueue(db, tenant_id=tenant_id, kind=PARTITION_JOB, resource_type=RESOURCE_TYPE,
                      resource_id=record.id, payload={}, settings=settings)
        record.job_id = job.id
        record_decision(repo, record, "create", payload.model_dump(mode="json"),
                        {"status": "partitioning", "job_id": str(job.id)})
        return record, job
    stats = checks.client_partitions(payload.partitions)
    with algorithm_errors():
        state = datasift.init_state(config, stats, initial_fairness=payload.initial_fairness)
    record = repo.create(config=stored_config, state=_state_json(state), seed=seed, status=_status_of(state),
                         name=payload.name)
    repo.link_datasets(record, datasets)
    _put_partitions(repo, record, stats)
    record_decision(repo, record, "create", payload.model_dump(mode="json"),
                    {"status": record.status, "partitions": list(state.partition_ids)})
    return record, None


def _str(value: uuid.UUID | None) -> str | None:
    return None if value is None else str(value)


def _state_json(state: datasift.BanditState | None, **extra: Any) -> dict[str, Any]:
    return {"bandit": None if state is None else _bandit_json(state), "pool": None, "partitioning": None,
            "influence_pair": None, "last_run": None, **extra}


def _put_partitions(repo: PartitionBanditRepository, record: SessionRecord, stats: list[PartitionStats]) -> None:
    repo.put_blob(record, "partitions", {"centroids": np.array([p.centroid for p in stats], dtype=float)},
                  meta={"ids": [p.id for p in stats], "sizes": [p.size for p in stats],
                        "base_rate_difference": [p.base_rate_difference for p in stats]})


# -- next and feedback -------------------------------------------------------------------------


def next_decision(db: Session, tenant_id: uuid.UUID, bandit_id: uuid.UUID,
                  if_match: str | None) -> tuple[dict[str, Any], SessionRecord]:
    """Choose the partition (eq. 2, untried first) and its batch; log the decision."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    _require_ready(db, tenant_id, record)
    config, state = load(record)
    rng = repo.next_rng(record)
    with algorithm_errors(conflicts=(DataSiftError,)):
        decision = datasift.next_decision(config, state, rng)
    item_ids = None if record.state["pool"] is None else _batch_ids(repo, record, state, decision)
    decision_id = uuid.uuid4()
    response = {
        "decision_id": str(decision_id), "round": decision.round, "partition": decision.partition,
        "reason": decision.reason, "item_ids": item_ids, "batch_size": decision.batch_size,
        "budget_remaining": config.budget - state.budget_spent, "scores": decision.scores,
    }
    # ``take`` (which end of the partition's offer order) is kept in the log for the feedback.
    record_decision(repo, record, "next", {}, {**response, "take": decision.take}, decision_id=decision_id)
    return response, record


def _batch_ids(repo: PartitionBanditRepository, record: SessionRecord, state: datasift.BanditState,
               decision: datasift.Decision) -> list[str]:
    j, size = decision.partition_index, decision.batch_size
    lo, hi = state.start[j], state.end[j]
    lo, hi = (lo, lo + size) if decision.take == "front" else (hi - size, hi)
    rows, ids = repo.offer_window(record, j, lo, hi)
    return [str(v) for v in (ids if ids is not None else rows).tolist()]


def report_feedback(db: Session, tenant_id: uuid.UUID, bandit_id: uuid.UUID, payload: FeedbackReport,
                    if_match: str | None) -> tuple[dict[str, Any], SessionRecord, bool]:
    """Apply one decision's fairness before/after (eq. 1, Algorithm 1); a repeat gets the first result."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    _require_ready(db, tenant_id, record)
    request = payload.model_dump(mode="json")

    def apply() -> dict[str, Any]:
        logged = repo.find_decision(record, payload.decision_id)
        if logged is None or logged.kind != "next":
            raise InvalidInput(f"no decision {payload.decision_id} on this bandit; send a decision_id from next",
                             ["body", "decision_id"])
        config, state = load(record)
        decision = _logged_decision(state, logged.response)
        with algorithm_errors(conflicts=(DataSiftError,)):
            new_state, result = datasift.apply_feedback(config, state, decision, payload.fairness_before,
                                                        payload.fairness_after)
        repo.save_state(record, {**record.state, "bandit": _bandit_json(new_state)}, status=_status_of(new_state))
        return {"decision_id": str(payload.decision_id), "round": decision.round, **result.to_dict()}

    response, replayed = report_once(repo, record, f"feedback:{payload.decision_id}", request, apply, "feedback")
    return response, record, replayed


def _logged_decision(state: datasift.BanditState, logged: dict[str, Any]) -> datasift.Decision:
    return datasift.Decision(
        round=int(logged["round"]), partition=logged["partition"],
        partition_index=state.partition_ids.index(logged["partition"]), reason=logged["reason"],
        batch_size=int(logged["batch_size"]), take=logged["take"], item_indices=None, scores={},
    )


# -- managed runs ------------------------------------------------------------------------------


def start_run(db: Session, tenant_id: uuid.UUID, settings: Settings, bandit_id: uuid.UUID, payload: RunRequest,
              if_match: str | None) -> Job:
    """Queue the whole acquisition loop (Algorithm 1 / 2 with retraining) for a worker."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    _require_ready(db, tenant_id, record)
    if record.config["pool_dataset_id"] is None:
        raise Conflict("managed runs need the pool: create the bandit with pool_dataset_id")
    train_id, test_id = checks.run_datasets(db, tenant_id, record.config, payload)
    repo.link_datasets(record, {"run_train": train_id, "run_test": test_id})
    request = payload.model_dump(mode="json")
    job = enqueue(db, tenant_id=tenant_id, kind=RUN_JOB, resource_type=RESOURCE_TYPE, resource_id=record.id,
                  payload={"sequence": record.sequence + 1, "train_dataset_id": str(train_id),
                           "test_dataset_id": str(test_id), "refresh_influence": payload.refresh_influence},
                  settings=settings)
    record_decision(repo, record, "run", request, {"job_id": str(job.id)})
    return job


# -- writes from the worker --------------------------------------------------------------------


@dataclass(frozen=True)
class PoolBandit:
    """What the partitioning job computed: the bandit's state (with the offer order) and its setup."""

    state: datasift.BanditState
    partitioning: Partitioning
    influence: np.ndarray | None
    influence_pair: tuple[str, str] | None
    ids: list[str] | None


def store_partitioned(db: Session, job: Job, built: PoolBandit, sequence: int) -> dict[str, Any]:
    """Store the partitioned pool and make the bandit ready; the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource_id)  # type: ignore[arg-type]
    if record.status != "partitioning" or record.sequence + 1 != sequence:
        return {"skipped": f"the bandit is {record.status}"}
    state, partitioning = built.state, built.partitioning
    _put_partitions(repo, record, partitioning.partitions)
    values = {"assignment": partitioning.assignment.astype(np.int32)}
    if built.influence is not None:
        values["influence"] = np.asarray(built.influence, dtype=float)
    repo.put_blob(record, "assignment", values, meta={"method": partitioning.method})
    items = state.items
    orders = [items[o:o + s] for o, s in zip(state.offsets, state.sizes, strict=True)]
    repo.put_offer_order(record, orders, None if built.ids is None else np.asarray(built.ids, dtype=str))
    summary = {"method": partitioning.method, "k": len(partitioning.partitions),
               "bic": {str(k): v for k, v in partitioning.bic.items()}}
    pair = None if built.influence_pair is None else list(built.influence_pair)
    repo.save_state(record, _state_json(state, pool={"ids": built.ids is not None}, partitioning=summary,
                                        influence_pair=pair), status=_status_of(state))
    record_decision(repo, record, "partition", {"job_id": str(job.id)},
                    {**summary, "partitions": list(state.partition_ids), "status": record.status})
    return {**summary, "partitions": list(state.partition_ids)}


def store_run(db: Session, job: Job, result: AcquisitionResult, acquired_ids: list[str]) -> dict[str, Any]:
    """Keep a managed run's result on the bandit (blob ``run`` and a summary); the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource_id)  # type: ignore[arg-type]
    summary = {
        "job_id": str(job.id), "stop_reason": result.stop_reason, "n_acquired": len(acquired_ids),
        "evaluations": result.evaluations, "initial_fairness": result.initial_fairness,
        "final_fairness": result.final_fairness, "initial_accuracy": result.initial_accuracy,
        "final_accuracy": result.final_accuracy,
    }
    full = {"acquired_item_ids": acquired_ids, "trajectory": result.trajectory, **summary}
    repo.put_blob(record, "run", {"acquired": result.acquired.astype(np.int64)}, meta=full)
    repo.save_state(record, {**record.state, "last_run": summary})
    return full


# -- read --------------------------------------------------------------------------------------


def bandit_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> PartitionBanditOut:
    """The bandit as the API shows it: config, status, each partition's R_j, pulls and UCB."""
    status, error = current_status(db, tenant_id, record)
    cfg, stored = record.config, record.state
    bandit = cfg["bandit"]
    partitions: list[PartitionOut] = []
    progress: dict[str, Any] = {"round": 1, "evaluations": 0, "accepted_batches": 0, "budget_spent": 0,
                                "best_fairness": None, "done": False, "stop_reason": None}
    if stored["bandit"] is not None:
        config, state = load(record)
        scores = datasift.partition_scores(config, state)
        found = repository(db, tenant_id).get_blob(record, "partitions")
        assert found is not None, "a ready bandit has its partitions blob"
        centroids, meta = found[0]["centroids"], found[1].meta
        partitions = [
            PartitionOut(id=pid, size=state.sizes[j], centroid=centroids[j].tolist(),
                         base_rate_difference=meta["base_rate_difference"][j], **scores[pid])
            for j, pid in enumerate(state.partition_ids)
        ]
        progress = {"round": state.evaluations + 1, "evaluations": state.evaluations,
                    "accepted_batches": state.accepted_batches, "budget_spent": state.budget_spent,
                    "best_fairness": state.best_fairness, "done": state.done, "stop_reason": state.stop_reason}
    return PartitionBanditOut(
        id=record.id, name=record.name, status=status, job_id=record.job_id, error=error,  # type: ignore[arg-type]
        metric=bandit["metric"], reward=bandit["reward"], reward_scale=bandit["reward_scale"],
        batch_selection=bandit["batch_selection"], batch_size=bandit["batch_size"], budget=bandit["budget"],
        alpha=bandit["alpha"], fairness_threshold=bandit["fairness_threshold"],
        max_evaluations=bandit["max_evaluations"], pool_dataset_id=cfg["pool_dataset_id"],
        train_dataset_id=cfg["train_dataset_id"], test_dataset_id=cfg["test_dataset_id"],
        partitioning=None if cfg["partitioning"] is None else {**cfg["partitioning"], **(stored["partitioning"] or {})},
        influence_pair=stored["influence_pair"], partitions=partitions,
        budget_remaining=bandit["budget"] - progress["budget_spent"], last_run=stored["last_run"], **progress,
        version=record.version, seed=record.seed, created_at=record.created_at,
    )
