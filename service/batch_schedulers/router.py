"""``/v1/batch-schedulers``: FairBatch's sampling probabilities for each training epoch."""

from __future__ import annotations

import uuid

from fastapi import Response, status

from service.api import refusals, resource_router
from service.auth import TenantDep
from service.batch_schedulers import service
from service.batch_schedulers.models import KIND
from service.batch_schedulers.schemas import (
    BatchSchedulerCreate,
    BatchSchedulerList,
    BatchSchedulerOut,
    EpochReport,
    EpochResult,
)
from service.db import SessionDep
from service.endpoints import light_endpoint
from service.sessions.routes import IfMatch, SessionRoutes, add_session_routes
from service.sessions.service import set_created, set_etag

router = resource_router("/batch-schedulers", "batch-schedulers")


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_batch_scheduler")
def create_batch_scheduler(payload: BatchSchedulerCreate, db: SessionDep, tenant: TenantDep,
                           response: Response) -> BatchSchedulerOut:
    """Create a scheduler; sampling starts at each cell's natural share m_{y,z}/m."""
    record = service.create_scheduler(db, tenant.id, payload)
    set_created(response, record, router.prefix)
    return service.scheduler_out(record)


@router.post("/{scheduler_id}/epochs", operation_id="report_epoch",
             responses=refusals("epoch out of order"))
@light_endpoint
def report_epoch(scheduler_id: uuid.UUID, payload: EpochReport, db: SessionDep, tenant: TenantDep,
                 response: Response, if_match: IfMatch = None) -> EpochResult:
    """Report an epoch's per-cell losses; get λ, probabilities and the next batch composition."""
    result, record, replayed = service.report_epoch(db, tenant.id, scheduler_id, payload, if_match)
    set_etag(response, record, replayed=replayed)
    return EpochResult.model_validate(result)


add_session_routes(router, SessionRoutes(
    kind=KIND, noun="batch scheduler", id_param="scheduler_id", out=BatchSchedulerOut, page=BatchSchedulerList,
    render=lambda db, tenant_id, record: service.scheduler_out(record, service.epoch_history(db, tenant_id, record)),
    render_item=lambda db, tenant_id, record: service.scheduler_out(record),
    docs={"get": "Read a scheduler: λ, probabilities, composition and the λ history.",
          "list": "List schedulers, oldest first.",
          "log": "The scheduler's decision log: creation and every epoch, in order."}))
