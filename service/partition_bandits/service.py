"""Partition bandit use cases: create, next, feedback (counted once), managed runs, read.

The bandit's small state (per-partition windows, reward sums, pulls, distances) is
JSON on the session row (``state.py``); ``next`` loads only that, plus the offer chunks
its batch falls in when the bandit knows the pool. Pool bandits are partitioned by a
worker (``tasks.py``): the bandit is pending, shown as its job's status, until the job
stores its result through :func:`store_partitioned` (service.sessions.lifecycle).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service import jobs
from service.algorithms import datasift
from service.algorithms.datasift import AcquisitionResult
from service.errors import Conflict, InvalidInput
from service.partition_bandits import checks
from service.partition_bandits.decisions import WORK, expire_due, logged_decision
from service.partition_bandits.models import RESOURCE_TYPE, SessionRecord
from service.partition_bandits.repository import repository
from service.partition_bandits.schemas import (
    FeedbackReport,
    PartitionBanditCreate,
    PartitionBanditOut,
    PartitionOut,
    RunRequest,
)
from service.partition_bandits.state import (
    NOUN,
    Config,
    LastRun,
    ModelConfig,
    PartitioningConfig,
    PartitioningSummary,
    PoolInfo,
    State,
    load,
)
from service.sessions import pending
from service.sessions.lifecycle import DONE, PENDING, READY, new_seed, require_ready, shown_status, start_job
from service.sessions.repository import Entry
from service.sessions.service import Step, algorithm_errors, report_once
from service.settings import Settings

__all__ = ["PARTITION_JOB", "RUN_JOB", "bandit_out", "create_bandit", "report_feedback", "start_run",
           "store_partitioned", "store_run", "status_of"]

PARTITION_JOB = "partition_bandits.partition"
RUN_JOB = "partition_bandits.run"


def status_of(bandit: datasift.BanditState) -> str:
    return DONE if bandit.done else READY


def _bandit(state: State) -> datasift.BanditState:
    """The bandit's state; a ready bandit has one (its pool is partitioned, or it has client partitions)."""
    if state.bandit is None:
        raise ValueError("the bandit has no state yet")
    return state.bandit


# -- create ------------------------------------------------------------------------------------


def create_bandit(db: Session, tenant_id: uuid.UUID, settings: Settings,
                  payload: PartitionBanditCreate) -> tuple[SessionRecord, jobs.Job | None]:
    """A ready bandit over client-made partitions, or a pool bandit with its partitioning job."""
    if payload.batch_size > settings.max_candidates:
        raise InvalidInput(f"is {payload.batch_size}; the limit is {settings.max_candidates} items per decision "
                           "(FAIRACQ_MAX_CANDIDATES)", ["body", "batch_size"])
    with algorithm_errors():
        bandit = datasift.BanditConfig(
            batch_size=payload.batch_size, budget=payload.budget, metric=payload.metric, reward=payload.reward,
            reward_scale=payload.reward_scale, batch_selection=payload.batch_selection, alpha=payload.alpha,
            fairness_threshold=payload.fairness_threshold, max_evaluations=payload.max_evaluations,
            accuracy_weight=payload.accuracy_weight, accuracy_tolerance=payload.accuracy_tolerance,
            acceptance=payload.acceptance)
    datasets, column = checks.creation_datasets(db, tenant_id, payload)
    partitioning = None
    if payload.pool_dataset_id is not None:
        spec = payload.partitioning or checks.default_partitioning()
        partitioning = PartitioningConfig(method=spec.method, max_components=spec.max_components, column=column,
                                          standardize=spec.standardize, include_groups=spec.include_groups)
    config = Config(bandit=bandit, pool_dataset_id=payload.pool_dataset_id,
                    train_dataset_id=payload.train_dataset_id, test_dataset_id=payload.test_dataset_id,
                    partitioning=partitioning, model=ModelConfig(type=payload.model.type, C=payload.model.C),
                    initial_fairness=payload.initial_fairness, pending_ttl_seconds=float(payload.pending_ttl_seconds),
                    validation_dataset_id=payload.validation_dataset_id)
    repo = repository(db, tenant_id)
    request = payload.model_dump(mode="json")
    if payload.partitions is None:
        record = repo.create(config=config.to_dict(), state=State(None).to_dict(), seed=new_seed(payload.seed),
                             status=PENDING, name=payload.name)
        repo.link_datasets(record, datasets)
        job = start_job(db, settings, record, PARTITION_JOB, {})
        repo.record(record, log=Entry("create", request, {"status": job.status, "job_id": str(job.id)}))
        return record, job
    stats = checks.client_partitions(payload.partitions)
    with algorithm_errors():
        state = datasift.init_state(bandit, stats, initial_fairness=payload.initial_fairness)
    record = repo.create(config=config.to_dict(), state=State(state).to_dict(), seed=new_seed(payload.seed),
                         status=status_of(state), name=payload.name)
    repo.link_datasets(record, datasets)
    repo.put_partitions(record, stats)
    repo.record(record, log=Entry("create", request,
                                  {"status": record.status, "partitions": list(state.partition_ids)}))
    return record, None


