"""A revoked key is refused by every API process within 5 s: two real ``serve`` processes on one database."""

from __future__ import annotations

import time

from tests.factories import make_key
from tests.live import Client, serve

REVOCATION_S = 5.0


def test_a_revoked_key_gets_401_from_two_api_processes_within_five_seconds(database_url, sessions, tmp_path):
    admin = make_key(sessions, "acme", scope="admin")
    with serve(database_url, tmp_path / "a.log") as a, serve(database_url, tmp_path / "b.log") as b:
        with Client(a.port, admin) as as_admin:
            victim = as_admin.post("/v1/admin/keys", {"name": "leaked"}).json()
        clients = [Client(a.port, victim["key"]), Client(b.port, victim["key"])]
        try:
            for client in clients:  # each process now trusts the key from its cache
                assert client.get("/v1/datasets").status == 200
                assert client.get("/v1/datasets").status == 200
            with Client(b.port, admin) as as_admin:
                assert as_admin.post(f"/v1/admin/keys/{victim['id']}/revoke").status == 200
            revoked_at = time.monotonic()
            refused_after: dict[int, float] = {}
            while len(refused_after) < 2 and time.monotonic() - revoked_at < REVOCATION_S + 5:
                for i, client in enumerate(clients):
                    if i not in refused_after and client.get("/v1/datasets").status == 401:
                        refused_after[i] = time.monotonic() - revoked_at
                time.sleep(0.05)
        finally:
            for client in clients:
                client.close()
    print(f"\nrevoked key refused after: process A {refused_after.get(0)} s, process B {refused_after.get(1)} s")
    assert sorted(refused_after) == [0, 1], refused_after
    assert max(refused_after.values()) < REVOCATION_S, refused_after
