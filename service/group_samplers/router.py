"""``/v1/group-samplers``: which group to sample next (Aopt, Aopt+, ε-greedy, greedy, uniform)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Header, Query, Response, status

from service.api import LimitQuery, parse_cursor, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.group_samplers import service
from service.group_samplers.repository import repository
from service.group_samplers.schemas import (
    MAX_WAIT_SECONDS,
    GroupSamplerCreate,
    GroupSamplerList,
    GroupSamplerOut,
    ObservationReport,
    ObservationResult,
    SamplerNextDecision,
)
from service.routing import light_endpoint, wait_before
from service.sessions.schemas import DecisionList
from service.sessions.service import decision_page, readable, render_page, set_etag
from service.settings import SettingsDep

router = resource_router("/group-samplers", "group-samplers")
IfMatch = Annotated[str | None, Header(description="the sampler's ETag; 412 when it has changed")]
WaitQuery = Annotated[float, Query(ge=0, le=MAX_WAIT_SECONDS, description="managed mode: seconds to wait for a "
                                   "queued or running fit to finish before deciding")]
REPLAYED = "Idempotent-Replayed"
WHAT = "group sampler"
CONFLICTS = {409: {"description": "the budget is spent"}, 412: {"description": "If-Match failed"}}


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_group_sampler")
def create_group_sampler(payload: GroupSamplerCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                         response: Response) -> GroupSamplerOut:
    """Create a sampler: no samples yet, warm-up rounds first."""
    record = service.create_sampler(db, tenant.id, settings, payload)
    response.headers["Location"] = f"/v1/group-samplers/{record.id}"
    set_etag(response, record)
    return service.sampler_out(record)


@router.post("/{sampler_id}/next", operation_id="next_group_sampler_decision", responses=CONFLICTS)
@wait_before(service.wait_for_fit)
@light_endpoint
def next_group_sampler_decision(sampler_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response,
                                wait: WaitQuery = 0.0, if_match: IfMatch = None) -> SamplerNextDecision:
    """The group to sample next, why, and every group's score terms; each call is a logged decision."""
    result, record = service.next_decision(db, tenant.id, sampler_id, wait, if_match)
    set_etag(response, record)
    return SamplerNextDecision.model_validate(result)


@router.post("/{sampler_id}/observations", operation_id="report_group_sampler_observation",
             responses={**CONFLICTS, 202: {"model": ObservationResult,
                                           "description": "managed mode: samples counted, fit queued (Location)"}})
def report_group_sampler_observation(sampler_id: uuid.UUID, payload: ObservationReport, db: SessionDep,
                                     tenant: TenantDep, settings: SettingsDep, response: Response,
                                     if_match: IfMatch = None) -> ObservationResult:
    """Count a round's samples; reported mode applies the losses, managed mode queues a refit (202)."""
    result, record, replayed = service.report_observation(db, tenant.id, settings, sampler_id, payload, if_match)
    if result.job is not None:
        response.status_code = status.HTTP_202_ACCEPTED
        response.headers["Location"] = f"/v1/jobs/{result.job.id}"
    if replayed:
        response.headers[REPLAYED] = "true"
    set_etag(response, record)
    return result


@router.get("/{sampler_id}", operation_id="get_group_sampler")
def get_group_sampler(sampler_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response) -> GroupSamplerOut:
    """Read a sampler: counts, mixture, latest losses, round, budget and status."""
    record = repository(db, tenant.id).get(sampler_id)
    set_etag(response, record)
    return readable(record, WHAT, lambda: service.sampler_out(record))


@router.get("", operation_id="list_group_samplers")
def list_group_samplers(db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50,
                        cursor: str | None = None) -> GroupSamplerList:
    """List samplers, oldest first."""
    items = repository(db, tenant.id).list(limit, parse_cursor(cursor))
    next_cursor = str(items[-1].id) if len(items) == limit else None
    shown, skipped = render_page(items, WHAT, service.sampler_out)
    return GroupSamplerList(items=shown, next_cursor=next_cursor, skipped=skipped)


@router.get("/{sampler_id}/decisions", operation_id="list_group_sampler_decisions")
def list_group_sampler_decisions(sampler_id: uuid.UUID, db: SessionDep, tenant: TenantDep,
                                 limit: LimitQuery = 100, cursor: str | None = None) -> DecisionList:
    """The sampler's decision log: creation, every next, observation and fit, in order."""
    repo = repository(db, tenant.id)
    return decision_page(repo, repo.get(sampler_id), limit, cursor)
