"""``/v1/fair-regressions``: fit a fair regressor in a worker, then predict with it."""

from __future__ import annotations

import uuid

from fastapi import Response, status

from service.api import LimitQuery, parse_cursor, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.fair_regressions import predictions, service
from service.fair_regressions.repository import repository
from service.fair_regressions.schemas import (
    FairRegressionCreate,
    FairRegressionList,
    FairRegressionOut,
    PredictionRequest,
    PredictionResult,
)
from service.routing import read_only_endpoint
from service.sessions.schemas import DecisionList
from service.sessions.service import decision_page, readable, render_page, set_etag
from service.settings import SettingsDep

router = resource_router("/fair-regressions", "fair-regressions")
WHAT = "fair regression"
NOT_FITTED = {409: {"description": "the fit is queued or running (not-ready), or it failed or was cancelled"}}


@router.post("", status_code=status.HTTP_202_ACCEPTED, operation_id="create_fair_regression")
def create_fair_regression(payload: FairRegressionCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                           response: Response) -> FairRegressionOut:
    """Check the request against its data and queue the fit; 202 with the regression's Location."""
    record, _ = service.create_regression(db, tenant.id, settings, payload)
    response.headers["Location"] = f"/v1/fair-regressions/{record.id}"
    set_etag(response, record)
    return service.regression_out(repository(db, tenant.id), record)


@router.get("/{regression_id}", operation_id="get_fair_regression")
def get_fair_regression(regression_id: uuid.UUID, db: SessionDep, tenant: TenantDep,
                        response: Response) -> FairRegressionOut:
    """Read a regression: its fit job's status and, once fitted, the results (and a sweep's frontier)."""
    repo = repository(db, tenant.id)
    record = repo.get(regression_id)
    set_etag(response, record)
    return readable(record, WHAT, lambda: service.regression_out(repo, record))


@router.get("", operation_id="list_fair_regressions")
def list_fair_regressions(db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50,
                          cursor: str | None = None) -> FairRegressionList:
    """List regressions, oldest first."""
    repo = repository(db, tenant.id)
    items = repo.list(limit, parse_cursor(cursor))
    next_cursor = str(items[-1].id) if len(items) == limit else None
    shown, skipped = render_page(items, WHAT, lambda r: service.regression_out(repo, r))
    return FairRegressionList(items=shown, next_cursor=next_cursor, skipped=skipped)


@router.post("/{regression_id}/predictions", operation_id="predict_fair_regression", responses=NOT_FITTED)
@read_only_endpoint
def predict_fair_regression(regression_id: uuid.UUID, payload: PredictionRequest, db: SessionDep,
                            tenant: TenantDep, settings: SettingsDep) -> PredictionResult:
    """Predict with the fitted distribution Q: expected Σ Q(h) h(x), or one h ~ Q drawn per row."""
    return PredictionResult.model_validate(predictions.predict(db, tenant.id, settings, regression_id, payload))


@router.get("/{regression_id}/decisions", operation_id="list_fair_regression_decisions")
def list_fair_regression_decisions(regression_id: uuid.UUID, db: SessionDep, tenant: TenantDep,
                                   limit: LimitQuery = 100, cursor: str | None = None) -> DecisionList:
    """The regression's log: its creation and its fit."""
    repo = repository(db, tenant.id)
    return decision_page(repo, repo.get(regression_id), limit, cursor)
