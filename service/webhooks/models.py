"""Tables: a tenant's webhook subscriptions, and each event's delivery to one of them."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal, get_args

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base, UTCDateTime, new_id, utcnow

__all__ = ["DELIVER", "DELIVERY_STATUSES", "EVENT_TYPES", "DeliveryStatus", "EventType", "WebhookDelivery",
           "WebhookSubscription"]

EventType = Literal["job.finished", "session.done", "filter.ready"]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
DeliveryStatus = Literal["pending", "succeeded", "failed"]
DELIVERY_STATUSES: tuple[str, ...] = get_args(DeliveryStatus)
DELIVER = "webhooks.deliver"  # the job kind of one delivery attempt


class WebhookSubscription(Base):
    """Where a tenant's events of some types go; ``secret`` signs them (``whsec_…``, Standard Webhooks)."""

    __tablename__ = "webhook_subscriptions"
    __table_args__ = (Index("ix_webhook_subscriptions_tenant_created", "tenant_id", "created_at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String(2000))
    event_types: Mapped[list[str]] = mapped_column(JSON)
    description: Mapped[str | None] = mapped_column(String(200))
    secret: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class WebhookDelivery(Base):
    """One event for one subscription, and how its delivery went: the subscription's delivery log.

    ``body`` is the exact JSON sent (and signed) at every attempt; ``event_id`` is its
    ``webhook-id``, the same at every attempt so that receivers can drop repeats.
    ``retries`` counts attempts since it was last (re)delivered, for the retry schedule.
    """

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_subscription_created", "subscription_id", "created_at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    subscription_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("webhook_subscriptions.id", ondelete="CASCADE"))
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    event_id: Mapped[str] = mapped_column(String(64))
    event_type: Mapped[str] = mapped_column(String(40))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    retries: Mapped[int] = mapped_column(Integer, default=0)
    last_status_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(500))
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

