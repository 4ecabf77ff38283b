"""Predictions of a fitted fair regression, from its stored parameters (no training, no writes).

The predictor of result ``k`` is rebuilt from blob ``predictor:<k>`` once per process
and blob version (:data:`PREDICTORS`). ``expected`` predictions are ``Σ Q(h) h(x)``;
``randomized`` draws ``h ~ Q`` per row from ``default_rng(seed)`` — the client's seed,
or a fresh one that the response reports, so that any draw can be reproduced.
Predictions are not decisions: they change no state and are not logged.
"""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.fair_regression import FairRegressionPredictor, join_params
from service.algorithms.validation import as_matrix
from service.caches import LruCache
from service.errors import InvalidInput
from service.fair_regressions.models import SessionRecord, predictor_blob
from service.fair_regressions.repository import FairRegressionRepository, repository
from service.fair_regressions.schemas import PredictionRequest
from service.fair_regressions.service import NOUN, WORK
from service.fair_regressions.state import Fit, load
from service.pages import CorruptState
from service.sessions.lifecycle import new_seed, require_ready
from service.settings import Settings

__all__ = ["PREDICTORS", "predict"]

# Rebuilt predictors kept per process: a linear Q is a few KB, a boosted one a few MB at
# most; older ones are rebuilt from their blob on the next call.
PREDICTOR_CACHE_SIZE = 32
# A requested slack names a sweep's result when it is this close to one of its slacks
# (the request's JSON float and the stored one are the same double; this only absorbs
# a client's rounding in the last digit).
SLACK_MATCH = 1e-12


PREDICTORS: LruCache[tuple[uuid.UUID, str, int], FairRegressionPredictor] = LruCache(
    "predictors", PREDICTOR_CACHE_SIZE)


def _result_index(fit: Fit, slack: float | None) -> int:
    if slack is None:
        return fit.default
    slacks = [r.slack for r in fit.results]
    if slacks[0] is None:
        raise InvalidInput("slack names a result of a statistical-parity fit; this one has bounds, leave it out",
                           ["body", "slack"])
    for k, value in enumerate(slacks):
        if value is not None and abs(value - slack) <= SLACK_MATCH:
            return k
    raise InvalidInput(f"no result for slack {slack}; the fitted slacks are {slacks}", ["body", "slack"])


def _predictor(repo: FairRegressionRepository, record: SessionRecord, index: int) -> FairRegressionPredictor:
    name = predictor_blob(index)
    version = repo.blob_version(record, name)
    assert version is not None, "a fitted regression has a predictor per result"

    def rebuild() -> FairRegressionPredictor:
        found = repo.get_blob(record, name)
        assert found is not None
        arrays, blob = found
        return FairRegressionPredictor.from_params(join_params(blob.meta, arrays))

    return PREDICTORS.get_or_load((record.id, name, version), rebuild)


def predict(db: Session, tenant_id: uuid.UUID, settings: Settings, regression_id: uuid.UUID,
            payload: PredictionRequest) -> dict[str, Any]:
    """Predict with the chosen result's ``Q``: expected or randomized, on the original or unit scale."""
    repo = repository(db, tenant_id)
    record = repo.get(regression_id)
    require_ready(db, tenant_id, record, WORK, NOUN)
    fit = load(record)[1].fit
    if fit is None:
        raise CorruptState(f"the stored {NOUN} {record.id} is ready but holds no fit; tell the operator")
    index = _result_index(fit, payload.slack)
    if len(payload.features) > settings.max_rows:
        raise InvalidInput(f"has {len(payload.features)} rows; the limit is {settings.max_rows} (FAIRACQ_MAX_ROWS)",
                           ["body", "features"])
    predictor = _predictor(repo, record, index)
    X = as_matrix(payload.features, ("body", "features"), n_features=predictor.n_features)
    seed = rng = None
    if payload.mode == "randomized":
        seed = new_seed(payload.seed)
        rng = np.random.default_rng(seed)
    values = predictor.predict(X, payload.mode, rng, unit=payload.scale == "unit")
    return {"predictions": values.tolist(), "mode": payload.mode, "scale": payload.scale,
            "slack": fit.results[index].slack, "seed": seed}
