"""Key use cases, shared by ``/v1/admin/keys`` and the ``fairacq`` key commands; they flush, never commit."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.auth import ApiKey, KeyScope, new_key
from service.db import utcnow
from service.errors import Conflict, InvalidInput, NotFound
from service.keys.schemas import ApiKeyCreated, ApiKeyOut, KeyStatus
from service.pages import in_list_order

__all__ = ["create", "get", "key_created", "key_out", "list_keys", "revoke", "rotate", "tenant_of"]


def _status(row: ApiKey, now: datetime) -> KeyStatus:
    if row.revoked_at is not None:
        return "revoked"
    return "expired" if row.expires_at is not None and row.expires_at <= now else "active"


def key_out(row: ApiKey) -> ApiKeyOut:
    return ApiKeyOut(id=row.id, name=row.name, prefix=row.prefix, scope=cast(KeyScope, row.scope),
                     status=_status(row, utcnow()), created_at=row.created_at,
                     expires_at=row.expires_at, revoked_at=row.revoked_at, last_used_at=row.last_used_at)


def key_created(row: ApiKey, key: str) -> ApiKeyCreated:
    return ApiKeyCreated(**key_out(row).model_dump(), key=key)


def _future(expires_at: datetime | None, loc: tuple[str, ...]) -> datetime | None:
    if expires_at is not None and expires_at <= utcnow():
        raise InvalidInput("must be in the future (a key that has already expired would be of no use)", loc)
    return expires_at


def create(db: Session, tenant_id: uuid.UUID, *, name: str | None, scope: str,
           expires_at: datetime | None) -> tuple[ApiKey, str]:
    return new_key(db, tenant_id, name=name, scope=scope, expires_at=_future(expires_at, ("body", "expires_at")))


def get(db: Session, tenant_id: uuid.UUID, key_id: uuid.UUID, *, for_update: bool = False) -> ApiKey:
    query = select(ApiKey).where(ApiKey.id == key_id, ApiKey.tenant_id == tenant_id)
    row = db.scalar(query.with_for_update() if for_update else query)
    if row is None:
        raise NotFound(f"no API key with id {key_id}")
    return row


def tenant_of(db: Session, key_id: uuid.UUID) -> uuid.UUID:
    """The tenant a key belongs to (the operator's commands name keys by id alone)."""
    tenant_id = db.scalar(select(ApiKey.tenant_id).where(ApiKey.id == key_id))
    if tenant_id is None:
        raise NotFound(f"no API key with id {key_id}")
    return tenant_id


def list_keys(db: Session, tenant_id: uuid.UUID, limit: int, after: uuid.UUID | None = None) -> list[ApiKey]:
    anchor = None if after is None else get(db, tenant_id, after)
    query = select(ApiKey).where(ApiKey.tenant_id == tenant_id)
    return list(db.scalars(in_list_order(query, ApiKey.created_at, ApiKey.id, anchor, limit)))


def revoke(db: Session, tenant_id: uuid.UUID, key_id: uuid.UUID) -> ApiKey:
    """Revoke a key now (again: no change); every API process refuses it within 2 s (service.auth)."""
    row = get(db, tenant_id, key_id, for_update=True)
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        db.flush()
    return row


def rotate(db: Session, tenant_id: uuid.UUID, key_id: uuid.UUID, *, grace_seconds: int,
           expires_at: datetime | None) -> tuple[ApiKey, ApiKey, str]:
    """A new key with the old one's name and scope; the old one expires after ``grace_seconds``."""
    old = get(db, tenant_id, key_id, for_update=True)
    now = utcnow()
    if _status(old, now) != "active":
        raise Conflict(f"the API key {key_id} is {_status(old, now)}: only an active key can be rotated; "
                       "create a new key instead")
    new, key = new_key(db, tenant_id, name=old.name, scope=old.scope,
                       expires_at=_future(expires_at, ("body", "expires_at")))
    end = now + timedelta(seconds=grace_seconds)
    old.expires_at = end if old.expires_at is None else min(old.expires_at, end)
    db.flush()
    return old, new, key
