"""``/v1/partition-bandits``: which pool partition to acquire next, and which items in it (DataSift)."""

from __future__ import annotations

import uuid

from fastapi import Response, status

from service.api import refusals, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.jobs.schemas import JobOut
from service.jobs.service import job_out
from service.partition_bandits import decisions, service
from service.partition_bandits.models import KIND
from service.partition_bandits.schemas import (
    BanditNextDecision,
    FeedbackReport,
    FeedbackResult,
    PartitionBanditCreate,
    PartitionBanditDecisions,
    PartitionBanditList,
    PartitionBanditOut,
    PartitionBanditRelease,
    RunRequest,
)
from service.partition_bandits.state import NOUN
from service.sessions.routes import IfMatch, SessionRoutes, add_session_routes
from service.sessions.schemas import DecisionBatchRequest
from service.sessions.service import set_created, set_etag
from service.settings import SettingsDep

router = resource_router("/partition-bandits", "partition-bandits")
NOT_READY = refusals("not ready (its partitioning job is queued or running), its partitioning job failed or was "
                     "cancelled, or the bandit is done")
RUN_REFUSED = refusals("not ready (its partitioning job is queued or running), its partitioning job failed or was "
                       "cancelled, or the bandit has no pool")


@router.post("", status_code=status.HTTP_201_CREATED, operation_id="create_partition_bandit",
             responses={202: {"model": PartitionBanditOut, "description": "a pool bandit, queued for partitioning"}})
def create_partition_bandit(payload: PartitionBanditCreate, db: SessionDep, tenant: TenantDep,
                            settings: SettingsDep, response: Response) -> PartitionBanditOut:
    """Create a bandit: 201 and ready with client-made partitions; 202 while a worker partitions a pool."""
    record, job = service.create_bandit(db, tenant.id, settings, payload)
    if job is not None:
        response.status_code = status.HTTP_202_ACCEPTED
    set_created(response, record, router.prefix)
    return service.bandit_out(db, tenant.id, record)


@router.post("/{bandit_id}/next", operation_id="next_partition_bandit_decision", responses=NOT_READY)
def next_partition_bandit_decision(bandit_id: uuid.UUID, db: SessionDep, tenant: TenantDep, response: Response,
                                   if_match: IfMatch = None) -> BanditNextDecision:
    """The partition with the highest UCB (untried first) and its batch of pool items, held (off offer, its size
    reserved from the budget) until feedback names its decision_id, it is released, or it expires."""
    results, record = decisions.make_decisions(db, tenant.id, bandit_id, 1, if_match)
    set_etag(response, record)
    return BanditNextDecision.model_validate(results[0])


@router.post("/{bandit_id}/decisions", operation_id="make_partition_bandit_decisions", responses=NOT_READY,
             status_code=status.HTTP_201_CREATED)
def make_partition_bandit_decisions(bandit_id: uuid.UUID, payload: DecisionBatchRequest, db: SessionDep,
                                    tenant: TenantDep, response: Response,
                                    if_match: IfMatch = None) -> PartitionBanditDecisions:
    """Make ``count`` decisions at once, each as ``next`` makes it (distinct items, its own decision_id)."""
    results, record = decisions.make_decisions(db, tenant.id, bandit_id, payload.count, if_match)
    set_etag(response, record)
    return PartitionBanditDecisions.model_validate({"decisions": results})


@router.post("/{bandit_id}/decisions/{decision_id}/release", operation_id="release_partition_bandit_decision",
             responses=refusals("the decision is not pending: reported on, released or expired"))
def release_partition_bandit_decision(bandit_id: uuid.UUID, decision_id: uuid.UUID, db: SessionDep,
                                      tenant: TenantDep, response: Response, if_match: IfMatch = None,
                                      ) -> PartitionBanditRelease:
    """Let a pending decision go before it expires: its items are offered again and its budget is free."""
    result, record = decisions.release_decision(db, tenant.id, bandit_id, decision_id, if_match)
    set_etag(response, record)
    return PartitionBanditRelease.model_validate(result)


@router.post("/{bandit_id}/feedback", operation_id="report_partition_bandit_feedback", responses=NOT_READY)
def report_partition_bandit_feedback(bandit_id: uuid.UUID, payload: FeedbackReport, db: SessionDep,
                                     tenant: TenantDep, response: Response,
                                     if_match: IfMatch = None) -> FeedbackResult:
    """Report a decision's fairness before and after; one per decision, a repeat returns the first result."""
    result, record, replayed = service.report_feedback(db, tenant.id, bandit_id, payload, if_match)
    set_etag(response, record, replayed=replayed)
    return FeedbackResult.model_validate(result)


@router.post("/{bandit_id}/runs", status_code=status.HTTP_202_ACCEPTED, operation_id="start_partition_bandit_run",
             responses=RUN_REFUSED)
def start_partition_bandit_run(bandit_id: uuid.UUID, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                               response: Response, payload: RunRequest | None = None,
                               if_match: IfMatch = None) -> JobOut:
    """Run the whole acquisition loop with retraining in a worker; the job's result holds the outcome."""
    job = service.start_run(db, tenant.id, settings, bandit_id, payload or RunRequest(), if_match)
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return job_out(job)


add_session_routes(router, SessionRoutes(
    kind=KIND, noun=NOUN, id_param="bandit_id", out=PartitionBanditOut, page=PartitionBanditList,
    render=service.bandit_out,
    docs={"get": "Read a bandit: status, budget, and each partition's mean reward, pulls and UCB.",
          "list": "List bandits, oldest first.",
          "log": "The bandit's decision log: creation, partitioning, every next, feedback and run, in order."}))
