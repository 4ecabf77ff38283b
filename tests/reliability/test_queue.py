"""The job queue's guarantees, step by step: claim, lease, fencing, retries, cancellation."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from service.db import transaction, utcnow
from service.jobs import queue
from service.jobs.models import Job
from service.jobs.registry import JobContext
from tests.factories import default_tenant


def _enqueue(sessions, **payload) -> Job:
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        return queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                             resource_id=None, payload=payload, max_attempts=3)


def _claim(sessions, worker="w1", lease=60.0) -> Job | None:
    with transaction(sessions) as db:
        return queue.claim(db, worker, lease)


def _expire_lease(sessions, job_id) -> None:
    with transaction(sessions) as db:
        db.get(Job, job_id).lease_expires_at = utcnow() - timedelta(seconds=1)


def _job(sessions, job_id) -> Job:
    with sessions() as db:
        return db.get(Job, job_id)


def _context(sessions, settings, job: Job, attempt: int) -> JobContext:
    return JobContext(job_id=job.id, attempt=attempt, kind=job.kind, tenant_id=job.tenant_id,
                      resource_id=None, payload={}, settings=settings, sessions=sessions)


def test_claim_takes_one_job_once(sessions):
    job = _enqueue(sessions)
    claimed = _claim(sessions)
    assert claimed.id == job.id and claimed.attempts == 1 and claimed.status == "running"
    assert claimed.started_at >= claimed.created_at  # stamped when claimed, not when the query began
    assert _claim(sessions, "w2") is None  # leased: nobody else gets it


def test_concurrent_claims_never_hand_out_the_same_job(sessions):
    ids = {_enqueue(sessions).id for _ in range(6)}
    got: list = []
    lock = threading.Lock()

    def grab(name: str) -> None:
        for _ in range(6):
            job = _claim(sessions, name)
            if job is not None:
                with lock:
                    got.append(job.id)

    threads = [threading.Thread(target=grab, args=(f"w{i}",)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == sorted(ids)  # each exactly once


def test_expired_lease_is_claimed_again_with_a_new_fencing_token(sessions):
    job = _enqueue(sessions)
    _claim(sessions)
    _expire_lease(sessions, job.id)
    again = _claim(sessions, "w2")
    assert again.id == job.id and again.attempts == 2 and again.worker_id == "w2"


def test_a_late_result_from_a_stale_attempt_is_rejected(sessions, settings):
    job = _enqueue(sessions)
    _claim(sessions)                       # attempt 1 ...
    _expire_lease(sessions, job.id)        # ... is presumed dead
    _claim(sessions, "w2")                 # attempt 2 takes over
    _context(sessions, settings, job, 2).commit(lambda db, j: {"by": 2})
    with pytest.raises(queue.StaleAttempt):
        _context(sessions, settings, job, 1).commit(lambda db, j: {"by": 1})
    with pytest.raises(queue.StaleAttempt):
        _context(sessions, settings, job, 1).progress(0.5, force=True)
    final = _job(sessions, job.id)
    assert final.status == "succeeded" and final.result == {"by": 2}


def test_heartbeat_renews_the_lease_and_reports_cancellation(sessions):
    job = _enqueue(sessions)
    _claim(sessions, lease=1.0)
    before = _job(sessions, job.id).lease_expires_at
    with transaction(sessions) as db:
        assert queue.heartbeat(db, job.id, 1, 60.0) is False
    assert _job(sessions, job.id).lease_expires_at > before
    with transaction(sessions) as db:
        queue.request_cancel(db, db.get(Job, job.id))
    with transaction(sessions) as db:
        assert queue.heartbeat(db, job.id, 1, 60.0) is True
    with pytest.raises(queue.StaleAttempt), transaction(sessions) as db:
        queue.heartbeat(db, job.id, 7, 60.0)


def test_failures_retry_with_exponential_backoff_then_fail(sessions):
    job = _enqueue(sessions)
    delays = []
    for attempt in (1, 2, 3):
        claimed = _claim(sessions)
        assert claimed is not None and claimed.attempts == attempt
        with transaction(sessions) as db:
            failed = queue.finish_failure(db, job.id, attempt, f"boom {attempt}", backoff_seconds=10)
            delays.append((failed.run_after - utcnow()).total_seconds() if failed.status == "queued" else None)
            status = failed.status
        if status == "queued":
            with transaction(sessions) as db:
                db.get(Job, job.id).run_after = utcnow()  # skip the wait
    assert delays[0] == pytest.approx(10, abs=1) and delays[1] == pytest.approx(20, abs=1)
    final = _job(sessions, job.id)
    assert final.status == "failed" and final.error == "boom 3" and final.finished_at is not None


def test_a_job_whose_last_attempt_died_is_failed_not_rerun(sessions):
    job = _enqueue(sessions)
    with transaction(sessions) as db:
        db.get(Job, job.id).max_attempts = 1
    _claim(sessions)
    _expire_lease(sessions, job.id)
    assert _claim(sessions) is None
    assert _job(sessions, job.id).status == "failed"


def test_cancel_a_queued_job_at_once(sessions):
    job = _enqueue(sessions)
    with transaction(sessions) as db:
        queue.request_cancel(db, db.get(Job, job.id))
    assert _job(sessions, job.id).status == "cancelled"
    assert _claim(sessions) is None
