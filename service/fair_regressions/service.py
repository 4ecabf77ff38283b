"""Fair regression use cases: create (fit queued), store the fit, read.

Creation checks the request against its training table and queues one job; the
worker (``tasks.py``) runs Algorithm 1, a sweep of it, or Algorithm 2 and stores each
fitted ``Q`` as parameters through :func:`store_fit`. The resource's status is its fit
job's: ``queued``, ``running``, ``succeeded``, ``failed`` or ``cancelled``. Predictions
(``predictions.py``) read the stored parameters and never train.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.fair_regression import FairRegressionResult, split_params
from service.datasets.service import load_arrays
from service.fair_regressions import checks
from service.fair_regressions.models import RESOURCE_TYPE, TRAINING_BLOB, SessionRecord, predictor_blob
from service.fair_regressions.repository import FairRegressionRepository, repository
from service.fair_regressions.schemas import FairRegressionCreate, FairRegressionOut, FitResult
from service.jobs.models import Job
from service.jobs.queue import enqueue
from service.sessions.service import record_decision
from service.settings import Settings

__all__ = ["FIT_JOB", "FitOutcome", "create_regression", "current_status", "regression_out", "store_fit",
           "training_data"]

FIT_JOB = "fair_regressions.fit"
# Fields of the library's result summary kept on the session row (the gap history and
# the echo of the settings stay out: the config already holds the settings).
RESULT_FIELDS = ("weights", "n_predictors", "train_loss", "group_losses", "disparity", "feasible", "iterations",
                 "duality_gap", "status", "message", "max_violation", "tolerance", "bound_b", "oracle_calls",
                 "train_loss_expected", "disparity_expected")


# -- create ------------------------------------------------------------------------------------


def create_regression(db: Session, tenant_id: uuid.UUID, settings: Settings,
                      payload: FairRegressionCreate) -> tuple[SessionRecord, Job]:
    """Validate against the training table, store the config (and inline data), queue the fit."""
    table = checks.training_table(db, tenant_id, settings, payload)
    names = checks.group_names(table, payload)
    learner = checks.validate_fit(payload, table, names)
    assert table.labels is not None
    config = {
        "constraint": payload.constraint.model_dump(),
        "loss": payload.loss, "oracle": checks.effective_oracle(payload), "learner": learner,
        "max_iterations": payload.max_iterations, "tolerance": payload.tolerance, "bound_b": payload.bound_b,
        "dataset_id": None if payload.dataset_id is None else str(payload.dataset_id),
        "n_rows": table.n_rows, "n_features": int(table.features.shape[1]), "groups": names,
        "label_range": [float(table.labels.min()), float(table.labels.max())],
    }
    seed = payload.seed if payload.seed is not None else secrets.randbits(63)
    repo = repository(db, tenant_id)
    datasets = None if payload.dataset_id is None else {"training": payload.dataset_id}
    record = repo.create(config=config, state={"fit": None}, seed=seed, status="fitting", name=payload.name,
                         datasets=datasets)
    if payload.data is not None:
        assert table.group_codes is not None
        repo.put_blob(record, TRAINING_BLOB, {"features": table.features, "labels": table.labels,
                                              "group_codes": table.group_codes}, meta={"groups": names})
    job = enqueue(db, tenant_id=tenant_id, kind=FIT_JOB, resource_type=RESOURCE_TYPE, resource_id=record.id,
                  settings=settings)
    record.job_id = job.id
    record_decision(repo, record, "create", _logged_request(payload), {"status": "queued", "job_id": str(job.id)})
    return record, job


def _logged_request(payload: FairRegressionCreate) -> dict[str, Any]:
    """The request as the decision log keeps it: inline data by size and digest (it is in a blob)."""
    request = payload.model_dump(mode="json", exclude_none=True)
    if "data" in request:
        text = json.dumps(request["data"], sort_keys=True, separators=(",", ":"))
        request["data"] = {"rows": len(request["data"]["features"]),
                           "sha256": hashlib.sha256(text.encode()).hexdigest()}
    return request


# -- the worker's side -------------------------------------------------------------------------


def training_data(db: Session, tenant_id: uuid.UUID, repo: FairRegressionRepository,
                  record: SessionRecord) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and each row's group name, from the inline blob or the linked dataset."""
    names = record.config["groups"]
    if record.config["dataset_id"] is None:
        found = repo.get_blob(record, TRAINING_BLOB)
        assert found is not None, "inline data is stored at creation"
        arrays = found[0]
        return arrays["features"], arrays["labels"], np.asarray(names, dtype=str)[arrays["group_codes"]]
    table = load_arrays(db, tenant_id, uuid.UUID(record.config["dataset_id"]))
    assert table.labels is not None
    return table.features, table.labels, checks.labelled_groups(table, names)


