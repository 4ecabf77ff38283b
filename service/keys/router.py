"""``/v1/admin/keys``: the tenant's API keys, for an admin-scoped key (403 for a plain one)."""

from __future__ import annotations

import uuid

from fastapi import Response, status

from service.api import LimitQuery, Responses, parse_cursor, resource_router
from service.auth import AdminDep
from service.db import SessionDep
from service.keys import service
from service.keys.schemas import ApiKeyCreate, ApiKeyCreated, ApiKeyList, ApiKeyOut, ApiKeyRotate, KeyRotated
from service.pages import page

router = resource_router("/admin/keys", "admin")
ADMIN_ONLY: Responses = {403: {"description": "the request's key is not admin-scoped"}}


@router.post("", operation_id="create_api_key", status_code=status.HTTP_201_CREATED, responses=ADMIN_ONLY)
def create_api_key(payload: ApiKeyCreate, db: SessionDep, tenant: AdminDep, response: Response) -> ApiKeyCreated:
    """Create a key of the tenant; the key itself is in this response only."""
    row, key = service.create(db, tenant.id, name=payload.name, scope=payload.scope, expires_at=payload.expires_at)
    response.headers["Location"] = f"/v1/admin/keys/{row.id}"
    return service.key_created(row, key)


@router.get("", operation_id="list_api_keys", responses=ADMIN_ONLY)
def list_api_keys(db: SessionDep, tenant: AdminDep, limit: LimitQuery = 50, cursor: str | None = None) -> ApiKeyList:
    """List the tenant's keys, oldest first, with status and last use; never the keys themselves."""
    rows = service.list_keys(db, tenant.id, limit, parse_cursor(cursor))
    return ApiKeyList(**page(rows, limit, "API key", service.key_out))


@router.get("/{key_id}", operation_id="get_api_key", responses=ADMIN_ONLY)
def get_api_key(key_id: uuid.UUID, db: SessionDep, tenant: AdminDep) -> ApiKeyOut:
    """Read one key's name, scope, status, expiry and last use."""
    return service.key_out(service.get(db, tenant.id, key_id))


@router.post("/{key_id}/revoke", operation_id="revoke_api_key", responses=ADMIN_ONLY)
def revoke_api_key(key_id: uuid.UUID, db: SessionDep, tenant: AdminDep) -> ApiKeyOut:
    """Revoke a key now: every API process refuses it (401) within 2 seconds."""
    return service.key_out(service.revoke(db, tenant.id, key_id))


@router.post("/{key_id}/rotate", operation_id="rotate_api_key", status_code=status.HTTP_201_CREATED,
             responses={**ADMIN_ONLY, 409: {"description": "the key is revoked or expired"}})
def rotate_api_key(key_id: uuid.UUID, payload: ApiKeyRotate, db: SessionDep, tenant: AdminDep,
               response: Response) -> KeyRotated:
    """Replace a key: a new key with its name and scope; the old one works for ``grace_seconds`` more."""
    old, new, key = service.rotate(db, tenant.id, key_id, grace_seconds=payload.grace_seconds,
                                   expires_at=payload.expires_at)
    response.headers["Location"] = f"/v1/admin/keys/{new.id}"
    return KeyRotated(new=service.key_created(new, key), old=service.key_out(old))
