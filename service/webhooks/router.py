"""``/v1/webhooks``: a tenant's subscriptions and their delivery logs; ``/v1/webhook-deliveries``: one delivery."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from service.api import LimitQuery, parse_cursor, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.pages import page
from service.webhooks import service
from service.webhooks.models import DeliveryStatus
from service.webhooks.schemas import DeliveryList, DeliveryOut, WebhookCreate, WebhookCreated, WebhookList, WebhookOut

__all__ = ["routers"]

router = resource_router("/webhooks", "webhooks")
deliveries_router = resource_router("/webhook-deliveries", "webhooks")


@router.post("", operation_id="create_webhook", status_code=status.HTTP_201_CREATED)
def create_webhook(payload: WebhookCreate, db: SessionDep, tenant: TenantDep, response: Response) -> WebhookCreated:
    """Subscribe a URL to the tenant's events; the signing secret is in this response only."""
    row = service.create(db, tenant.id, payload)
    response.headers["Location"] = f"/v1/webhooks/{row.id}"
    return service.webhook_created(row)


@router.get("", operation_id="list_webhooks")
def list_webhooks(db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50, cursor: str | None = None) -> WebhookList:
    """List the tenant's webhooks, oldest first."""
    rows = service.list_webhooks(db, tenant.id, limit, parse_cursor(cursor))
    return WebhookList(**page(rows, limit, "webhook", service.webhook_out))


@router.get("/{webhook_id}", operation_id="get_webhook")
def get_webhook(webhook_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> WebhookOut:
    """Read a webhook (its secret is shown only when it is created)."""
    return service.webhook_out(service.get(db, tenant.id, webhook_id))


@router.delete("/{webhook_id}", operation_id="delete_webhook", status_code=status.HTTP_204_NO_CONTENT)
def delete_webhook(webhook_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> Response:
    """Delete a webhook and its delivery log; nothing more is sent to it."""
    service.delete_webhook(db, tenant.id, webhook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{webhook_id}/deliveries", operation_id="list_webhook_deliveries")
def list_webhook_deliveries(webhook_id: uuid.UUID, db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50,
                            cursor: str | None = None) -> DeliveryList:
    """The webhook's delivery log, oldest first: each event's status, attempts and last response code."""
    rows = service.deliveries(db, tenant.id, webhook_id, limit, parse_cursor(cursor))
    return DeliveryList(**page(rows, limit, "webhook delivery", service.delivery_out))


@deliveries_router.get("", operation_id="list_webhook_deliveries_of_tenant")
def list_webhook_deliveries_of_tenant(db: SessionDep, tenant: TenantDep,
                                      status: Annotated[DeliveryStatus | None, Query()] = None,
                                      limit: LimitQuery = 50, cursor: str | None = None) -> DeliveryList:
    """Every delivery of the tenant's webhooks, oldest first, optionally by status (e.g. the failed ones)."""
    rows = service.tenant_deliveries(db, tenant.id, limit, parse_cursor(cursor), status)
    return DeliveryList(**page(rows, limit, "webhook delivery", service.delivery_out))


@deliveries_router.get("/{delivery_id}", operation_id="get_webhook_delivery")
def get_webhook_delivery(delivery_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> DeliveryOut:
    """Read one delivery: status, attempts, last response code and error, next attempt."""
    return service.delivery_out(service.get_delivery(db, tenant.id, delivery_id))


@deliveries_router.post("/{delivery_id}/redeliver", operation_id="redeliver_webhook_delivery",
                        status_code=status.HTTP_202_ACCEPTED,
                        responses={409: {"description": "the delivery is still pending"}})
def redeliver_webhook_delivery(delivery_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> DeliveryOut:
    """Send the event again now (same webhook-id), with a fresh retry schedule."""
    return service.delivery_out(service.redeliver(db, tenant.id, delivery_id))


routers: tuple[APIRouter, ...] = (router, deliveries_router)
