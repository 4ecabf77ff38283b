"""Per-tenant quotas: request rate, active jobs, stored bytes; 429 with Retry-After, nothing stored.

Runs on both databases (the active-job and stored-byte counts are SQL).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from service.app import create_app
from service.datasets.models import Dataset
from service.jobs.models import Job
from service.quotas import RateLimiter
from service.sessions.models import SessionRecord
from tests.conftest import fast_settings
from tests.factories import ApiClient, dataset_payload, make_key


@pytest.fixture
def quota_client(database_url, request) -> Iterator[ApiClient]:
    settings = fast_settings(database_url, **request.param)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield ApiClient(test_client)


def _count(sessions, model) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).select_from(model))


def test_the_token_bucket_refills_at_its_rate():
    limiter = RateLimiter(rate=2.0, burst=3)
    tenant = object()
    assert [limiter.wait_seconds(tenant, now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]  # type: ignore[arg-type]
    assert limiter.wait_seconds(tenant, now=0.0) == pytest.approx(0.5)  # type: ignore[arg-type]
    assert limiter.wait_seconds(tenant, now=0.5) == 0.0  # type: ignore[arg-type]  one token back after 1/rate
    assert limiter.wait_seconds(tenant, now=0.6) == pytest.approx(0.4)  # type: ignore[arg-type]
    assert RateLimiter(rate=0, burst=1).wait_seconds(tenant) == 0.0  # type: ignore[arg-type]  0 turns it off


@pytest.mark.parametrize("quota_client", [{"rate_limit_per_second": 0.5, "rate_limit_burst": 3}], indirect=True)
def test_a_tenant_over_its_rate_gets_429_and_others_do_not(quota_client, sessions):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    statuses = [quota_client.with_key(alice).get("/v1/datasets").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = quota_client.with_key(alice).post("/v1/datasets", json=dataset_payload())
    assert refused.status_code == 429 and refused.headers["content-type"] == "application/problem+json"
    assert refused.headers["Retry-After"] == "2"  # 1 token at 0.5 a second
    assert "FAIRACQ_RATE_LIMIT_PER_SECOND" in refused.json()["detail"]
    assert _count(sessions, Dataset) == 0
    assert quota_client.with_key(bob).get("/v1/datasets").status_code == 200


@pytest.mark.parametrize("quota_client", [{"max_active_jobs": 1}], indirect=True)
def test_a_tenant_at_its_active_job_limit_cannot_queue_another(quota_client, sessions):
    dataset = quota_client.post("/v1/datasets", json=dataset_payload(n=60)).json()
    body = {"dataset_id": dataset["id"], "constraint": {"type": "statistical_parity", "slack": 0.05},
            "loss": "square", "seed": 1}
    assert quota_client.post("/v1/fair-regressions", json=body).status_code == 202
    refused = quota_client.post("/v1/fair-regressions", json=body)
    assert refused.status_code == 429, refused.text
    assert refused.headers["Retry-After"] == "5" and "FAIRACQ_MAX_ACTIVE_JOBS" in refused.json()["detail"]
    assert _count(sessions, Job) == 1 and _count(sessions, SessionRecord) == 1  # nothing of the second stored


@pytest.mark.parametrize("quota_client", [{"max_stored_bytes": 20_000}], indirect=True)
def test_a_tenant_over_its_stored_bytes_cannot_upload_more(quota_client, sessions):
    assert quota_client.post("/v1/datasets", json=dataset_payload(n=200, d=5)).status_code == 201
    refused = quota_client.post("/v1/datasets", json=dataset_payload(n=2000, d=5))
    assert refused.status_code == 429, refused.text
    assert "FAIRACQ_MAX_STORED_BYTES" in refused.json()["detail"] and refused.headers["Retry-After"]
    assert _count(sessions, Dataset) == 1
