"""Job kinds and their handlers, and the context a handler runs with.

A resource registers its background work in its ``tasks.py``::

    @job_handler("balanced_filters.fit")
    def fit_filter(ctx: JobContext) -> None:
        ...                                  # heavy work, ctx.progress(0.3) now and then
        ctx.commit(lambda db, job: store(db, job.resource_id, result))

``ctx.commit`` writes the state change and marks the job succeeded in one
transaction, after checking the fencing token.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from service.db import retrying, rowcount, transaction
from service.jobs import queue
from service.jobs.models import Job, resource_of
from service.settings import Settings

__all__ = ["HANDLERS", "JobContext", "PermanentError", "job_handler"]

# Progress is written at most this often, so a fast loop does not hammer the database.
PROGRESS_MIN_INTERVAL_S = 0.5
PROGRESS_RETRY_S = 10.0  # a progress write is given up (not the job) after this
# A cancel request is read at most this often: an indexed read per half second costs nothing
# next to an iteration of a fit, and the worker's heartbeat kills the process within one beat.
CANCEL_POLL_SECONDS = 0.5
log = logging.getLogger(__name__)

Handler = Callable[["JobContext"], None]
HANDLERS: dict[str, Handler] = {}


class PermanentError(Exception):
    """A failure that a retry cannot fix (bad input, infeasible request): fail without retrying."""


def job_handler(kind: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return register


@dataclass
class JobContext:
    job_id: uuid.UUID
    attempt: int
    kind: str
    tenant_id: uuid.UUID
    resource_id: uuid.UUID | None
    payload: dict[str, Any]
    settings: Settings
    sessions: sessionmaker[Session]
    _last_progress: float = field(default=0.0, repr=False)
    _cancel_checked: float = field(default=-float("inf"), repr=False)
    _cancelled: bool = field(default=False, repr=False)

    @property
    def resource(self) -> uuid.UUID:
        """The id of the resource the job works for (a session's jobs all have one)."""
        return resource_of(self.job_id, self.kind, self.resource_id)

    def cancel_requested(self) -> bool:
        """Whether this job's cancel was requested: ``should_stop`` for a library loop, so a
        cancelled fit stops at its next iteration rather than at the worker's next heartbeat.
        Reads the job row at most every ``CANCEL_POLL_SECONDS``."""
        now = time.monotonic()
        if self._cancelled or now - self._cancel_checked < CANCEL_POLL_SECONDS:
            return self._cancelled
        self._cancel_checked = now
        with self.sessions() as db:
            self._cancelled = bool(db.scalar(select(Job.cancel_requested).where(Job.id == self.job_id)))
        return self._cancelled

    def progress(self, fraction: float, *, force: bool = False) -> None:
        """Record progress (0..1), fenced on this attempt; raises StaleAttempt if superseded."""
        now = time.monotonic()
        if not force and now - self._last_progress < PROGRESS_MIN_INTERVAL_S:
            return
        self._last_progress = now

        def write() -> None:
            with transaction(self.sessions) as db:
                done = db.execute(
                    update(Job)
                    .where(Job.id == self.job_id, Job.attempts == self.attempt, Job.status == "running")
                    .values(progress=max(0.0, min(1.0, float(fraction))))
                )
                if rowcount(done) == 0:
                    raise queue.StaleAttempt(f"job {self.job_id} attempt {self.attempt} was superseded")

        try:
            retrying(write, within=PROGRESS_RETRY_S, what="a progress update")
        except (OperationalError, InterfaceError):  # progress is advisory: a blip must not fail the job
            log.warning("progress of job %s not recorded: the database is unreachable", self.job_id)

    def commit(self, write: Callable[[Session, Job], dict[str, Any] | None]) -> None:
        """Write the result and the state change in one fenced transaction (again if the
        database was briefly unreachable: the fence makes a repeat safe)."""

        def attempt() -> None:
            with transaction(self.sessions) as db:
                job = queue.fence(db, self.job_id, self.attempt)
                result = write(db, job)
                queue.finish_success(db, job, result)

        retrying(attempt, what=f"the result of job {self.job_id}")
