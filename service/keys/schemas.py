"""Requests and responses of ``/v1/admin/keys``; no response carries a secret but the one that creates it."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from service.auth import KeyScope
from service.fields import Name
from service.pages import Skipped

__all__ = ["ApiKeyCreate", "ApiKeyCreated", "ApiKeyList", "ApiKeyOut", "ApiKeyRotate", "KeyRotated", "KeyStatus",
           "MAX_GRACE_SECONDS"]

# A rotated key stays valid for at most 30 days: long enough for any deployment to roll out the
# new key, short enough that rotation still means the old one goes.
MAX_GRACE_SECONDS = 30 * 24 * 3600
DEFAULT_GRACE_SECONDS = 24 * 3600
KeyStatus = Literal["active", "expired", "revoked"]


class ApiKeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name | None = Field(None, description="what the key is for (shown in lists)")
    scope: KeyScope = Field("plain", description="admin keys may also manage the tenant's keys")
    expires_at: AwareDatetime | None = Field(None, description="when the key stops working (with a time zone)")


class ApiKeyRotate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    grace_seconds: int = Field(DEFAULT_GRACE_SECONDS, ge=0, le=MAX_GRACE_SECONDS,
                               description="how long the old key keeps working (0: it stops now)")
    expires_at: AwareDatetime | None = Field(None, description="when the new key stops working")


class ApiKeyOut(BaseModel):
    id: uuid.UUID
    name: str | None = None
    prefix: str = Field(description="the key's first characters, to recognise it; never the key")
    scope: KeyScope
    status: KeyStatus
    created_at: datetime
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    last_used_at: datetime | None = Field(None, description="to the minute")


class ApiKeyCreated(ApiKeyOut):
    key: str = Field(description="the key itself: shown this once, stored only as a digest")


class KeyRotated(BaseModel):
    new: ApiKeyCreated
    old: ApiKeyOut = Field(description="the rotated key, now expiring at the end of its grace period")


class ApiKeyList(BaseModel):
    items: list[ApiKeyOut]
    next_cursor: str | None = None
    skipped: Skipped
