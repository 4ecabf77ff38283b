"""Waiting for jobs to finish, for requests that ask to (``?wait=``), at one query per interval in all.

Every waiter of this process registers the job it waits for; one poller reads the
status of all registered jobs in one query every ``POLL_INTERVAL_S`` and wakes the
waiters of those that finished. Three hundred waiters cost what one does: one
indexed read per interval, not one each. A tenant may have at most
``MAX_WAITERS_PER_TENANT`` requests waiting in this process; more get 429.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import Counter

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from service.errors import TooManyRequests
from service.jobs.models import FINISHED, Job

__all__ = ["JobWaiter"]

log = logging.getLogger(__name__)
POLL_INTERVAL_S = 0.1  # a finished job is seen within this, at one query per interval for all waiters
MAX_WAITERS_PER_TENANT = 100


class JobWaiter:
    def __init__(self, readers: sessionmaker[Session], interval: float = POLL_INTERVAL_S,
                 max_per_tenant: int = MAX_WAITERS_PER_TENANT) -> None:
        self.readers = readers
        self.interval = interval
        self.max_per_tenant = max_per_tenant
        self._events: dict[uuid.UUID, asyncio.Event] = {}
        self._waiting: Counter[uuid.UUID] = Counter()  # waiters per job
        self._per_tenant: Counter[uuid.UUID] = Counter()
        self._poller: asyncio.Task[None] | None = None
        self.queries = 0  # status reads so far (for tests)

    async def wait(self, tenant_id: uuid.UUID, job_id: uuid.UUID, timeout: float) -> bool:
        """Wait until the job has finished or ``timeout`` seconds passed; return whether it finished."""
        if self._per_tenant[tenant_id] >= self.max_per_tenant:
            raise TooManyRequests(f"{self.max_per_tenant} requests of this tenant are already waiting for jobs; "
                                  "retry without ?wait or later", retry_after=1)
        event = self._events.setdefault(job_id, asyncio.Event())
        self._waiting[job_id] += 1
        self._per_tenant[tenant_id] += 1
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll())
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            self._per_tenant[tenant_id] -= 1
            if self._per_tenant[tenant_id] <= 0:
                del self._per_tenant[tenant_id]
            self._waiting[job_id] -= 1
            if self._waiting[job_id] <= 0:
                del self._waiting[job_id]
                self._events.pop(job_id, None)

    async def _poll(self) -> None:
        while self._waiting:
            ids = list(self._waiting)
            try:
                finished = await run_in_threadpool(self._finished, ids)
            except Exception:  # a database blip: waiters keep waiting until their timeout
                log.warning("could not read job statuses for waiting requests", exc_info=True)
                finished = set()
            for job_id in finished:
                event = self._events.get(job_id)
                if event is not None:
                    event.set()
            await asyncio.sleep(self.interval)

    def _finished(self, ids: list[uuid.UUID]) -> set[uuid.UUID]:
        self.queries += 1
        with self.readers() as db:
            return set(db.scalars(select(Job.id).where(Job.id.in_(ids), Job.status.in_(FINISHED))))
