"""Simulations with real worker processes: repetitions fan out over two workers, give the results an
in-process run gives, and cancelling the run stops its outstanding repetitions."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest
from threadpoolctl import threadpool_limits

import service.simulations.tasks  # noqa: F401  (registers the job handlers)
from service.db import transaction
from service.jobs.models import Job
from service.simulations.fanout import CHILD_JOB
from tests.api.test_simulations import URL, body, constant_and_halfspace
from tests.factories import run_queued_jobs
from tests.live import running, wait_for

ENV = {"FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.2", "FAIRACQ_JOB_LEASE_SECONDS": "5", "FAIRACQ_JOB_POLL_SECONDS": "0.05",
       "OMP_NUM_THREADS": "1"}


@contextlib.contextmanager
def workers(database_url: str, tmp_path, n: int) -> Iterator[None]:
    """``n`` worker processes, each polling the queue already (a worker touches its alive file at every
    poll), so that none is still importing while another runs every repetition."""
    alive = [tmp_path / f"worker{k}.alive" for k in range(n)]
    with contextlib.ExitStack() as stack:
        for k in range(n):
            env = {**ENV, "FAIRACQ_WORKER_ALIVE_FILE": str(alive[k])}
            stack.enter_context(running(["worker"], database_url, tmp_path / f"worker{k}.log", env))
        wait_for(lambda: all(path.exists() for path in alive), timeout=120, what="every worker's first poll")
        yield


def children(sessions, simulation_id: str) -> list[Job]:
    with transaction(sessions) as db:
        return db.query(Job).filter(Job.resource_id == uuid.UUID(simulation_id), Job.kind == CHILD_JOB).all()


def test_two_workers_both_run_repetitions_and_match_an_in_process_run(client, sessions, settings, database_url,
                                                                      tmp_path):
    payload = body(constant_and_halfspace(), repetitions=6, budget=40)
    with workers(database_url, tmp_path, 2):
        created = client.post(URL, json=payload).json()
        done = wait_for(lambda: (r := client.get(f"{URL}/{created['id']}").json())["status"] in ("ready", "failed")
                        and r, timeout=240, what="the simulation")
    assert done["status"] == "ready", done
    kids = children(sessions, created["id"])
    assert len(kids) == 6 and {k.status for k in kids} == {"succeeded"}
    assert len({k.worker_id for k in kids}) == 2, [k.worker_id for k in kids]
    with threadpool_limits(1):  # the same seed in one process: the same numbers, bit for bit
        again = client.post(URL, json=payload).json()
        run_queued_jobs(sessions, settings)
    assert client.get(f"{URL}/{again['id']}").json()["results"] == done["results"]


def test_cancelling_the_run_cancels_its_outstanding_repetitions(client, sessions, database_url, tmp_path):
    payload = body(constant_and_halfspace(), repetitions=8, budget=2000, curve_points=2)
    with workers(database_url, tmp_path, 1):
        created = client.post(URL, json=payload).json()
        wait_for(lambda: any(k.status == "running" for k in children(sessions, created["id"])), timeout=120,
                 what="a repetition to start")
        running_progress = wait_for(lambda: (p := client.get(f"{URL}/{created['id']}").json()["progress"]) and p,
                                    timeout=120, what="the run to show its children's progress")
        assert 0 < running_progress < 1
        assert client.post(f"/v1/jobs/{created['job_id']}/cancel").status_code == 202
        shown = wait_for(lambda: (r := client.get(f"{URL}/{created['id']}").json())["status"] not in
                         ("queued", "running") and r, timeout=60, what="the run to stop")
        kids = wait_for(lambda: (k := children(sessions, created["id"])) and all(
            c.status in ("succeeded", "failed", "cancelled") for c in k) and k, timeout=60, what="children to end")
    assert shown["status"] == "cancelled" and shown["results"] is None
    assert len(kids) == 8 and {k.status for k in kids} == {"cancelled"}


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(1):
        yield
