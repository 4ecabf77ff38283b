"""API keys' lifecycle through the app: admin routes (403 for plain keys, tenant-scoped), revocation,
rotation with a grace period, expiry, last use, and the key id in every decision-log entry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from service.auth import ApiKey, hash_key
from service.sessions.models import Decision
from tests.factories import make_key, wait_for

PROBLEM = "application/problem+json"
REVOCATION_S = 5.0  # the bound; the key cache trusts a key for 2 s


def _key_id(sessions, key: str) -> uuid.UUID:
    with sessions() as db:
        return db.scalar(select(ApiKey.id).where(ApiKey.key_hash == hash_key(key)))


def test_an_admin_key_creates_lists_reads_and_the_list_holds_no_secret(client, sessions):
    admin = client.with_key(make_key(sessions, "acme", scope="admin"))
    created = admin.post("/v1/admin/keys", json={"name": "ci runner", "scope": "plain"})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["key"].startswith("fa_") and body["name"] == "ci runner" and body["status"] == "active"
    assert created.headers["location"] == f"/v1/admin/keys/{body['id']}"
    assert client.with_key(body["key"]).get("/v1/datasets").status_code == 200
    listing = admin.get("/v1/admin/keys")
    assert listing.status_code == 200
    items = listing.json()["items"]
    assert [k["name"] for k in items] == [None, "ci runner"]
    assert [k["scope"] for k in items] == ["admin", "plain"]
    assert body["key"] not in listing.text and "key_hash" not in listing.text
    assert all("key" not in item for item in items)
    one = admin.get(f"/v1/admin/keys/{body['id']}").json()
    assert one["prefix"] == body["key"][:10] and "key" not in one


def test_a_plain_key_gets_403_on_every_admin_route(client, sessions):
    plain = client.with_key(make_key(sessions, "acme"))
    some_id = uuid.uuid4()
    for method, path, body in (("GET", "/v1/admin/keys", None), ("POST", "/v1/admin/keys", {}),
                               ("GET", f"/v1/admin/keys/{some_id}", None),
                               ("POST", f"/v1/admin/keys/{some_id}/revoke", None),
                               ("POST", f"/v1/admin/keys/{some_id}/rotate", {})):
        response = plain.request(method, path, json=body)
        assert response.status_code == 403, (method, path, response.text)
        assert response.headers["content-type"] == PROBLEM
        assert "admin-scoped" in response.json()["detail"]


def test_admin_routes_stay_within_the_tenant(client, sessions):
    alice = client.with_key(make_key(sessions, "alice", scope="admin"))
    bob_key = make_key(sessions, "bob")
    bob_id = _key_id(sessions, bob_key)
    assert alice.get(f"/v1/admin/keys/{bob_id}").status_code == 404
    assert alice.post(f"/v1/admin/keys/{bob_id}/revoke").status_code == 404
    assert alice.post(f"/v1/admin/keys/{bob_id}/rotate", json={}).status_code == 404
    assert len(alice.get("/v1/admin/keys").json()["items"]) == 1
    assert client.with_key(bob_key).get("/v1/datasets").status_code == 200


def test_a_revoked_key_is_refused_within_five_seconds(client, sessions):
    admin = client.with_key(make_key(sessions, "acme", scope="admin"))
    victim = admin.post("/v1/admin/keys", json={"name": "leaked"}).json()
    as_victim = client.with_key(victim["key"])
    assert as_victim.get("/v1/datasets").status_code == 200  # now cached by this process
    revoked = admin.post(f"/v1/admin/keys/{victim['id']}/revoke")
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    assert revoked.json()["revoked_at"] is not None
    start = datetime.now(UTC)
    wait_for(lambda: as_victim.get("/v1/datasets").status_code == 401, REVOCATION_S, "the revoked key's 401")
    assert datetime.now(UTC) - start < timedelta(seconds=REVOCATION_S)
    refused = as_victim.get("/v1/datasets")
    assert refused.headers["content-type"] == PROBLEM and "revoked" in refused.json()["detail"]
    again = admin.post(f"/v1/admin/keys/{victim['id']}/revoke").json()
    assert again["revoked_at"] == revoked.json()["revoked_at"]  # revoking twice changes nothing


def test_rotation_gives_a_new_key_and_the_old_one_works_for_its_grace_period(client, sessions):
    admin = client.with_key(make_key(sessions, "acme", scope="admin"))
    old = admin.post("/v1/admin/keys", json={"name": "deploy", "scope": "admin"}).json()
    rotated = admin.post(f"/v1/admin/keys/{old['id']}/rotate", json={"grace_seconds": 3600})
    assert rotated.status_code == 201, rotated.text
    new, previous = rotated.json()["new"], rotated.json()["old"]
    assert new["key"] != old["key"] and (new["name"], new["scope"]) == ("deploy", "admin")
    grace_end = datetime.fromisoformat(previous["expires_at"])
    assert timedelta(minutes=59) < grace_end - datetime.now(UTC) <= timedelta(hours=1)
    assert client.with_key(old["key"]).get("/v1/admin/keys").status_code == 200  # still valid: grace
    assert client.with_key(new["key"]).get("/v1/admin/keys").status_code == 200
    # No grace: the old key stops at once (within the key cache's 2 s).
    cut = admin.post(f"/v1/admin/keys/{new['id']}/rotate", json={"grace_seconds": 0}).json()
    wait_for(lambda: client.with_key(new["key"]).get("/v1/datasets").status_code == 401, REVOCATION_S,
             "the rotated key to expire")
    assert client.with_key(cut["new"]["key"]).get("/v1/datasets").status_code == 200
    again = admin.post(f"/v1/admin/keys/{new['id']}/rotate", json={})
    assert again.status_code == 409 and "expired" in again.json()["detail"]


def test_expiry_is_checked_and_must_be_in_the_future(client, sessions):
    admin = client.with_key(make_key(sessions, "acme", scope="admin"))
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    refused = admin.post("/v1/admin/keys", json={"expires_at": past})
    assert refused.status_code == 422 and refused.json()["errors"][0]["loc"] == ["body", "expires_at"]
    naive = admin.post("/v1/admin/keys", json={"expires_at": "2030-01-01T00:00:00"})
    assert naive.status_code == 422
    bad = admin.post("/v1/admin/keys", json={"scope": "root"})
    assert bad.status_code == 422 and bad.headers["content-type"] == PROBLEM
    assert len(admin.get("/v1/admin/keys").json()["items"]) == 1  # nothing was stored
    soon = (datetime.now(UTC) + timedelta(seconds=1.5)).isoformat()
    short = admin.post("/v1/admin/keys", json={"expires_at": soon}).json()
    assert client.with_key(short["key"]).get("/v1/datasets").status_code == 200
    wait_for(lambda: client.with_key(short["key"]).get("/v1/datasets").status_code == 401, REVOCATION_S,
             "the key to expire")
    assert admin.get(f"/v1/admin/keys/{short['id']}").json()["status"] == "expired"


def test_last_used_at_is_recorded(client, sessions):
    admin_key = make_key(sessions, "acme", scope="admin")
    admin = client.with_key(admin_key)
    unused = admin.post("/v1/admin/keys", json={"name": "unused"}).json()
    keys = {k["name"]: k for k in admin.get("/v1/admin/keys").json()["items"]}
    assert keys["unused"]["last_used_at"] is None
    used_at = datetime.fromisoformat(keys[None]["last_used_at"])
    assert timedelta(0) <= datetime.now(UTC) - used_at < timedelta(minutes=1)
    assert unused["last_used_at"] is None


def test_every_decision_log_entry_names_the_key_that_made_it(client, sessions):
    first, second = make_key(sessions, "acme"), make_key(sessions, "acme")
    sampler = client.with_key(first).post("/v1/group-samplers", json={
        "groups": ["a", "b"], "strategy": "aopt", "budget": 50, "seed": 0}).json()
    decision = client.with_key(second).post(f"/v1/group-samplers/{sampler['id']}/next")
    assert decision.status_code == 200, decision.text
    with sessions() as db:
        logged = db.execute(select(Decision.kind, Decision.key_id).where(Decision.session_id == uuid.UUID(
            sampler["id"])).order_by(Decision.sequence)).all()
    assert [(kind, key) for kind, key in logged] == [("create", _key_id(sessions, first)),
                                                      ("next", _key_id(sessions, second))]
    shown = client.with_key(first).get(f"/v1/group-samplers/{sampler['id']}/decisions").json()["items"]
    assert [d["key_id"] for d in shown] == [str(_key_id(sessions, first)), str(_key_id(sessions, second))]


def test_the_cli_creates_lists_rotates_and_revokes(database_url):
    env = {**os.environ, "FAIRACQ_DATABASE_URL": database_url}

    def cli(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "service", *args], env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    key = cli("create-api-key", "--tenant", "acme", "--name", "ops", "--scope", "admin",
              "--expires-in-days", "30").strip()
    assert key.startswith("fa_")
    listed = json.loads(cli("list-api-keys", "--tenant", "acme"))
    assert [(k["name"], k["scope"], k["status"]) for k in listed] == [("ops", "admin", "active")]
    assert key not in json.dumps(listed)
    expires = datetime.fromisoformat(listed[0]["expires_at"])
    assert timedelta(days=29) < expires - datetime.now(UTC) <= timedelta(days=30)
    rotated = json.loads(cli("rotate-api-key", "--id", listed[0]["id"], "--grace-hours", "2"))
    assert rotated["new"]["key"].startswith("fa_") and rotated["new"]["name"] == "ops"
    assert timedelta(hours=1.9) < datetime.fromisoformat(rotated["old"]["expires_at"]) - datetime.now(UTC)
    revoked = json.loads(cli("revoke-api-key", "--id", rotated["new"]["id"]))
    assert revoked["status"] == "revoked"
    statuses = {k["id"]: k["status"] for k in json.loads(cli("list-api-keys", "--tenant", "acme"))}
    assert statuses == {listed[0]["id"]: "active", rotated["new"]["id"]: "revoked"}
