"""``/v1/partition-bandits`` through the API: eq. 1 credit and eq. 2 UCB worked by hand, feedback
counted once, 409s and 422s, pools partitioned by a worker, managed runs, tenant isolation."""

from __future__ import annotations

import math
import threading
import time
import uuid

import numpy as np
import pytest
from sqlalchemy import func, select
from threadpoolctl import threadpool_limits

import service.partition_bandits.tasks  # noqa: F401  (registers the job handlers)
from service.algorithms import datasift
from service.algorithms.datasift.partitions import partition_pool
from service.algorithms.datasift.run import LabeledData, run_acquisition
from service.db import transaction
from service.jobs.models import Job
from service.sessions.models import SessionBlob
from tests.factories import make_key, run_queued_jobs, wait_for

TOL = 1e-9
URL = "/v1/partition-bandits"
KINDS = ["partition_bandits.partition", "partition_bandits.run"]
# Three arms on a line: normalised centroid distances d(a,b) = d(b,c) = 0.5, d(a,c) = 1;
# |ΔBR| = 0.2, 0, 0.5.
PARTITIONS = [
    {"id": "a", "size": 50, "centroid": [0.0, 0.0], "base_rate_difference": 0.2},
    {"id": "b", "size": 50, "centroid": [3.0, 4.0], "base_rate_difference": 0.0},
    {"id": "c", "size": 50, "centroid": [6.0, 8.0], "base_rate_difference": -0.5},
]
BONUS_N2 = 0.1 * math.sqrt(2 * math.log(2))  # α·sqrt(2 ln(n/(n_j+1))) with n = 2, n_j = 0


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Small matrices on a shared 2-core machine: BLAS threads would only contend."""
    with threadpool_limits(1):
        yield


def _create(client, expect: int = 201, **overrides):
    body = {"partitions": PARTITIONS, "batch_size": 10, "budget": 100, "seed": 0, **overrides}
    response = client.post(URL, json=body)
    assert response.status_code == expect, response.text
    return response


def _next(client, sid: str, expect: int = 200) -> dict:
    response = client.post(f"{URL}/{sid}/next")
    assert response.status_code == expect, response.text
    return response.json()


def _feedback(client, sid: str, decision_id: str, before: float, after: float):
    return client.post(f"{URL}/{sid}/feedback",
                       json={"decision_id": decision_id, "fairness_before": before, "fairness_after": after})


def _get(client, sid: str) -> dict:
    response = client.get(f"{URL}/{sid}")
    assert response.status_code == 200, response.text
    return response.json()


def _by_id(body: dict) -> dict:
    return {p["id"]: p for p in body["partitions"]}


def _blobs(n_per: int = 40, seed: int = 0, with_ids: bool = True, labels: bool = True) -> dict:
    """Three well-separated blobs in 2-D; the label is 1 in the first blob only."""
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]])
    blob = np.repeat(np.arange(3), n_per)
    features = (centres[blob] + rng.normal(scale=0.5, size=(3 * n_per, 2))).round(6)
    body: dict = {"features": features.tolist(), "groups": ["g" if i % 2 else "h" for i in range(3 * n_per)]}
    if labels:
        body["labels"] = (blob == 0).astype(int).tolist()
    if with_ids:
        body["ids"] = [f"item-{i}" for i in range(3 * n_per)]
    return body


def _fairness_data(n: int, seed: int, share_a: float) -> dict:
    """Two groups; group b's positives sit lower on x0, so a model trained mostly on a is unfair to b."""
    rng = np.random.default_rng(seed)
    group = np.where(rng.random(n) < share_a, "a", "b")
    x = rng.normal(size=(n, 2))
    shift = np.where(group == "b", -0.8, 0.0)
    labels = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(scale=0.3, size=n) > shift).astype(int)
    features = np.column_stack([x[:, 0], x[:, 1] + np.where(group == "b", 0.7, 0.0)]).round(6)
    return {"features": features.tolist(), "groups": group.tolist(), "labels": labels.tolist()}


