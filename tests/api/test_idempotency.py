"""Idempotency-Key: replay, mismatch (422), in flight (409), failures release the key."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from service.datasets.models import Dataset
from service.db import transaction, utcnow
from service.idempotency import IdempotencyRecord, claim, fingerprint
from tests.factories import dataset_payload, default_tenant, make_key


def _count(sessions) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).select_from(Dataset))


def test_replay_returns_the_first_response_and_creates_once(client, sessions):
    payload = dataset_payload(n=6)
    first = client.post("/v1/datasets", json=payload, headers={"Idempotency-Key": "abc"})
    again = client.post("/v1/datasets", json=payload, headers={"Idempotency-Key": "abc"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert again.headers["location"] == first.headers["location"]
    assert "idempotent-replayed" not in first.headers
    assert _count(sessions) == 1


def test_same_key_different_body_is_422(client, sessions):
    client.post("/v1/datasets", json=dataset_payload(n=6), headers={"Idempotency-Key": "abc"})
    response = client.post("/v1/datasets", json=dataset_payload(n=7), headers={"Idempotency-Key": "abc"})
    assert response.status_code == 422
    assert "different request" in response.json()["detail"]
    assert _count(sessions) == 1


def test_request_in_flight_is_409(client, sessions):
    payload = dataset_payload(n=6)
    # Simulate a first request still running: a claim that holds its lock.
    import json

    body = json.dumps(payload).encode()
    with transaction(sessions) as db:
        tenant = default_tenant(db)
    claim(sessions, tenant.id, "busy", fingerprint("POST", "/v1/datasets", "", body),
          lock_seconds=60, ttl_hours=24)
    response = client.post("/v1/datasets", content=body,
                           headers={"Idempotency-Key": "busy", "content-type": "application/json"})
    assert response.status_code == 409
    assert "in progress" in response.json()["detail"]
    assert _count(sessions) == 0


def test_a_dead_claim_is_taken_over_after_its_lock_expires(client, sessions):
    import json

    payload = dataset_payload(n=6)
    body = json.dumps(payload).encode()
    with transaction(sessions) as db:
        tenant = default_tenant(db)
    claim(sessions, tenant.id, "dead", fingerprint("POST", "/v1/datasets", "", body),
          lock_seconds=60, ttl_hours=24)
    with transaction(sessions) as db:
        record = db.get(IdempotencyRecord, (tenant.id, "dead"))
        record.locked_until = utcnow() - timedelta(seconds=1)
    response = client.post("/v1/datasets", content=body,
                           headers={"Idempotency-Key": "dead", "content-type": "application/json"})
    assert response.status_code == 201
    assert _count(sessions) == 1


def test_a_failed_request_releases_its_key(client, sessions):
    bad = client.post("/v1/datasets", json={"features": [[1.0], [2.0]], "groups": ["a"]},
                      headers={"Idempotency-Key": "k"})
    assert bad.status_code == 422
    with sessions() as db:
        assert db.scalar(select(func.count()).select_from(IdempotencyRecord)) == 0
    good = client.post("/v1/datasets", json={"features": [[1.0], [2.0]], "groups": ["a", "b"]},
                       headers={"Idempotency-Key": "k"})
    assert good.status_code == 201


def test_keys_are_scoped_per_tenant(client, sessions):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    payload = dataset_payload(n=6)
    a = client.with_key(alice).post("/v1/datasets", json=payload, headers={"Idempotency-Key": "same"})
    b = client.with_key(bob).post("/v1/datasets", json=payload, headers={"Idempotency-Key": "same"})
    assert a.status_code == b.status_code == 201
    assert a.json()["id"] != b.json()["id"]
    assert "idempotent-replayed" not in b.headers


def test_overlong_key_is_422(client):
    response = client.post("/v1/datasets", json=dataset_payload(n=3), headers={"Idempotency-Key": "x" * 300})
    assert response.status_code == 422


def test_expired_records_are_purged_and_fresh_ones_kept(client, sessions):
    from service.idempotency import purge_expired

    client.post("/v1/datasets", json=dataset_payload(n=3), headers={"Idempotency-Key": "old"})
    client.post("/v1/datasets", json=dataset_payload(n=4), headers={"Idempotency-Key": "new"})
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        db.get(IdempotencyRecord, (tenant.id, "old")).expires_at = utcnow() - timedelta(seconds=1)
    with transaction(sessions) as db:
        assert purge_expired(db) == 1
    with sessions() as db:
        assert [r.key for r in db.query(IdempotencyRecord)] == ["new"]
