"""Tenants and their API keys; the ``TenantDep`` dependency that every ``/v1`` route uses.

Keys are random 256-bit tokens shown once and stored as SHA-256 digests (a slow
password hash buys nothing for high-entropy secrets and would cost every
request). Once any key exists, ``/v1`` requires one. With none, requests are refused
unless the operator asked for open mode (``FAIRACQ_OPEN_MODE=true``): then every
request belongs to the ``default`` tenant. ``serve`` refuses to start with no key
and no open mode, so a deployment is never open by accident.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
import weakref
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Engine, ForeignKey, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from service.db import Base, UTCDateTime, new_id, utcnow
from service.errors import Unauthorized

__all__ = [
    "ApiKey", "Tenant", "TenantDep", "create_api_key", "ensure_default_tenant", "hash_key", "keys_exist",
    "resolve_tenant",
]

KEY_PREFIX = "fa_"
DEFAULT_TENANT = "default"


class Tenant(Base):
    __tablename__ = "tenants"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=new_id)
    tenant_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


@dataclass(frozen=True)
class CurrentTenant:
    id: uuid.UUID
    name: str
    # Created by this request's transaction (open mode's first request): not yet committed,
    # so not to be cached.
    fresh: bool = False


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _get_or_create_tenant(db: Session, name: str) -> Tenant:
    tenant = db.scalar(select(Tenant).where(Tenant.name == name))
    if tenant is None:
        tenant = Tenant(name=name)
        db.add(tenant)
        db.flush()
    return tenant


def ensure_default_tenant(factory: sessionmaker[Session]) -> None:
    """Create open mode's ``default`` tenant at start-up, so concurrent first requests
    never race to create it inside their own transactions."""
    try:
        with factory.begin() as db:
            if db.scalar(select(Tenant.id).where(Tenant.name == DEFAULT_TENANT)) is None:
                db.add(Tenant(name=DEFAULT_TENANT))
    except IntegrityError:
        pass  # another process created it first


def create_api_key(db: Session, tenant_name: str) -> str:
    """Create a key for ``tenant_name`` (creating the tenant if needed); return it in clear once."""
    tenant = _get_or_create_tenant(db, tenant_name)
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    db.add(ApiKey(tenant_id=tenant.id, key_hash=hash_key(key), prefix=key[:10]))
    db.flush()
    return key


# Engines whose database is known to hold a key: once a key has been seen the
# server stays in authenticated mode without asking again (keys are not deleted).
_engines_with_keys: weakref.WeakSet[Engine] = weakref.WeakSet()


def keys_exist(db: Session) -> bool:
    engine = db.get_bind()
    if engine in _engines_with_keys:
        return True
    if db.scalar(select(ApiKey.id).limit(1)) is None:
        return False
    _engines_with_keys.add(engine)  # type: ignore[arg-type]
    return True


def resolve_tenant(db: Session, authorization: str | None, *, open_mode: bool = False) -> CurrentTenant:
    """The tenant a request acts for, or :class:`Unauthorized`."""
    if authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized("use 'Authorization: Bearer <api key>'")
        row = db.execute(
            select(Tenant.id, Tenant.name)
            .join(ApiKey, ApiKey.tenant_id == Tenant.id)
            .where(ApiKey.key_hash == hash_key(token.strip()))
        ).first()
        if row is None:
            raise Unauthorized("the API key is not valid")
        return CurrentTenant(row.id, row.name)
    if keys_exist(db):
        raise Unauthorized("an API key is required: send 'Authorization: Bearer <api key>'")
    if not open_mode:
        raise Unauthorized("no API key exists yet: create one with `fairacq create-api-key --tenant NAME`, "
                           "or run the server with FAIRACQ_OPEN_MODE=true to serve without keys")
    tenant = db.scalar(select(Tenant).where(Tenant.name == DEFAULT_TENANT))
    if tenant is None:
        tenant = _get_or_create_tenant(db, DEFAULT_TENANT)
        return CurrentTenant(tenant.id, tenant.name, fresh=True)
    return CurrentTenant(tenant.id, tenant.name)


# How long a resolved key (or open mode) is trusted without asking the database again.
# Keys are never deleted, so a key's tenant cannot change; open mode is rechecked often so
# that a key created by `create-api-key` takes effect within a second.
KEY_CACHE_SECONDS = 60.0
OPEN_MODE_CACHE_SECONDS = 1.0
TENANT_CACHE_SIZE = 10_000


async def current_tenant(request: Request) -> CurrentTenant:
    """The request's tenant; cached per process so the hot paths skip the key lookup.

    A cache miss looks the key up in the request's own session (``request.state.db``,
    opened by the route class), which is not declared as a sub-dependency: FastAPI's
    resolution of one is a measurable share of a decision call.
    """
    cached = getattr(request.state, "tenant", None)
    if cached is not None:
        return cached
    authorization = request.headers.get("authorization")
    cache: dict[str | None, tuple[CurrentTenant, float]] = request.app.state.tenant_cache
    now = time.monotonic()
    hit = cache.get(authorization)
    if hit is not None and hit[1] > now:
        tenant = hit[0]
    else:
        tenant = await run_in_threadpool(resolve_tenant, request.state.db, authorization,
                                         open_mode=request.app.state.settings.open_mode)
        if len(cache) >= TENANT_CACHE_SIZE:
            cache.clear()
        if not tenant.fresh:
            ttl = KEY_CACHE_SECONDS if authorization else OPEN_MODE_CACHE_SECONDS
            cache[authorization] = (tenant, now + ttl)
    request.state.tenant = tenant
    return tenant


TenantDep = Annotated[CurrentTenant, Depends(current_tenant)]
