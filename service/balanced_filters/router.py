"""``/v1/balanced-filters`` (accept candidates through a proxy) and ``/v1/sampling-probabilities``."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Response, status
from sqlalchemy.orm import Session

from service.api import RawBody, refusals, resource_router
from service.auth import TenantDep
from service.balanced_filters import decisions, sampling, service
from service.balanced_filters.candidates import parse_candidates
from service.balanced_filters.models import KIND, SessionRecord
from service.balanced_filters.repository import repository
from service.balanced_filters.schemas import (
    BalancedFilterCreate,
    BalancedFilterList,
    BalancedFilterOut,
    DecisionBatch,
    DecisionRequest,
    OutcomeReport,
    OutcomeResult,
    SamplingRequest,
    SamplingResponse,
)
from service.balanced_filters.state import NOUN
from service.db import SessionDep
from service.endpoints import read_only_endpoint
from service.openapi import component_of
from service.pages import readable
from service.sessions.routes import IfMatch, SessionRoutes, add_session_routes
from service.sessions.service import set_created, set_etag
from service.settings import SettingsDep

filters = resource_router("/balanced-filters", "balanced-filters")
stateless = resource_router("", "balanced-filters")
NOT_READY = refusals("the proxy is still being fitted, or its fit failed or was cancelled")
_DECISIONS_BODY = {"requestBody": {"required": True,
                                   "content": {"application/json": {"schema": component_of(DecisionRequest)}}}}


@filters.post("", status_code=status.HTTP_202_ACCEPTED, operation_id="create_balanced_filter")
def create_balanced_filter(payload: BalancedFilterCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                           response: Response) -> BalancedFilterOut:
    """Create a filter; a worker learns its proxy (status queued, running, then ready; or failed, cancelled)."""
    record, _ = service.create_filter(db, tenant.id, settings, payload)
    set_created(response, record, filters.prefix)
    return service.filter_out(db, tenant.id, record)


@filters.post("/{filter_id}/decisions", operation_id="decide_balanced_filter_candidates",
              response_model=DecisionBatch, openapi_extra=_DECISIONS_BODY, responses=NOT_READY)
def decide_balanced_filter_candidates(filter_id: uuid.UUID, body: RawBody, db: SessionDep, tenant: TenantDep,
                                      settings: SettingsDep, if_match: IfMatch = None) -> Response:
    """Accept or reject candidates (Algorithm 2); the same id always gets the same answer and counts once."""
    batch = parse_candidates(body, settings.max_candidates, settings.max_features)
    content, record = decisions.decide(db, tenant.id, filter_id, batch, if_match)
    return Response(content, media_type="application/json", headers={"ETag": f'"{record.version}"'})


@filters.post("/{filter_id}/outcomes", operation_id="report_balanced_filter_outcomes", responses=NOT_READY)
def report_balanced_filter_outcomes(filter_id: uuid.UUID, payload: OutcomeReport, db: SessionDep,
                                    tenant: TenantDep, settings: SettingsDep, response: Response,
                                    if_match: IfMatch = None) -> OutcomeResult:
    """Report the groups learned for accepted candidates; each id's outcome counts once."""
    result, record = decisions.report_outcomes(db, tenant.id, settings, filter_id, payload, if_match)
    set_etag(response, record)
    return OutcomeResult.model_validate(result)


@filters.get("/{filter_id}", operation_id="get_balanced_filter")
def get_balanced_filter(filter_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response,
                        include_tree: Annotated[bool, Query(description="include the proxy's node table")] = True,
                        ) -> BalancedFilterOut:
    """Read a filter: its proxy, A, r̂, q, ρ, disclosivity, imbalance, counts and realized balance."""
    record = repository(db, tenant.id).get(filter_id)
    set_etag(response, record)
    return readable(record, NOUN, lambda: service.filter_out(db, tenant.id, record, include_tree=include_tree))


def _delete_candidates(db: Session, record: SessionRecord) -> None:
    repository(db, record.tenant_id).delete_candidates(record)


add_session_routes(filters, SessionRoutes(
    kind=KIND, noun=NOUN, id_param="filter_id", out=BalancedFilterOut, page=BalancedFilterList,
    render=lambda db, tenant_id, record: service.filter_out(db, tenant_id, record),
    render_item=lambda db, tenant_id, record: service.filter_out(db, tenant_id, record, include_tree=False),
    docs={"list": "List filters, oldest first (without the proxies' node tables).",
          "log": "The filter's decision log: creation, fit, and one compact entry per decisions or outcomes call."},
    on_delete=_delete_candidates), skip=("get",))


@stateless.post("/sampling-probabilities", operation_id="compute_sampling_probabilities")
@read_only_endpoint
def compute_sampling_probabilities(payload: SamplingRequest, tenant: TenantDep,
                                   settings: SettingsDep) -> SamplingResponse:
    """Algorithm 1 on a given conditional matrix: q, ρ, the imbalance and whether U is in the hull (stateless)."""
    return sampling.compute_sampling(payload, settings)


router = APIRouter()
router.include_router(filters)
router.include_router(stateless)