def _dataset(client, body: dict) -> str:
    response = client.post("/v1/datasets", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _run_jobs(sessions, settings) -> list[Job]:
    """Run this resource's queued jobs in-process, as a worker's child would."""
    return run_queued_jobs(sessions, settings, KINDS)


# ----------------------------------------------------------------------------- client-made partitions


def test_create_with_client_partitions_is_ready(client):
    response = _create(client)
    body = response.json()
    assert response.headers["location"] == f"{URL}/{body['id']}"
    assert response.headers["etag"] == '"1"'
    assert body["status"] == "ready" and body["round"] == 1 and body["budget_remaining"] == 100
    assert [p["id"] for p in body["partitions"]] == ["a", "b", "c"]
    assert all(p["pulls"] == 0 and p["ucb"] == 0.0 and p["remaining"] == 50 for p in body["partitions"])
    assert _by_id(body)["c"]["base_rate_difference"] == -0.5  # echoed as given; eq. 1 uses |ΔBR|


def test_untried_first_eq1_credit_and_eq2_ucb_by_hand(client):
    sid = _create(client).json()["id"]
    first = _next(client, sid)
    # All arms untried with UCB 0: seed 0 breaks the three-way tie toward c.
    assert (first["round"], first["partition"], first["reason"]) == (1, "c", "untried")
    assert first["item_ids"] is None and first["batch_size"] == 10
    one = _feedback(client, sid, first["decision_id"], 0.30, 0.25).json()
    # ΔF = 0.30 − 0.25 = 0.05 from c; r_j = ΔF / ((1 + |ΔBR_j|)(1 + d(c, j))):
    # a: 0.05 / (1.2 · 2) = 0.0208333, b: 0.05 / (1 · 1.5) = 0.0333333, c: 0.05 / (1.5 · 1) = 0.0333333
    assert one["rewards"] == pytest.approx({"a": 0.05 / 2.4, "b": 0.05 / 1.5, "c": 0.05 / 1.5}, abs=TOL)
    assert one["accepted"] is True and one["best_fairness"] == pytest.approx(0.25)
    assert one["budget_remaining"] == 90 and one["done"] is False

    second = _next(client, sid)
    # Untried a and b have no bonus yet (n = 1, ln(1/1) = 0): the larger mean, b, goes next.
    assert (second["round"], second["partition"], second["reason"]) == (2, "b", "untried")
    two = _feedback(client, sid, second["decision_id"], 0.25, 0.22).json()
    # ΔF = 0.03 from b: a 0.03 / (1.2 · 1.5), b 0.03 / 1, c 0.03 / (1.5 · 1.5)
    assert two["rewards"] == pytest.approx({"a": 0.03 / 1.8, "b": 0.03, "c": 0.03 / 2.25}, abs=TOL)

    scores = _by_id(_get(client, sid))
    # eq. 2 with n = 2: R_a = (0.05/2.4 + 0.03/1.8)/2, pulls 0 -> bonus 0.1·sqrt(2 ln 2) = 0.117741;
    # b and c were pulled once: ln(2/2) = 0, no bonus.
    r_a = (0.05 / 2.4 + 0.03 / 1.8) / 2
    assert scores["a"]["reward"] == pytest.approx(r_a, abs=TOL)
    assert scores["a"]["bonus"] == pytest.approx(BONUS_N2, abs=TOL)
    assert scores["a"]["ucb"] == pytest.approx(r_a + BONUS_N2, abs=TOL)
    assert scores["b"]["reward"] == pytest.approx((0.05 / 1.5 + 0.03) / 2, abs=TOL)
    assert scores["c"]["reward"] == pytest.approx((0.05 / 1.5 + 0.03 / 2.25) / 2, abs=TOL)
    assert (scores["b"]["bonus"], scores["c"]["bonus"], scores["b"]["pulls"]) == (0.0, 0.0, 1)

    third = _next(client, sid)
    assert (third["partition"], third["reason"]) == ("a", "untried")
    assert third["scores"]["a"]["ucb"] == pytest.approx(r_a + BONUS_N2, abs=TOL)
    # A worse model: ΔF = 0.22 − 0.23 < 0, rejected; best stays 0.22; the budget is not spent.
    three = _feedback(client, sid, third["decision_id"], 0.22, 0.23).json()
    assert three["accepted"] is False and three["best_fairness"] == pytest.approx(0.22)
    assert three["budget_remaining"] == 80
    fourth = _next(client, sid)
    assert fourth["reason"] == "ucb" and fourth["round"] == 4
    # n = 3, every n_j = 1: bonus 0.1·sqrt(2 ln 1.5) for all; the largest mean (b) wins.
    assert all(s["bonus"] == pytest.approx(0.1 * math.sqrt(2 * math.log(1.5)), abs=TOL)
               for s in fourth["scores"].values())
    assert fourth["partition"] == max(fourth["scores"], key=lambda p: fourth["scores"][p]["reward"]) == "b"


def test_feedback_is_counted_once(client):
    sid = _create(client).json()["id"]
    decision = _next(client, sid)
    first = _feedback(client, sid, decision["decision_id"], 0.3, 0.25)
    again = _feedback(client, sid, decision["decision_id"], 0.3, 0.25)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    state = _get(client, sid)  # versions: 1 created, 2 the decision's reservation, 3 its feedback
    assert state["version"] == 3 and state["evaluations"] == 1 and state["budget_spent"] == 10
    different = _feedback(client, sid, decision["decision_id"], 0.3, 0.1)
    assert different.status_code == 422 and _get(client, sid)["version"] == 3


def test_if_match_guards_next_and_feedback(client):
    sid = _create(client).json()["id"]
    assert client.post(f"{URL}/{sid}/next", headers={"If-Match": '"7"'}).status_code == 412
    decision = client.post(f"{URL}/{sid}/next", headers={"If-Match": '"1"'})
    assert decision.status_code == 200 and decision.headers["etag"] == '"2"'  # next holds its batch: a new version
    body = {"decision_id": decision.json()["decision_id"], "fairness_before": 0.3, "fairness_after": 0.2}
    assert client.post(f"{URL}/{sid}/feedback", json=body, headers={"If-Match": '"1"'}).status_code == 412
    done = client.post(f"{URL}/{sid}/feedback", json=body, headers={"If-Match": '"2"'})
    assert done.status_code == 200 and done.headers["etag"] == '"3"'


def test_concurrent_feedback_for_one_decision_counts_once(client):
    sid = _create(client).json()["id"]
    decision = _next(client, sid)
    answers: list = []

    def report() -> None:
        answers.append(_feedback(client, sid, decision["decision_id"], 0.3, 0.25))

    threads = [threading.Thread(target=report) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [200] * 4
    assert len({r.text for r in answers}) == 1
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in answers) == 3
    state = _get(client, sid)
    assert state["version"] == 3 and state["evaluations"] == 1


def test_pending_decisions_take_distinct_batches_and_report_in_any_order(client):
    sid = _create(client).json()["id"]
    one, other = _next(client, sid), _next(client, sid)  # two workers before any feedback
    assert (one["round"], other["round"]) == (1, 2) and one["partition"] != other["partition"]
    assert other["scores"][one["partition"]]["pending"] == 1  # counted in n_j of eq. 2
    assert _feedback(client, sid, other["decision_id"], 0.3, 0.25).status_code == 200  # the later one first
    assert _feedback(client, sid, one["decision_id"], 0.25, 0.2).status_code == 200
    state = _get(client, sid)
    assert state["evaluations"] == 2 and state["pending_decisions"] == [] and state["budget_spent"] == 20


def test_a_released_or_expired_decision_cannot_be_reported_on(client):
    sid = _create(client, pending_ttl_seconds=1).json()["id"]
    released, lapsed = _next(client, sid), _next(client, sid)
    assert _get(client, sid)["budget_remaining"] == 80  # 100 - two held batches of 10
    answer = client.post(f"{URL}/{sid}/decisions/{released['decision_id']}/release")
    assert answer.status_code == 200 and answer.json()["released"] == 10
    refused = _feedback(client, sid, released["decision_id"], 0.3, 0.25)
    assert refused.status_code == 409 and "released or expired" in refused.json()["detail"]
    time.sleep(1.2)
    again = _next(client, sid)  # the lapsed batch went back before this decision: every partition is whole
    assert again["reason"] == "untried" and again["budget_remaining"] == 100
    assert all(score["remaining"] == 50 and score["pending"] == 0 for score in again["scores"].values())
    assert _feedback(client, sid, lapsed["decision_id"], 0.3, 0.25).status_code == 409
    state = _get(client, sid)
    assert state["evaluations"] == 0 and [p["decision_id"] for p in state["pending_decisions"]] == [
        again["decision_id"]]


def test_409_when_the_budget_is_spent_and_when_the_threshold_is_met(client):
    sid = _create(client, budget=20).json()["id"]
    for before, after in ((0.3, 0.25), (0.25, 0.2)):
        last = _feedback(client, sid, _next(client, sid)["decision_id"], before, after).json()
    assert last["done"] is True and last["stop_reason"] == "budget" and last["budget_remaining"] == 0
    assert _next(client, sid, expect=409)
    state = _get(client, sid)
    assert state["status"] == "done" and state["stop_reason"] == "budget"
    # |F_best| = 0.005 < threshold 0.01 stops at once.
    sid = _create(client).json()["id"]
    result = _feedback(client, sid, _next(client, sid)["decision_id"], 0.3, 0.005).json()
    assert result["stop_reason"] == "fairness_threshold" and result["done"] is True
    assert client.post(f"{URL}/{sid}/next").status_code == 409


def test_the_feedback_that_stopped_the_bandit_is_still_answered_again(client):
    sid = _create(client, budget=10).json()["id"]
    decision = _next(client, sid)["decision_id"]
    first = _feedback(client, sid, decision, 0.3, 0.25)
    assert first.json()["done"] is True and _get(client, sid)["status"] == "done"
    again = _feedback(client, sid, decision, 0.3, 0.25)
    assert again.status_code == 200 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    refused = client.post(f"{URL}/{sid}/next")
    assert refused.status_code == 409 and "is done" in refused.json()["detail"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"decision_id": str(uuid.uuid4()), "fairness_before": 0.3, "fairness_after": 0.2}, "no decision"),
        ({"fairness_before": 0.3, "fairness_after": 0.2}, "decision_id"),
        ({"decision_id": "DECISION", "fairness_before": 0.3}, "fairness_after"),
    ],
)
def test_bad_feedback_is_422_and_leaves_the_state_untouched(client, body, fragment):
    sid = _create(client).json()["id"]
    _next(client, sid)
    response = client.post(f"{URL}/{sid}/feedback", json=body)
    assert response.status_code == 422 and fragment in response.text
    state = _get(client, sid)
    assert state["version"] == 2 and state["evaluations"] == 0  # only the decision's reservation


