"""Seeing what the service does: request ids, JSON log lines, job durations that only grow,
/metrics behind a token, retention, and one trace from a request to the job it queued."""

from __future__ import annotations

import json
import logging
import re
import signal
import uuid
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

import service.jobs.diagnostics  # noqa: F401  (registers diagnostics.sleep)
from service import tracing
from service.app import create_app
from service.db import transaction, utcnow
from service.jobs import queue
from service.jobs.models import Job
from service.logs import REQUEST_ID, JsonFormatter
from service.sessions.models import SessionRecord
from tests.conftest import fast_settings
from tests.factories import dataset_payload, default_tenant, run_queued_jobs, wait_for
from tests.live import Client, running, serve


def test_every_response_carries_a_request_id_and_a_sane_one_is_kept(client):
    generated = client.get("/v1/datasets").headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)
    assert client.get("/v1/datasets", headers={"X-Request-ID": "pipeline-7.run:3"}).headers["x-request-id"] == \
        "pipeline-7.run:3"
    replaced = client.get("/v1/datasets", headers={"X-Request-ID": "bad id; " + "x" * 200}).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", replaced)
    assert client.get("/healthz").headers["x-request-id"]
    assert client.get("/v1/nothing-here").headers["x-request-id"]


def test_one_access_log_line_per_request_with_route_status_tenant_and_duration(client, caplog):
    caplog.set_level(logging.INFO, logger="service.access")
    dataset = client.post("/v1/datasets", json=dataset_payload(), headers={"X-Request-ID": "r-1"}).json()
    client.get(f"/v1/datasets/{dataset['id']}")
    lines = [r for r in caplog.records if r.name == "service.access"]
    assert len(lines) == 2
    first, second = (r.fields for r in lines)
    assert first["route"] == "/v1/datasets" and first["status"] == 201 and first["tenant"] == "default"
    assert second["route"] == "/v1/datasets/{dataset_id}" and second["status"] == 200
    assert second["path"] == f"/v1/datasets/{dataset['id']}" and second["duration_ms"] > 0
    rendered = json.loads(JsonFormatter().format(lines[0]))
    assert rendered["logger"] == "service.access" and rendered["status"] == 201 and rendered["method"] == "POST"


def test_the_json_formatter_stamps_the_request_id():
    record = logging.LogRecord("service.worker", logging.INFO, __file__, 1, "running %s", ("job",), None)
    token = REQUEST_ID.set("req-9")
    try:
        logging.getLogger("x").handlers  # noqa: B018
        from service.logs import _ContextFilter

        _ContextFilter().filter(record)
    finally:
        REQUEST_ID.reset(token)
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "running job" and line["request_id"] == "req-9" and line["level"] == "info"


def _fit(client, request_id: str) -> dict:
    dataset = client.post("/v1/datasets", json=dataset_payload(n=60)).json()
    body = {"dataset_id": dataset["id"], "constraint": {"type": "statistical_parity", "slack": 0.05},
            "loss": "square", "seed": 1}
    response = client.post("/v1/fair-regressions", json=body, headers={"X-Request-ID": request_id})
    assert response.status_code == 202, response.text
    return response.json()


def test_a_job_carries_its_request_id_into_the_workers_log(client, sessions, database_url, tmp_path):
    fit = _fit(client, "pipeline-42")
    with sessions() as db:
        assert db.get(Job, uuid.UUID(fit["job_id"])).request_id == "pipeline-42"
    env = {"FAIRACQ_LOG_FORMAT": "json", "FAIRACQ_JOB_POLL_SECONDS": "0.05", "FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.2",
           "FAIRACQ_JOB_LEASE_SECONDS": "5"}
    log = tmp_path / "worker.log"
    with running(["worker"], database_url, log, env, stop=signal.SIGTERM):
        wait_for(lambda: client.get(f"/v1/jobs/{fit['job_id']}").json()["status"] == "succeeded", 60, "the fit",
                 log=log)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    mine = [line for line in lines if line.get("request_id") == "pipeline-42"]
    assert any("running job" in line["msg"] and line["job_id"] == fit["job_id"] for line in mine), lines[-5:]


