"""A worker SIGKILLed in the middle of a real fit: the job is claimed again and its result written once.

The fit is a partition bandit's pool partitioning (a GMM per k in 2..10, BIC picks k): big
enough to take a few seconds, so the kill lands inside the fit, not before or after it.
"""

from __future__ import annotations

import os
import signal
import socket
import time
import uuid

import numpy as np

from service.datasets.schemas import DatasetCreate
from service.datasets.service import create_dataset
from service.db import transaction
from service.jobs.models import Job
from tests.factories import default_tenant
from tests.reliability.jobs import wait_job

POOL_ROWS = 60_000  # 3-10 s of GMM fits on one core, depending on the load
POOL_FEATURES = 8
URL = "/v1/partition-bandits"
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}  # one BLAS thread per worker


def _pool(sessions, settings) -> str:
    """Six overlapping clusters, made with the service function rather than a 10 MB upload."""
    rng = np.random.default_rng(0)
    centres = rng.normal(scale=1.5, size=(6, POOL_FEATURES))
    features = centres[np.arange(POOL_ROWS) % 6] + rng.normal(size=(POOL_ROWS, POOL_FEATURES))
    payload = DatasetCreate(features=features.round(4).tolist(), groups=["a", "b"] * (POOL_ROWS // 2),
                            labels=(features[:, 0] > 0).astype(int).tolist())
    with transaction(sessions) as db:
        return str(create_dataset(db, default_tenant(db).id, payload, settings).id)


def test_sigkilled_worker_mid_partitioning_is_claimed_again_and_finishes_once(client, sessions, settings,
                                                                              workers):
    created = client.post(URL, json={"pool_dataset_id": _pool(sessions, settings), "batch_size": 5,
                                     "budget": 50, "seed": 4, "partitioning": {"method": "gmm"}})
    assert created.status_code == 202, created.text
    bandit, job_id = created.json()["id"], uuid.UUID(created.json()["job_id"])

    first = workers(**ONE_THREAD)
    wait_job(sessions, job_id, lambda j: j.status == "running" and j.progress >= 0.05, timeout=30)
    time.sleep(0.5)  # the job has loaded the pool and is fitting
    with sessions() as db:
        assert db.get(Job, job_id).status == "running", "the fit ended before the kill: make the pool bigger"
    os.killpg(first.pid, signal.SIGKILL)  # the worker and its job process die at once
    first.wait(10)
    assert client.get(f"{URL}/{bandit}").json()["status"] in ("queued", "running")

    second = workers(**ONE_THREAD)
    done = wait_job(sessions, job_id, lambda j: j.status in ("succeeded", "failed"), timeout=90)
    assert done.status == "succeeded" and done.attempts == 2, done.error
    print(f"the second attempt took {(done.finished_at - done.started_at).total_seconds():.1f} s")
    assert done.worker_id == f"{socket.gethostname()}:{second.pid}"  # the second attempt wrote the result
    assert "skipped" not in done.result and 2 <= done.result["k"] <= 10

    state = client.get(f"{URL}/{bandit}")
    body = state.json()
    assert body["status"] == "ready" and state.headers["etag"] == '"2"'  # created, then partitioned once
    assert len(body["partitions"]) == done.result["k"]
    assert sum(p["size"] for p in body["partitions"]) == POOL_ROWS
    log = client.get(f"{URL}/{bandit}/decisions").json()["items"]
    assert [d["kind"] for d in log] == ["create", "partition"]
    assert log[1]["request"] == {"job_id": str(job_id)} and log[1]["state_version"] == 2
    decision = client.post(f"{URL}/{bandit}/next")
    assert decision.status_code == 200 and len(decision.json()["item_ids"]) == 5
