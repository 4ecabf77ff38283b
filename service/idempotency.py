"""``Idempotency-Key``: one mechanism for every POST (SPEC §3).

1. *Claim* — in its own short transaction, insert ``(tenant, key)`` as in
   flight with the request's fingerprint (method, path, body). An existing
   completed record with the same fingerprint is replayed
   (``Idempotent-Replayed: true``); a different fingerprint gets 422; a record
   still in flight gets 409. A claim whose lock expired (its server died) may be
   taken over: its transaction never committed, so nothing is applied twice.
2. *Complete* — the response is written into the record inside the request's
   own transaction, so the state change and its stored response commit
   together or not at all.
3. *Release* — when the request fails (any error response, which commits
   nothing) the claim is deleted so that a retry runs afresh.
"""

from __future__ import annotations

import hashlib
import math
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, Integer, LargeBinary, String, delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from service.db import Base, UTCDateTime, rowcount, transaction, utcnow
from service.errors import RequestInFlight, Unprocessable

__all__ = ["Claim", "IdempotencyRecord", "claim", "complete", "fingerprint", "purge_expired", "release"]

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255


class IdempotencyRecord(Base):
    __tablename__ = "idempotency_records"

    tenant_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(MAX_KEY_LENGTH), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20))
    locked_until: Mapped[datetime] = mapped_column(UTCDateTime)
    response_status: Mapped[int | None] = mapped_column(Integer)
    response_headers: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    response_body: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


@dataclass(frozen=True)
class Claim:
    tenant_id: uuid.UUID
    key: str
    fingerprint: str
    replay: IdempotencyRecord | None = None


def fingerprint(method: str, path: str, query: str, body: bytes) -> str:
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), query.encode(), body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def claim(factory: sessionmaker[Session], tenant_id: uuid.UUID, key: str, print_: str,
          *, lock_seconds: float, ttl_hours: float) -> Claim:
    """Claim ``key`` for this request, or return the stored response to replay."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise Unprocessable(f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters")
    now = utcnow()
    for _ in range(2):  # a lost insert race is retried once as a lookup
        try:
            with transaction(factory) as db:
                record = db.get(IdempotencyRecord, (tenant_id, key))
                if record is not None and record.expires_at < now:
                    db.delete(record)
                    db.flush()
                    record = None
                if record is None:
                    db.add(IdempotencyRecord(
                        tenant_id=tenant_id, key=key, fingerprint=print_, status="in_flight",
                        locked_until=now + timedelta(seconds=lock_seconds),
                        expires_at=now + timedelta(hours=ttl_hours),
                    ))
                    db.flush()
                    return Claim(tenant_id, key, print_)
                if record.fingerprint != print_:
                    raise Unprocessable(
                        f"{HEADER} {key!r} was already used with a different request; "
                        "use a new key for a new request"
                    )
                if record.status == "completed":
                    db.expunge(record)
                    return Claim(tenant_id, key, print_, replay=record)
                if record.locked_until > now:
                    wait = max(1, math.ceil((record.locked_until - now).total_seconds()))
                    raise RequestInFlight(
                        f"a request with {HEADER} {key!r} is still in progress; retry after it finishes "
                        f"(its claim lapses in {wait} s at the latest)", retry_after=min(wait, 5))
                record.locked_until = now + timedelta(seconds=lock_seconds)  # take over a dead claim
                return Claim(tenant_id, key, print_)
        except IntegrityError:
            continue
    raise RequestInFlight(f"a request with {HEADER} {key!r} is still in progress")


def complete(db: Session, claim_: Claim, status: int, headers: dict[str, str], body: bytes) -> None:
    """Store the response in the request's own transaction."""
    record = db.get(IdempotencyRecord, (claim_.tenant_id, claim_.key))
    if record is None:  # purged meanwhile: recreate so the replay still works
        now = utcnow()
        record = IdempotencyRecord(tenant_id=claim_.tenant_id, key=claim_.key,
                                   fingerprint=claim_.fingerprint, locked_until=now,
                                   expires_at=now + timedelta(hours=24))
        db.add(record)
    record.status = "completed"
    record.response_status = status
    record.response_headers = headers
    record.response_body = body
    db.flush()


def release(factory: sessionmaker[Session], claim_: Claim) -> None:
    with transaction(factory) as db:
        db.execute(delete(IdempotencyRecord).where(
            IdempotencyRecord.tenant_id == claim_.tenant_id,
            IdempotencyRecord.key == claim_.key,
            IdempotencyRecord.status == "in_flight",
        ))


def purge_expired(db: Session) -> int:
    result = db.execute(delete(IdempotencyRecord).where(IdempotencyRecord.expires_at < utcnow()))
    return rowcount(result) or 0


def stored_headers(record: IdempotencyRecord) -> dict[str, str]:
    return dict(record.response_headers or {})