def test_non_finite_fairness_is_refused(client):
    sid = _create(client).json()["id"]
    decision = _next(client, sid)["decision_id"]
    body = f'{{"decision_id": "{decision}", "fairness_before": 0.3, "fairness_after": NaN}}'.encode()
    response = client.post(f"{URL}/{sid}/feedback", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422 and "finite" in response.json()["detail"]
    assert _get(client, sid)["version"] == 2


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"partitions": None}, "either partitions"),
        ({"pool_dataset_id": str(uuid.uuid4())}, "either partitions"),
        ({"batch_selection": "influence"}, "influence"),
        ({"partitions": [PARTITIONS[0], PARTITIONS[0]]}, "unique"),
        ({"partitions": [PARTITIONS[0], {**PARTITIONS[1], "centroid": [1.0]}]}, "equal length"),
        ({"batch_size": 10_001}, "FAIRACQ_MAX_CANDIDATES"),
        ({"metric": "accuracy"}, "metric"),
        ({"alpha": -1}, "alpha"),
        ({"partitioning": {"method": "gmm"}}, "pool_dataset_id only"),
    ],
)
def test_bad_create_requests_are_422(client, overrides, fragment):
    response = _create(client, expect=422, **overrides)
    assert fragment in response.text
    assert client.get(URL).json()["items"] == []


