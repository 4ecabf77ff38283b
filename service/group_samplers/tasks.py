"""Background work of group samplers: the managed-mode refit after an observation.

The job reads the stored samples and the latest parameters in a short read-only
transaction, fits outside any transaction, and stores the result with
``ctx.commit`` (fenced on its attempt). It trains on every sample stored when it
starts, so a job that finds nothing newer than the current model does nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service.algorithms.adaptive_sampling import fit_and_evaluate
from service.db import read_only, transaction
from service.group_samplers.managed import FIT_JOB, store_fit
from service.group_samplers.models import MODEL_BLOB
from service.group_samplers.repository import repository
from service.group_samplers.state import load
from service.jobs import JobContext, PermanentError, job_handler

__all__ = ["fit_job", "stack_samples"]


def stack_samples(samples: list[tuple[dict[str, np.ndarray], dict[str, Any]]],
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All training rows and labels, and all validation rows, labels and group indices."""
    train_X = np.concatenate([arrays["train_features"] for arrays, _ in samples])
    train_y = np.concatenate([arrays["train_labels"] for arrays, _ in samples]).astype(float)
    val_X = np.concatenate([arrays["validation_features"] for arrays, _ in samples])
    val_y = np.concatenate([arrays["validation_labels"] for arrays, _ in samples]).astype(float)
    val_group = np.concatenate([np.full(arrays["validation_labels"].size, meta["group_index"], dtype=int)
                                for arrays, meta in samples])
    return train_X, train_y, val_X, val_y, val_group


@job_handler(FIT_JOB)
def fit_job(ctx: JobContext) -> None:
    with transaction(ctx.sessions) as db:
        repo = repository(read_only(db), ctx.tenant_id)
        record = repo.get(ctx.resource)
        session = load(record)
        managed = session.managed
        assert managed is not None, "only managed samplers queue fits"
        samples = [] if not managed.fit_pending else repo.samples(record)
        stored = repo.get_blob(record, MODEL_BLOB)
    if not managed.fit_pending:
        result = {"skipped": "the model is up to date", "model_version": managed.model_version}
        ctx.commit(lambda db, job: result)
        return
    ctx.progress(0.1, force=True)
    params = (session.model or {}).get("params", {})
    try:
        fit = fit_and_evaluate(*stack_samples(samples), n_groups=session.sampler.n_groups,
                               loss=session.sampler.loss, previous=None if stored is None else stored[0], **params)
    except ValueError as exc:
        raise PermanentError(f"the fit failed: {exc}") from None
    ctx.commit(lambda db, job: store_fit(db, job, fit, len(samples)))
