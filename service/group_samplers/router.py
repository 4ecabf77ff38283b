"""``/v1/group-samplers``: which group to sample next (Aopt, Aopt+, ε-greedy, greedy, uniform)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Query, Response, status

from service.api import refusals, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.endpoints import light_endpoint, wait_before
from service.group_samplers import decisions, service
from service.group_samplers.managed import wait_for_fit
from service.group_samplers.models import KIND
from service.group_samplers.schemas import (
    MAX_WAIT_SECONDS,
    DecisionBatchRequest,
    GroupSamplerCreate,
    GroupSamplerDecisions,
    GroupSamplerList,
    GroupSamplerOut,
    GroupSamplerRelease,
    ObservationReport,
    ObservationResult,
    SamplerNextDecision,
)
from service.sessions.routes import IfMatch, SessionRoutes, add_session_routes
from service.sessions.service import set_created, set_etag
from service.settings import SettingsDep

router = resource_router("/group-samplers", "group-samplers")
WaitQuery = Annotated[float, Query(ge=0, le=MAX_WAIT_SECONDS, description="managed mode: seconds to wait for a "
                                   "queued or running fit to finish before deciding")]
CONFLICTS = refusals("the budget is spent")


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_group_sampler")
def create_group_sampler(payload: GroupSamplerCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                         response: Response) -> GroupSamplerOut:
    """Create a sampler: no samples yet, warm-up rounds first."""
    record = service.create_sampler(db, tenant.id, settings, payload)
    set_created(response, record, router.prefix)
    return service.sampler_out(record)


@router.post("/{sampler_id}/next", operation_id="next_group_sampler_decision", responses=CONFLICTS)
@wait_before(wait_for_fit)
@light_endpoint
def next_group_sampler_decision(sampler_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response,
                                wait: WaitQuery = 0.0, if_match: IfMatch = None) -> SamplerNextDecision:
    """The group to sample next, why, and every group's score terms; each call is a logged decision that
    holds its batch until an observation names its decision_id, it is released, or it expires."""
    results, record = decisions.make_decisions(db, tenant.id, sampler_id, 1, wait, if_match)
    set_etag(response, record)
    return SamplerNextDecision.model_validate(results[0])


@router.post("/{sampler_id}/decisions", operation_id="make_group_sampler_decisions", responses=CONFLICTS,
             status_code=status.HTTP_201_CREATED)
@light_endpoint
def make_group_sampler_decisions(sampler_id: uuid.UUID, payload: DecisionBatchRequest, db: SessionDep,
                                 tenant: TenantDep, response: Response,
                                 if_match: IfMatch = None) -> GroupSamplerDecisions:
    """Make ``count`` decisions at once (one per worker about to acquire), each as ``next`` makes it: its own
    decision_id and sequence number, its batch held until reported on, released or expired."""
    results, record = decisions.make_decisions(db, tenant.id, sampler_id, payload.count, 0.0, if_match)
    set_etag(response, record)
    return GroupSamplerDecisions.model_validate({"decisions": results})


@router.post("/{sampler_id}/decisions/{decision_id}/release", operation_id="release_group_sampler_decision",
             responses=refusals("the decision is not pending: reported on, released or expired"))
@light_endpoint
def release_group_sampler_decision(sampler_id: uuid.UUID, decision_id: uuid.UUID, db: SessionDep,
                                   tenant: TenantDep, response: Response, if_match: IfMatch = None,
                                   ) -> GroupSamplerRelease:
    """Let a pending decision go before it expires: its samples return to the budget at once."""
    result, record = decisions.release_decision(db, tenant.id, sampler_id, decision_id, if_match)
    set_etag(response, record)
    return GroupSamplerRelease.model_validate(result)


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
    set_etag(response, record, replayed=replayed)
    return result


add_session_routes(router, SessionRoutes(
    kind=KIND, noun="group sampler", id_param="sampler_id", out=GroupSamplerOut, page=GroupSamplerList,
    render=lambda db, tenant_id, record: service.sampler_out(record, db),
    render_item=lambda db, tenant_id, record: service.sampler_out(record),
    docs={"get": "Read a sampler: counts, mixture, latest losses, round, budget and status.",
          "list": "List samplers, oldest first.",
          "log": "The sampler's decision log: creation, every next, observation and fit, in order."}))
