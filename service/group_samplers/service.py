"""Group sampler use cases: create, next (logged), observations (counted once), fits, read.

``next`` and reported observations read and write only the small JSON state on the
session row, so they are O(groups). A managed observation stores its samples as a
blob, counts them against the budget at once and queues a fit (``tasks.py``), whose
result is written by :func:`store_fit`. ``next?wait=`` is served by :func:`wait_for_fit`
before the request's transaction starts (see ``router.py`` for why).
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import numpy as np
import scipy
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from service import __version__
from service.algorithms import adaptive_sampling
from service.algorithms.adaptive_sampling import BudgetExhaustedError, ManagedFit, SamplerConfig, SamplerState
from service.datasets.service import build_table
from service.errors import BudgetExhausted, InvalidInput, NotFound
from service.group_samplers.models import MODEL_BLOB, RESOURCE_TYPE, SessionRecord, samples_blob
from service.group_samplers.repository import GroupSamplerRepository, repository
from service.group_samplers.schemas import (
    DEFAULT_TREND_WINDOW,
    MAX_WAIT_SECONDS,
    GroupSamplerCreate,
    GroupSamplerOut,
    ObservationReport,
    ObservationResult,
    SamplerModelSpec,
    SampleSet,
)
from service.jobs.models import Job
from service.jobs.queue import enqueue
from service.jobs.repository import JobRepository
from service.jobs.service import job_out
from service.sessions.service import algorithm_errors, record_decision, report_once
from service.settings import Settings

__all__ = ["FIT_JOB", "create_sampler", "load", "next_decision", "report_observation", "sampler_out",
           "store_fit", "wait_for_fit"]

FIT_JOB = "group_samplers.fit"
ACTIVE_JOB = ("queued", "running")
REPORTED_FIELDS = ("n_acquired", "group_losses", "group_accuracies")
MANAGED_FIELDS = ("train", "validation")


@contextmanager
def _library_errors() -> Iterator[None]:
    """The library's ValueErrors as 422, a spent budget as 409 ``budget-exhausted``."""
    with algorithm_errors():
        try:
            yield
        except BudgetExhaustedError as exc:
            raise BudgetExhausted(str(exc)) from None


def load(record: SessionRecord) -> tuple[SamplerConfig, SamplerState]:
    return SamplerConfig.from_dict(record.config["sampler"]), SamplerState.from_dict(record.state["sampler"])


def _save(repo: GroupSamplerRepository, record: SessionRecord, config: SamplerConfig, state: SamplerState,
          managed: dict[str, Any] | None = None) -> None:
    stored = {**record.state, "sampler": state.to_dict()}
    if managed is not None:
        stored["managed"] = managed
    status = "active" if state.budget_spent < config.budget else "exhausted"
    repo.save_state(record, stored, status=status)


# -- create ------------------------------------------------------------------------------------


def create_sampler(db: Session, tenant_id: uuid.UUID, settings: Settings,
                   payload: GroupSamplerCreate) -> SessionRecord:
    """Validate the configuration once, store it with the initial state, log the creation."""
    if len(payload.groups) > settings.max_groups:
        raise InvalidInput(f"has {len(payload.groups)} groups; the limit is {settings.max_groups} "
                         "(FAIRACQ_MAX_GROUPS)", ["body", "groups"])
    managed = payload.mode == "managed"
    if payload.model is not None and not managed:
        raise InvalidInput("the service trains a model in managed mode only; leave model out or use mode "
                         "'managed'", ["body", "model"])
    params = payload.params
    with _library_errors():
        config = SamplerConfig(
            groups=tuple(payload.groups), budget=payload.budget, strategy=payload.strategy, c0=params.c0,
            c1=params.c1, epsilon=params.epsilon, xi=params.xi, warmup_rounds=params.warmup_rounds,
            bound=params.bound, batch_size=payload.batch_size, loss=payload.loss,
            trend_window=params.trend_window or DEFAULT_TREND_WINDOW, bound_c=params.bound_c,
            bound_delta=params.bound_delta, bound_vc_dim=params.bound_vc_dim,
        )
    stored_config = {"mode": payload.mode, "sampler": config.to_dict(),
                     "model": (payload.model or SamplerModelSpec()).model_dump() if managed else None}
    state = {"sampler": SamplerState.initial(config).to_dict(),
             "managed": _initial_managed(config) if managed else None}
    seed = payload.seed if payload.seed is not None else secrets.randbits(63)
    repo = repository(db, tenant_id)
    record = repo.create(config=stored_config, state=state, seed=seed, status="active", name=payload.name)
    record_decision(repo, record, "create", payload.model_dump(mode="json"), {"config": stored_config})
    return record


