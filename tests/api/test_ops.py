"""Health, readiness and Prometheus metrics."""

from __future__ import annotations

from sqlalchemy import text

from service.db import transaction
from service.jobs import queue
from tests.factories import default_tenant


def test_healthz(client):
    assert client.get("/healthz").json() == {"status": "ok"}


def test_readyz_reports_the_migration(client):
    body = client.get("/readyz").json()
    assert body["status"] == "ready" and body["migration"]


def test_readyz_is_503_when_the_schema_is_behind(client, sessions):
    with transaction(sessions) as db:
        head = db.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        db.execute(text("UPDATE alembic_version SET version_num = 'old'"))
    try:
        response = client.get("/readyz")
    finally:  # the PostgreSQL test database is shared across tests
        with transaction(sessions) as db:
            db.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": head})
    assert response.status_code == 503
    assert "fairacq migrate" in response.json()["detail"]


def test_metrics_expose_latency_by_route_and_jobs_by_status(client, sessions):
    client.get("/v1/datasets")
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                      resource_id=None)
    text_ = client.get("/metrics").text
    assert 'fairacq_request_duration_seconds_count{method="GET",route="/v1/datasets",status="200"}' in text_
    assert 'fairacq_jobs{status="queued"} 1.0' in text_
