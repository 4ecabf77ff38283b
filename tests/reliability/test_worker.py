"""Workers as real processes: SIGKILL mid-job, cancellation within a heartbeat, timeouts."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

from service.db import transaction
from service.jobs import queue
from service.jobs.models import Job
from tests.factories import default_tenant

HEARTBEAT = 0.3
LEASE = 1.5


def _env(database_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "FAIRACQ_DATABASE_URL": database_url,
        "FAIRACQ_JOB_HEARTBEAT_SECONDS": str(HEARTBEAT),
        "FAIRACQ_JOB_LEASE_SECONDS": str(LEASE),
        "FAIRACQ_JOB_POLL_SECONDS": "0.05",
        "FAIRACQ_JOB_BACKOFF_SECONDS": "0.1",
        "FAIRACQ_ENABLE_DIAGNOSTIC_JOBS": "true",
        **extra,
    })
    return env


def _start_worker(database_url: str, log, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "service", "worker"], env=_env(database_url, **extra),
                            start_new_session=True, stdout=log, stderr=log)


def _stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        proc.wait(10)


def _enqueue(sessions, seconds: float, max_attempts: int = 3) -> Job:
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        return queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                             resource_id=None, payload={"seconds": seconds}, max_attempts=max_attempts)


def _wait(sessions, job_id, predicate, timeout: float = 20.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with sessions() as db:
            job = db.get(Job, job_id)
            if predicate(job):
                return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not reach the expected state; last: {job.status}")


@pytest.fixture
def workers(database_url, tmp_path):
    """Start worker processes; their log is printed when a test fails."""
    started: list[subprocess.Popen] = []
    log_path = tmp_path / "workers.log"
    with open(log_path, "ab") as log:

        def start(**extra: str) -> subprocess.Popen:
            proc = _start_worker(database_url, log, **extra)
            started.append(proc)
            return proc

        yield start
        for proc in started:
            _stop(proc, signal.SIGKILL)
    print(log_path.read_text()[-4000:])


def test_a_worker_runs_a_job_to_success(sessions, workers):
    job = _enqueue(sessions, 0.3)
    workers()
    done = _wait(sessions, job.id, lambda j: j.status == "succeeded")
    assert done.attempts == 1 and done.progress == 1.0 and done.result["attempt"] == 1


def test_sigkilled_worker_job_is_claimed_again_and_finishes_once(sessions, workers):
    job = _enqueue(sessions, 2.0)
    first = workers()
    _wait(sessions, job.id, lambda j: j.status == "running" and j.progress > 0.1)
    os.killpg(first.pid, signal.SIGKILL)  # the worker and its job process die at once
    first.wait(10)
    workers()
    done = _wait(sessions, job.id, lambda j: j.status == "succeeded", timeout=30)
    assert done.attempts == 2
    assert done.result["attempt"] == 2  # written once, by the attempt that finished


def test_cancel_stops_a_running_job_within_one_heartbeat(sessions, workers, client):
    job = _enqueue(sessions, 30.0)
    workers()
    running = _wait(sessions, job.id, lambda j: j.status == "running" and j.progress > 0)
    asked = time.monotonic()
    response = client.post(f"/v1/jobs/{job.id}/cancel")
    assert response.status_code == 202 and response.json()["cancel_requested"] is True
    done = _wait(sessions, job.id, lambda j: j.status == "cancelled")
    elapsed = time.monotonic() - asked
    assert elapsed < HEARTBEAT + 0.5, f"took {elapsed:.2f}s for a {HEARTBEAT}s heartbeat"
    progress = done.progress
    time.sleep(HEARTBEAT * 2)
    with sessions() as db:  # the job process is gone: nothing writes progress any more
        assert db.get(Job, job.id).progress == progress
    assert running.worker_id


def test_a_job_over_its_timeout_is_killed_and_failed(sessions, workers):
    job = _enqueue(sessions, 30.0)
    workers(FAIRACQ_JOB_TIMEOUTS='{"diagnostics.sleep": 0.5}')
    done = _wait(sessions, job.id, lambda j: j.status in ("failed", "succeeded"))
    assert done.status == "failed" and "timed out" in done.error


def test_a_permanent_error_fails_without_retry(sessions, workers):
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        job = queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                            resource_id=None, payload={"fail": "permanent"})
    workers()
    done = _wait(sessions, job.id, lambda j: j.status == "failed")
    assert done.attempts == 1 and "asked to fail" in done.error