def _initial_managed(config: SamplerConfig) -> dict[str, Any]:
    return {"n_features": None, "observations": 0, "fitted_observations": 0, "model_version": 0,
            "train_rows": 0, "validation_rows": [0] * config.n_groups}


# -- next --------------------------------------------------------------------------------------


def next_decision(db: Session, tenant_id: uuid.UUID, sampler_id: uuid.UUID, wait: float,
                  if_match: str | None) -> tuple[dict[str, Any], SessionRecord]:
    """Choose the next group from the stored state (no training) and log the decision.

    The state does not change (the round advances on observations), but every call is
    a decision of its own: a new ``decision_id`` and sequence number, whose randomness
    is ``default_rng([seed, sequence])``.
    """
    repo = repository(db, tenant_id)
    record = repo.get_for_update(sampler_id, if_match)
    config, state = load(record)
    rng = repo.next_rng(record)
    with _library_errors():
        decision = adaptive_sampling.next_decision(config, state, rng)
    decision_id = uuid.uuid4()
    response = {
        "decision_id": str(decision_id), "round": decision.round, "group": decision.group,
        "batch_size": decision.batch_size, "reason": decision.reason, "note": decision.note,
        "scores": decision.scores, "budget_remaining": decision.budget_remaining, **_model_fields(record),
    }
    record_decision(repo, record, "next", {"wait": wait} if wait else {}, response, decision_id=decision_id)
    return response, record


def _model_fields(record: SessionRecord) -> dict[str, Any]:
    managed = record.state["managed"]
    if managed is None:
        return {"model_version": None, "fit_pending": None}
    return {"model_version": managed["model_version"],
            "fit_pending": managed["observations"] > managed["fitted_observations"]}


async def wait_for_fit(request: Request) -> None:
    """``next?wait=``: hold the request until the sampler's queued or running fit has finished.

    Runs before the request's transaction (service.routing), holding no lock; the wait
    itself is the process's shared :class:`service.jobs.waiter.JobWaiter`. Anything
    invalid (no such sampler, a bad ``wait``) returns at once: the endpoint answers it.
    """
    seconds = _wait_seconds(request.query_params.get("wait"))
    target = _as_uuid(request.path_params.get("sampler_id"))
    if seconds is None or target is None:
        return
    tenant_id = request.state.tenant.id
    job_id = await run_in_threadpool(_active_fit_job, request.app.state.readers, tenant_id, target)
    if job_id is not None:
        await request.app.state.job_waiter.wait(tenant_id, job_id, seconds)


def _wait_seconds(value: str | None) -> float | None:
    try:
        seconds = float(value) if value is not None else 0.0
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and 0 < seconds <= MAX_WAIT_SECONDS else None