def test_decision_log_records_creation_next_and_feedback(client):
    sid = _create(client).json()["id"]
    decision = _next(client, sid)
    _feedback(client, sid, decision["decision_id"], 0.3, 0.25)
    log = client.get(f"{URL}/{sid}/decisions").json()["items"]
    assert [(d["sequence"], d["kind"]) for d in log] == [(1, "create"), (2, "next"), (3, "feedback")]
    assert log[1]["id"] == decision["decision_id"] and log[1]["response"]["partition"] == decision["partition"]
    assert log[2]["client_ref"] == f"feedback:{decision['decision_id']}" and log[2]["state_version"] == 3


# ----------------------------------------------------------------------------- pools partitioned by a worker


def test_pool_bandit_is_partitioned_by_a_job_and_offers_pool_ids(client, sessions, settings):
    pool_body = _blobs()
    pool_id = _dataset(client, pool_body)
    spec = {"method": "gmm", "max_components": 4, "standardize": False}
    response = client.post(URL, json={"pool_dataset_id": pool_id, "partitioning": spec, "batch_size": 5,
                                      "budget": 30, "seed": 7})
    assert response.status_code == 202, response.text
    created = response.json()
    sid = created["id"]
    assert response.headers["location"] == f"{URL}/{sid}"
    assert created["status"] == "queued" and created["job_id"] and created["partitions"] == []
    assert client.post(f"{URL}/{sid}/next").status_code == 409
    assert client.post(f"{URL}/{sid}/runs", json={}).status_code == 409
    assert client.delete(f"/v1/datasets/{pool_id}").status_code == 409  # in use

    [job] = _run_jobs(sessions, settings)
    assert job.status == "succeeded" and job.id == uuid.UUID(created["job_id"])
    ready = _get(client, sid)
    assert ready["status"] == "ready" and ready["version"] == 2 and ready["partitioning"]["k"] == 3
    assert sorted(p["size"] for p in ready["partitions"]) == [40, 40, 40]

    # The same rng streams by hand: partitioning draws default_rng([seed, 2]) (log entry 2, after
    # "create"), the first decision default_rng([seed, 3]).
    X, labels = np.array(pool_body["features"]), np.array(pool_body["labels"])
    rng = np.random.default_rng([7, 2])
    parts = partition_pool(X, labels, np.array(pool_body["groups"]), rng=rng, max_components=4)
    config = datasift.BanditConfig(batch_size=5, budget=30)
    state = datasift.init_state(config, parts.partitions, assignment=parts.assignment, rng=rng)
    expected = datasift.next_decision(config, state, np.random.default_rng([7, 3]))
    decision = _next(client, sid)
    assert decision["partition"] == expected.partition
    assert decision["item_ids"] == [f"item-{i}" for i in expected.item_indices]
    chosen = int(expected.partition)
    assert all(parts.assignment[int(i.split("-")[1])] == chosen for i in decision["item_ids"])
    assert _feedback(client, sid, decision["decision_id"], 0.2, 0.1).json()["accepted"] is True
    following = _next(client, sid)  # the next batch never repeats an offered item
    assert not set(following["item_ids"]) & set(decision["item_ids"])
    assert len(following["item_ids"]) == 5


