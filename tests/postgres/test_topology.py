"""The deployed topology, natively: PostgreSQL, one API process and two worker processes.

Mirrors docker/docker-compose.yml (which Docker cannot run here): jobs submitted
through the API's database are picked up by both workers and read back over HTTP.
"""

from __future__ import annotations

import signal

import httpx
import pytest
from sqlalchemy import select

from service.db import transaction
from service.jobs import queue
from service.jobs.models import FINISHED, Job
from tests.conftest import on_postgres
from tests.factories import default_tenant
from tests.live import running, serve, wait_for

pytestmark = pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (FAIRACQ_TEST_DATABASE_URL)")


@pytest.fixture
def topology(database_url, tmp_path):
    """One API process and two worker processes on the PostgreSQL test database."""
    env = {"FAIRACQ_ENABLE_DIAGNOSTIC_JOBS": "true", "FAIRACQ_JOB_POLL_SECONDS": "0.05",
           "FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.5", "FAIRACQ_JOB_LEASE_SECONDS": "5"}
    log = tmp_path / "topology.log"
    try:
        with (serve(database_url, log, env=env) as server,
              running(["worker"], database_url, log, env, stop=signal.SIGTERM),
              running(["worker"], database_url, log, env, stop=signal.SIGTERM)):
            yield server.base_url
    finally:
        print(log.read_text()[-3000:])


def test_a_real_job_submitted_over_http_runs_on_a_worker(topology):
    """A partition bandit over a pool: the API queues the partitioning job, a worker runs it."""
    import numpy as np

    rng = np.random.default_rng(0)
    centers = np.repeat(np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]]), 40, axis=0)
    features = (centers + rng.normal(scale=0.5, size=centers.shape)).round(5).tolist()
    pool = httpx.post(f"{topology}/v1/datasets", timeout=10, json={
        "features": features, "groups": ["a", "b"] * 60, "labels": [0, 1, 1] * 40})
    assert pool.status_code == 201, pool.text
    created = httpx.post(f"{topology}/v1/partition-bandits", timeout=10, json={
        "pool_dataset_id": pool.json()["id"], "batch_size": 5, "budget": 30, "seed": 3,
        "partitioning": {"method": "gmm", "max_components": 4}})
    assert created.status_code == 202, created.text
    job_url = f"{topology}/v1/jobs/{created.json()['job_id']}"
    job = wait_for(lambda: (j := httpx.get(job_url, timeout=5).json())["status"] in FINISHED and j, 60,
                   "the partitioning job", every=0.2)
    assert job["status"] == "succeeded" and job["attempts"] == 1, job
    bandit = httpx.get(f"{topology}/v1/partition-bandits/{created.json()['id']}", timeout=5).json()
    assert bandit["status"] == "ready" and sum(p["size"] for p in bandit["partitions"]) == 120
    decision = httpx.post(f"{topology}/v1/partition-bandits/{bandit['id']}/next", timeout=5)
    assert decision.status_code == 200 and len(decision.json()["item_ids"]) == 5


def test_jobs_spread_over_both_workers(topology, sessions):
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        jobs = [queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                              resource_id=None, payload={"seconds": 0.6}).id for _ in range(4)]
    done: dict = {}

    def all_succeeded() -> bool:
        for job_id in jobs:
            body = httpx.get(f"{topology}/v1/jobs/{job_id}", timeout=5).json()
            if body["status"] == "succeeded":
                done[job_id] = body
        return len(done) == len(jobs)

    wait_for(all_succeeded, 60, "every job to succeed", every=0.2)
    assert all(body["attempts"] == 1 and body["progress"] == 1.0 for body in done.values())
    pids = {body["result"]["worker_pid"] for body in done.values()}
    assert len(pids) == 4  # each job ran in its own child process
    with sessions() as db:  # both worker processes took jobs from the shared queue
        workers = set(db.scalars(select(Job.worker_id).where(Job.id.in_(jobs))))
    assert len(workers) == 2
    metrics = httpx.get(f"{topology}/metrics", timeout=5).text
    assert 'fairacq_jobs{status="succeeded"} 4.0' in metrics