def _as_uuid(value: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _active_fit_job(readers: sessionmaker[Session], tenant_id: uuid.UUID, sampler_id: uuid.UUID) -> uuid.UUID | None:
    with readers() as db:
        repo = repository(db, tenant_id)
        record = repo.find(sampler_id)
        if record is None or repo.fit_job_status(record) not in ACTIVE_JOB:
            return None
        return record.job_id


# -- observations ------------------------------------------------------------------------------


def report_observation(db: Session, tenant_id: uuid.UUID, settings: Settings, sampler_id: uuid.UUID,
                       payload: ObservationReport, if_match: str | None,
                       ) -> tuple[ObservationResult, SessionRecord, bool]:
    """Apply one observation once; a retry with the same ``observation_id`` gets the first answer."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(sampler_id, if_match)
    managed = record.config["mode"] == "managed"

    def apply() -> dict[str, Any]:
        _check_fields(payload, managed)
        config, state = load(record)
        _check_decision(repo, record, payload)
        if managed:
            return _apply_managed(db, repo, record, config, state, payload, settings)
        with _library_errors():
            new = adaptive_sampling.apply_observation(config, state, payload.group, payload.n_acquired,
                                                      payload.group_losses, payload.group_accuracies)
        _save(repo, record, config, new)
        return _observation_response(config, new, payload, payload.n_acquired)  # type: ignore[arg-type]

    response, replayed = report_once(repo, record, f"observation:{payload.observation_id}",
                                     _logged_request(payload), apply, "observation")
    job = None
    if response.get("job_id") is not None:
        try:
            job = job_out(JobRepository(db, tenant_id).get(uuid.UUID(response["job_id"])))
        except NotFound:  # a purged job: the observation still counted
            job = None
    body = {k: v for k, v in response.items() if k != "job_id"}
    return ObservationResult.model_validate({**body, "job": job}), record, replayed


def _logged_request(payload: ObservationReport) -> dict[str, Any]:
    """The request as the decision log keeps it: samples by size and digest (they are in a blob)."""
    request = payload.model_dump(mode="json", exclude_none=True)
    for name in MANAGED_FIELDS:
        if name in request:
            text = json.dumps(request[name], sort_keys=True, separators=(",", ":"))
            request[name] = {"rows": len(request[name]["features"]),
                             "sha256": hashlib.sha256(text.encode()).hexdigest()}
    return request


def _check_fields(payload: ObservationReport, managed: bool) -> None:
    wrong, needed = (REPORTED_FIELDS, MANAGED_FIELDS) if managed else (MANAGED_FIELDS, REPORTED_FIELDS[:2])
    mode, send = ("managed", "train and validation samples") if managed else ("reported", "n_acquired and "
                                                                                          "group_losses")
    for name in wrong:
        if getattr(payload, name) is not None:
            raise InvalidInput(f"this sampler is in {mode} mode: send {send}, not {name}", ["body", name])
    for name in needed:
        if getattr(payload, name) is None:
            raise InvalidInput(f"is required in {mode} mode (send {send})", ["body", name])


def _check_decision(repo: GroupSamplerRepository, record: SessionRecord, payload: ObservationReport) -> None:
    if payload.decision_id is None:
        return
    logged = repo.find_decision(record, payload.decision_id)
    if logged is None or logged.kind != "next":
        raise InvalidInput(f"no next decision {payload.decision_id} on this sampler; send a decision_id that next "
                         "returned, or leave it out", ["body", "decision_id"])
    if logged.response["group"] != payload.group:
        raise InvalidInput(f"decision {payload.decision_id} chose group {logged.response['group']!r}; report that "
                         "group, or leave decision_id out for samples of another group", ["body", "group"])


def _summary(config: SamplerConfig, state: SamplerState) -> dict[str, Any]:
    """The session view of SPEC §4.3 ``GET``: counts, mixture and losses by group name, round, budget, status."""
    view, groups = adaptive_sampling.summary(config, state), config.groups
    return {"counts": dict(zip(groups, view.counts, strict=True)),
            "mixture": dict(zip(groups, view.mixture, strict=True)),
            "group_losses": dict(zip(groups, view.group_losses, strict=True)),
            "round": view.round, "budget_remaining": view.budget_remaining,
            "status": "exhausted" if view.exhausted else "active"}


def _observation_response(config: SamplerConfig, state: SamplerState, payload: ObservationReport,
                          n_acquired: int) -> dict[str, Any]:
    return {"observation_id": payload.observation_id,
            "decision_id": None if payload.decision_id is None else str(payload.decision_id),
            "group": payload.group, "n_acquired": n_acquired, **_summary(config, state)}


def _apply_managed(db: Session, repo: GroupSamplerRepository, record: SessionRecord, config: SamplerConfig,
                   state: SamplerState, payload: ObservationReport, settings: Settings) -> dict[str, Any]:
    """Store the samples, count them against the budget now, and queue a refit."""
    managed = dict(record.state["managed"])
    with _library_errors():
        index = config.group_index(payload.group)
    train_X, train_y = _samples(payload.train, settings, managed["n_features"], "train")  # type: ignore[arg-type]
    val_X, val_y = _samples(payload.validation, settings, train_X.shape[1], "validation")  # type: ignore[arg-type]
    n_acquired = int(train_X.shape[0])
    with _library_errors():
        new = adaptive_sampling.apply_observation(config, state, index, n_acquired, {})
    k = managed["observations"] + 1
    repo.put_blob(record, samples_blob(k), {"train_features": train_X, "train_labels": train_y,
                                            "validation_features": val_X, "validation_labels": val_y},
                  meta={"group": payload.group, "group_index": index, "observation_id": payload.observation_id})
    validation_rows = list(managed["validation_rows"])
    validation_rows[index] += int(val_y.size)
    managed.update(n_features=int(train_X.shape[1]), observations=k, train_rows=managed["train_rows"] + n_acquired,
                   validation_rows=validation_rows)
    job = enqueue(db, tenant_id=repo.tenant_id, kind=FIT_JOB, resource_type=RESOURCE_TYPE, resource_id=record.id,
                  payload={"observations": k}, settings=settings)
    record.job_id = job.id
    _save(repo, record, config, new, managed)
    return {**_observation_response(config, new, payload, n_acquired), "job_id": str(job.id)}


def _samples(samples: SampleSet, settings: Settings, n_features: int | None,
             name: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows and 0/1 labels, checked against the limits and the sampler's feature count."""
    loc = ("body", name)
    table = build_table(samples.features, None, samples.labels, None, settings, loc=loc)
    X, y = table.features, table.labels
    assert y is not None, "labels are required by the schema"
    if n_features is not None and X.shape[1] != n_features:
        raise InvalidInput(f"rows have {X.shape[1]} features; this sampler's model takes {n_features}",
                         [*loc, "features"])
    bad = np.flatnonzero(~np.isin(y, (0.0, 1.0)))
    if bad.size:
        raise InvalidInput("must be 0 or 1 (the managed model is a binary logistic regression)",
                         [*loc, "labels", int(bad[0])])
    return X, y.astype(np.int8)


# -- writes from the worker --------------------------------------------------------------------


def store_fit(db: Session, job: Job, fit: ManagedFit, observations: int) -> dict[str, Any]:
    """Apply a refit's per-group losses and store its parameters; the job's result.

    A fit that saw no more observations than the model already covers (another
    fit finished first) is skipped, so the model never goes back in time.
    """
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource_id)  # type: ignore[arg-type]
    managed = dict(record.state["managed"])
    if managed["fitted_observations"] >= observations:
        return {"skipped": f"the model already covers {managed['fitted_observations']} observations",
                "model_version": managed["model_version"]}
    config, state = load(record)
    losses, accuracies = fit.evaluation.reported()
    with algorithm_errors():
        # Samples were counted (and the round advanced) when they were reported; a
        # refit only brings new losses, and a new point of each Aopt+ trend series.
        new = replace(adaptive_sampling.apply_observation(config, state, 0, 0, losses, accuracies),
                      round=state.round)
    version = managed["model_version"] + 1
    solver = {"status": fit.result.status, "iterations": fit.result.iterations,
              "gap": fit.result.gap if math.isfinite(fit.result.gap) else None}
    repo.put_blob(record, MODEL_BLOB, fit.params, meta={
        "model_version": version, "observations": observations, "solver": solver,
        "versions": {"fairacq": __version__, "numpy": np.__version__, "scipy": scipy.__version__}})
    managed.update(model_version=version, fitted_observations=observations)
    _save(repo, record, config, new, managed)
    result = {"model_version": version, "observations": observations,
              "group_losses": dict(zip(config.groups, losses, strict=True)),
              "group_accuracies": dict(zip(config.groups, accuracies, strict=True)), "solver": solver}
    record_decision(repo, record, "fit", {"job_id": str(job.id)}, result)
    return result


# -- read --------------------------------------------------------------------------------------


def sampler_out(record: SessionRecord) -> GroupSamplerOut:
    config, state = load(record)
    managed = record.state["managed"]
    stored = record.config["sampler"]
    return GroupSamplerOut(
        id=record.id, name=record.name, groups=list(config.groups), strategy=config.strategy,  # type: ignore[arg-type]
        mode=record.config["mode"], budget=config.budget, batch_size=config.batch_size,
        loss=config.loss,  # type: ignore[arg-type]
        params={k: stored[k] for k in ("c0", "c1", "epsilon", "xi", "warmup_rounds", "bound", "trend_window",
                                       "bound_c", "bound_delta", "bound_vc_dim")},  # type: ignore[arg-type]
        model=record.config["model"],
        group_accuracies=dict(zip(config.groups, state.group_accuracies, strict=True)),
        model_version=None if managed is None else managed["model_version"],
        fitted_observations=None if managed is None else managed["fitted_observations"],
        fit_job_id=record.job_id, version=record.version, seed=record.seed, created_at=record.created_at,
        **_summary(config, state),
    )
