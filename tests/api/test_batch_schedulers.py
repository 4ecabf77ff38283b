"""``/v1/batch-schedulers`` through the API: create, epochs (counted once), state, errors."""

from __future__ import annotations

import threading

import pytest

from tests.factories import make_key

TOL = 1e-12
COUNTS = [
    {"label": 0, "group": "m", "count": 30}, {"label": 1, "group": "m", "count": 20},
    {"label": 0, "group": "f", "count": 30}, {"label": 1, "group": "f", "count": 20},
]


def _create(client, **overrides):
    body = {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["m", "f"], "counts": COUNTS,
            "batch_size": 10, "step_size": 0.005, **overrides}
    response = client.post("/v1/batch-schedulers", json=body)
    assert response.status_code == 201, response.text
    return response


def _losses(m_pos: float, f_pos: float) -> list[dict]:
    return [{"label": 0, "group": "m", "loss": 0.3}, {"label": 1, "group": "m", "loss": m_pos},
            {"label": 0, "group": "f", "loss": 0.3}, {"label": 1, "group": "f", "loss": f_pos}]


def _probabilities(body) -> dict:
    return {(p["label"], p["group"]): p["probability"] for p in body["sampling_probabilities"]}


def test_create_starts_from_natural_shares(client):
    response = _create(client)
    body = response.json()
    assert response.headers["location"] == f"/v1/batch-schedulers/{body['id']}"
    assert response.headers["etag"] == '"1"'
    # m_{y,z}/m = 30/100, 20/100 ...; λ for y = 1 is P(1, m) = 0.2 in the box [0, 0.4].
    assert _probabilities(body) == {(0, "m"): 0.3, (1, "m"): 0.2, (0, "f"): 0.3, (1, "f"): 0.2}
    assert body["lambdas"] == [pytest.approx(0.2, abs=TOL)]
    assert body["lambda_info"] == [{"label": 1, "groups": ["m", "f"], "box": [0.0, 0.4]}]
    assert sum(c["count"] for c in body["batch_composition"]) == 10


def test_an_epoch_moves_step_size_toward_the_worse_group(client):
    sid = _create(client).json()["id"]
    response = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)})
    assert response.status_code == 200
    body = response.json()
    # L(1,m) = 0.5 > L(1,f) = 0.2: λ = 0.2 + 0.005 toward m; y = 0 cells unchanged.
    assert body["lambdas"] == [pytest.approx(0.205, abs=TOL)]
    p = _probabilities(body)
    assert p[(1, "m")] == pytest.approx(0.205, abs=TOL) and p[(1, "f")] == pytest.approx(0.195, abs=TOL)
    assert sum(p.values()) == pytest.approx(1.0, abs=TOL)
    # Disparity against the overall rate: overall y=1 loss = (20*0.5 + 20*0.2)/40 = 0.35, gap 0.15.
    assert body["disparity"] == pytest.approx(0.15, abs=1e-9)
    assert response.headers["etag"] == '"2"'


def test_a_repeated_epoch_returns_the_first_result_and_counts_once(client):
    sid = _create(client).json()["id"]
    first = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)})
    again = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)})
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    state = client.get(f"/v1/batch-schedulers/{sid}").json()
    assert state["epoch"] == 1 and len(state["history"]) == 1 and state["version"] == 2


def test_same_epoch_with_other_losses_is_422_and_changes_nothing(client):
    sid = _create(client).json()["id"]
    client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)})
    response = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.1, 0.9)})
    assert response.status_code == 422
    assert client.get(f"/v1/batch-schedulers/{sid}").json()["lambdas"] == [pytest.approx(0.205, abs=TOL)]


def test_if_match_guards_against_a_stale_write(client):
    sid = _create(client).json()["id"]
    stale = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)},
                        headers={"If-Match": '"7"'})
    assert stale.status_code == 412
    fresh = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)},
                        headers={"If-Match": '"1"'})
    assert fresh.status_code == 200


