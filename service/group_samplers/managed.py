"""Managed mode: the service trains the model, from samples the client reports.

An observation's samples are stored as the blob ``samples:<k>`` and counted against
the budget at once; a refit job (``tasks.py``) trains on every stored sample and
:func:`store_fit` applies its per-group losses. ``next?wait=`` can hold a decision
until a running refit has finished (:func:`wait_for_fit`), holding no lock.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import replace

import numpy as np
import scipy
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from service import __version__, jobs
from service.algorithms import adaptive_sampling
from service.algorithms.adaptive_sampling import ManagedFit
from service.datasets.service import build_table
from service.errors import InvalidInput
from service.group_samplers.models import MODEL_BLOB, SessionRecord, samples_blob
from service.group_samplers.repository import GroupSamplerRepository, repository
from service.group_samplers.schemas import MAX_WAIT_SECONDS, ObservationReport, SampleSet
from service.group_samplers.service import library_errors, status_of
from service.group_samplers.state import SamplerSession, load
from service.sessions.lifecycle import start_job
from service.sessions.repository import Entry
from service.sessions.service import algorithm_errors
from service.settings import Settings

__all__ = ["FIT_JOB", "apply_managed", "store_fit", "wait_for_fit"]

FIT_JOB = "group_samplers.fit"


def apply_managed(db: Session, settings: Settings, repo: GroupSamplerRepository, record: SessionRecord,
                  session: SamplerSession, payload: ObservationReport,
                  settles: int | None = None) -> tuple[SamplerSession, uuid.UUID, int]:
    """Store the samples, count them against the budget now, and queue a refit.

    Returns the new session, the refit job's id and how many samples were acquired.
    """
    managed = session.managed
    assert managed is not None and payload.train is not None and payload.validation is not None
    with library_errors():
        index = session.sampler.group_index(payload.group)
    train_X, train_y = _samples(payload.train, settings, managed.n_features, "train")
    val_X, val_y = _samples(payload.validation, settings, train_X.shape[1], "validation")
    n_acquired = int(train_X.shape[0])
    with library_errors():
        state = adaptive_sampling.apply_observation(session.sampler, session.state, index, n_acquired, {},
                                                    settles=settles)
    k = managed.observations + 1
    repo.put_blob(record, samples_blob(k), {"train_features": train_X, "train_labels": train_y,
                                            "validation_features": val_X, "validation_labels": val_y},
                  meta={"group": payload.group, "group_index": index, "observation_id": payload.observation_id})
    rows = list(managed.validation_rows)
    rows[index] += int(val_y.size)
    managed = replace(managed, n_features=int(train_X.shape[1]), observations=k,
                      train_rows=managed.train_rows + n_acquired, validation_rows=tuple(rows))
    job = start_job(db, settings, record, FIT_JOB, {"observations": k}, pending=False)
    return session.with_state(state, managed), job.id, n_acquired


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


def store_fit(db: Session, job: jobs.Job, fit: ManagedFit, observations: int) -> dict[str, object]:
    """Apply a refit's per-group losses and store its parameters; the job's result.

    A fit that saw no more observations than the model already covers (another
    fit finished first) is skipped, so the model never goes back in time.
    """
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource)
    session = load(record)
    managed = session.managed
    assert managed is not None
    if managed.fitted_observations >= observations:
        return {"skipped": f"the model already covers {managed.fitted_observations} observations",
                "model_version": managed.model_version}
    losses, accuracies = fit.evaluation.reported()
    with algorithm_errors():
        # Samples were counted (and the round advanced) when they were reported; a
        # refit only brings new losses, and a new point of each Aopt+ trend series.
        state = replace(adaptive_sampling.apply_observation(session.sampler, session.state, 0, 0, losses,
                                                            accuracies), round=session.state.round)
    version = managed.model_version + 1
    solver = {"status": fit.result.status, "iterations": fit.result.iterations,
              "gap": fit.result.gap if math.isfinite(fit.result.gap) else None}
    repo.put_blob(record, MODEL_BLOB, fit.params, meta={
        "model_version": version, "observations": observations, "solver": solver,
        "versions": {"fairacq": __version__, "numpy": np.__version__, "scipy": scipy.__version__}})
    new = session.with_state(state, replace(managed, model_version=version, fitted_observations=observations))
    groups = session.sampler.groups
    result = {"model_version": version, "observations": observations,
              "group_losses": dict(zip(groups, losses, strict=True)),
              "group_accuracies": dict(zip(groups, accuracies, strict=True)), "solver": solver}
    repo.record(record, state=new.state_json(), status=status_of(new),
                log=Entry("fit", {"job_id": str(job.id)}, result))
    return result


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
        record = repository(db, tenant_id).find(sampler_id)
        if record is None or record.job_id is None:
            return None
        job = jobs.view(db, tenant_id, record.job_id)
        return job.id if job is not None and job.status in ("queued", "running") else None
