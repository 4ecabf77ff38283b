"""The dashboard's login: an API key entered once, a server-side session named by a cookie, CSRF tokens.

::

    GET  /ui/login    sets a login cookie (random, HttpOnly, SameSite=Strict) and puts the
                      same value in the form: the double-submit token of a form that has no
                      session yet (a cross-site POST carries no Strict cookie, so it fails)
    POST /ui/login    the key is checked as /v1 checks it (service.auth.resolve_tenant); a
                      ``ui_sessions`` row keeps the SHA-256 of a new random token, its tenant
                      and its expiry; the token goes to the cookie ``fairacq_ui``
                      (HttpOnly, SameSite=Strict, Path=/ui, Secure over https)
    every page        the cookie's row, unexpired, gives the tenant; nothing else does
    POST (any)        must carry the session's CSRF token: the form field ``csrf_token`` or
                      the header ``X-CSRF-Token`` (fetch), and no foreign ``Origin``

The CSRF token is an HMAC of the session token, so it needs no storage and dies with
the session. In open mode with no key, a page opens a ``keyless`` session for tenant
``default`` without asking; it stops working once any key exists, as open mode does.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta

from fastapi import Request, Response
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from service.auth import CurrentTenant, Tenant, hash_key, keys_exist, resolve_tenant
from service.db import transaction, utcnow
from service.errors import ServiceError, Unauthorized
from service.ui.models import UiSession

__all__ = ["COOKIE", "CSRF_FIELD", "CSRF_HEADER", "LOGIN_COOKIE", "Forbidden", "LoginRequired", "UiUser",
           "check_csrf", "check_login_token", "clear_cookie", "current_user", "end_session", "login",
           "new_login_token", "open_mode_user", "set_cookie"]

COOKIE = "fairacq_ui"
LOGIN_COOKIE = "fairacq_ui_login"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
COOKIE_PATH = "/ui"
SESSION_LIFETIME = timedelta(hours=12)  # a working day; the key is asked again after it
LOGIN_FORM_SECONDS = 3600  # how long a login form stays valid
_CSRF_CONTEXT = b"fairacq-ui-csrf"


class Forbidden(ServiceError):
    """A state-changing request without its CSRF token, or from another origin."""

    status, title, slug = 403, "Forbidden", "forbidden"


class LoginRequired(Unauthorized):
    """No valid dashboard session: pages send the browser to the login form."""


@dataclass(frozen=True)
class UiUser:
    """Who a dashboard request acts for, and the token its forms must send back."""

    tenant: CurrentTenant
    session_id: uuid.UUID
    csrf: str
    keyless: bool


def _csrf_of(token: str) -> str:
    return hmac.new(token.encode(), _CSRF_CONTEXT, hashlib.sha256).hexdigest()


def _readers(request: Request) -> sessionmaker[Session]:
    factory: sessionmaker[Session] = request.app.state.readers
    return factory


def _writers(request: Request) -> sessionmaker[Session]:
    factory: sessionmaker[Session] = request.app.state.sessions
    return factory


def current_user(request: Request) -> UiUser | None:
    """The user of this request's session cookie, or None (no cookie, unknown, expired, or keyless after keys)."""
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    with _readers(request)() as db:
        row = db.execute(
            select(UiSession.id, UiSession.keyless, UiSession.expires_at, Tenant.id.label("tenant_id"), Tenant.name)
            .join(Tenant, Tenant.id == UiSession.tenant_id)
            .where(UiSession.token_hash == hash_key(token))
        ).first()
        if row is None or row.expires_at <= utcnow() or (row.keyless and keys_exist(db)):
            return None
    return UiUser(CurrentTenant(row.tenant_id, row.name), row.id, _csrf_of(token), row.keyless)


def _start(request: Request, tenant: CurrentTenant, *, keyless: bool) -> tuple[UiUser, str]:
    token = secrets.token_urlsafe(32)
    now = utcnow()
    with transaction(_writers(request)) as db:
        db.execute(delete(UiSession).where(UiSession.expires_at <= now))  # expired logins of anyone
        row = UiSession(token_hash=hash_key(token), tenant_id=tenant.id, keyless=keyless, created_at=now,
                        expires_at=now + SESSION_LIFETIME)
        db.add(row)
        db.flush()
        session_id = row.id
    return UiUser(tenant, session_id, _csrf_of(token), keyless), token


def open_mode_user(request: Request) -> tuple[UiUser, str] | None:
    """In open mode with no key: a new keyless session of tenant ``default`` and its token; else None."""
    if not request.app.state.settings.open_mode:
        return None
    try:
        with _readers(request)() as db:
            tenant = resolve_tenant(db, None, open_mode=True)
    except Unauthorized:
        return None
    return _start(request, tenant, keyless=True)


def login(request: Request, key: str) -> tuple[UiUser, str]:
    """A new session for the key's tenant (an empty key: open mode's, if it is on); :class:`Unauthorized` if none."""
    key = key.strip()
    if not key:
        opened = open_mode_user(request)
        if opened is None:
            raise Unauthorized("enter an API key (create one with `fairacq create-api-key --tenant NAME`)")
        return opened
    with _readers(request)() as db:
        tenant = resolve_tenant(db, key)
    return _start(request, tenant, keyless=False)


def end_session(request: Request, user: UiUser) -> None:
    with transaction(_writers(request)) as db:
        db.execute(delete(UiSession).where(UiSession.id == user.session_id))


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    return origin is None or origin == f"{request.url.scheme}://{request.headers.get('host', '')}"


def check_csrf(request: Request, user: UiUser, sent: str | None) -> None:
    """403 unless ``sent`` is the session's CSRF token and the request comes from this origin."""
    if not _same_origin(request) or not hmac.compare_digest((sent or "").encode(), user.csrf.encode()):
        raise Forbidden("this form has expired or came from another site; reload the page and try again")


def new_login_token() -> str:
    return secrets.token_urlsafe(32)


def check_login_token(request: Request, sent: str | None) -> None:
    """The login form's token must equal its cookie (double submit)."""
    cookie = request.cookies.get(LOGIN_COOKIE) or ""
    if not _same_origin(request) or not cookie or not hmac.compare_digest((sent or "").encode(), cookie.encode()):
        raise Forbidden("the login form has expired or came from another site; reload it and try again")


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(name, value, max_age=max_age, path=COOKIE_PATH, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")


def clear_cookie(request: Request, response: Response, name: str) -> None:
    response.delete_cookie(name, path=COOKIE_PATH, httponly=True, samesite="strict",
                           secure=request.url.scheme == "https")


SESSION_MAX_AGE = int(SESSION_LIFETIME.total_seconds())