# -- next and feedback -------------------------------------------------------------------------


def report_feedback(db: Session, tenant_id: uuid.UUID, bandit_id: uuid.UUID, payload: FeedbackReport,
                    if_match: str | None) -> tuple[dict[str, Any], SessionRecord, bool]:
    """Apply one decision's fairness before/after (eq. 1, Algorithm 1); a repeat gets the first result."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    request = payload.model_dump(mode="json")
    if load(record)[0].bandit.uses_accuracy:  # beyond the paper: β > 0 or a guard needs the accuracies
        for name in ("accuracy_before", "accuracy_after"):
            if getattr(payload, name) is None:
                raise InvalidInput("is required: this bandit uses accuracy (accuracy_weight > 0 or accuracy_tolerance);"
                                   " send the model's accuracy on a validation split", ["body", name])

    def apply() -> Step:
        # Checked here, not before report_once: the feedback that stopped the bandit is still answered again.
        require_ready(db, tenant_id, record, WORK, NOUN)
        logged = repo.find_decision(record, payload.decision_id)
        if logged is None or logged.kind != "next":
            raise InvalidInput(f"no decision {payload.decision_id} on this bandit; send a decision_id from next",
                               ["body", "decision_id"])
        config, state = load(record)
        state = expire_due(db, repo, record, config, state)
        bandit = _bandit(state)
        decision = logged_decision(bandit, logged.response)
        held = pending.settle(db, record.id, payload.decision_id)
        if held is None and decision.positions is not None:
            raise Conflict(f"decision {payload.decision_id} is no longer pending: it was released or expired, and "
                           "its items went back to the pool; ask for a new decision")
        with algorithm_errors():
            new_bandit, result = datasift.apply_feedback(
                config.bandit, bandit, decision, payload.fairness_before, payload.fairness_after,
                reserved=held is not None, accuracy_before=payload.accuracy_before,
                accuracy_after=payload.accuracy_after)
        response = {"decision_id": str(payload.decision_id), "round": decision.round, **result.to_dict()}
        return Step(response, state=replace(state, bandit=new_bandit).to_dict(), status=status_of(new_bandit))

    response, replayed = report_once(repo, record, f"feedback:{payload.decision_id}", request, apply, "feedback")
    return response, record, replayed


# -- managed runs ------------------------------------------------------------------------------


def start_run(db: Session, tenant_id: uuid.UUID, settings: Settings, bandit_id: uuid.UUID, payload: RunRequest,
              if_match: str | None) -> jobs.Job:
    """Queue the whole acquisition loop (Algorithm 1 / 2 with retraining) for a worker."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    if record.status != DONE:  # a run starts from the stored partitioning, whatever the interactive loop did
        require_ready(db, tenant_id, record, WORK, NOUN)
    config, _ = load(record)
    if config.pool_dataset_id is None:
        raise Conflict("managed runs need the pool: create the bandit with pool_dataset_id")
    chosen = checks.run_datasets(db, tenant_id, config, config.pool_dataset_id, payload)
    repo.link_datasets(record, {f"run_{role}": dataset_id for role, dataset_id in chosen.items()})
    job = jobs.enqueue(db, settings, tenant_id=tenant_id, kind=RUN_JOB, resource_type=RESOURCE_TYPE,
                       resource_id=record.id,
                       payload={"sequence": record.sequence + 1, "refresh_influence": payload.refresh_influence,
                                **{f"{role}_dataset_id": str(dataset_id) for role, dataset_id in chosen.items()}})
    repo.record(record, log=Entry("run", payload.model_dump(mode="json"), {"job_id": str(job.id)}))
    return job


# -- writes from the worker --------------------------------------------------------------------


