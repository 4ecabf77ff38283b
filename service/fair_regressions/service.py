"""Fair regression use cases: create (fit queued), store the fit, read.

Creation checks the request against its training table and queues one job; the
worker (``tasks.py``) runs Algorithm 1, a sweep of it, or Algorithm 2 and stores each
fitted ``Q`` as parameters through :func:`store_fit`. The regression is ``pending``
while its fit job runs (shown as the job's ``queued``, ``running``, ``failed`` or
``cancelled``) and ``ready`` once the fit is stored (service.sessions.lifecycle).
Predictions (``predictions.py``) read the stored parameters and never train.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service import jobs
from service.algorithms.fair_regression import FairRegressionResult, split_params
from service.datasets.service import load_arrays
from service.errors import NotFound
from service.fair_regressions import checks
from service.fair_regressions.models import TRAINING_BLOB, SessionRecord, predictor_blob
from service.fair_regressions.repository import FairRegressionRepository, repository
from service.fair_regressions.schemas import FairRegressionCreate, FairRegressionOut, FitResult
from service.fair_regressions.state import Config, Fit, FitSummary, Learner, State, constraint_from_dict, load
from service.sessions.lifecycle import PENDING, READY, new_seed, shown_status, start_job
from service.sessions.repository import Entry
from service.settings import Settings

__all__ = ["FIT_JOB", "NOUN", "WORK", "FitOutcome", "create_regression", "regression_out", "store_fit",
           "training_data"]

FIT_JOB = "fair_regressions.fit"
NOUN, WORK = "fair regression", "fit"  # how messages name the session and its job


# -- create ------------------------------------------------------------------------------------


def create_regression(db: Session, tenant_id: uuid.UUID, settings: Settings,
                      payload: FairRegressionCreate) -> tuple[SessionRecord, jobs.Job]:
    """Validate against the training table, store the config (and inline data), queue the fit."""
    table = checks.training_table(db, tenant_id, settings, payload)
    names = checks.group_names(table, payload)
    learner = checks.validate_fit(payload, table, names)
    assert table.labels is not None
    config = Config(
        constraint=constraint_from_dict(payload.constraint.model_dump()), loss=payload.loss,
        oracle=checks.effective_oracle(payload), learner=Learner.from_dict(learner),
        max_iterations=payload.max_iterations, tolerance=payload.tolerance, bound_b=payload.bound_b,
        dataset_id=payload.dataset_id, n_rows=table.n_rows, n_features=int(table.features.shape[1]),
        groups=tuple(names), label_range=(float(table.labels.min()), float(table.labels.max())),
    )
    repo = repository(db, tenant_id)
    datasets = None if payload.dataset_id is None else {"training": payload.dataset_id}
    record = repo.create(config=config.to_dict(), state=State().to_dict(), seed=new_seed(payload.seed),
                         status=PENDING, name=payload.name, datasets=datasets)
    if payload.data is not None:
        assert table.group_codes is not None
        repo.put_blob(record, TRAINING_BLOB, {"features": table.features, "labels": table.labels,
                                              "group_codes": table.group_codes}, meta={"groups": names})
    job = start_job(db, settings, record, FIT_JOB)
    repo.record(record, log=Entry("create", _logged_request(payload), {"status": "queued", "job_id": str(job.id)}))
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


def training_data(db: Session, tenant_id: uuid.UUID, repo: FairRegressionRepository, record: SessionRecord,
                  config: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and each row's group name, from the inline blob or the linked dataset."""
    names = list(config.groups)
    if config.dataset_id is None:
        found = repo.get_blob(record, TRAINING_BLOB)
        assert found is not None, "inline data is stored at creation"
        arrays = found[0]
        return arrays["features"], arrays["labels"], np.asarray(names, dtype=str)[arrays["group_codes"]]
    table = load_arrays(db, tenant_id, config.dataset_id)
    assert table.labels is not None
    return table.features, table.labels, checks.labelled_groups(table, names)


@dataclass(frozen=True)
class FitOutcome:
    """A finished fit: one result per slack (one result for a single fit) and a sweep's frontier."""

    results: list[FairRegressionResult]
    slacks: list[float | None]
    frontier: list[dict[str, float]] | None


def store_fit(db: Session, job: jobs.Job, outcome: FitOutcome, sequence: int) -> dict[str, Any]:
    """Store every fitted ``Q`` as parameters and the summaries, and make the regression ready; the job's result."""
    repo = repository(db, job.tenant_id)
    try:
        record = repo.get_for_update(job.resource)
    except NotFound:
        return {"skipped": "the fair regression was deleted"}
    if record.status != PENDING or record.job_id != job.id or record.sequence + 1 != sequence:
        return {"skipped": f"the fair regression is {record.status}"}
    summaries = []
    for k, (result, slack) in enumerate(zip(outcome.results, outcome.slacks, strict=True)):
        assert result.predictor is not None, "a finished fit has a predictor"
        meta, arrays = split_params(result.predictor.to_params())
        repo.put_blob(record, predictor_blob(k), arrays, meta=meta)
        summaries.append(FitSummary.of(result, slack))
    fit = Fit.of(summaries, outcome.frontier, job.id)
    chosen = fit.chosen
    response = {"n_results": len(summaries), "default_slack": chosen.slack, "feasible": chosen.feasible,
                "train_loss": chosen.train_loss, "disparity": chosen.disparity, "frontier": fit.frontier_dicts()}
    repo.record(record, state=State(fit).to_dict(), status=READY,
                log=Entry("fit", {"job_id": str(job.id)}, response))
    return response


# -- read --------------------------------------------------------------------------------------


def regression_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> FairRegressionOut:
    """The regression as the API shows it: config, status and, once fitted, the results."""
    config, state = load(record)
    shown = shown_status(db, tenant_id, record, WORK)
    fit = state.fit
    result = results = default_slack = None
    if fit is not None:
        chosen = fit.chosen
        result = FitResult.model_validate({**chosen.to_dict(), "frontier": fit.frontier_dicts()})
        if config.sweep:
            results = [FitResult.model_validate(r.to_dict()) for r in fit.results]
            default_slack = chosen.slack
    return FairRegressionOut(
        id=record.id, name=record.name, status=shown.status, job_id=record.job_id, progress=shown.progress,
        error=shown.error, constraint=config.constraint.to_dict(), loss=config.loss,
        oracle=config.oracle, learner=config.learner.to_dict(),
        max_iterations=config.max_iterations, tolerance=config.tolerance, bound_b=config.bound_b,
        dataset_id=config.dataset_id, n_rows=config.n_rows, n_features=config.n_features,
        groups=list(config.groups), label_range=list(config.label_range), result=result, results=results,
        default_slack=default_slack, version=record.version, seed=record.seed, created_at=record.created_at,
    )
