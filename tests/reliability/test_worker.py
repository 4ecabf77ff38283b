"""Workers as real processes: SIGKILL mid-job, cancellation within a heartbeat, timeouts."""

from __future__ import annotations

import os
import signal
import time

from service.db import transaction
from service.jobs import queue
from service.jobs.models import Job
from tests.factories import default_tenant
from tests.reliability.jobs import HEARTBEAT, enqueue_sleep, wait_job


def test_a_worker_runs_a_job_to_success(sessions, workers):
    job = enqueue_sleep(sessions, 0.3)
    workers()
    done = wait_job(sessions, job.id, lambda j: j.status == "succeeded")
    assert done.attempts == 1 and done.progress == 1.0 and done.result["attempt"] == 1


def test_sigkilled_worker_job_is_claimed_again_and_finishes_once(sessions, workers):
    job = enqueue_sleep(sessions, 2.0)
    first = workers()
    wait_job(sessions, job.id, lambda j: j.status == "running" and j.progress > 0.1)
    os.killpg(first.pid, signal.SIGKILL)  # the worker and its job process die at once
    first.wait(10)
    workers()
    done = wait_job(sessions, job.id, lambda j: j.status == "succeeded", timeout=30)
    assert done.attempts == 2
    assert done.result["attempt"] == 2  # written once, by the attempt that finished


def test_cancel_stops_a_running_job_within_one_heartbeat(sessions, workers, client):
    job = enqueue_sleep(sessions, 30.0)
    workers()
    running = wait_job(sessions, job.id, lambda j: j.status == "running" and j.progress > 0)
    asked = time.monotonic()
    response = client.post(f"/v1/jobs/{job.id}/cancel")
    assert response.status_code == 202 and response.json()["cancel_requested"] is True
    done = wait_job(sessions, job.id, lambda j: j.status == "cancelled")
    elapsed = time.monotonic() - asked
    assert elapsed < HEARTBEAT + 0.5, f"took {elapsed:.2f}s for a {HEARTBEAT}s heartbeat"
    progress = done.progress
    time.sleep(HEARTBEAT * 2)
    with sessions() as db:  # the job process is gone: nothing writes progress any more
        assert db.get(Job, job.id).progress == progress
    assert running.worker_id


def test_a_job_over_its_timeout_is_killed_and_failed(sessions, workers):
    job = enqueue_sleep(sessions, 30.0)
    workers(FAIRACQ_JOB_TIMEOUTS='{"diagnostics.sleep": 0.5}')
    done = wait_job(sessions, job.id, lambda j: j.status in ("failed", "succeeded"))
    assert done.status == "failed" and "timed out" in done.error


def test_a_permanent_error_fails_without_retry(sessions, workers):
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        job = queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                            resource_id=None, payload={"fail": "permanent"})
    workers()
    done = wait_job(sessions, job.id, lambda j: j.status == "failed")
    assert done.attempts == 1 and "asked to fail" in done.error