def store_partitioned(db: Session, job: jobs.Job, prepared: datasift.PreparedPool, ids: list[str] | None,
                      sequence: int) -> dict[str, Any]:
    """Store the partitioned pool (with its ``ids``, if any) and make the bandit ready; the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource)
    if record.status != PENDING or record.sequence + 1 != sequence:
        return {"skipped": f"the bandit is {record.status}"}
    bandit, partitioning = prepared.state, prepared.partitioning
    repo.put_partitions(record, partitioning.partitions)
    values = {"assignment": partitioning.assignment.astype(np.int32)}
    if prepared.influence is not None:
        values["influence"] = np.asarray(prepared.influence, dtype=float)
    repo.put_blob(record, "assignment", values, meta={"method": partitioning.method})
    items = bandit.items
    assert items is not None, "a bandit over a pool knows the pool's items"
    orders = [items[o:o + s] for o, s in zip(bandit.offsets, bandit.sizes, strict=True)]
    repo.put_offer_order(record, orders, None if ids is None else np.asarray(ids, dtype=str))
    summary = PartitioningSummary(method=partitioning.method, k=len(partitioning.partitions),
                                  bic={str(k): float(v) for k, v in partitioning.bic.items()})
    state = State(bandit, pool=PoolInfo(ids=ids is not None), partitioning=summary, influence_pair=prepared.pair)
    status, result = status_of(bandit), {**summary.to_dict(), "partitions": list(bandit.partition_ids)}
    repo.record(record, state=state.to_dict(), status=status,
                log=Entry("partition", {"job_id": str(job.id)}, {**result, "status": status}))
    return result


def store_run(db: Session, job: jobs.Job, result: AcquisitionResult, acquired_ids: list[str]) -> dict[str, Any]:
    """Keep a managed run's result on the bandit (blob ``run`` and a summary); the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource)
    run = LastRun(job_id=job.id, stop_reason=result.stop_reason, n_acquired=len(acquired_ids),
                  evaluations=result.evaluations, initial_fairness=result.initial_fairness,
                  final_fairness=result.final_fairness, initial_accuracy=result.initial_accuracy,
                  final_accuracy=result.final_accuracy,
                  initial_validation_accuracy=result.details.get("initial_validation_accuracy"),
                  final_validation_accuracy=result.details.get("final_validation_accuracy"))
    full = {"acquired_item_ids": acquired_ids, "trajectory": result.trajectory, **run.to_dict()}
    repo.put_blob(record, "run", {"acquired": result.acquired.astype(np.int64)}, meta=full)
    _, state = load(record)
    repo.record(record, state=replace(state, last_run=run).to_dict())
    return full


# -- read --------------------------------------------------------------------------------------


def bandit_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> PartitionBanditOut:
    """The bandit as the API shows it: config, status, each partition's R_j, pulls and UCB."""
    shown = shown_status(db, tenant_id, record, WORK)
    config, state = load(record)
    bandit, params = state.bandit, config.bandit
    partitions: list[PartitionOut] = []
    progress: dict[str, Any] = {"round": 1, "evaluations": 0, "accepted_batches": 0, "budget_spent": 0,
                                "best_fairness": None, "best_accuracy": None, "done": False, "stop_reason": None}
    if bandit is not None:
        scores = datasift.partition_scores(params, bandit)
        stats = repository(db, tenant_id).partitions(record)
        partitions = [
            PartitionOut(id=pid, size=bandit.sizes[j], centroid=stats[j].centroid,
                         base_rate_difference=stats[j].base_rate_difference, **scores[pid])
            for j, pid in enumerate(bandit.partition_ids)
        ]
        progress = {"round": bandit.evaluations + bandit.pending_decisions + 1, "evaluations": bandit.evaluations,
                    "accepted_batches": bandit.accepted_batches, "budget_spent": bandit.budget_spent,
                    "best_fairness": bandit.best_fairness, "best_accuracy": bandit.best_accuracy, "done": bandit.done,
                    "stop_reason": bandit.stop_reason}
    spec, found = config.partitioning, state.partitioning
    return PartitionBanditOut(
        id=record.id, name=record.name, status=shown.status, job_id=record.job_id, error=shown.error,
        metric=params.metric, reward=params.reward, reward_scale=params.reward_scale,
        batch_selection=params.batch_selection, batch_size=params.batch_size, budget=params.budget,
        alpha=params.alpha, fairness_threshold=params.fairness_threshold,
        max_evaluations=params.max_evaluations, accuracy_weight=params.accuracy_weight,
        accuracy_tolerance=params.accuracy_tolerance, acceptance=params.acceptance,
        pool_dataset_id=config.pool_dataset_id, train_dataset_id=config.train_dataset_id,
        test_dataset_id=config.test_dataset_id, validation_dataset_id=config.validation_dataset_id,
        partitioning=None if spec is None else {**spec.to_dict(), **(found.to_dict() if found else {})},
        influence_pair=None if state.influence_pair is None else list(state.influence_pair), partitions=partitions,
        budget_remaining=params.budget - progress["budget_spent"] - (0 if bandit is None else bandit.reserved),
        pending_ttl_seconds=config.pending_ttl_seconds,
        pending_decisions=[] if bandit is None else pending.shown(db, record.id, bandit.partition_ids),
        last_run=state.last_run,
        **progress, version=record.version, seed=record.seed, created_at=record.created_at,
    )
