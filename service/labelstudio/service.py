"""Label Studio connections: create (with a token shown once), read, delete, and authenticate.

A connection names one session (a managed group sampler or a balanced filter) and
how a Label Studio task maps onto it. Label Studio authenticates as the connection
with its token, sent as the basic-auth password its ML backend settings take (any
user name), or as ``Authorization: Bearer <token>`` (the webhook's headers). Tokens
are 256-bit random strings stored as SHA-256 digests, as API keys are.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from service.errors import InvalidInput, Unauthorized
from service.group_samplers.state import load as load_sampler
from service.labelstudio.models import Connection
from service.labelstudio.repository import ConnectionRepository, LedgerRepository
from service.labelstudio.schemas import ConnectionCreate, ConnectionCreated, ConnectionOut
from service.sessions.repository import SessionRepository

__all__ = ["BACKEND_PREFIX", "BackendCaller", "authenticate", "backend_path", "caller_of", "connection_out",
           "create_connection", "created_out", "delete_connection", "model_version"]

BACKEND_PREFIX = "/labelstudio"
TOKEN_PREFIX = "fals_"


def model_version(connection_id: uuid.UUID) -> str:
    """The connection's fixed model version: /setup's answer, every prediction's, the ML backend's title."""
    return f"fairacq-{connection_id.hex[:12]}"


def backend_path(connection_id: uuid.UUID) -> str:
    return f"{BACKEND_PREFIX}/{connection_id}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_connection(db: Session, tenant_id: uuid.UUID, payload: ConnectionCreate) -> tuple[Connection, str]:
    """Check the session and the mapping, store the connection; return it and its token (in clear, once)."""
    record = SessionRepository(db, tenant_id, payload.session_type).get(payload.session_id)
    if payload.session_type == "group_sampler":
        if not load_sampler(record).is_managed:
            raise InvalidInput("the sampler is in reported mode; connect a managed sampler (mode 'managed'), whose "
                               "model the service trains from the annotations", ["body", "session_id"])
        if payload.mapping.label is None:
            raise InvalidInput("a group sampler learns from labels: name the Choices control and its positive "
                               "choice", ["body", "mapping", "label"])
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    connection = ConnectionRepository(db, tenant_id).create(
        session_id=payload.session_id, session_kind=payload.session_type, name=payload.name,
        token_hash=_digest(token), mapping=payload.mapping.model_dump(mode="json"),
        options=payload.options.model_dump(mode="json"))
    return connection, token


def _view(db: Session, connection: Connection) -> dict[str, Any]:
    return {
        "id": connection.id, "name": connection.name, "session_type": connection.session_kind,
        "session_id": connection.session_id, "mapping": connection.mapping, "options": connection.options,
        "model_version": model_version(connection.id), "backend_path": backend_path(connection.id),
        "annotations": LedgerRepository(db, connection.id).counts(), "created_at": connection.created_at,
        "first_group": _first_group(db, connection),
    }


def _first_group(db: Session, connection: Connection) -> str | None:
    if connection.session_kind != "group_sampler":
        return None
    from service.labelstudio.backend import sampler_preview  # (backend imports this module)

    decision = sampler_preview(db, caller_of(connection))
    return None if decision is None else decision.group


def caller_of(connection: Connection) -> BackendCaller:
    return BackendCaller(connection.id, connection.tenant_id, connection.session_id, connection.session_kind,
                         dict(connection.mapping), dict(connection.options))


def connection_out(db: Session, connection: Connection) -> ConnectionOut:
    return ConnectionOut.model_validate(_view(db, connection))


def created_out(db: Session, connection: Connection, token: str) -> ConnectionCreated:
    return ConnectionCreated.model_validate({**_view(db, connection), "token": token})


def delete_connection(db: Session, tenant_id: uuid.UUID, connection_id: uuid.UUID) -> None:
    """Forget the connection and its ledger; the session keeps everything it counted."""
    repo = ConnectionRepository(db, tenant_id)
    repo.delete(repo.get(connection_id))


@dataclass(frozen=True)
class BackendCaller:
    """The connection a Label Studio request authenticated as (read once, before the transaction)."""

    id: uuid.UUID
    tenant_id: uuid.UUID
    session_id: uuid.UUID
    session_kind: str
    mapping: dict[str, Any]
    options: dict[str, Any]


def _token_of(authorization: str | None) -> str:
    scheme, _, value = (authorization or "").strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer" and value:
        return value
    if scheme.lower() == "basic" and value:
        try:
            _, _, password = base64.b64decode(value, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            raise Unauthorized("the basic-auth credentials are not valid base64 of 'user:token'") from None
        if password:
            return password
    raise Unauthorized("send the connection's token: as the basic-auth password of the ML backend (any user "
                       "name) or as 'Authorization: Bearer <token>'")


def authenticate(readers: sessionmaker[Session], connection_id: str, authorization: str | None) -> BackendCaller:
    """The connection ``connection_id`` if the request carries its token, else 401 (an unknown id too)."""
    token = _token_of(authorization)
    try:
        wanted = uuid.UUID(connection_id)
    except ValueError:
        raise Unauthorized("no Label Studio connection has this id, or the token is not its token") from None
    with readers() as db:
        connection = db.get(Connection, wanted)
        if connection is None or not hmac.compare_digest(connection.token_hash, _digest(token)):
            raise Unauthorized("no Label Studio connection has this id, or the token is not its token")
        return caller_of(connection)
