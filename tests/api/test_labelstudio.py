"""The Label Studio adapter through the API: connections, the ML backend contract, counted-once webhooks.

Label Studio's requests are written here as it sends them (its ``MLApi`` and webhook
payloads: ``/setup`` with ``project`` and ``schema``, ``/predict`` with ``tasks``,
``ANNOTATION_CREATED`` with ``annotation`` and ``task``); tests/labelstudio runs a real one.
"""

from __future__ import annotations

import base64
import statistics
import time

import numpy as np
import pytest

from tests.factories import run_queued_jobs

URL = "/v1/labelstudio/connections"
MAPPING = {"features": "x", "group": "sex", "label": {"control": "income", "positive": ">50K"}}


def _sampler(client, **overrides) -> str:
    body = {"groups": ["f", "m"], "strategy": "aopt", "mode": "managed", "budget": 100, "seed": 1, **overrides}
    response = client.post("/v1/group-samplers", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _connect(client, session_id: str, session_type: str = "group_sampler", **extra) -> dict:
    body = {"session_type": session_type, "session_id": session_id, "mapping": MAPPING, **extra}
    response = client.post(URL, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _auth(connection: dict, scheme: str = "basic") -> dict[str, str]:
    if scheme == "bearer":
        return {"Authorization": f"Bearer {connection['token']}"}
    pair = base64.b64encode(f"labelstudio:{connection['token']}".encode()).decode()
    return {"Authorization": f"Basic {pair}"}


def _task(task_id: int, group: str, x: list[float] | None = None) -> dict:
    return {"id": task_id, "data": {"x": x if x is not None else [task_id / 10, 1.0], "sex": group},
            "annotations": [], "predictions": [], "project": 1}


def _predict(client, connection: dict, tasks: list[dict]) -> list[float]:
    response = client.post(f"{connection['backend_path']}/predict", headers=_auth(connection),
                           json={"tasks": tasks, "project": "1.1700000000", "label_config": "<View/>", "params": {}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["results"]) == len(tasks)
    assert {r["model_version"] for r in body["results"]} == {body["model_version"]}
    assert all(r["result"] == [] for r in body["results"])
    return [r["score"] for r in body["results"]]


def _delivery(annotation_id: int, task: dict, choice: str | None = ">50K", action: str = "ANNOTATION_CREATED",
              **annotation) -> dict:
    result = [] if choice is None else [{"from_name": "income", "to_name": "text", "type": "choices",
                                          "value": {"choices": [choice]}}]
    return {"action": action, "annotation": {"id": annotation_id, "task": task["id"], "result": result,
                                             "was_cancelled": False, **annotation},
            "task": task, "project": {"id": 1}}


def _webhook(client, connection: dict, delivery: dict) -> list[dict]:
    response = client.post(f"{connection['backend_path']}/webhook", headers=_auth(connection, "bearer"),
                           json=delivery)
    assert response.status_code == 200, response.text
    return response.json()["results"]


def _observations(client, sampler: str) -> list[dict]:
    items = client.get(f"/v1/group-samplers/{sampler}/decisions").json()["items"]
    return [item for item in items if item["kind"] == "observation"]


def test_a_connection_needs_a_managed_sampler_and_a_label(client):
    reported = client.post("/v1/group-samplers", json={"groups": ["f", "m"], "strategy": "aopt", "budget": 9})
    refused = client.post(URL, json={"session_type": "group_sampler", "session_id": reported.json()["id"],
                                     "mapping": MAPPING})
    assert refused.status_code == 422 and "managed" in refused.json()["detail"]
    managed = _sampler(client)
    no_label = client.post(URL, json={"session_type": "group_sampler", "session_id": managed,
                                      "mapping": {"features": "x", "group": "sex"}})
    assert no_label.status_code == 422 and no_label.json()["errors"][0]["loc"] == ["body", "mapping", "label"]
    wrong_kind = client.post(URL, json={"session_type": "balanced_filter", "session_id": managed, "mapping": MAPPING})
    assert wrong_kind.status_code == 404
    connection = _connect(client, managed)
    assert connection["backend_path"] == f"/labelstudio/{connection['id']}"
    assert connection["model_version"] == f"fairacq-{connection['id'].replace('-', '')[:12]}"
    assert connection["options"] == {"validation_every": 4, "fit_wait_seconds": 10.0}
    shown = client.get(f"{URL}/{connection['id']}").json()
    assert "token" not in shown and shown["first_group"] == "f" and shown["annotations"] == {
        "received": 0, "counted": 0, "pending": 0, "ignored": 0, "updates": 0}


def test_the_backend_takes_only_the_connection_token(client):
    first, second = _connect(client, _sampler(client)), _connect(client, _sampler(client))
    health = f"{first['backend_path']}/health"
    assert client.get(health).status_code == 401
    assert client.get(health, headers={"Authorization": f"Bearer {second['token']}"}).status_code == 401
    assert client.get(health, headers={"Authorization": "Basic !!!"}).status_code == 401
    assert client.get("/labelstudio/not-a-uuid/health", headers=_auth(first)).status_code == 401
    for scheme in ("basic", "bearer"):
        answer = client.get(health, headers=_auth(first, scheme))
        assert answer.status_code == 200 and answer.json()["status"] == "UP"
    setup = client.post(f"{first['backend_path']}/setup", headers=_auth(first),
                        json={"project": "1.1700000000", "schema": "<View/>", "hostname": "http://localhost:8080",
                              "access_token": "x", "extra_params": None})
    assert setup.json() == {"model_version": first["model_version"]}
    assert client.delete(f"{URL}/{first['id']}").status_code == 204
    assert client.get(health, headers=_auth(first)).status_code == 401


def test_priorities_follow_the_sampler_and_annotations_count_once(client, sessions, settings):
    sampler = _sampler(client)
    connection = _connect(client, sampler)
    tasks = [_task(1, "m"), _task(2, "f"), _task(3, "f"), _task(4, "m"), _task(5, "other")]
    scores = _predict(client, connection, tasks)
    # Warm-up round 1 chooses f: its tasks first, lower ids first; m next; an unknown group last.
    assert scores[1] > scores[2] > scores[0] > scores[3] > scores[4] == 0.0
    assert min(scores[1], scores[2]) > 0.5 >= max(scores[0], scores[3])

    first = _delivery(11, tasks[1])
    assert _webhook(client, connection, first) == [
        {"annotation_id": "11", "status": "pending",
         "reason": "held as a validation row until the group's rows hold both training and validation data"}]
    assert _webhook(client, connection, _delivery(12, tasks[2], "<=50K")) == [
        {"annotation_id": "12", "status": "counted", "observation_id": f"labelstudio:{connection['id']}:12"}]
    state = client.get(f"/v1/group-samplers/{sampler}").json()
    assert (state["round"], state["counts"], state["version"]) == (1, {"f": 1, "m": 0}, 2)

    # Label Studio sends a delivery again, or the annotation is edited: nothing changes.
    assert _webhook(client, connection, first)[0]["status"] == "repeated"
    edited = _delivery(12, tasks[2], ">50K", action="ANNOTATION_UPDATED")
    assert _webhook(client, connection, edited)[0]["status"] == "updated"
    assert client.get(f"/v1/group-samplers/{sampler}").json()["version"] == state["version"]
    log = _observations(client, sampler)
    assert len(log) == 1 and log[0]["request"]["train"]["rows"] == 1 and log[0]["request"]["validation"]["rows"] == 1

    # Skipped, unlabeled and foreign annotations are received, never counted.
    assert _webhook(client, connection, _delivery(13, tasks[0], was_cancelled=True))[0]["status"] == "ignored"
    assert _webhook(client, connection, _delivery(14, tasks[0], choice=None))[0]["status"] == "ignored"
    assert _webhook(client, connection, _delivery(15, tasks[4]))[0]["status"] == "ignored"
    other = client.post(f"{connection['backend_path']}/webhook", headers=_auth(connection),
                        json={"action": "PROJECT_UPDATED", "project": {"id": 1}})
    assert other.status_code == 200 and other.json()["results"] == []
    shown = client.get(f"{URL}/{connection['id']}").json()["annotations"]
    assert shown == {"received": 5, "counted": 2, "pending": 0, "ignored": 3, "updates": 1}

    # The refit lands; warm-up round 2 chooses m, so m's tasks now come first.
    assert [job.status for job in run_queued_jobs(sessions, settings)] == ["succeeded"]
    scores = _predict(client, connection, tasks)
    assert scores[0] > scores[3] > scores[1] > scores[2] > scores[4] == 0.0
    assert client.get(f"{URL}/{connection['id']}").json()["first_group"] == "m"
    # Priorities are a preview of the sampler's rule: Label Studio's calls are not logged as decisions.
    assert [item["kind"] for item in client.get(f"/v1/group-samplers/{sampler}/decisions").json()["items"]] == [
        "create", "observation", "fit"]


def test_validation_rows_are_each_groups_first_then_every_nth(client):
    connection = _connect(client, _sampler(client), options={"validation_every": 3})
    statuses = [_webhook(client, connection, _delivery(100 + i, _task(100 + i, "m")))[0]["status"]
                for i in range(7)]
    # rows 0, 3, 6 validate; an observation leaves as soon as the group holds both kinds
    assert statuses == ["pending", "counted", "pending", "counted", "pending", "pending", "counted"]
    log = _observations(client, connection["session_id"])
    assert [(e["request"]["train"]["rows"], e["request"]["validation"]["rows"]) for e in log] == [
        (1, 1), (1, 1), (2, 1)]


def test_a_balanced_filter_scores_acceptance_and_counts_outcomes(client, sessions, settings):
    rng = np.random.default_rng(0)
    features = rng.normal(size=(60, 2))
    groups = ["a" if v > 0 else "b" for v in features[:, 0] + 0.3]
    created = client.post("/v1/balanced-filters", json={
        "groups": ["a", "b"], "proxy": {"type": "qp_tree", "max_depth": 2}, "seed": 4,
        "training": {"features": features.tolist(), "groups": groups}})
    assert created.status_code == 202, created.text
    run_queued_jobs(sessions, settings)
    connection = _connect(client, created.json()["id"], "balanced_filter")
    tasks = [{"id": i + 1, "data": {"x": features[i].tolist(), "sex": groups[i]}} for i in range(20)]
    tasks.append({"id": 99, "data": {"x": "unreadable", "sex": "a"}})
    scores = _predict(client, connection, tasks)
    decided = client.post(f"/v1/balanced-filters/{created.json()['id']}/decisions", json={
        "candidates": [{"id": str(t["id"]), "features": t["data"]["x"]} for t in tasks[:20]]}).json()
    assert decided["new"] == 0 and scores[20] == 0.0
    assert scores[:20] == [d["probability"] if d["accept"] else 0.0 for d in decided["decisions"]]
    accepted = next(t for t, d in zip(tasks, decided["decisions"], strict=False) if d["accept"])
    rejected = [t for t, d in zip(tasks, decided["decisions"], strict=False) if not d["accept"]]
    assert _webhook(client, connection, _delivery(7, accepted))[0] == {
        "annotation_id": "7", "status": "counted", "observation_id": f"outcome:{accepted['id']}"}
    assert _webhook(client, connection, _delivery(7, accepted))[0]["status"] == "repeated"
    assert _webhook(client, connection, _delivery(8, accepted))[0]["status"] == "ignored"  # same task again
    if rejected:
        ignored = _webhook(client, connection, _delivery(9, rejected[0]))[0]
        assert ignored["status"] == "ignored" and "rejected" in ignored["reason"]
    realized = client.get(f"/v1/balanced-filters/{created.json()['id']}").json()["realized"]
    assert realized["outcomes"] == 1


@pytest.mark.parametrize("n_tasks", [10_000])
def test_priorities_for_10000_tasks_take_under_a_second(client, n_tasks):
    connection = _connect(client, _sampler(client, groups=["f", "m", "u", "v"]))
    rng = np.random.default_rng(5)
    groups = rng.choice(["f", "m", "u", "v"], size=n_tasks)
    tasks = [{"id": i + 1, "data": {"x": rng.normal(size=8).round(4).tolist(), "sex": str(g), "text": "row"},
              "annotations": [], "predictions": [], "project": 1} for i, g in enumerate(groups)]
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        scores = _predict(client, connection, tasks)
        timings.append(time.perf_counter() - started)
    print(f"priorities for {n_tasks} tasks: median {statistics.median(timings):.3f} s "
          f"(runs {', '.join(f'{t:.3f}' for t in timings)})")
    assert statistics.median(timings) < 1.0
    top = [s for s, g in zip(scores, groups, strict=True) if g == "f"]
    assert min(top) > max(s for s, g in zip(scores, groups, strict=True) if g != "f")
