"""Pending decisions: what a ``next`` reserved and nobody has reported on yet.

A decision of a group sampler or a partition bandit reserves its batch (an *arm*:
a group or a partition, and a size) until its observation or feedback settles it,
it is released (``POST .../decisions/{id}/release``), or it expires after the
session's ``pending_ttl_seconds``; then its reservation returns to the budget. The
rows live in ``pending_decisions``; the session's state keeps only their sums per
arm (what the algorithm counts) and the earliest expiry, so a decision touches
this table once (one INSERT per reservation) and looks for expired rows only when
the earliest expiry has passed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from pydantic import BaseModel, Field
from sqlalchemy import ForeignKey, Index, Integer, delete, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from service.db import Base, UTCDateTime, table_of, utcnow
from service.errors import Conflict
from service.sessions.repository import Entry
from service.statements import Statement

__all__ = ["SHOWN_PENDING", "Issued", "PendingDecision", "PendingOut", "Reservation", "earliest_expiry", "expire",
           "expire_due", "expiry", "list_pending", "one_after_another", "reserve", "settle", "shown"]

# A session shows at most this many of its pending decisions (the oldest); their sums per arm are exact.
SHOWN_PENDING = 100
# Handed to a rule that draws nothing; its stream is never read, so results depend only on the seeds.
NOTHING_DRAWN = np.random.default_rng(0)


class PendingDecision(Base):
    __tablename__ = "pending_decisions"
    __table_args__ = (Index("ix_pending_decisions_session_expires", "session_id", "expires_at"),)

    decision_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    arm: Mapped[int] = mapped_column(Integer)  # a group's or a partition's index in the session's config
    size: Mapped[int] = mapped_column(Integer)  # samples or pool items reserved
    sequence: Mapped[int] = mapped_column(Integer)  # the decision's place in the session's log
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


_RESERVE = Statement(table_of(PendingDecision).insert(), column_keys=(
    "decision_id", "session_id", "arm", "size", "sequence", "expires_at", "created_at"))


@dataclass(frozen=True)
class Reservation:
    decision_id: uuid.UUID
    arm: int
    size: int
    sequence: int
    expires_at: datetime


def reserve(db: Session, session_id: uuid.UUID, reservations: Sequence[Reservation]) -> None:
    """Record decisions' reservations in the caller's transaction (one INSERT for a batch)."""
    if reservations:
        now = utcnow()  # (service.statements: the ORM's bulk path cost ~100 µs a row in bookkeeping)
        _RESERVE.executemany(db, [
            {"decision_id": r.decision_id, "session_id": session_id, "arm": r.arm, "size": r.size,
             "sequence": r.sequence, "expires_at": r.expires_at, "created_at": now} for r in reservations])


@dataclass
class Issued:
    """The decisions one call makes: responses, log entries and reservations, written together."""

    expires: datetime
    responses: list[dict[str, Any]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    reservations: list[Reservation] = field(default_factory=list)

    def add(self, decision_id: uuid.UUID, sequence: int, arm: int, size: int, response: dict[str, Any],
            request: dict[str, Any], logged: dict[str, Any] | None = None) -> None:
        """One decision: ``response`` as sent, ``logged`` (default: the response) in the log."""
        self.responses.append(response)
        self.entries.append(Entry("next", request, response if logged is None else logged, decision_id=decision_id))
        self.reservations.append(Reservation(decision_id, arm, size, sequence, self.expires))


def one_after_another(seed: int, last_sequence: int, count: int,
                      decide: Callable[[int, np.random.Generator], None], *, draws: bool = True) -> int:
    """Make up to ``count`` decisions as if one call after another; return how many were made.

    The k-th has sequence number ``last_sequence + k`` and draws from
    ``default_rng([seed, sequence])``, so a batch decides what as many single calls would.
    When the rule draws nothing (``draws=False``) no generator is seeded (that costs about
    as much as the rest of a decision): ``NOTHING_DRAWN`` stands in. A ``Conflict`` (the
    budget or the pool ran out) after the first ends the batch: the decisions made so far stand.
    """
    for k in range(count):
        sequence = last_sequence + 1 + k
        try:
            decide(sequence, np.random.default_rng([seed, sequence]) if draws else NOTHING_DRAWN)
        except Conflict:
            if k == 0:
                raise
            return k
    return count


def settle(db: Session, session_id: uuid.UUID, decision_id: uuid.UUID) -> Reservation | None:
    """Remove a decision's reservation and return it (None when it was settled, released or expired)."""
    row = db.execute(delete(PendingDecision)
                     .where(PendingDecision.session_id == session_id, PendingDecision.decision_id == decision_id)
                     .returning(PendingDecision.arm, PendingDecision.size, PendingDecision.sequence,
                                PendingDecision.expires_at)).first()
    return None if row is None else Reservation(decision_id, row.arm, row.size, row.sequence, row.expires_at)


def expire(db: Session, session_id: uuid.UUID, now: datetime) -> list[Reservation]:
    """Remove and return every reservation of the session that expired by ``now``."""
    rows = db.execute(delete(PendingDecision)
                      .where(PendingDecision.session_id == session_id, PendingDecision.expires_at <= now)
                      .returning(PendingDecision.decision_id, PendingDecision.arm, PendingDecision.size,
                                 PendingDecision.sequence, PendingDecision.expires_at)).all()
    return [Reservation(r.decision_id, r.arm, r.size, r.sequence, r.expires_at) for r in rows]


def earliest_expiry(db: Session, session_id: uuid.UUID) -> datetime | None:
    return db.scalar(select(func.min(PendingDecision.expires_at)).where(PendingDecision.session_id == session_id))


def list_pending(db: Session, session_id: uuid.UUID, limit: int) -> list[PendingDecision]:
    """The session's pending decisions, oldest first (expired ones not yet removed are left out)."""
    now = utcnow()
    return list(db.scalars(select(PendingDecision)
                           .where(PendingDecision.session_id == session_id, PendingDecision.expires_at > now)
                           .order_by(PendingDecision.sequence).limit(limit)))


def expiry(now: datetime, ttl_seconds: float) -> datetime:
    return now + timedelta(seconds=ttl_seconds)


def expire_due(db: Session, session_id: uuid.UUID, next_expiry: datetime | None,
               release_one: Callable[[Reservation], None]) -> datetime | None:
    """Let go of every reservation that expired, if any can have (``next_expiry`` has passed):
    ``release_one`` gives each back to the session's state. Returns the new earliest expiry."""
    now = utcnow()
    if next_expiry is None or now < next_expiry:
        return next_expiry
    for reservation in expire(db, session_id, now):
        release_one(reservation)
    return earliest_expiry(db, session_id)


class PendingOut(BaseModel):
    """A decision that holds its batch until it is reported on, released or expires."""

    decision_id: uuid.UUID
    arm: str = Field(description="the group or partition it chose")
    size: int = Field(description="samples or pool items it holds")
    sequence: int = Field(description="its place in the session's decision log")
    expires_at: datetime


def shown(db: Session, session_id: uuid.UUID, arm_names: Sequence[str]) -> list[PendingOut]:
    """A session's pending decisions as its GET shows them (the oldest ``SHOWN_PENDING``)."""
    return [PendingOut(decision_id=p.decision_id, arm=arm_names[p.arm], size=p.size, sequence=p.sequence,
                       expires_at=p.expires_at) for p in list_pending(db, session_id, SHOWN_PENDING)]
