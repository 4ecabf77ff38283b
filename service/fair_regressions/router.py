"""``/v1/fair-regressions``: fit a fair regressor in a worker, then predict with it."""

from __future__ import annotations

import uuid

from fastapi import Response, status

from service.api import refusals, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.endpoints import read_only_endpoint
from service.fair_regressions import predictions, service
from service.fair_regressions.models import KIND
from service.fair_regressions.schemas import (
    FairRegressionCreate,
    FairRegressionList,
    FairRegressionOut,
    PredictionRequest,
    PredictionResult,
)
from service.sessions.routes import SessionRoutes, add_session_routes
from service.sessions.service import set_created
from service.settings import SettingsDep

router = resource_router("/fair-regressions", "fair-regressions")
NOT_FITTED = refusals("the fit is queued or running (not-ready), or it failed or was cancelled", if_match=False)


@router.post("", status_code=status.HTTP_202_ACCEPTED, operation_id="create_fair_regression")
def create_fair_regression(payload: FairRegressionCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                           response: Response) -> FairRegressionOut:
    """Check the request against its data and queue the fit; 202 with the regression's Location."""
    record, _ = service.create_regression(db, tenant.id, settings, payload)
    set_created(response, record, router.prefix)
    return service.regression_out(db, tenant.id, record)


@router.post("/{regression_id}/predictions", operation_id="predict_fair_regression", responses=NOT_FITTED)
@read_only_endpoint
def predict_fair_regression(regression_id: uuid.UUID, payload: PredictionRequest, db: SessionDep,
                            tenant: TenantDep, settings: SettingsDep) -> PredictionResult:
    """Predict with the fitted distribution Q: expected Σ Q(h) h(x), or one h ~ Q drawn per row."""
    return PredictionResult.model_validate(predictions.predict(db, tenant.id, settings, regression_id, payload))


add_session_routes(router, SessionRoutes(
    kind=KIND, noun=service.NOUN, id_param="regression_id", out=FairRegressionOut, page=FairRegressionList,
    render=service.regression_out,
    docs={"get": "Read a regression: its fit job's status and, once fitted, the results (and a sweep's frontier).",
          "list": "List regressions, oldest first.",
          "log": "The regression's log: its creation and its fit."}))
