"""Requests and responses of ``/v1/webhooks`` and ``/v1/webhook-deliveries``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from service.fields import Name, check_text
from service.pages import Skipped
from service.webhooks.models import DeliveryStatus, EventType

__all__ = ["DeliveryList", "DeliveryOut", "WebhookCreate", "WebhookCreated", "WebhookList", "WebhookOut"]

MAX_URL_LENGTH = 2000  # the column's width; browsers and servers commonly take URLs up to 2,048


def check_url(value: str) -> str:
    """An absolute http(s) URL with a host; a 422 that says what is wrong otherwise."""
    check_text(value)
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise PydanticCustomError("url", "must be a valid URL: {reason}", {"reason": str(exc)}) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise PydanticCustomError("url_scheme", "must be an http:// or https:// URL (webhooks are HTTP POSTs)")
    if not parts.hostname:
        raise PydanticCustomError("url_host", "must name a host, e.g. https://hooks.example.com/fairacq")
    if any(c.isspace() for c in value):
        raise PydanticCustomError("url_space", "must not contain spaces (percent-encode them as %20)")
    return value


WebhookUrl = Annotated[str, Field(min_length=8, max_length=MAX_URL_LENGTH,
                                  json_schema_extra={"format": "uri", "pattern": "^[hH][tT][tT][pP][sS]?://[^\\s]+$"}),
                       AfterValidator(check_url)]


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: WebhookUrl = Field(description="where events are POSTed (http or https)")
    event_types: list[EventType] = Field(min_length=1, max_length=3, description="the events to receive")
    description: Name | None = None


class WebhookOut(BaseModel):
    id: uuid.UUID
    url: str
    event_types: list[EventType]
    description: str | None = None
    created_at: datetime


class WebhookCreated(WebhookOut):
    secret: str = Field(description="the signing secret (whsec_…), shown this once: verify signatures with it")


class WebhookList(BaseModel):
    items: list[WebhookOut]
    next_cursor: str | None = None
    skipped: Skipped


class DeliveryOut(BaseModel):
    id: uuid.UUID
    webhook_id: uuid.UUID
    event_id: str = Field(description="the webhook-id header: the same at every attempt")
    event_type: EventType
    status: DeliveryStatus
    attempts: int
    last_status_code: int | None = Field(None, description="the receiver's last HTTP status (none: no answer)")
    last_error: str | None = None
    last_attempt_at: datetime | None = None
    next_attempt_at: datetime | None = None
    delivered_at: datetime | None = None
    created_at: datetime


class DeliveryList(BaseModel):
    items: list[DeliveryOut]
    next_cursor: str | None = None
    skipped: Skipped
