"""``/v1/batch-schedulers``: FairBatch's sampling probabilities for each training epoch."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Header, Response, status

from service.api import LimitQuery, parse_cursor, resource_router
from service.auth import TenantDep
from service.batch_schedulers import service
from service.batch_schedulers.repository import repository
from service.batch_schedulers.schemas import (
    BatchSchedulerCreate,
    BatchSchedulerList,
    BatchSchedulerOut,
    EpochReport,
    EpochResult,
)
from service.db import SessionDep
from service.routing import light_endpoint
from service.sessions.schemas import DecisionList
from service.sessions.service import decision_page, readable, render_page, set_etag

router = resource_router("/batch-schedulers", "batch-schedulers")
IfMatch = Annotated[str | None, Header(description="the session's ETag; 412 when it has changed")]
REPLAYED = "Idempotent-Replayed"
WHAT = "batch scheduler"


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_batch_scheduler")
def create_batch_scheduler(payload: BatchSchedulerCreate, db: SessionDep, tenant: TenantDep,
                           response: Response) -> BatchSchedulerOut:
    """Create a scheduler; sampling starts at each cell's natural share m_{y,z}/m."""
    record = service.create_scheduler(db, tenant.id, payload)
    out = service.scheduler_out(record)
    service.log_creation(db, tenant.id, record, out)
    response.headers["Location"] = f"/v1/batch-schedulers/{record.id}"
    set_etag(response, record)
    return out


@router.post("/{scheduler_id}/epochs", operation_id="report_epoch",
             responses={409: {"description": "epoch out of order"}, 412: {"description": "If-Match failed"}})
@light_endpoint
def report_epoch(scheduler_id: uuid.UUID, payload: EpochReport, db: SessionDep, tenant: TenantDep,
                 response: Response, if_match: IfMatch = None) -> EpochResult:
    """Report an epoch's per-cell losses; get λ, probabilities and the next batch composition."""
    result, record, replayed = service.report_epoch(db, tenant.id, scheduler_id, payload, if_match)
    if replayed:
        response.headers[REPLAYED] = "true"
    set_etag(response, record)
    return EpochResult.model_validate(result)


@router.get("/{scheduler_id}", operation_id="get_batch_scheduler")
def get_batch_scheduler(scheduler_id: uuid.UUID, db: SessionDep, tenant: TenantDep,
                        response: Response) -> BatchSchedulerOut:
    """Read a scheduler: λ, probabilities, composition and the λ history."""
    record = repository(db, tenant.id).get(scheduler_id)
    set_etag(response, record)
    return readable(record, WHAT, lambda: service.scheduler_out(record, service.epoch_history(db, tenant.id, record)))


@router.get("", operation_id="list_batch_schedulers")
def list_batch_schedulers(db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50,
                          cursor: str | None = None) -> BatchSchedulerList:
    """List schedulers, oldest first."""
    items = repository(db, tenant.id).list(limit, parse_cursor(cursor))
    next_cursor = str(items[-1].id) if len(items) == limit else None
    shown, skipped = render_page(items, WHAT, service.scheduler_out)
    return BatchSchedulerList(items=shown, next_cursor=next_cursor, skipped=skipped)


@router.get("/{scheduler_id}/decisions", operation_id="list_batch_scheduler_decisions")
def list_batch_scheduler_decisions(scheduler_id: uuid.UUID, db: SessionDep, tenant: TenantDep,
                                   limit: LimitQuery = 100, cursor: str | None = None) -> DecisionList:
    """The scheduler's decision log: creation and every epoch, in order."""
    repo = repository(db, tenant.id)
    return decision_page(repo, repo.get(scheduler_id), limit, cursor)
