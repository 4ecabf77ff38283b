"""``/v1/webhooks`` through the app: subscriptions, URL validation (422, nothing stored), tenants apart,
and the outbox: events are written with the change they announce, and not at all when it rolls back."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import func, select

from service.db import transaction
from service.jobs import queue
from service.jobs.models import Job
from service.webhooks import outbox
from service.webhooks.models import DELIVER, WebhookDelivery
from tests.factories import default_tenant, make_key

PROBLEM = "application/problem+json"


def _subscribe(client, url: str = "https://hooks.example.com/fairacq", events=("job.finished",)):
    return client.post("/v1/webhooks", json={"url": url, "event_types": list(events)})


def test_a_subscription_is_created_listed_read_and_deleted(client):
    created = _subscribe(client, events=["filter.ready", "job.finished", "filter.ready"])
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["event_types"] == ["filter.ready", "job.finished"] and body["secret"].startswith("whsec_")
    assert created.headers["location"] == f"/v1/webhooks/{body['id']}"
    listed = client.get("/v1/webhooks").json()["items"]
    assert [w["id"] for w in listed] == [body["id"]] and "secret" not in listed[0]
    assert client.get(f"/v1/webhooks/{body['id']}/deliveries").json()["items"] == []
    assert client.delete(f"/v1/webhooks/{body['id']}").status_code == 204
    assert client.get(f"/v1/webhooks/{body['id']}").status_code == 404
    assert client.get("/v1/webhooks").json()["items"] == []


@pytest.mark.parametrize(("url", "says"), [
    ("ftp://hooks.example.com/x", "http:// or https://"),
    ("file:///etc/passwd", "http:// or https://"),
    ("hooks.example.com/fairacq", "http:// or https://"),
    ("https:///no-host", "must name a host"),
    ("https://example.com:port/x", "valid URL"),
    ("https://example.com/a b", "spaces"),
])
def test_a_url_that_is_not_http_is_refused_with_a_clear_422(client, url, says):
    response = _subscribe(client, url)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == PROBLEM
    error = response.json()["errors"][0]
    assert error["loc"] == ["body", "url"] and says in error["msg"], error
    assert client.get("/v1/webhooks").json()["items"] == []


def test_unknown_event_types_and_fields_are_refused(client):
    assert client.post("/v1/webhooks", json={"url": "https://a.example", "event_types": ["job.started"]}
                       ).status_code == 422
    assert client.post("/v1/webhooks", json={"url": "https://a.example", "event_types": []}).status_code == 422
    assert client.post("/v1/webhooks", json={"url": "https://a.example", "event_types": ["job.finished"],
                                             "secret": "mine"}).status_code == 422


def test_another_tenants_webhooks_and_deliveries_are_not_found(client, sessions):
    alice, bob = client.with_key(make_key(sessions, "alice")), client.with_key(make_key(sessions, "bob"))
    hook = _subscribe(alice).json()
    assert bob.get(f"/v1/webhooks/{hook['id']}").status_code == 404
    assert bob.get(f"/v1/webhooks/{hook['id']}/deliveries").status_code == 404
    assert bob.delete(f"/v1/webhooks/{hook['id']}").status_code == 404
    assert bob.get("/v1/webhooks").json()["items"] == []
    assert alice.get(f"/v1/webhooks/{hook['id']}").status_code == 200
    assert bob.get(f"/v1/webhook-deliveries/{uuid.uuid4()}").status_code == 404


def _count(sessions, model, *where) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).select_from(model).where(*where)) or 0


def test_an_event_is_queued_with_its_change_and_not_at_all_when_the_change_rolls_back(client, sessions):
    assert _subscribe(client).status_code == 201  # (open mode: the default tenant)
    with sessions() as db:
        tenant = default_tenant(db)
    with pytest.raises(RuntimeError), transaction(sessions) as db:
        job = queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                            resource_id=None)
        queue.request_cancel(db, job)  # finished: announced in this transaction...
        assert _count_in(db, WebhookDelivery) == 1
        raise RuntimeError("...which rolls back")
    assert _count(sessions, WebhookDelivery) == 0 and _count(sessions, Job, Job.kind == DELIVER) == 0
    with transaction(sessions) as db:
        job = queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                            resource_id=None)
        queue.request_cancel(db, job)
    assert _count(sessions, WebhookDelivery) == 1 and _count(sessions, Job, Job.kind == DELIVER) == 1
    with transaction(sessions) as db:  # an event type nobody subscribed to queues nothing
        assert outbox.emit(db, tenant.id, "session.done", {}) == []
    [delivery] = client.get(f"/v1/webhooks/{client.get('/v1/webhooks').json()['items'][0]['id']}/deliveries"
                            ).json()["items"]
    assert (delivery["event_type"], delivery["status"], delivery["attempts"]) == ("job.finished", "pending", 0)
    refused = client.post(f"/v1/webhook-deliveries/{delivery['id']}/redeliver")
    assert refused.status_code == 409 and refused.headers["content-type"] == PROBLEM


def test_webhook_deliveries_do_not_count_against_the_job_quota(database_url, sessions):
    from fastapi.testclient import TestClient

    from service.app import create_app
    from tests.conftest import fast_settings
    from tests.factories import ApiClient

    with TestClient(create_app(fast_settings(database_url, max_active_jobs=1)), raise_server_exceptions=False) as raw:
        client = ApiClient(raw)
        assert _subscribe(client).status_code == 201
        with sessions() as db:
            tenant = default_tenant(db)
        with transaction(sessions) as db:
            for _ in range(3):
                job = queue.enqueue(db, tenant_id=tenant.id, kind="diagnostics.sleep", resource_type="diagnostics",
                                    resource_id=None)
                queue.request_cancel(db, job)
        assert _count(sessions, Job, Job.kind == DELIVER, Job.status == "queued") == 3
        created = client.post("/v1/balanced-filters", json={  # queues a fit job: the quota is checked
            "groups": ["a", "b"], "proxy": {"type": "naive_tree", "max_depth": 2}, "seed": 0,
            "training": {"features": [[float(i % 5)] for i in range(20)], "groups": ["a", "b"] * 10}})
        assert created.status_code == 202, created.text


def _count_in(db, model) -> int:
    return db.scalar(select(func.count()).select_from(model)) or 0