def test_column_partitions_without_ids_offer_row_indices(client, sessions, settings):
    body = _blobs(n_per=10, with_ids=False, labels=False)
    codes = [i % 3 for i in range(30)]
    body["features"] = [row + [c] for row, c in zip(body["features"], codes, strict=True)]
    pool_id = _dataset(client, body)
    sid = client.post(URL, json={"pool_dataset_id": pool_id, "partitioning": {"method": "column", "column": "x2"},
                                 "batch_size": 4, "budget": 12}).json()["id"]
    _run_jobs(sessions, settings)
    ready = _get(client, sid)
    assert [(p["id"], p["size"], p["base_rate_difference"]) for p in ready["partitions"]] == [
        ("0", 10, 0.0), ("1", 10, 0.0), ("2", 10, 0.0)]  # no labels: ΔBR = 0
    decision = _next(client, sid)
    rows = [int(i) for i in decision["item_ids"]]
    assert len(rows) == 4 and all(codes[r] == int(decision["partition"]) for r in rows)


def test_failed_partitioning_makes_the_bandit_failed(client, sessions, settings):
    pool_id = _dataset(client, _blobs(n_per=30))  # x0 has 90 distinct values: too many partitions
    sid = client.post(URL, json={"pool_dataset_id": pool_id, "partitioning": {"method": "column", "column": 0},
                                 "batch_size": 1, "budget": 5}).json()["id"]
    [job] = _run_jobs(sessions, settings)
    assert job.status == "failed" and job.attempts == 1
    state = _get(client, sid)
    assert state["status"] == "failed" and "90 partitions" in state["error"]
    response = client.post(f"{URL}/{sid}/next")
    assert response.status_code == 409 and "is failed" in response.json()["detail"]
    # A cancelled partitioning job cancels the bandit.
    cancelled = client.post(URL, json={"pool_dataset_id": pool_id, "batch_size": 1, "budget": 5}).json()
    assert client.post(f"/v1/jobs/{cancelled['job_id']}/cancel").status_code == 202
    assert _get(client, cancelled["id"])["status"] == "cancelled"
    assert client.post(f"{URL}/{cancelled['id']}/next").status_code == 409


