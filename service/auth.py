"""Tenants and their API keys; the ``TenantDep`` dependency that every ``/v1`` route uses.

Keys are random 256-bit tokens shown once and stored as SHA-256 digests (a slow
password hash buys nothing for high-entropy secrets and would cost every
request). Once any key exists, ``/v1`` requires one. With none, requests are refused
unless the operator asked for open mode (``FAIRACQ_OPEN_MODE=true``): then every
request belongs to the ``default`` tenant. ``serve`` refuses to start with no key
and no open mode, so a deployment is never open by accident.

A key has a name, a scope (``admin`` may manage the tenant's keys under
``/v1/admin/keys``; ``plain`` may not), an optional expiry, a revocation time and the
time it was last used (to the minute). Its lifecycle is in ``service.keys``. A resolved
key is cached for ``KEY_CACHE_SECONDS`` (2 s) per process, so a revoked or expired key
is refused by every API process within that time. ``API_KEY_ID`` holds the id of the
key the current request (or the job it queued) acts with, for the decision log.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import uuid
import weakref
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Connection, Engine, ForeignKey, String, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from service.caches import LruCache
from service.db import Base, UTCDateTime, new_id, utcnow
from service.errors import Forbidden, ServiceUnavailable, Unauthorized

__all__ = [
    "API_KEY_ID", "AdminDep", "ApiKey", "CurrentTenant", "KeyScope", "Tenant", "TenantCache", "TenantDep",
    "authenticate", "bearer_token", "create_api_key", "ensure_default_tenant", "hash_key", "keys_exist",
    "new_key", "resolve_tenant",
]

KEY_PREFIX = "fa_"
DEFAULT_TENANT = "default"
KeyScope = Literal["admin", "plain"]
# last_used_at is written at most this often per key and process: to the minute is what an
# operator needs to find unused keys, and a write per request would cost more than the request.
LAST_USED_RESOLUTION = timedelta(seconds=60)

API_KEY_ID: ContextVar[uuid.UUID | None] = ContextVar("fairacq_api_key_id", default=None)


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
    name: Mapped[str | None] = mapped_column(String(200))
    scope: Mapped[str] = mapped_column(String(10), default="plain")
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


@dataclass(frozen=True)
class CurrentTenant:
    """Who a request acts for: the tenant, and the key (None in open mode, which acts as admin)."""

    id: uuid.UUID
    name: str
    key_id: uuid.UUID | None = None
    scope: str = "admin"
    expires_at: datetime | None = None


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


def new_key(db: Session, tenant_id: uuid.UUID, *, name: str | None = None, scope: str = "plain",
            expires_at: datetime | None = None) -> tuple[ApiKey, str]:
    """Store a new key of the tenant; the row and the key in clear (shown once)."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    row = ApiKey(tenant_id=tenant_id, key_hash=hash_key(key), prefix=key[:10], name=name, scope=scope,
                 expires_at=expires_at)
    db.add(row)
    db.flush()
    return row, key


def create_api_key(db: Session, tenant_name: str, *, name: str | None = None, scope: str = "plain",
                   expires_at: datetime | None = None) -> str:
    """Create a key for ``tenant_name`` (creating the tenant if needed); return it in clear once."""
    tenant = _get_or_create_tenant(db, tenant_name)
    return new_key(db, tenant.id, name=name, scope=scope, expires_at=expires_at)[1]


# Engines whose database is known to hold a key: once a key has been seen the
# server stays in authenticated mode without asking again (keys are not deleted).
_engines_with_keys: weakref.WeakSet[Engine | Connection] = weakref.WeakSet()


def keys_exist(db: Session) -> bool:
    engine = db.get_bind()
    if engine in _engines_with_keys:
        return True
    if db.scalar(select(ApiKey.id).limit(1)) is None:
        return False
    _engines_with_keys.add(engine)
    return True


def bearer_token(authorization: str | None) -> str | None:
    """The key in ``Authorization: Bearer <key>`` (scheme in any case, any spacing), or None."""
    if authorization is None:
        return None
    parts = authorization.split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        raise Unauthorized("use 'Authorization: Bearer <api key>'")
    return parts[1]


def resolve_tenant(db: Session, token: str | None, *, open_mode: bool = False) -> CurrentTenant:
    """The tenant a request with this key acts for (no key: open mode's ``default``), or :class:`Unauthorized`.

    Only reads: open mode's tenant is created at start-up (:func:`ensure_default_tenant`).
    """
    if token is not None:
        row = db.execute(
            select(Tenant.id, Tenant.name, ApiKey.id.label("key_id"), ApiKey.scope, ApiKey.expires_at,
                   ApiKey.revoked_at)
            .join(ApiKey, ApiKey.tenant_id == Tenant.id)
            .where(ApiKey.key_hash == hash_key(token))
        ).first()
        if row is None:
            raise Unauthorized("the API key is not valid")
        if row.revoked_at is not None:
            raise Unauthorized("the API key was revoked; use another key of the tenant")
        if row.expires_at is not None and row.expires_at <= utcnow():
            raise Unauthorized("the API key has expired; use another key of the tenant (or its rotated successor)")
        return CurrentTenant(row.id, row.name, row.key_id, row.scope, row.expires_at)
    if keys_exist(db):
        raise Unauthorized("an API key is required: send 'Authorization: Bearer <api key>'")
    if not open_mode:
        raise Unauthorized("no API key exists yet: create one with `fairacq create-api-key --tenant NAME`, "
                           "or run the server with FAIRACQ_OPEN_MODE=true to serve without keys")
    tenant_id = db.scalar(select(Tenant.id).where(Tenant.name == DEFAULT_TENANT))
    if tenant_id is None:
        raise ServiceUnavailable("open mode's tenant does not exist yet; is the database migrated?")
    return CurrentTenant(tenant_id, DEFAULT_TENANT)


