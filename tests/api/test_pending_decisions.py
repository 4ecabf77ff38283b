"""Pending decisions of group samplers: concurrent workers, batches, releases, expiry, retries (both databases)."""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from tests.live import Client, serve

URL = "/v1/group-samplers"


def _create(client, **overrides) -> dict:
    body = {"groups": ["a", "b", "c", "d"], "strategy": "uniform", "mode": "reported", "budget": 100, "seed": 3,
            **overrides}
    response = client.post(URL, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_a_batch_of_eight_decisions_takes_each_of_four_groups_twice(client):
    sid = _create(client)["id"]
    response = client.post(f"{URL}/{sid}/decisions", json={"count": 8})
    assert response.status_code == 201, response.text
    decisions = response.json()["decisions"]
    assert [d["group"] for d in decisions] == ["a", "b", "c", "d", "a", "b", "c", "d"]
    assert [d["round"] for d in decisions] == list(range(1, 9))
    assert len({d["decision_id"] for d in decisions}) == 8
    state = client.get(f"{URL}/{sid}").json()
    assert state["pending"] == {"a": 2, "b": 2, "c": 2, "d": 2} and state["budget_remaining"] == 92
    assert [p["decision_id"] for p in state["pending_decisions"]] == [d["decision_id"] for d in decisions]
    log = client.get(f"{URL}/{sid}/decisions").json()["items"]
    assert [e["kind"] for e in log] == ["create"] + ["next"] * 8 and [e["sequence"] for e in log] == list(range(1, 10))


def test_a_batch_stops_where_the_budget_does(client):
    sid = _create(client, budget=3)["id"]
    decisions = client.post(f"{URL}/{sid}/decisions", json={"count": 5}).json()["decisions"]
    assert [d["group"] for d in decisions] == ["a", "b", "c"]
    refused = client.post(f"{URL}/{sid}/decisions", json={"count": 1})
    assert refused.status_code == 409 and "3 pending decisions" in refused.json()["detail"]
    assert client.post(f"{URL}/{sid}/decisions", json={"count": 1001}).status_code == 422


def test_an_observation_naming_its_decision_settles_it(client):
    sid = _create(client, batch_size=5)["id"]
    decision = client.post(f"{URL}/{sid}/next").json()
    body = {"observation_id": "o1", "decision_id": decision["decision_id"], "group": "a", "n_acquired": 5,
            "group_losses": {"a": 0.2}}
    result = client.post(f"{URL}/{sid}/observations", json=body).json()
    assert result["counts"]["a"] == 5 and result["pending"] == {"a": 0, "b": 0, "c": 0, "d": 0}
    assert result["budget_remaining"] == 95
    # Its decision is no longer pending: a release is refused, and the same observation replays.
    refused = client.post(f"{URL}/{sid}/decisions/{decision['decision_id']}/release")
    assert refused.status_code == 409 and "not pending" in refused.json()["detail"]
    assert client.post(f"{URL}/{sid}/observations", json=body).headers["idempotent-replayed"] == "true"
    assert client.get(f"{URL}/{sid}").json()["counts"]["a"] == 5


def test_a_released_decision_gives_its_samples_back_and_its_group_comes_next(client):
    sid = _create(client, batch_size=10)["id"]
    first, second = (client.post(f"{URL}/{sid}/next").json() for _ in range(2))
    released = client.post(f"{URL}/{sid}/decisions/{first['decision_id']}/release")
    assert released.status_code == 200, released.text
    assert released.json()["released"] == 10 and released.json()["pending"]["a"] == 0
    assert released.json()["budget_remaining"] == 90  # only b's 10 are held
    assert client.post(f"{URL}/{sid}/next").json()["group"] == "a"  # a's warm-up slot is free again
    log = client.get(f"{URL}/{sid}/decisions").json()["items"]
    assert [e["kind"] for e in log] == ["create", "next", "next", "release", "next"]
    assert second["group"] == "b"


def test_a_decision_nobody_reports_on_expires_and_its_samples_return(client):
    sid = _create(client, pending_ttl_seconds=1, batch_size=4)["id"]
    first = client.post(f"{URL}/{sid}/next").json()
    assert client.get(f"{URL}/{sid}").json()["budget_remaining"] == 96
    time.sleep(1.2)
    again = client.post(f"{URL}/{sid}/next").json()
    assert (first["group"], again["group"], again["round"]) == ("a", "a", 1)  # a's hold lapsed
    state = client.get(f"{URL}/{sid}").json()
    assert state["pending"]["a"] == 4 and [p["decision_id"] for p in state["pending_decisions"]] == [
        again["decision_id"]]
    # A late observation of the expired decision still counts its samples, from the free budget.
    late = {"observation_id": "late", "decision_id": first["decision_id"], "group": "a", "n_acquired": 4,
            "group_losses": {"a": 0.3}}
    assert client.post(f"{URL}/{sid}/observations", json=late).json()["budget_remaining"] == 92


def test_a_retried_next_with_its_idempotency_key_is_the_same_decision(client):
    sid = _create(client)["id"]
    headers = {"Idempotency-Key": "worker-7-task-1"}
    first = client.post(f"{URL}/{sid}/next", headers=headers)
    again = client.post(f"{URL}/{sid}/next", headers=headers)
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    assert client.get(f"{URL}/{sid}").json()["pending"]["a"] == 1  # one reservation, not two


@pytest.mark.slow
def test_eight_concurrent_workers_get_each_of_four_groups_exactly_twice(database_url, tmp_path):
    with serve(database_url, tmp_path / "server.log") as server:
        with Client(server.port) as setup:
            sid = setup.post(URL, {"groups": ["a", "b", "c", "d"], "strategy": "uniform", "mode": "reported",
                                   "budget": 100, "seed": 1}).json()["id"]
        start = threading.Barrier(8)
        got: list[str] = []
        lock = threading.Lock()

        def worker() -> None:
            with Client(server.port) as client:
                start.wait()
                reply = client.post(f"{URL}/{sid}/next")
                assert reply.status == 200, reply.body
                with lock:
                    got.append(reply.json()["group"])

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert Counter(got) == {"a": 2, "b": 2, "c": 2, "d": 2}, got