def test_pool_requests_are_checked_against_the_datasets(client):
    unlabeled = _dataset(client, _blobs(labels=False))
    labeled = _dataset(client, _blobs())
    narrow = _dataset(client, {"features": [[0.0], [1.0]], "labels": [0, 1], "groups": ["a", "b"]})
    base = {"batch_size": 5, "budget": 10}
    cases = [
        ({"pool_dataset_id": unlabeled, "batch_selection": "influence", "train_dataset_id": labeled,
          "test_dataset_id": labeled}, "labels of 0 and 1"),
        ({"pool_dataset_id": labeled, "train_dataset_id": narrow}, "has 1 features"),
        ({"pool_dataset_id": labeled, "partitioning": {"method": "column", "column": "nope"}}, "not a feature"),
        ({"pool_dataset_id": labeled, "partitioning": {"method": "column"}}, "needs column"),
    ]
    for body, fragment in cases:
        response = client.post(URL, json={**base, **body})
        assert response.status_code == 422 and fragment in response.text, response.text
    assert client.get(URL).json()["items"] == []


def test_influence_batches_take_the_most_fairness_reducing_items(client, sessions, settings):
    pool = _fairness_data(150, 1, 0.5)
    train, test = _fairness_data(60, 2, 0.9), _fairness_data(200, 3, 0.5)
    ids = {name: _dataset(client, body) for name, body in (("pool", pool), ("train", train), ("test", test))}
    created = client.post(URL, json={
        "pool_dataset_id": ids["pool"], "train_dataset_id": ids["train"], "test_dataset_id": ids["test"],
        "batch_selection": "influence", "partitioning": {"max_components": 3}, "batch_size": 5, "budget": 20})
    assert created.status_code == 202, created.text
    sid = created.json()["id"]
    _run_jobs(sessions, settings)
    ready = _get(client, sid)
    assert ready["status"] == "ready" and sorted(ready["influence_pair"]) == ["a", "b"]
    decision = _next(client, sid)
    # Items of a partition are offered by ascending predicted influence: the batch is the
    # chosen partition's five most negative, and the next batch from it continues the order.
    with transaction(sessions) as db:
        from service.partition_bandits.repository import repository
        from service.sessions.models import SessionRecord

        record = db.get(SessionRecord, uuid.UUID(sid))
        stored, _ = repository(db, record.tenant_id).get_blob(record, "assignment")
    influence, assignment = stored["influence"], stored["assignment"]
    j = [p["id"] for p in ready["partitions"]].index(decision["partition"])
    members = np.flatnonzero(assignment == j)
    expected = members[np.argsort(influence[members], kind="stable")][:5]
    assert [int(i) for i in decision["item_ids"]] == expected.tolist()


