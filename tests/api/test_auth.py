"""API keys: open mode without keys, 401 once a key exists, tenants isolated (404 across)."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from service.auth import ApiKey, hash_key
from service.db import transaction
from service.jobs import queue
from tests.factories import make_key, upload_dataset


def test_open_mode_without_keys_acts_as_default_tenant(client):
    assert upload_dataset(client)["id"]


def test_without_keys_and_without_open_mode_every_request_is_refused(database_url):
    from fastapi.testclient import TestClient

    from service.app import create_app
    from tests.conftest import fast_settings

    app = create_app(fast_settings(database_url, open_mode=False))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        for method, path in (("GET", "/v1/datasets"), ("POST", "/v1/datasets")):
            response = test_client.request(method, path, json={"features": [[1.0]], "groups": ["a"]},
                                           headers={"Idempotency-Key": "k1"})
            assert response.status_code == 401, (method, response.text)
            assert "FAIRACQ_OPEN_MODE" in response.json()["detail"]
        assert test_client.get("/healthz").status_code == 200


def test_once_a_key_exists_v1_requires_one(client, sessions):
    key = make_key(sessions, "acme")
    response = client.get("/v1/datasets")
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert client.with_key("fa_wrong").get("/v1/datasets").status_code == 401
    assert client.get("/v1/datasets", headers={"Authorization": "Basic abc"}).status_code == 401
    assert client.with_key(key).get("/v1/datasets").status_code == 200
    for path in ("/healthz", "/readyz", "/metrics"):
        assert client.get(path).status_code == 200


def test_keys_are_stored_hashed(sessions):
    key = make_key(sessions, "acme")
    with sessions() as db:
        stored = db.scalars(select(ApiKey.key_hash)).all()
    assert stored == [hash_key(key)]
    assert key not in stored


def test_tenants_cannot_see_each_others_datasets(client, sessions):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    mine = upload_dataset(client.with_key(alice))
    as_bob = client.with_key(bob)
    assert as_bob.get(f"/v1/datasets/{mine['id']}").status_code == 404
    assert as_bob.delete(f"/v1/datasets/{mine['id']}").status_code == 404
    assert as_bob.get("/v1/datasets").json()["items"] == []
    assert client.with_key(alice).get(f"/v1/datasets/{mine['id']}").status_code == 200


def test_tenants_cannot_see_each_others_jobs(client, sessions):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    tenant_id = client.with_key(alice).get("/v1/datasets") and _tenant_id(sessions, "alice")
    with transaction(sessions) as db:
        job = queue.enqueue(db, tenant_id=tenant_id, kind="diagnostics.sleep", resource_type="diagnostics",
                            resource_id=None, payload={"seconds": 0})
    as_bob = client.with_key(bob)
    assert as_bob.get(f"/v1/jobs/{job.id}").status_code == 404
    assert as_bob.post(f"/v1/jobs/{job.id}/cancel").status_code == 404
    assert as_bob.get("/v1/jobs").json()["items"] == []
    assert client.with_key(alice).get(f"/v1/jobs/{job.id}").json()["status"] == "queued"


def _tenant_id(sessions, name: str) -> uuid.UUID:
    from service.auth import Tenant

    with sessions() as db:
        return db.scalar(select(Tenant.id).where(Tenant.name == name))


def test_create_api_key_command_prints_a_working_key(database_url, monkeypatch, capsys, client):
    from service.__main__ import main
    from service.settings import get_settings

    monkeypatch.setenv("FAIRACQ_DATABASE_URL", database_url)
    get_settings.cache_clear()
    try:
        assert main(["create-api-key", "--tenant", "cli"]) == 0
    finally:
        get_settings.cache_clear()
    key = capsys.readouterr().out.strip()
    assert key.startswith("fa_") and len(key) > 40
    assert client.with_key(key).get("/v1/datasets").status_code == 200
    assert client.get("/v1/datasets").status_code == 401


def test_requests_that_miss_the_cache_at_once_share_one_lookup(app, monkeypatch):
    """An expired entry under load is read again once, not once per request in flight."""
    import asyncio
    import time

    from starlette.requests import Request

    from service import auth

    key = None
    lookups: list[str | None] = []

    def slow_lookup(readers, writers, token, open_mode):
        lookups.append(token)
        time.sleep(0.05)  # the requests below all arrive while this read runs
        return auth.CurrentTenant(uuid.uuid4(), "acme", key)

    monkeypatch.setattr(auth, "_lookup", slow_lookup)
    app.state.readers = app.state.sessions = None  # (the lookup above reads nothing)

    def request(token: str | None) -> Request:
        headers = [] if token is None else [(b"authorization", f"Bearer {token}".encode())]
        return Request({"type": "http", "app": app, "headers": headers, "method": "POST", "path": "/v1/x"})

    async def burst() -> list[auth.CurrentTenant]:
        first = await asyncio.gather(*(auth.authenticate(request("fa_one")) for _ in range(8)),
                                     auth.authenticate(request("fa_two")))
        again = await auth.authenticate(request("fa_one"))  # cached now
        return [*first, again]

    tenants = asyncio.run(burst())
    assert sorted(lookups) == ["fa_one", "fa_two"]
    assert len({t.id for t in tenants[:8]} | {tenants[9].id}) == 1  # the eight and the cached one: one lookup's
    assert tenants[8].id != tenants[0].id
    assert app.state.tenant_lookups == {}  # nothing left in flight