# How long a resolved key (or open mode) is trusted without asking the database again: a revoked
# key is refused by every process within 2 s (the issue asks for 5 s), at the cost of one indexed
# read per key and process every 2 s; a key created by `create-api-key` ends open mode within a second.
KEY_CACHE_SECONDS = 2.0
OPEN_MODE_CACHE_SECONDS = 1.0
TENANT_CACHE_SIZE = 10_000


class TenantCache(LruCache[str | None, CurrentTenant]):
    """Resolved keys (service.caches): a key is trusted for 2 s (never past its expiry), open mode for 1 s."""

    def __init__(self, size: int = TENANT_CACHE_SIZE) -> None:
        super().__init__("tenants", size, ttl=KEY_CACHE_SECONDS)

    def put(self, key: str | None, value: CurrentTenant, ttl: float | None = None) -> None:
        if ttl is None:
            ttl = KEY_CACHE_SECONDS if key is not None else OPEN_MODE_CACHE_SECONDS
            if value.expires_at is not None:
                ttl = max(0.0, min(ttl, (value.expires_at - utcnow()).total_seconds()))
        super().put(key, value, ttl)


def _lookup(readers: sessionmaker[Session], writers: sessionmaker[Session], token: str | None,
            open_mode: bool) -> CurrentTenant:
    with readers() as db:
        tenant = resolve_tenant(db, token, open_mode=open_mode)
        used = None if tenant.key_id is None else db.scalar(
            select(ApiKey.last_used_at).where(ApiKey.id == tenant.key_id))
    if tenant.key_id is not None and (used is None or utcnow() - used >= LAST_USED_RESOLUTION):
        _touch(writers, tenant.key_id)
    return tenant


def _touch(writers: sessionmaker[Session], key_id: uuid.UUID) -> None:
    """Record that the key was used now; best effort (a busy database must not refuse the request)."""
    with contextlib.suppress(OperationalError), writers.begin() as db:  # else the next lookup writes it
        db.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=utcnow()))


async def authenticate(request: Request) -> CurrentTenant:
    """Step 1 of every ``/v1`` request (service.routing): the caller's tenant, from headers only.

    A cache hit costs a dictionary lookup; a miss reads the key in a reader session
    (``BEGIN DEFERRED`` on SQLite), so it never takes the database's write lock. Requests
    that miss on the same key while its lookup runs wait for that lookup: when an entry
    expires under load, one read refreshes it, not one per request in flight.
    """
    token = bearer_token(request.headers.get("authorization"))
    state = request.app.state
    tenant = state.tenant_cache.get(token)
    if tenant is None:
        tenant = await _looked_up(state, token)
    request.state.tenant = tenant
    API_KEY_ID.set(tenant.key_id)
    return tenant


async def _looked_up(state: Any, token: str | None) -> CurrentTenant:
    """The tenant of ``token`` read once for every request waiting on it, then cached."""
    lookups: dict[str | None, asyncio.Future[CurrentTenant]] = state.tenant_lookups  # in flight, by key
    lookup = lookups.get(token)
    if lookup is None:
        async def run() -> CurrentTenant:
            try:
                tenant = await run_in_threadpool(_lookup, state.readers, state.sessions, token,
                                                 state.settings.open_mode)
            finally:
                del lookups[token]
            state.tenant_cache.put(token, tenant)
            return tenant

        lookup = lookups[token] = asyncio.ensure_future(run())
    return await asyncio.shield(lookup)  # a waiter's cancellation does not cancel the others' lookup


async def current_tenant(request: Request) -> CurrentTenant:
    """The tenant :func:`authenticate` found for this request."""
    return request.state.tenant


TenantDep = Annotated[CurrentTenant, Depends(current_tenant)]


async def admin_tenant(request: Request) -> CurrentTenant:
    """The tenant of a request made with an ``admin`` key (or in open mode); 403 for a plain key."""
    tenant: CurrentTenant = request.state.tenant
    if tenant.scope != "admin":
        raise Forbidden("this operation needs an admin-scoped API key: create one with "
                        "`fairacq create-api-key --tenant NAME --scope admin`")
    return tenant


AdminDep = Annotated[CurrentTenant, Depends(admin_tenant)]
