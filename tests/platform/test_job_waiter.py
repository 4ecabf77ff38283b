"""The shared job waiter: many requests waiting on jobs cost one status query per interval in all."""

from __future__ import annotations

import asyncio
import time

import pytest

from service.db import transaction
from service.errors import TooManyRequests
from service.jobs import queue
from service.jobs.waiter import JobWaiter
from tests.factories import default_tenant


def _jobs(sessions, n: int):
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        return tenant.id, [queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep",
                                         resource_type="diagnostics", resource_id=None).id for _ in range(n)]


def _finish(sessions, job_id) -> None:
    with transaction(sessions) as db:
        job = queue.claim(db, "test", 60.0)
        assert job is not None and job.id == job_id
        queue.finish_success(db, job)


def test_three_hundred_waiters_share_one_query_per_interval(sessions):
    tenant_id, (first, second) = _jobs(sessions, 2)
    waiter = JobWaiter(sessions, interval=0.05, max_per_tenant=1000)

    # claim() takes the oldest queued job first.
    async def both() -> list[bool]:
        waits = [asyncio.create_task(waiter.wait(tenant_id, first if i % 2 else second, 5.0)) for i in range(300)]
        await asyncio.sleep(0.3)
        await asyncio.to_thread(_finish, sessions, first)
        await asyncio.to_thread(_finish, sessions, second)
        return await asyncio.gather(*waits)

    started = time.monotonic()
    results = asyncio.run(both())
    elapsed = time.monotonic() - started
    assert all(results) and elapsed < 2.0
    # About one query per 50 ms interval while anyone waits, however many wait.
    assert waiter.queries <= elapsed / 0.05 + 3, (waiter.queries, elapsed)


def test_a_wait_times_out_and_a_tenant_cannot_wait_without_bound(sessions):
    tenant_id, (job,) = _jobs(sessions, 1)
    waiter = JobWaiter(sessions, interval=0.05, max_per_tenant=2)

    async def scenario() -> None:
        holders = [asyncio.create_task(waiter.wait(tenant_id, job, 0.5)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(TooManyRequests):
            await waiter.wait(tenant_id, job, 0.5)
        assert await asyncio.gather(*holders) == [False, False]  # timed out: the job never finished
        assert await waiter.wait(tenant_id, job, 0.05) is False  # the slots came back

    asyncio.run(scenario())