def _histogram(client) -> dict[str, float]:
    text = client.get("/metrics").text
    found = {}
    for name in ("count", "sum"):
        match = re.search(rf'fairacq_job_duration_seconds_{name}{{kind="diagnostics.sleep"}} (\S+)', text)
        found[name] = float(match.group(1)) if match else 0.0
    return found


def test_job_durations_only_grow_even_when_retention_deletes_jobs(client, sessions, settings):
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        for _ in range(3):
            queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                          resource_id=None, payload={"seconds": 0.05})
    run_queued_jobs(sessions, settings, ["diagnostics.sleep"])
    before = _histogram(client)
    assert before["count"] == 3 and before["sum"] > 0.1
    with transaction(sessions) as db:
        db.execute(update(Job).values(finished_at=utcnow() - timedelta(days=40)))
        assert queue.purge_finished(db, 30) == 3
        assert queue.purge_finished(db, 0) == 0  # 0 keeps everything
    with sessions() as db:
        assert db.scalars(select(Job)).all() == []
    assert _histogram(client) == before  # a deleted job is not un-counted


def test_retention_keeps_a_sessions_latest_job(client, sessions, settings):
    fit = _fit(client, "r")
    run_queued_jobs(sessions, settings)
    with transaction(sessions) as db:
        db.execute(update(Job).values(finished_at=utcnow() - timedelta(days=40)))
        assert queue.purge_finished(db, 30) == 0
        assert db.scalar(select(SessionRecord.job_id)) is not None
    assert client.get(f"/v1/fair-regressions/{fit['id']}").json()["status"] == "ready"


def test_metrics_need_the_token_when_one_is_set(database_url):
    settings = fast_settings(database_url, metrics_token="s3cret")
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        assert test_client.get("/metrics").status_code == 401
        assert test_client.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 401
        allowed = test_client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert allowed.status_code == 200 and "fairacq_jobs" in allowed.text


def _spans(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith('{"name"')]


@pytest.mark.slow
def test_one_trace_runs_from_the_request_to_its_job(database_url, tmp_path):
    assert tracing._tracer is None  # this process exports nothing; the server does
    log = tmp_path / "server.log"
    env = {"FAIRACQ_OTEL_EXPORTER": "console", "FAIRACQ_JOB_POLL_SECONDS": "0.05",
           "FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.2", "FAIRACQ_JOB_LEASE_SECONDS": "5"}
    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    with serve(database_url, log, workers=1, env=env) as live, Client(live.port) as client:
        dataset = client.post("/v1/datasets", dataset_payload(n=60)).json()
        fit = client.post("/v1/fair-regressions", {
            "dataset_id": dataset["id"], "constraint": {"type": "statistical_parity", "slack": 0.05},
            "loss": "square", "seed": 1}, headers={"traceparent": f"00-{trace_id}-00f067aa0ba902b7-01"}).json()
        wait_for(lambda: client.get(f"/v1/jobs/{fit['job_id']}").json()["status"] == "succeeded", 60, "the fit",
                 log=log, every=0.1)
        wait_for(lambda: any(s["name"].startswith("job ") for s in _spans(log.read_text())), 10)
    spans = [s for s in _spans(log.read_text()) if s["context"]["trace_id"] == f"0x{trace_id}"]
    request = next(s for s in spans if s["name"] == "POST /v1/fair-regressions")
    job = next(s for s in spans if s["name"] == "job fair_regressions.fit")
    assert request["parent_id"] == "0x00f067aa0ba902b7"  # it continued the caller's trace
    assert job["parent_id"] == request["context"]["span_id"]
    assert job["attributes"]["fairacq.job_id"] == fit["job_id"]