@dataclass(frozen=True)
class FitOutcome:
    """A finished fit: one result per slack (one result for a single fit) and a sweep's frontier."""

    results: list[FairRegressionResult]
    slacks: list[float | None]
    frontier: list[dict[str, float]] | None


def _json_safe(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    return value


def _default_index(results: list[dict[str, Any]]) -> int:
    """The loosest feasible slack of a sweep; the first result when none is feasible."""
    feasible = [k for k, r in enumerate(results) if r["feasible"]]
    if not feasible or results[0]["slack"] is None:
        return 0
    return max(feasible, key=lambda k: results[k]["slack"])


def store_fit(db: Session, job: Job, outcome: FitOutcome, sequence: int) -> dict[str, Any]:
    """Store every fitted ``Q`` as parameters and the summaries; the job's result."""
    repo = repository(db, job.tenant_id)
    record = repo.get_for_update(job.resource_id)  # type: ignore[arg-type]
    if record.status != "fitting" or record.job_id != job.id or record.sequence + 1 != sequence:
        return {"skipped": f"the fair regression is {record.status}"}
    summaries = []
    for k, (result, slack) in enumerate(zip(outcome.results, outcome.slacks, strict=True)):
        assert result.predictor is not None, "a finished fit has a predictor"
        meta, arrays = split_params(result.predictor.to_params())
        repo.put_blob(record, predictor_blob(k), arrays, meta=meta)
        summaries.append(_json_safe({"slack": slack, **{f: getattr(result, f) for f in RESULT_FIELDS}}))
    default = _default_index(summaries)
    fit = {"results": summaries, "frontier": outcome.frontier, "default": default, "job_id": str(job.id)}
    repo.save_state(record, {"fit": fit}, status="succeeded")
    chosen = summaries[default]
    response = {"n_results": len(summaries), "default_slack": chosen["slack"], "feasible": chosen["feasible"],
                "train_loss": chosen["train_loss"], "disparity": chosen["disparity"],
                "frontier": outcome.frontier}
    record_decision(repo, record, "fit", {"job_id": str(job.id)}, response)
    return response


# -- read --------------------------------------------------------------------------------------


def current_status(repo: FairRegressionRepository, record: SessionRecord) -> tuple[str, str | None, float | None]:
    """Status, error and progress of the regression: its fit job's, ``succeeded`` once stored."""
    if record.status == "succeeded":
        return "succeeded", None, 1.0
    job = repo.fit_job(record)
    if job is None:
        return "failed", "the fit job no longer exists", None
    if job.status == "cancelled":
        return "cancelled", job.error or "the fit job was cancelled", job.progress
    if job.status == "succeeded":  # the job finished but found the regression changed: nothing stored
        return "failed", "the fit finished without storing a result", job.progress
    return job.status, job.error if job.status == "failed" else None, job.progress


def regression_out(repo: FairRegressionRepository, record: SessionRecord) -> FairRegressionOut:
    """The regression as the API shows it: config, status and, once fitted, the results."""
    status, error, progress = current_status(repo, record)
    config, fit = record.config, record.state["fit"]
    result = results = default_slack = None
    if fit is not None:
        sweep = isinstance(config["constraint"].get("slack"), list)
        results = [FitResult.model_validate(r) for r in fit["results"]]
        chosen = fit["results"][fit["default"]]
        result = FitResult.model_validate({**chosen, "frontier": fit["frontier"]})
        default_slack = chosen["slack"] if sweep else None
        results = results if sweep else None
    return FairRegressionOut(
        id=record.id, name=record.name, status=status, job_id=record.job_id, progress=progress,  # type: ignore[arg-type]
        error=error, constraint=config["constraint"], loss=config["loss"], oracle=config["oracle"],
        learner=config["learner"], max_iterations=config["max_iterations"], tolerance=config["tolerance"],
        bound_b=config["bound_b"], dataset_id=config["dataset_id"], n_rows=config["n_rows"],
        n_features=config["n_features"], groups=config["groups"], label_range=config["label_range"],
        result=result, results=results, default_slack=default_slack, version=record.version, seed=record.seed,
        created_at=record.created_at,
    )
