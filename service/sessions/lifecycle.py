"""The life of a decision session, the same for every decision type.

::

    create    the resource validates its request, builds its typed config and initial state,
              and stores them (SessionRepository.create) with a "create" log entry and a seed
    prepare   a session that needs a worker first (a fit, a partitioning) queues its job with
              start_job(): it is "pending" until the job stores its result and makes it "ready"
    decide    lock the row (If-Match), run the pure step on the typed state, then one
              SessionRepository.record(): the new state, version and sequence in one UPDATE,
              and the decision-log entry
    report    counted once per client id (service.sessions.service.report_once)
    read      the resource renders its typed state; shown_status() gives the status
    end       "done" when the budget is spent or the algorithm stops; DELETE removes the row,
              its blobs and its log, and cancels its jobs

One status vocabulary for every session, the job words where they mean the same
(``SessionStatus``): ``queued`` and ``running`` while the job that prepares the
session does, then ``ready``; ``failed`` or ``cancelled`` if that job did; ``done``
when no decision is left to make. A job's own status is ``queued``, ``running``,
``succeeded``, ``failed`` or ``cancelled`` (service.jobs).
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from sqlalchemy.orm import Session

from service import jobs
from service.errors import Conflict, NotReady
from service.sessions.models import SessionRecord
from service.settings import Settings

__all__ = [
    "DONE", "PENDING", "READY", "SESSION_STATUSES", "SessionStatus", "Shown", "new_seed", "require_ready",
    "shown_status", "start_job",
]

SessionStatus = Literal["queued", "running", "ready", "done", "failed", "cancelled"]
SESSION_STATUSES: tuple[str, ...] = ("queued", "running", "ready", "done", "failed", "cancelled")
# What a session row stores; "pending" is shown as its job's status.
PENDING, READY, DONE = "pending", "ready", "done"
SEED_BITS = 63  # a seed fits a signed 64-bit column


# A pending session shows its job's status while the job is queued or running.
_AT_WORK: dict[str, SessionStatus] = {"queued": "queued", "running": "running"}


def is_session_status(status: str) -> TypeGuard[SessionStatus]:
    """Whether a stored status is one the API shows as it is (every one but ``pending``)."""
    return status in SESSION_STATUSES


def new_seed(seed: int | None) -> int:
    """The client's seed, or a random one (stored, so every decision stays replayable)."""
    return seed if seed is not None else secrets.randbits(SEED_BITS)


@dataclass(frozen=True)
class Shown:
    """A session's status as the API shows it, with its preparing job's progress and error."""

    status: SessionStatus
    error: str | None = None
    progress: float | None = None


def shown_status(db: Session, tenant_id: uuid.UUID, record: SessionRecord, work: str) -> Shown:
    """The session's status; while it is pending, its job's (``work`` names the job in errors)."""
    if record.status != PENDING:
        assert is_session_status(record.status), f"a session stores {record.status!r}"
        return Shown(record.status, progress=1.0 if record.job_id is not None else None)
    job = jobs.view(db, tenant_id, record.job_id) if record.job_id is not None else None
    if job is None:
        return Shown("failed", f"the {work} job no longer exists")
    at_work = _AT_WORK.get(job.status)
    if at_work is not None:
        return Shown(at_work, progress=job.progress)
    if job.status == "cancelled":
        return Shown("cancelled", job.error or f"the {work} job was cancelled", job.progress)
    if job.status == "succeeded":  # the job found the session changed and stored nothing
        return Shown("failed", f"the {work} job finished without storing a result", job.progress)
    return Shown("failed", job.error or f"the {work} job failed", job.progress)


def require_ready(db: Session, tenant_id: uuid.UUID, record: SessionRecord, work: str, noun: str) -> None:
    """409 unless the session can decide: ``not-ready`` while its job runs, ``conflict`` otherwise."""
    if record.status == READY:
        return
    shown = shown_status(db, tenant_id, record, work)
    if shown.status in ("queued", "running"):
        raise NotReady(f"the {noun} is {shown.status}: its {work} job {record.job_id} has not finished; "
                       "retry when its status is ready")
    if shown.status == DONE:
        raise Conflict(f"the {noun} is done: no decision is left to make")
    raise Conflict(f"the {noun} is {shown.status}: {shown.error}")


def start_job(db: Session, settings: Settings, record: SessionRecord, kind: str,
              payload: dict[str, Any] | None = None, *, pending: bool = True) -> jobs.Job:
    """Queue ``kind`` for the session, in the caller's transaction; the session waits for it
    (status ``pending``) unless ``pending`` is False (a refit of a session that stays usable)."""
    job = jobs.enqueue(db, settings, tenant_id=record.tenant_id, kind=kind, resource_type=record.kind,
                       resource_id=record.id, payload=payload)
    record.job_id = job.id
    if pending:
        record.status = PENDING
    return job
