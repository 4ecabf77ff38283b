"""Webhook use cases for the API: subscribe, list, read, delete; the delivery log; redeliver."""

from __future__ import annotations

import uuid
from typing import cast

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.errors import Conflict, NotFound
from service.pages import in_list_order
from service.webhooks.delivery import new_secret
from service.webhooks.models import DeliveryStatus, EventType, WebhookDelivery, WebhookSubscription
from service.webhooks.outbox import queue_attempt
from service.webhooks.schemas import DeliveryOut, WebhookCreate, WebhookCreated, WebhookOut

__all__ = ["create", "delete_webhook", "deliveries", "delivery_out", "get", "get_delivery", "list_webhooks",
           "redeliver", "tenant_deliveries", "webhook_created", "webhook_out"]


def webhook_out(row: WebhookSubscription) -> WebhookOut:
    return WebhookOut(id=row.id, url=row.url, event_types=cast(list[EventType], row.event_types),
                      description=row.description, created_at=row.created_at)


def webhook_created(row: WebhookSubscription) -> WebhookCreated:
    return WebhookCreated(**webhook_out(row).model_dump(), secret=row.secret)


def delivery_out(row: WebhookDelivery) -> DeliveryOut:
    return DeliveryOut(
        id=row.id, webhook_id=row.subscription_id, event_id=row.event_id,
        event_type=cast(EventType, row.event_type), status=cast(DeliveryStatus, row.status), attempts=row.attempts,
        last_status_code=row.last_status_code, last_error=row.last_error, last_attempt_at=row.last_attempt_at,
        next_attempt_at=row.next_attempt_at, delivered_at=row.delivered_at, created_at=row.created_at)


def create(db: Session, tenant_id: uuid.UUID, payload: WebhookCreate) -> WebhookSubscription:
    row = WebhookSubscription(tenant_id=tenant_id, url=payload.url, event_types=sorted(set(payload.event_types)),
                              description=payload.description, secret=new_secret())
    db.add(row)
    db.flush()
    return row


def get(db: Session, tenant_id: uuid.UUID, webhook_id: uuid.UUID) -> WebhookSubscription:
    row = db.scalar(select(WebhookSubscription).where(WebhookSubscription.id == webhook_id,
                                                      WebhookSubscription.tenant_id == tenant_id))
    if row is None:
        raise NotFound(f"no webhook with id {webhook_id}")
    return row


def list_webhooks(db: Session, tenant_id: uuid.UUID, limit: int, after: uuid.UUID | None) -> list[WebhookSubscription]:
    anchor = None if after is None else get(db, tenant_id, after)
    query = select(WebhookSubscription).where(WebhookSubscription.tenant_id == tenant_id)
    return list(db.scalars(in_list_order(query, WebhookSubscription.created_at, WebhookSubscription.id, anchor, limit)))


def delete_webhook(db: Session, tenant_id: uuid.UUID, webhook_id: uuid.UUID) -> None:
    """Delete the subscription and its delivery log; its pending attempts find nothing to send."""
    row = get(db, tenant_id, webhook_id)
    db.execute(delete(WebhookDelivery).where(WebhookDelivery.subscription_id == row.id))
    db.delete(row)
    db.flush()


def get_delivery(db: Session, tenant_id: uuid.UUID, delivery_id: uuid.UUID, *,
                 for_update: bool = False) -> WebhookDelivery:
    query = select(WebhookDelivery).where(WebhookDelivery.id == delivery_id, WebhookDelivery.tenant_id == tenant_id)
    row = db.scalar(query.with_for_update() if for_update else query)
    if row is None:
        raise NotFound(f"no webhook delivery with id {delivery_id}")
    return row


def deliveries(db: Session, tenant_id: uuid.UUID, webhook_id: uuid.UUID, limit: int,
               after: uuid.UUID | None) -> list[WebhookDelivery]:
    """The subscription's delivery log, oldest first."""
    get(db, tenant_id, webhook_id)
    anchor = None if after is None else get_delivery(db, tenant_id, after)
    query = select(WebhookDelivery).where(WebhookDelivery.subscription_id == webhook_id)
    return list(db.scalars(in_list_order(query, WebhookDelivery.created_at, WebhookDelivery.id, anchor, limit)))


def tenant_deliveries(db: Session, tenant_id: uuid.UUID, limit: int, after: uuid.UUID | None,
                      status: str | None) -> list[WebhookDelivery]:
    """Every delivery of the tenant's webhooks, oldest first, optionally of one status."""
    anchor = None if after is None else get_delivery(db, tenant_id, after)
    query = select(WebhookDelivery).where(WebhookDelivery.tenant_id == tenant_id)
    if status is not None:
        query = query.where(WebhookDelivery.status == status)
    return list(db.scalars(in_list_order(query, WebhookDelivery.created_at, WebhookDelivery.id, anchor, limit)))


def redeliver(db: Session, tenant_id: uuid.UUID, delivery_id: uuid.UUID) -> WebhookDelivery:
    """Send a delivery again now (same event id and body), with a fresh retry schedule; 409 while pending."""
    row = get_delivery(db, tenant_id, delivery_id, for_update=True)
    if row.status == "pending":
        raise Conflict(f"the delivery {delivery_id} is still pending: its next attempt is at {row.next_attempt_at}")
    row.status, row.retries, row.delivered_at = "pending", 0, None
    queue_attempt(db, row)
    return row
