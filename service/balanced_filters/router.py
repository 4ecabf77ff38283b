"""``/v1/balanced-filters`` (accept candidates through a proxy) and ``/v1/sampling-probabilities``."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Header, Query, Response, status

from service.api import LimitQuery, RawBody, parse_cursor, resource_router
from service.auth import TenantDep
from service.balanced_filters import decisions, sampling, service
from service.balanced_filters.candidates import parse_candidates, request_schema
from service.balanced_filters.repository import repository
from service.balanced_filters.schemas import (
    BalancedFilterCreate,
    BalancedFilterList,
    BalancedFilterOut,
    DecisionBatch,
    OutcomeReport,
    OutcomeResult,
    SamplingRequest,
    SamplingResponse,
)
from service.db import SessionDep
from service.routing import read_only_endpoint
from service.sessions.schemas import DecisionList
from service.sessions.service import decision_page, readable, render_page, set_etag
from service.settings import SettingsDep

router = resource_router("", "balanced-filters")
WHAT = "balanced filter"
URL = "/balanced-filters"
IfMatch = Annotated[str | None, Header(description="the filter's ETag; 412 when it has changed")]
NOT_READY = {409: {"description": "the proxy is still being fitted, or fitting failed"},
             412: {"description": "If-Match failed"}}
_DECISIONS_BODY = {"requestBody": {"required": True,
                                   "content": {"application/json": {"schema": request_schema()}}}}


@router.post(URL, status_code=status.HTTP_202_ACCEPTED, operation_id="create_balanced_filter")
def create_balanced_filter(payload: BalancedFilterCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                           response: Response) -> BalancedFilterOut:
    """Create a filter; a worker learns its proxy (status fitting, then ready or failed)."""
    record, _ = service.create_filter(db, tenant.id, settings, payload)
    response.headers["Location"] = f"/v1{URL}/{record.id}"
    set_etag(response, record)
    return service.filter_out(db, tenant.id, record)


@router.post(f"{URL}/{{filter_id}}/decisions", operation_id="decide_balanced_filter_candidates",
             response_model=DecisionBatch, openapi_extra=_DECISIONS_BODY, responses=NOT_READY)
def decide_balanced_filter_candidates(filter_id: uuid.UUID, body: RawBody, db: SessionDep, tenant: TenantDep,
                                      settings: SettingsDep, if_match: IfMatch = None) -> Response:
    """Accept or reject candidates (Algorithm 2); the same id always gets the same answer and counts once."""
    batch = parse_candidates(body, settings.max_candidates, settings.max_features)
    content, record = decisions.decide(db, tenant.id, filter_id, batch, if_match)
    return Response(content, media_type="application/json", headers={"ETag": f'"{record.version}"'})


@router.post(f"{URL}/{{filter_id}}/outcomes", operation_id="report_balanced_filter_outcomes", responses=NOT_READY)
def report_balanced_filter_outcomes(filter_id: uuid.UUID, payload: OutcomeReport, db: SessionDep,
                                    tenant: TenantDep, settings: SettingsDep, response: Response,
                                    if_match: IfMatch = None) -> OutcomeResult:
    """Report the groups learned for accepted candidates; each id's outcome counts once."""
    result, record = decisions.report_outcomes(db, tenant.id, settings, filter_id, payload, if_match)
    set_etag(response, record)
    return OutcomeResult.model_validate(result)


@router.get(f"{URL}/{{filter_id}}", operation_id="get_balanced_filter")
def get_balanced_filter(filter_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response,
                        include_tree: Annotated[bool, Query(description="include the proxy's node table")] = True,
                        ) -> BalancedFilterOut:
    """Read a filter: its proxy, A, r̂, q, ρ, disclosivity, imbalance, counts and realized balance."""
    record = repository(db, tenant.id).get(filter_id)
    set_etag(response, record)
    return readable(record, WHAT, lambda: service.filter_out(db, tenant.id, record, include_tree=include_tree))


@router.get(URL, operation_id="list_balanced_filters")
def list_balanced_filters(db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50,
                          cursor: str | None = None) -> BalancedFilterList:
    """List filters, oldest first (without the proxies' node tables)."""
    items = repository(db, tenant.id).list(limit, parse_cursor(cursor))
    next_cursor = str(items[-1].id) if len(items) == limit else None
    shown, skipped = render_page(items, WHAT, lambda r: service.filter_out(db, tenant.id, r, include_tree=False))
    return BalancedFilterList(items=shown, next_cursor=next_cursor, skipped=skipped)


@router.get(f"{URL}/{{filter_id}}/decisions", operation_id="list_balanced_filter_decisions")
def list_balanced_filter_decisions(filter_id: uuid.UUID, db: SessionDep, tenant: TenantDep,
                                   limit: LimitQuery = 100, cursor: str | None = None) -> DecisionList:
    """The filter's decision log: creation, fit, and one compact entry per decisions or outcomes call."""
    repo = repository(db, tenant.id)
    return decision_page(repo, repo.get(filter_id), limit, cursor)


@router.post("/sampling-probabilities", operation_id="compute_sampling_probabilities")
@read_only_endpoint
def compute_sampling_probabilities(payload: SamplingRequest, tenant: TenantDep,
                                   settings: SettingsDep) -> SamplingResponse:
    """Algorithm 1 on a given conditional matrix: q, ρ, the imbalance and whether U is in the hull (stateless)."""
    return sampling.compute_sampling(payload, settings)
