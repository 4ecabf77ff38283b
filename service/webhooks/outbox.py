"""Events, written in the transaction of the change they announce (a transactional outbox).

Each event becomes one delivery row per subscription of the tenant that wants its type,
and one ``webhooks.deliver`` job, all in the caller's transaction: a change that rolls
back announces nothing, and a committed change always has its deliveries queued. Only
the tenant's own subscriptions are read, so no event ever reaches another tenant.

    job.finished   a job reached succeeded, failed or cancelled (service.jobs.queue)
    session.done   a session's status became done: its budget is spent or it stopped
    filter.ready   a balanced filter's fit succeeded (its status became ready)
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.db import utcnow
from service.jobs import queue
from service.jobs.models import Job
from service.sessions.models import SessionRecord
from service.webhooks.models import DELIVER, WebhookDelivery, WebhookSubscription

__all__ = ["emit", "job_finished", "queue_attempt", "session_status"]

FILTER_KIND = "balanced_filter"


def queue_attempt(db: Session, delivery: WebhookDelivery, run_after: datetime | None = None) -> None:
    """Queue the job of the delivery's next attempt (not counted against the tenant's job quota)."""
    job = queue.enqueue(db, tenant_id=delivery.tenant_id, kind=DELIVER, resource_type="webhook_delivery",
                        resource_id=delivery.id)
    if run_after is not None:
        job.run_after = run_after
    delivery.next_attempt_at = job.run_after
    db.flush()


def emit(db: Session, tenant_id: uuid.UUID, event_type: str, data: dict[str, Any]) -> list[WebhookDelivery]:
    """Announce an event to the tenant's subscriptions of its type; the deliveries queued."""
    mine = db.scalars(select(WebhookSubscription).where(WebhookSubscription.tenant_id == tenant_id))
    subscriptions = [s for s in mine if event_type in s.event_types]
    if not subscriptions:
        return []
    now = utcnow()
    event_id = f"msg_{uuid.uuid4().hex}"
    body = json.dumps({"type": event_type, "timestamp": now.isoformat().replace("+00:00", "Z"), "data": data},
                      separators=(",", ":"), sort_keys=True)
    deliveries = []
    for subscription in subscriptions:
        delivery = WebhookDelivery(subscription_id=subscription.id, tenant_id=tenant_id, event_id=event_id,
                                   event_type=event_type, body=body, status="pending", attempts=0, retries=0,
                                   created_at=now)
        db.add(delivery)
        db.flush()
        queue_attempt(db, delivery)
        deliveries.append(delivery)
    return deliveries


def job_finished(db: Session, job: Job) -> None:
    """``job.finished`` for every job but a delivery's own (which would announce itself forever)."""
    if job.kind == DELIVER:
        return
    emit(db, job.tenant_id, "job.finished", {
        "job_id": str(job.id), "kind": job.kind, "status": job.status, "error": job.error,
        "resource": {"type": job.resource_type, "id": None if job.resource_id is None else str(job.resource_id)},
        "finished_at": None if job.finished_at is None else job.finished_at.isoformat()})


def session_status(db: Session, record: SessionRecord, before: str) -> None:
    """``session.done`` when a session becomes done; ``filter.ready`` when a filter's fit made it ready."""
    data = {"session_id": str(record.id), "kind": record.kind, "name": record.name, "status": record.status,
            "previous_status": before}
    if record.status == "done":
        emit(db, record.tenant_id, "session.done", data)
    elif record.status == "ready" and record.kind == FILTER_KIND:
        emit(db, record.tenant_id, "filter.ready", data)