def test_delete_removes_the_bandit_and_its_data_and_cancels_its_partitioning(client, sessions, settings):
    pool_id = _dataset(client, _blobs())
    queued = client.post(URL, json={"pool_dataset_id": pool_id, "batch_size": 5, "budget": 10}).json()
    assert client.delete(f"{URL}/{queued['id']}").status_code == 204
    assert client.get(f"/v1/jobs/{queued['job_id']}").json()["status"] == "cancelled"
    assert _run_jobs(sessions, settings) == []
    sid = client.post(URL, json={"pool_dataset_id": pool_id, "batch_size": 5, "budget": 10}).json()["id"]
    _run_jobs(sessions, settings)
    kept = _create(client).json()["id"]
    _next(client, sid)
    assert client.delete(f"/v1/datasets/{pool_id}").status_code == 409  # the bandit uses it
    assert client.delete(f"{URL}/{sid}").status_code == 204
    with sessions() as db:
        assert db.scalar(select(func.count()).select_from(SessionBlob)
                         .where(SessionBlob.session_id == uuid.UUID(sid))) == 0
    assert client.get(f"{URL}/{sid}").status_code == 404
    assert client.get(f"{URL}/{sid}/decisions").status_code == 404
    assert client.post(f"{URL}/{sid}/next").status_code == 404
    assert client.delete(f"{URL}/{sid}").status_code == 404
    assert [b["id"] for b in client.get(URL).json()["items"]] == [kept]
    assert client.delete(f"/v1/datasets/{pool_id}").status_code == 204


# ----------------------------------------------------------------------------- managed runs


def _managed_bandit(client, sessions, settings, seed: int = 3) -> tuple[str, dict, dict]:
    pool, train, test = _fairness_data(240, 11, 0.5), _fairness_data(60, 12, 0.9), _fairness_data(200, 13, 0.5)
    pool["ids"] = [f"p{i}" for i in range(240)]
    ids = {name: _dataset(client, body) for name, body in (("pool", pool), ("train", train), ("test", test))}
    sid = client.post(URL, json={
        "pool_dataset_id": ids["pool"], "train_dataset_id": ids["train"], "test_dataset_id": ids["test"],
        "partitioning": {"max_components": 3, "standardize": False}, "batch_size": 10, "budget": 40,
        "fairness_threshold": 0.0, "max_evaluations": 12, "seed": seed}).json()["id"]
    _run_jobs(sessions, settings)
    return sid, ids, {"pool": pool, "train": train, "test": test}


def _labeled(body: dict) -> LabeledData:
    return LabeledData(np.array(body["features"]), np.array(body["labels"]), np.array(body["groups"]))


def test_managed_run_end_to_end_matches_the_library(client, sessions, settings):
    sid, _, data = _managed_bandit(client, sessions, settings)
    response = client.post(f"{URL}/{sid}/runs", json={})
    assert response.status_code == 202, response.text
    job_id = response.json()["id"]
    assert response.headers["location"] == f"/v1/jobs/{job_id}"
    assert response.json()["kind"] == "partition_bandits.run" and response.json()["status"] == "queued"
    [job] = _run_jobs(sessions, settings)
    assert job.status == "succeeded" and job.progress == 1.0
    result = client.get(f"/v1/jobs/{job_id}").json()["result"]

    # The library run with the same partitioning and rng stream (log entry 3: create, partition, run).
    pool = _labeled(data["pool"])
    rng = np.random.default_rng([3, 2])
    parts = partition_pool(pool.X, pool.y, pool.groups, rng=rng, max_components=3)
    config = datasift.BanditConfig(batch_size=10, budget=40, fairness_threshold=0.0, max_evaluations=12)
    expected = run_acquisition(pool, _labeled(data["train"]), _labeled(data["test"]), config,
                               np.random.default_rng([3, 3]), partitioning=parts)
    assert result["acquired_item_ids"] == [f"p{i}" for i in expected.acquired.tolist()]
    assert result["stop_reason"] == expected.stop_reason
    assert result["trajectory"] == expected.trajectory  # floats round-trip through JSON exactly
    assert [t["round"] for t in result["trajectory"]] == list(range(1, expected.evaluations + 1))
    accepted = sum(t["accepted"] for t in result["trajectory"])
    assert len(result["acquired_item_ids"]) == 10 * accepted == result["trajectory"][-1]["n_acquired"]

    state = _get(client, sid)
    assert state["last_run"]["job_id"] == job_id and state["last_run"]["stop_reason"] == expected.stop_reason
    assert state["last_run"]["final_fairness"] == pytest.approx(expected.final_fairness)
    log = client.get(f"{URL}/{sid}/decisions").json()["items"]
    assert [d["kind"] for d in log] == ["create", "partition", "run"]


