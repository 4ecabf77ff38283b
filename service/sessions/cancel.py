"""Stopping a job-backed session's long computation when its job's cancel is requested.

A library loop that takes ``should_stop`` polls it between iterations; this probe
answers from the job row, read at most every ``interval`` seconds through a fresh
session, so a cancelled fit stops at its next iteration instead of at the worker's next
heartbeat kill. The handler then raises a :class:`~service.jobs.PermanentError` and the
worker records the job ``cancelled`` (its cancel was requested).
"""

from __future__ import annotations

import time

from sqlalchemy import select

from service import jobs
from service.db import read_only

__all__ = ["CANCEL_POLL_SECONDS", "CancelProbe"]

# The job row is read at most this often: one indexed read per half second costs nothing
# next to an iteration of a fit, and the worker's heartbeat kills the process within one
# beat anyway.
CANCEL_POLL_SECONDS = 0.5


class CancelProbe:
    """``should_stop`` for a library loop: whether the running job's cancel was requested."""

    def __init__(self, ctx: jobs.JobContext, interval: float = CANCEL_POLL_SECONDS) -> None:
        self.ctx, self.interval = ctx, interval
        self.cancelled = False
        self._last = -float("inf")

    def __call__(self) -> bool:
        now = time.monotonic()
        if self.cancelled or now - self._last < self.interval:
            return self.cancelled
        self._last = now
        with self.ctx.sessions() as db:
            self.cancelled = bool(read_only(db).scalar(
                select(jobs.Job.cancel_requested).where(jobs.Job.id == self.ctx.job_id,
                                                        jobs.Job.tenant_id == self.ctx.tenant_id)))
        return self.cancelled
