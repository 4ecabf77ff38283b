"""The deployed topology, natively: PostgreSQL, one API process and two worker processes.

Mirrors docker/docker-compose.yml (which Docker cannot run here): jobs submitted
through the API's database are picked up by both workers and read back over HTTP.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from service.auth import resolve_tenant
from service.db import transaction
from service.jobs import queue
from tests.conftest import on_postgres

pytestmark = pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (FAIRACQ_TEST_DATABASE_URL)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(base: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the API did not become ready")


@pytest.fixture
def topology(database_url, tmp_path):
    env = dict(os.environ, FAIRACQ_DATABASE_URL=database_url, FAIRACQ_ENABLE_DIAGNOSTIC_JOBS="true",
               FAIRACQ_JOB_POLL_SECONDS="0.05", FAIRACQ_JOB_HEARTBEAT_SECONDS="0.5",
               FAIRACQ_JOB_LEASE_SECONDS="5")
    port = _free_port()
    log = open(tmp_path / "topology.log", "ab")  # noqa: SIM115 - closed in teardown
    commands = [[sys.executable, "-m", "service", "serve", "--port", str(port), "--workers", "0"]]
    commands += [[sys.executable, "-m", "service", "worker"] for _ in range(2)]
    procs = [subprocess.Popen(c, env=env, stdout=log, stderr=log, start_new_session=True) for c in commands]
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_ready(base)
        yield base
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(15)
        log.close()
        print((tmp_path / "topology.log").read_text()[-3000:])


def test_jobs_run_end_to_end_through_api_and_two_workers(topology, sessions):
    with transaction(sessions) as db:
        tenant = resolve_tenant(db, None)
        jobs = [queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                              resource_id=None, payload={"seconds": 0.6}).id for _ in range(4)]
    deadline = time.monotonic() + 60
    done: dict = {}
    while time.monotonic() < deadline and len(done) < len(jobs):
        for job_id in jobs:
            body = httpx.get(f"{topology}/v1/jobs/{job_id}", timeout=5).json()
            if body["status"] == "succeeded":
                done[job_id] = body
        time.sleep(0.2)
    assert len(done) == len(jobs)
    assert all(body["attempts"] == 1 and body["progress"] == 1.0 for body in done.values())
    pids = {body["result"]["worker_pid"] for body in done.values()}
    assert len(pids) == 4  # each job ran in its own child process
    metrics = httpx.get(f"{topology}/metrics", timeout=5).text
    assert 'fairacq_jobs{status="succeeded"} 4.0' in metrics