def test_runs_need_a_pool_and_labeled_train_and_test(client, sessions, settings):
    sid = _create(client).json()["id"]
    assert client.post(f"{URL}/{sid}/runs").status_code == 409  # client-made partitions: no pool
    pool_id = _dataset(client, _blobs())
    unlabeled = _dataset(client, _blobs(labels=False))
    pid = client.post(URL, json={"pool_dataset_id": pool_id, "batch_size": 5, "budget": 10}).json()["id"]
    _run_jobs(sessions, settings)
    missing = client.post(f"{URL}/{pid}/runs", json={})
    assert missing.status_code == 422 and "train_dataset_id" in missing.text
    bad = client.post(f"{URL}/{pid}/runs", json={"train_dataset_id": pool_id, "test_dataset_id": unlabeled})
    assert bad.status_code == 422 and "labels of 0 and 1" in bad.text
    assert _get(client, pid)["version"] == 2


# ----------------------------------------------------------------------------- a real worker process


def test_a_real_worker_partitions_the_pool_and_runs_the_loop(client, worker):
    pool, train, test = _fairness_data(200, 21, 0.5), _fairness_data(60, 22, 0.9), _fairness_data(150, 23, 0.5)
    ids = {name: _dataset(client, body) for name, body in (("pool", pool), ("train", train), ("test", test))}
    sid = client.post(URL, json={"pool_dataset_id": ids["pool"], "partitioning": {"max_components": 3},
                                 "batch_size": 10, "budget": 30, "max_evaluations": 6}).json()["id"]
    ready = wait_for(lambda: (b := _get(client, sid))["status"] not in ("queued", "running") and b)
    assert ready["status"] == "ready" and 2 <= len(ready["partitions"]) <= 3
    assert len(_next(client, sid)["item_ids"]) == 10
    run = client.post(f"{URL}/{sid}/runs", json={"train_dataset_id": ids["train"], "test_dataset_id": ids["test"]})
    assert run.status_code == 202
    job = wait_for(lambda: (j := client.get(run.headers["location"]).json())["status"] in
                    ("succeeded", "failed") and j)
    assert job["status"] == "succeeded", job["error"]
    assert job["progress"] == 1.0 and job["result"]["stop_reason"] in ("budget", "max_evaluations", "pool_exhausted")
    assert 1 <= len(job["result"]["trajectory"]) <= 6
    assert _get(client, sid)["last_run"]["job_id"] == job["id"]


# ----------------------------------------------------------------------------- tenants


def test_other_tenants_get_404_on_every_route(client, sessions, settings):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    as_alice, as_bob = client.with_key(alice), client.with_key(bob)
    sid = _create(as_alice).json()["id"]
    decision = _next(as_alice, sid)["decision_id"]
    pool_id = _dataset(as_alice, _blobs())
    assert as_bob.get(f"{URL}/{sid}").status_code == 404
    assert as_bob.post(f"{URL}/{sid}/next").status_code == 404
    assert _feedback(as_bob, sid, decision, 0.3, 0.2).status_code == 404
    assert as_bob.post(f"{URL}/{sid}/runs", json={}).status_code == 404
    assert as_bob.get(f"{URL}/{sid}/decisions").status_code == 404
    assert as_bob.delete(f"{URL}/{sid}").status_code == 404
    assert as_bob.get(URL).json()["items"] == []
    stolen = as_bob.post(URL, json={"pool_dataset_id": pool_id, "batch_size": 5, "budget": 10})
    assert stolen.status_code == 404
    assert _get(as_alice, sid)["version"] == 2  # created, then alice's decision: bob changed nothing
