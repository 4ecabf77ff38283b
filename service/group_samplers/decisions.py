"""A group sampler's decisions: ``next`` (one or a batch), each holding its batch until it is settled.

Every decision reserves its batch from the budget (``adaptive_sampling.reserve``) and
is recorded as pending (service.sessions.pending) until the observation that names its
``decision_id`` settles it, it is released, or it expires after the sampler's
``pending_ttl_seconds``; then its samples return to the budget. Several workers
asking at once therefore get different groups where the rule spreads them. A batch
call makes k decisions in one transaction, each with its own id, sequence number
and ``default_rng([seed, sequence])``, as if made one after another.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms import adaptive_sampling
from service.db import utcnow
from service.errors import Conflict
from service.group_samplers.models import SessionRecord
from service.group_samplers.repository import repository
from service.group_samplers.service import library_errors, status_of, summary
from service.group_samplers.state import SamplerSession, load
from service.sessions import pending
from service.sessions.repository import Entry

__all__ = ["expire_due", "make_decisions", "release_decision", "settle_for_observation"]


def expire_due(db: Session, record: SessionRecord, session: SamplerSession) -> SamplerSession:
    """The sampler once every decision past its time has given its samples back."""
    state = session.state

    def give_back(reservation: pending.Reservation) -> None:
        nonlocal state
        state = adaptive_sampling.release(session.sampler, state, reservation.arm, reservation.size)

    next_expiry = pending.expire_due(db, record.id, session.next_expiry, give_back)
    return replace(session, state=state, next_expiry=next_expiry)


def make_decisions(db: Session, tenant_id: uuid.UUID, sampler_id: uuid.UUID, count: int, wait: float,
                   if_match: str | None) -> tuple[list[dict[str, Any]], SessionRecord]:
    """``count`` decisions, each reserving its batch; fewer when the budget runs out after the first.

    One UPDATE of the sampler, one INSERT of the decision-log entries and one of the
    reservations, whatever ``count`` is.
    """
    repo = repository(db, tenant_id)
    record = repo.get_for_update(sampler_id, if_match)
    session = expire_due(db, record, load(record))
    expires = pending.expiry(utcnow(), session.pending_ttl_seconds)
    config, state = session.sampler, session.state
    managed = session.managed
    model_fields = {"model_version": None if managed is None else managed.model_version,
                    "fit_pending": None if managed is None else managed.fit_pending}
    request: dict[str, Any] = {"wait": wait} if wait else {}
    issued, expires_at = pending.Issued(expires), _iso(expires)

    def decide(sequence: int, rng: np.random.Generator) -> None:
        nonlocal state
        with library_errors():
            decision = adaptive_sampling.next_decision(config, state, rng)
        state = adaptive_sampling.reserve(config, state, decision)
        decision_id = uuid.uuid4()
        issued.add(decision_id, sequence, decision.group_index, decision.batch_size, {
            "decision_id": str(decision_id), "round": decision.round, "group": decision.group,
            "batch_size": decision.batch_size, "reason": decision.reason, "note": decision.note,
            "scores": decision.scores, "budget_remaining": decision.budget_remaining,
            "expires_at": expires_at, **model_fields,
        }, request)

    pending.one_after_another(record.seed, record.sequence, count, decide,  # the budget may end the batch early
                              draws=adaptive_sampling.draws_random(config))
    pending.reserve(db, record.id, issued.reservations)
    new = replace(session, state=state, next_expiry=min(session.next_expiry or expires, expires))
    repo.record(record, state=new.state_json(), log=issued.entries)
    return issued.responses, record


def release_decision(db: Session, tenant_id: uuid.UUID, sampler_id: uuid.UUID, decision_id: uuid.UUID,
                     if_match: str | None) -> tuple[dict[str, Any], SessionRecord]:
    """Let a pending decision go: its samples return to the budget at once."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(sampler_id, if_match)
    session = expire_due(db, record, load(record))
    held = pending.settle(db, record.id, decision_id)
    if held is None:
        raise Conflict(f"decision {decision_id} is not pending on this sampler: it was reported on, released or "
                       "expired, or it is not one of this sampler's")
    with library_errors():
        state = adaptive_sampling.release(session.sampler, session.state, held.arm, held.size)
    new = replace(session, state=state)
    response = {"decision_id": str(decision_id), "group": session.sampler.groups[held.arm], "released": held.size,
                **summary(new)}
    repo.record(record, state=new.state_json(), status=status_of(new),
                log=Entry("release", {"decision_id": str(decision_id)}, response))
    return response, record


def settle_for_observation(db: Session, record: SessionRecord, decision_id: uuid.UUID | None) -> int | None:
    """The samples the pending decision an observation names held, now settled (None: not pending)."""
    if decision_id is None:
        return None
    held = pending.settle(db, record.id, decision_id)
    return None if held is None else held.size


def _iso(moment: datetime) -> str:
    """As the API writes a UTC time (pydantic): the log holds the response as it was sent."""
    return moment.isoformat().replace("+00:00", "Z")

