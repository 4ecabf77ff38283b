"""The ``webhooks.deliver`` job: one attempt of one delivery, then its outcome and the next attempt's job.

The attempt is made outside any transaction; its outcome, and the job of the next attempt
when it failed, are written with ``ctx.commit`` (fenced on the job's attempt), so a worker
that dies mid-attempt leaves the delivery pending and its job is claimed again (at least once:
receivers drop repeats by ``webhook-id``). After the last retry of the schedule the delivery
is ``failed``; ``POST /v1/webhook-deliveries/{id}/redeliver`` starts the schedule again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.db import utcnow
from service.jobs import JobContext, job_handler
from service.jobs.models import Job
from service.settings import Settings
from service.webhooks.delivery import Outcome, send
from service.webhooks.models import DELIVER, WebhookDelivery, WebhookSubscription
from service.webhooks.outbox import queue_attempt

__all__ = ["deliver", "record_attempt"]


@job_handler(DELIVER)
def deliver(ctx: JobContext) -> None:
    with ctx.sessions() as db:
        row = db.execute(
            select(WebhookDelivery.status, WebhookDelivery.event_id, WebhookDelivery.body, WebhookSubscription.url,
                   WebhookSubscription.secret)
            .join(WebhookSubscription, WebhookSubscription.id == WebhookDelivery.subscription_id)
            .where(WebhookDelivery.id == ctx.resource, WebhookDelivery.tenant_id == ctx.tenant_id)
        ).first()
    if row is None or row.status != "pending":
        ctx.commit(lambda db, job: {"skipped": "the delivery no longer exists or is not pending"})
        return
    outcome = send(row.url, row.secret, row.event_id, row.body, utcnow(), ctx.settings.webhook_timeout_seconds)
    ctx.commit(lambda db, job: record_attempt(db, job, outcome, ctx.settings))


def record_attempt(db: Session, job: Job, outcome: Outcome, settings: Settings) -> dict[str, Any]:
    """Log the attempt on its delivery; queue the next one by the retry schedule if it failed."""
    delivery = db.scalar(select(WebhookDelivery).where(WebhookDelivery.id == job.resource).with_for_update())
    if delivery is None or delivery.status != "pending":
        return {"skipped": "the delivery no longer exists or is not pending"}
    now = utcnow()
    delivery.attempts += 1
    delivery.retries += 1
    delivery.last_status_code, delivery.last_error, delivery.last_attempt_at = outcome.status_code, outcome.error, now
    delivery.next_attempt_at = None
    schedule = settings.webhook_retry_schedule_seconds
    if outcome.delivered:
        delivery.status, delivery.delivered_at = "succeeded", now
    elif delivery.retries <= len(schedule):
        queue_attempt(db, delivery, now + timedelta(seconds=schedule[delivery.retries - 1]))
    else:
        delivery.status = "failed"
    db.flush()
    return {"delivery_id": str(delivery.id), "status": delivery.status, "status_code": outcome.status_code}