@pytest.mark.parametrize(
    ("losses", "fragment"),
    [
        ([{"label": 1, "group": "x", "loss": 0.1}], "unknown group"),
        ([{"label": 7, "group": "m", "loss": 0.1}], "unknown label"),
        ([{"label": 1, "group": "m", "loss": -1.0}], "greater than or equal to 0"),
    ],
)
def test_bad_losses_are_422_and_leave_the_state_untouched(client, losses, fragment):
    sid = _create(client).json()["id"]
    response = client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": losses})
    assert response.status_code == 422
    assert fragment in response.text
    state = client.get(f"/v1/batch-schedulers/{sid}").json()
    assert state["version"] == 1 and state["epoch"] == 0


def test_nan_loss_is_refused(client):
    sid = _create(client).json()["id"]
    body = b'{"epoch": 1, "losses": [{"label": 1, "group": "m", "loss": NaN}]}'
    response = client.post(f"/v1/batch-schedulers/{sid}/epochs", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422 and "finite" in response.json()["detail"]


def test_bad_create_requests_are_422(client):
    assert client.post("/v1/batch-schedulers", json={"metric": "accuracy", "labels": [0, 1], "groups": ["a", "b"],
                                                     "counts": COUNTS, "batch_size": 5}).status_code == 422
    dp3 = client.post("/v1/batch-schedulers", json={
        "metric": "demographic_parity", "labels": [0, 1, 2], "groups": ["m", "f"], "batch_size": 5,
        "counts": [{"label": 2, "group": "m", "count": 1}]})
    assert dp3.status_code == 422


def test_labels_and_groups_are_echoed_as_given(client):
    body = _create(client, labels=["no", "yes"], groups=[1, 2.5], positive_label="yes", counts=[
        {"label": "no", "group": 1, "count": 5}, {"label": "yes", "group": 1, "count": 5},
        {"label": "no", "group": 2.5, "count": 5}, {"label": "yes", "group": 2.5, "count": 5}]).json()
    assert body["labels"] == ["no", "yes"] and body["groups"] == [1, 2.5]
    assert {(p["label"], p["group"]) for p in body["sampling_probabilities"]} == {
        ("no", 1), ("yes", 1), ("no", 2.5), ("yes", 2.5)}


def test_concurrent_reports_are_serialised_and_counted_once(app, client):
    sid = _create(client).json()["id"]
    errors: list[str] = []

    def report() -> None:
        for epoch in range(1, 11):
            r = client.post(f"/v1/batch-schedulers/{sid}/epochs",
                            json={"epoch": epoch, "losses": _losses(0.5, 0.2)})
            if r.status_code != 200:
                errors.append(r.text)

    threads = [threading.Thread(target=report) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    state = client.get(f"/v1/batch-schedulers/{sid}").json()
    assert [h["epoch"] for h in state["history"]] == list(range(1, 11))
    assert state["lambdas"] == [pytest.approx(0.2 + 10 * 0.005, abs=1e-9)]
    assert state["version"] == 11


def test_decision_log_records_creation_and_epochs(client):
    sid = _create(client).json()["id"]
    client.post(f"/v1/batch-schedulers/{sid}/epochs", json={"epoch": 1, "losses": _losses(0.5, 0.2)})
    log = client.get(f"/v1/batch-schedulers/{sid}/decisions").json()["items"]
    assert [(d["sequence"], d["kind"], d["client_ref"]) for d in log] == [(1, "create", None), (2, "epoch", "epoch:1")]
    assert log[1]["state_version"] == 2


def test_other_tenants_get_404(client, sessions):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    sid = _create(client.with_key(alice)).json()["id"]
    as_bob = client.with_key(bob)
    assert as_bob.get(f"/v1/batch-schedulers/{sid}").status_code == 404
    assert as_bob.post(f"/v1/batch-schedulers/{sid}/epochs",
                       json={"epoch": 1, "losses": _losses(0.5, 0.2)}).status_code == 404
    assert as_bob.get(f"/v1/batch-schedulers/{sid}/decisions").status_code == 404
    assert as_bob.get("/v1/batch-schedulers").json()["items"] == []
