"""``/v1/balanced-filters`` and ``/v1/sampling-probabilities`` through the API: Algorithm 1 on a 2×2
case worked by hand, proxies fitted by a job and read back, decisions fixed by (seed, id) and counted
once per id, outcomes counted once with the realized imbalance by hand, 409s, 422s, failed fits, tenants."""

from __future__ import annotations

import json
import math
import threading
import uuid

import numpy as np
import pytest
from sqlalchemy import func, select
from threadpoolctl import threadpool_limits

import service.balanced_filters.tasks  # noqa: F401  (registers the job handler)
from service.algorithms.balanced_filtering import make_proxy
from service.balanced_filters.models import FilterCandidate
from service.balanced_filters.service import PROXIES
from service.balanced_filters.state import load
from service.jobs.models import Job
from service.sessions.models import SessionRecord
from tests.factories import make_key, run_queued_jobs, wait_for

TOL = 1e-9
QP_TOL = 1e-6  # interior-point solutions are accurate to about 1e-8 in q; values derived from q to 1e-6
URL = "/v1/balanced-filters"
AB_TREE = {"type": "ab_tree", "alpha": 0.2, "epsilon": 0.02}


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Small matrices on a shared 2-core machine: BLAS threads would only contend."""
    with threadpool_limits(1):
        yield


def _training(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two groups, a (70 %) and b; b is shifted along the first two features, so they reveal the group."""
    rng = np.random.default_rng(seed)
    groups = np.where(rng.random(n) < 0.7, "a", "b")
    X = rng.normal(size=(n, 3)) + (groups == "b")[:, None] * np.array([1.0, 0.5, 0.0])
    return X.round(6), groups


def _candidates(n: int, seed: int, prefix: str = "c", start: int = 0) -> tuple[list[str], np.ndarray]:
    X = (np.random.default_rng(seed).normal(size=(n, 3)) + 0.3).round(6)
    return [f"{prefix}{i}" for i in range(start, start + n)], X


def _body(ids: list, X: np.ndarray) -> dict:
    return {"candidates": [{"id": i, "features": row} for i, row in zip(ids, X.tolist(), strict=True)]}


def _create(client, expect: int = 202, **overrides):
    X, groups = _training()
    body = {"groups": ["a", "b"], "proxy": AB_TREE, "training": {"features": X.tolist(), "groups": groups.tolist()},
            "seed": 11, **overrides}
    response = client.post(URL, json=body)
    assert response.status_code == expect, response.text
    return response


def _get(client, fid: str, **params) -> dict:
    response = client.get(f"{URL}/{fid}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def _decide(client, fid: str, ids: list, X: np.ndarray, expect: int = 200):
    response = client.post(f"{URL}/{fid}/decisions", json=_body(ids, X))
    assert response.status_code == expect, response.text
    return response


def _outcomes(client, fid: str, pairs: list[tuple], expect: int = 200):
    response = client.post(f"{URL}/{fid}/outcomes", json={"outcomes": [{"id": i, "group": g} for i, g in pairs]})
    assert response.status_code == expect, response.text
    return response


def _run_jobs(sessions, settings) -> list[Job]:
    """Run queued fit jobs in-process, as a worker's child would."""
    return run_queued_jobs(sessions, settings, ["balanced_filters.fit"])


def _ready(client, sessions, settings, **overrides) -> str:
    fid = _create(client, **overrides).json()["id"]
    [job] = _run_jobs(sessions, settings)
    assert job.status == "succeeded", job.error
    return fid


def _library_proxy(proxy_type: str = "ab_tree", seed: int = 11, **params):
    """The proxy the job should have fitted: same data, hyperparameters and rng stream (log entry 2)."""
    X, groups = _training()
    spec = {**AB_TREE, **params} if proxy_type.startswith("ab_tree") else params
    spec.pop("type", None)
    return make_proxy(proxy_type, **spec, target=[0.5, 0.5]).fit(
        X, groups, group_values=["a", "b"], rng=np.random.default_rng([seed, 2]))


# ----------------------------------------------------------------------------- stateless Algorithm 1

A_2X2 = [[0.8, 0.2], [0.2, 0.8]]
R_2X2 = [0.75, 0.25]


def test_sampling_probabilities_on_a_2x2_case_by_hand(client):
    url = "/v1/sampling-probabilities"
    inside = client.post(url, json={"conditional_matrix": A_2X2, "leaf_rates": R_2X2})
    assert inside.status_code == 200, inside.text
    body = inside.json()
    # U = (0.5, 0.5) = 0.5·a1 + 0.5·a2 is in the hull: q = (0.5, 0.5); ρ = q / r̂ = (2/3, 2) -> /max = (1/3, 1);
    # acceptance rate 0.75/3 + 0.25 = 0.5; accepted distribution = U.
    assert body["q"] == pytest.approx([0.5, 0.5], abs=QP_TOL)
    assert body["acceptance_probabilities"] == pytest.approx([1 / 3, 1.0], abs=QP_TOL)
    assert body["acceptance_rate"] == pytest.approx(0.5, abs=QP_TOL)
    assert body["imbalance"] == pytest.approx(0.0, abs=QP_TOL) and body["in_hull"] is True
    assert body["accepted_distribution"] == pytest.approx([0.5, 0.5], abs=QP_TOL)

    outside = client.post(url, json={"conditional_matrix": A_2X2, "leaf_rates": R_2X2, "target": [0.9, 0.1]}).json()
    # The hull is the segment a1–a2; its point closest to (0.9, 0.1) is a1: q = (1, 0), ρ = (1, 0),
    # imbalance ‖(0.8, 0.2) − (0.9, 0.1)‖ = √0.02.
    assert outside["q"] == pytest.approx([1.0, 0.0], abs=QP_TOL)
    assert outside["acceptance_probabilities"] == pytest.approx([1.0, 0.0], abs=QP_TOL)
    assert outside["imbalance"] == pytest.approx(math.sqrt(0.02), abs=QP_TOL) and outside["in_hull"] is False
    assert outside["acceptance_rate"] == pytest.approx(0.75, abs=QP_TOL)

    relaxed = client.post(url, json={"conditional_matrix": A_2X2, "leaf_rates": R_2X2, "target": [0.9, 0.1],
                                     "relaxed": True}).json()
    # The cone's closest point is on the ray of a1: t = U·a1 / |a1|² = 0.74 / 0.68 = 37/34, and the distance²
    # is |U|² − (U·a1)²/|a1|² = 0.82 − 0.5476/0.68 = 1/68; ρ is still (1, 0), so the imbalance is √0.02 again.
    assert relaxed["q"] == pytest.approx([37 / 34, 0.0], abs=QP_TOL)
    assert relaxed["distance"] == pytest.approx(1 / math.sqrt(68), abs=QP_TOL)
    assert relaxed["acceptance_probabilities"] == pytest.approx([1.0, 0.0], abs=QP_TOL)
    assert relaxed["imbalance"] == pytest.approx(math.sqrt(0.02), abs=QP_TOL) and relaxed["relaxed"] is True


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"conditional_matrix": [[0.8, 0.3], [0.2, 0.8]], "leaf_rates": R_2X2}, "sum to 1"),
        ({"conditional_matrix": A_2X2, "leaf_rates": [0.5, 0.25]}, "sum to 1"),
        ({"conditional_matrix": A_2X2, "leaf_rates": [1.0]}, "one per row"),
        ({"conditional_matrix": [[0.8, 0.2], [1.0]], "leaf_rates": R_2X2}, "equal length"),
        ({"conditional_matrix": [[1.2, -0.2], [0.2, 0.8]], "leaf_rates": R_2X2}, "non-negative"),
        ({"conditional_matrix": A_2X2, "leaf_rates": R_2X2, "target": [1.0]}, "one per column"),
        ({"conditional_matrix": A_2X2, "leaf_rates": R_2X2, "target": [0.6, 0.6]}, "sum to 1"),
        ({"conditional_matrix": [], "leaf_rates": []}, "conditional_matrix"),
    ],
)
def test_sampling_probabilities_validation(client, body, fragment):
    response = client.post("/v1/sampling-probabilities", json=body)
    assert response.status_code == 422 and fragment in response.text, response.text
    assert response.headers["content-type"] == "application/problem+json"


def test_sampling_probabilities_refuse_non_finite_numbers(client):
    raw = b'{"conditional_matrix": [[NaN, 0.2], [0.2, 0.8]], "leaf_rates": [0.75, 0.25]}'
    response = client.post("/v1/sampling-probabilities", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422 and "finite" in response.json()["detail"]


# ----------------------------------------------------------------------------- create and fit


def test_create_is_202_and_decisions_wait_for_the_fit(client, sessions, settings):
    response = _create(client)
    created = response.json()
    fid = created["id"]
    assert response.headers["location"] == f"{URL}/{fid}" and response.headers["etag"] == '"1"'
    assert created["status"] == "queued" and created["job_id"] and created["conditional_matrix"] is None
    assert created["target"] == {"a": 0.5, "b": 0.5} and created["training"]["n_rows"] == 400
    ids, X = _candidates(3, 1)
    refused = _decide(client, fid, ids, X, expect=409)
    assert "has not finished" in refused.json()["detail"]
    assert _outcomes(client, fid, [("c0", "a")], expect=409)
    job = client.get(f"/v1/jobs/{created['job_id']}").json()
    assert job["kind"] == "balanced_filters.fit" and job["resource"] == {"type": "balanced_filter", "id": fid}
    [ran] = _run_jobs(sessions, settings)
    assert ran.status == "succeeded" and ran.result["n_leaves"] >= 2
    assert _get(client, fid)["status"] == "ready"
    assert _decide(client, fid, ids, X).json()["new"] == 3


def test_fit_through_a_job_matches_the_library(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    state = _get(client, fid)
    expected = _library_proxy()
    assert state["status"] == "ready" and state["version"] == 2
    assert state["proxy"]["type"] == "ab_tree" and state["proxy"]["n_leaves"] == expected.n_leaves_
    assert state["conditional_matrix"] == expected.conditional_matrix_.tolist()
    assert state["leaf_rates"] == expected.leaf_rates_.tolist()
    assert state["q"] == expected.q_.tolist()
    assert state["acceptance_probabilities"] == expected.rho_.tolist()
    A, r = np.array(state["conditional_matrix"]), np.array(state["leaf_rates"])
    rho, base = np.array(state["acceptance_probabilities"]), np.array(state["base_rates"])
    # Invariants of Algorithm 1 and Definitions 2 and 5.
    assert np.all((rho >= 0) & (rho <= 1)) and rho.max() == 1.0
    assert sum(state["q"]) == pytest.approx(1.0, abs=TOL) and np.allclose(A.sum(axis=1), 1.0, atol=TOL)
    assert state["disclosivity"] == pytest.approx(np.abs(A[r > 0] - base).max(), abs=TOL)
    assert state["disclosivity"] <= 0.2 + 0.02  # α + ε
    assert state["acceptance_rate"] == pytest.approx(float(r @ rho), abs=TOL)
    accepted = (r * rho) @ A / (r @ rho)
    assert state["accepted_distribution"] == pytest.approx(accepted.tolist(), abs=TOL)
    assert state["imbalance"] == pytest.approx(float(np.linalg.norm(accepted - 0.5)), abs=TOL)
    assert base.tolist() == pytest.approx([float(np.mean(_training()[1] == g)) for g in "ab"], abs=TOL)
    tree = state["proxy"]["tree"]
    assert sum(node["kind"] == "leaf" for node in tree) == expected.n_leaves_
    diagnostics = state["diagnostics"]
    assert diagnostics["stop_reason"] == expected.stop_reason_
    assert len(diagnostics["splits"]) == expected.n_leaves_ - 1
    assert diagnostics["any_stopped_short"] is any(s["stopped_short"] for s in expected.splits_)
    assert state["decisions"] == {"total": 0, "accepted": 0, "by_leaf": [0] * expected.n_leaves_,
                                  "accepted_by_leaf": [0] * expected.n_leaves_}
    assert state["realized"] is None and state["sampling"]["in_hull"] is True
    assert _get(client, fid, include_tree="false")["proxy"]["tree"] is None
    log = client.get(f"{URL}/{fid}/decisions").json()["items"]
    assert [(d["sequence"], d["kind"]) for d in log] == [(1, "create"), (2, "fit")]


def test_a_split_game_stopped_short_is_reported(client, sessions, settings):
    # One round per game cannot close the duality gap to ε; the tree still keeps the split that
    # passes the disclosivity and progress tests, and says its game stopped short.
    fid = _ready(client, sessions, settings, proxy={**AB_TREE, "max_iterations": 1})
    state = _get(client, fid)
    expected = _library_proxy(max_iterations=1)
    assert expected.any_stopped_short_ and state["proxy"]["n_leaves"] == expected.n_leaves_ == 2
    diagnostics = state["diagnostics"]
    [split] = diagnostics["splits"]
    assert diagnostics["any_stopped_short"] is True and split["stopped_short"] is True
    assert split["iterations"] == 1 and split["gap"] == pytest.approx(expected.splits_[0]["gap"], abs=TOL)
    assert split["gap"] > 0.02
    [warning] = [w for w in diagnostics["warnings"] if "stopped after 1 rounds" in w]
    assert "epsilon 0.02" in warning and "max_iterations" in warning


@pytest.mark.parametrize("proxy_type", ["ab_tree_relaxed", "qp_tree", "qp_logistic", "naive_tree",
                                        "naive_logistic"])
def test_every_proxy_type_fits_and_decides_like_the_library(client, sessions, settings, proxy_type):
    params = {"max_depth": 4} if "tree" in proxy_type and not proxy_type.startswith("ab") else {}
    fid = _ready(client, sessions, settings, proxy={**AB_TREE, "type": proxy_type, **params})
    state = _get(client, fid)
    expected = _library_proxy(proxy_type, **params)
    rho = np.array(state["acceptance_probabilities"])
    assert state["acceptance_probabilities"] == expected.rho_.tolist() and rho.max() == 1.0 and rho.min() >= 0
    A, r, base = (np.array(state[k]) for k in ("conditional_matrix", "leaf_rates", "base_rates"))
    assert state["disclosivity"] == pytest.approx(np.abs(A[r > 0] - base).max(), abs=TOL)
    assert (state["proxy"]["tree"] is None) == proxy_type.endswith("logistic")
    ids, X = _candidates(50, 2)
    answers = _decide(client, fid, ids, X).json()["decisions"]
    made = expected.decide(X, ids, 11)
    assert [d["leaf"] for d in answers] == made.leaf.tolist()
    assert [d["accept"] for d in answers] == made.accept.tolist()


def test_training_from_a_dataset_keeps_it_in_use(client, sessions, settings):
    X, groups = _training()
    dataset = client.post("/v1/datasets", json={"features": X.tolist(), "groups": groups.tolist()}).json()["id"]
    fid = _create(client, training=None, training_dataset_id=dataset,
                  proxy={"type": "qp_tree", "max_depth": 3}).json()["id"]
    assert client.delete(f"/v1/datasets/{dataset}").status_code == 409
    _run_jobs(sessions, settings)
    state = _get(client, fid)
    assert state["training"] == {"dataset_id": dataset, "n_rows": 400, "n_features": 3}
    assert state["acceptance_probabilities"] == _library_proxy("qp_tree", max_depth=3).rho_.tolist()
    assert all(n["kind"] in ("axis", "leaf") for n in state["proxy"]["tree"])


def test_failed_and_cancelled_fits_make_the_filter_failed(client, sessions, settings):
    X, _ = _training()
    # The logistic proxy needs both groups in its training data; the job fails for good.
    fid = _create(client, proxy={"type": "qp_logistic"},
                  training={"features": X.tolist(), "groups": ["a"] * len(X)}).json()["id"]
    [job] = _run_jobs(sessions, settings)
    assert job.status == "failed" and job.attempts == 1
    state = _get(client, fid)
    assert state["status"] == "failed" and "two groups" in state["error"]
    refused = _decide(client, fid, *_candidates(2, 0), expect=409)
    assert "is failed" in refused.json()["detail"]
    cancelled = _create(client).json()
    assert client.post(f"/v1/jobs/{cancelled['job_id']}/cancel").status_code == 202
    assert _get(client, cancelled["id"])["status"] == "cancelled"
    assert _outcomes(client, cancelled["id"], [("c0", "a")], expect=409)


def _stored(sessions, fid: str) -> SessionRecord:
    with sessions() as db:
        return db.get(SessionRecord, uuid.UUID(fid))


def test_the_stored_json_keeps_its_shape(client, sessions, settings):
    # Rows written before the typed state must still load: these are the keys and values they have.
    fid = _create(client, proxy={**AB_TREE, "margins": [1.0, 3.0]}).json()["id"]
    record = _stored(sessions, fid)
    assert record.status == "pending" and record.state == {"model": None, "counts": None}
    assert record.config == {
        "groups": ["a", "b"], "encoding": {"values": [["a", "b"]]}, "target": [0.5, 0.5],
        "proxy": {"type": "ab_tree", "alpha": 0.2, "epsilon": 0.02, "gamma": 0.1, "lambda_max": None,
                  "margins": [1.0, 3.0], "max_depth": 20, "max_iterations": 300, "min_leaf_weight": 30.0,
                  "progress": "gamma", "relaxed": False, "ridge": 1e-06, "step_size": None, "stop_distance": 0.1},
        "training": {"dataset_id": None, "n_rows": 400, "n_features": 3},
    }
    _run_jobs(sessions, settings)
    record = _stored(sessions, fid)
    shown = _get(client, fid)
    n_leaves = shown["proxy"]["n_leaves"]
    assert record.status == "ready" and record.state == {
        "model": {"version": 1, "type": "ab_tree", "n_leaves": n_leaves, "n_features": 3,
                  "disclosivity": shown["disclosivity"], "imbalance": shown["imbalance"],
                  "acceptance_rate": shown["acceptance_rate"], "in_hull": shown["sampling"]["in_hull"],
                  "stop_reason": shown["diagnostics"]["stop_reason"],
                  "any_stopped_short": shown["diagnostics"]["any_stopped_short"]},
        "counts": {"total": 0, "accepted": 0, "by_leaf": [0] * n_leaves, "accepted_by_leaf": [0] * n_leaves,
                   "group_counts": [0, 0], "outcomes": 0},
    }
    config, state = load(record)
    assert config.to_dict() == record.config and state.to_dict() == record.state
    assert shown["groups"] == ["a", "b"] and shown["proxy"]["hyperparameters"]["margins"] == [1.0, 3.0]


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"proxy": {"type": "oak_tree"}}, "proxy.type"),
        ({"proxy": {"type": "ab_tree", "alpha": 0.2}}, "needs alpha and epsilon"),
        ({"proxy": {**AB_TREE, "gamma": 1.5}}, "gamma"),
        ({"groups": ["a"]}, "groups"),
        ({"groups": ["a", "a"]}, "distinct"),
        ({"groups": ["a", "c"]}, "unknown group 'b'"),
        ({"target": {"a": 0.5, "z": 0.5}}, "unknown group 'z'"),
        ({"target": {"a": 0.5, "b": 0.6}}, "sum to 1"),
        ({"training": {"features": [[1.0, 2.0], [3.0]], "groups": ["a", "b"]}}, "equal length"),
        ({"training": {"features": [[1.0], [2.0]], "groups": ["a"]}}, "one per row"),
        ({"training": None}, "either training_dataset_id or inline training"),
        ({"training_dataset_id": str(uuid.uuid4())}, "either training_dataset_id or inline training"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_create_requests_are_422(client, overrides, fragment):
    response = _create(client, expect=422, **overrides)
    assert fragment in response.text
    assert client.get(URL).json()["items"] == []


def test_training_datasets_are_checked(client):
    X, groups = _training(n=20)
    other = client.post("/v1/datasets", json={"features": X.tolist(), "groups": ["a", "q"] * 10}).json()["id"]
    no_groups = client.post("/v1/datasets", json={"features": X.tolist()}).json()["id"]
    for dataset, fragment in ((other, "not among groups"), (no_groups, "has no groups")):
        response = _create(client, expect=422, training=None, training_dataset_id=dataset)
        assert fragment in response.text
    assert _create(client, expect=404, training=None, training_dataset_id=str(uuid.uuid4()))
    assert client.get(URL).json()["items"] == []


# ----------------------------------------------------------------------------- decisions


def test_decisions_are_fixed_by_seed_and_id_and_replay_identically(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    ids, X = _candidates(200, 3)
    first = _decide(client, fid, ids, X)
    body = first.json()
    assert first.headers["etag"] == '"3"' and (body["new"], body["repeated"]) == (200, 0)
    made = _library_proxy().decide(X, ids, 11)
    assert [d["id"] for d in body["decisions"]] == ids
    assert [d["leaf"] for d in body["decisions"]] == made.leaf.tolist()
    assert [d["accept"] for d in body["decisions"]] == made.accept.tolist()
    assert [d["probability"] for d in body["decisions"]] == made.probability.tolist()
    assert 0 < sum(made.accept) < 200  # both answers occur
    again = _decide(client, fid, ids, X)
    assert again.json()["decisions"] == body["decisions"] and again.json()["repeated"] == 200
    assert again.headers["etag"] == '"3"'  # nothing new was counted: the state did not change
    # Another filter fitted on the same data with the same seed answers the same: the coin is (seed, id).
    twin = _ready(client, sessions, settings)
    assert _decide(client, twin, ids, X).json()["decisions"] == body["decisions"]
    # Integer ids are the same candidates as their strings, and are echoed as given.
    numeric = _decide(client, fid, [7, "7"], X[:2]).json()["decisions"]
    assert numeric[0]["id"] == 7 and numeric[1]["id"] == "7"
    assert numeric[0]["accept"] == numeric[1]["accept"] and numeric[0]["leaf"] == numeric[1]["leaf"]


def test_ids_with_special_characters_are_stored_and_echoed_exactly(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    ids = ["tab\there", "back\\slash", 'quote"d', "new\nline", "ünïcødé ✓", "x" * 200, 12345678901234567890]
    X = _candidates(len(ids), 13)[1]
    first = _decide(client, fid, ids, X).json()
    assert [d["id"] for d in first["decisions"]] == ids and first["new"] == len(ids)
    made = _library_proxy().decide(X, [str(i) for i in ids], 11)
    assert [d["accept"] for d in first["decisions"]] == made.accept.tolist()
    again = _decide(client, fid, list(reversed(ids)), X[::-1] + 1.0).json()
    assert again["repeated"] == len(ids) and again["decisions"] == first["decisions"][::-1]
    accepted = [d["id"] for d in first["decisions"] if d["accept"]]
    assert accepted and _outcomes(client, fid, [(i, "a") for i in accepted]).json()["counted"] == len(accepted)


def test_counts_per_leaf_are_exact_with_repeated_ids(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    ids1, X1 = _candidates(100, 4)                 # c0..c99
    ids2, X2 = _candidates(100, 5, start=50)       # c50..c149: c50..c99 again, with other features
    ids2 += ["c120", "c0"]                         # and a repeat inside the batch, and an old id
    X2 = np.vstack([X2, X1[:2] + 5.0])
    one = _decide(client, fid, ids1, X1).json()["decisions"]
    two = _decide(client, fid, ids2, X2).json()
    assert (two["new"], two["repeated"]) == (50, 52)
    by_id = {d["id"]: d for d in one}
    for d in two["decisions"]:
        if d["id"] in by_id:  # an id decided before keeps its first answer, whatever its features now
            assert d == by_id[d["id"]]
    assert two["decisions"][-2] == two["decisions"][120 - 50]  # c120's first row in this batch
    for d in two["decisions"]:
        by_id.setdefault(d["id"], d)
    assert len(by_id) == 150
    leaves = np.array([d["leaf"] for d in by_id.values()])
    accepted = np.array([d["accept"] for d in by_id.values()])
    n_leaves = _get(client, fid)["proxy"]["n_leaves"]
    counts = _get(client, fid)["decisions"]
    assert counts["total"] == 150 and counts["accepted"] == int(accepted.sum())
    assert counts["by_leaf"] == np.bincount(leaves, minlength=n_leaves).tolist()
    assert counts["accepted_by_leaf"] == np.bincount(leaves[accepted], minlength=n_leaves).tolist()
    log = client.get(f"{URL}/{fid}/decisions").json()["items"]
    assert [d["kind"] for d in log] == ["create", "fit", "decisions", "decisions"]
    assert log[3]["request"]["candidates"] == 102 and log[3]["response"]["new"] == 50
    assert log[3]["request"]["digest"].startswith("sha256:") and "features" not in json.dumps(log[3])


def test_concurrent_decisions_count_each_id_once(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    ids, X = _candidates(300, 6)
    answers: list = []

    def decide(offset: int) -> None:
        picked = slice(offset, offset + 200)  # overlapping windows of the same 300 ids
        answers.append((offset, client.post(f"{URL}/{fid}/decisions", json=_body(ids[picked], X[picked]))))

    threads = [threading.Thread(target=decide, args=(o,)) for o in (0, 50, 100, 0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.status_code == 200 for _, r in answers)
    assert sum(r.json()["new"] for _, r in answers) == 300
    seen: dict = {}
    for _, r in answers:
        for d in r.json()["decisions"]:
            assert seen.setdefault(d["id"], d) == d
    assert _get(client, fid)["decisions"]["total"] == 300


def test_a_full_batch_is_decided_without_training_or_the_solver(client, sessions, settings, monkeypatch):
    import cvxpy

    fid = _ready(client, sessions, settings)
    PROXIES.clear()  # rebuild the proxy from its stored parameters

    def no_solver(*args, **kwargs):
        raise AssertionError("the accept path must not solve anything")

    monkeypatch.setattr(cvxpy.Problem, "solve", no_solver)
    ids, X = _candidates(settings.max_candidates, 7)
    response = _decide(client, fid, ids, X)
    assert response.json()["new"] == settings.max_candidates
    too_many = client.post(f"{URL}/{fid}/decisions", json=_body(["x", *ids], np.vstack([X[:1], X])))
    assert too_many.status_code == 422 and "FAIRACQ_MAX_CANDIDATES" in too_many.text
    [entry] = client.get(f"{URL}/{fid}/decisions").json()["items"][2:]
    assert entry["request"]["candidates"] == settings.max_candidates and len(json.dumps(entry)) < 1_000


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ('{"candidates": [{"id": "x", "features": [1.0, 2.0]}]}', "trained on 3"),
        ('{"candidates": [{"id": "x", "features": [1.0, NaN, 2.0]}]}', "finite"),
        ('{"candidates": [{"id": "x", "features": [1, 2, 3]}, {"id": "y", "features": [1, 2]}]}', "same features"),
        ('{"candidates": [{"id": "x", "features": [1, "2", 3]}]}', "must be a number"),
        ('{"candidates": [{"features": [1, 2, 3]}]}', "must be an object"),
        ('{"candidates": [{"id": true, "features": [1, 2, 3]}]}', "string or an integer"),
        ('{"candidates": [{"id": "", "features": [1, 2, 3]}]}', "1 to 200 characters"),
        ('{"candidates": []}', "at least one candidate"),
        ('{"candidates": [{"id": "x", "features": [1, 2, 3]}', "not valid JSON"),
        ('[]', "send {"),
    ],
)
def test_bad_decisions_are_422_and_leave_the_state_untouched(client, sessions, settings, raw, fragment):
    fid = _ready(client, sessions, settings)
    response = client.post(f"{URL}/{fid}/decisions", content=raw.encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 422 and fragment in response.text, response.text
    state = _get(client, fid)
    assert state["version"] == 2 and state["decisions"]["total"] == 0
    assert len(client.get(f"{URL}/{fid}/decisions").json()["items"]) == 2


def test_if_match_guards_decisions(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    body = _body(*_candidates(2, 8))
    assert client.post(f"{URL}/{fid}/decisions", json=body, headers={"If-Match": '"1"'}).status_code == 412
    done = client.post(f"{URL}/{fid}/decisions", json=body, headers={"If-Match": '"2"'})
    assert done.status_code == 200 and done.headers["etag"] == '"3"'


# ----------------------------------------------------------------------------- outcomes


def _accepted_and_rejected(client, fid: str) -> tuple[list[str], list[str]]:
    ids, X = _candidates(60, 9)
    decided = _decide(client, fid, ids, X).json()["decisions"]
    return [d["id"] for d in decided if d["accept"]], [d["id"] for d in decided if not d["accept"]]


def test_outcomes_count_once_and_give_the_realized_imbalance(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    accepted, _ = _accepted_and_rejected(client, fid)
    first = _outcomes(client, fid, [(accepted[0], "a"), (accepted[1], "a"), (accepted[2], "b")])
    # Shares (2/3, 1/3) against U = (1/2, 1/2): imbalance √((1/6)² + (1/6)²) = √2 / 6.
    assert first.json() == {
        "received": 3, "counted": 3, "repeated": 0,
        "realized": {"outcomes": 3, "group_counts": {"a": 2, "b": 1},
                     "group_shares": {"a": pytest.approx(2 / 3), "b": pytest.approx(1 / 3)},
                     "imbalance": pytest.approx(math.sqrt(2) / 6, abs=TOL)},
    }
    version = int(first.headers["etag"].strip('"'))
    again = _outcomes(client, fid, [(accepted[0], "a"), (accepted[2], "b"), (accepted[2], "b")]).json()
    assert (again["counted"], again["repeated"]) == (0, 3) and again["realized"]["outcomes"] == 3
    more = _outcomes(client, fid, [(accepted[3], "b"), (accepted[0], "a")]).json()
    assert (more["counted"], more["repeated"]) == (1, 1)
    realized = _get(client, fid)["realized"]
    assert realized["group_counts"] == {"a": 2, "b": 2} and realized["imbalance"] == pytest.approx(0.0, abs=TOL)
    assert _get(client, fid)["version"] == version + 1  # the repeat changed nothing
    kinds = [d["kind"] for d in client.get(f"{URL}/{fid}/decisions").json()["items"]]
    assert kinds == ["create", "fit", "decisions", "outcomes", "outcomes", "outcomes"]


def test_bad_outcomes_are_422_and_leave_the_state_untouched(client, sessions, settings):
    fid = _ready(client, sessions, settings)
    accepted, rejected = _accepted_and_rejected(client, fid)
    _outcomes(client, fid, [(accepted[0], "a")])
    before = _get(client, fid)
    cases = [
        ([(accepted[1], "a"), (accepted[2], "z")], "unknown group 'z'"),
        ([(accepted[1], "a"), ("never-seen", "a")], "has not decided"),
        ([(accepted[1], "a"), (rejected[0], "b")], "was rejected"),
        ([(accepted[1], "a"), (accepted[0], "b")], "already reported"),
        ([(accepted[1], "a"), (accepted[1], "b")], "twice with different groups"),
        ([(accepted[1], ["a", "b"])], "one group name"),
    ]
    for pairs, fragment in cases:
        response = _outcomes(client, fid, pairs, expect=422)
        assert fragment in response.text, response.text
    after = _get(client, fid)
    assert after["version"] == before["version"] and after["realized"] == before["realized"]
    assert after["realized"]["group_counts"] == {"a": 1, "b": 0}


def test_intersecting_groups(client, sessions, settings):
    X, race = _training()
    sex = np.where(X[:, 2] > 0, "f", "m")
    fid = _create(client, groups=[["a", "b"], ["f", "m"]], proxy={"type": "qp_tree", "max_depth": 3},
                  training={"features": X.tolist(), "groups": [[r, s] for r, s in zip(race, sex, strict=True)]},
                  target=[{"a": 0.5, "b": 0.5}, {"f": 0.4, "m": 0.6}]).json()["id"]
    _run_jobs(sessions, settings)
    state = _get(client, fid)
    assert state["group_names"] == ["0:a", "0:b", "1:f", "1:m"]
    assert state["target"] == {"0:a": 0.5, "0:b": 0.5, "1:f": 0.4, "1:m": 0.6}
    assert np.allclose(np.array(state["conditional_matrix"]).sum(axis=1), 2.0)  # one distribution per class
    ids, Xc = _candidates(40, 10)
    decided = _decide(client, fid, ids, Xc).json()["decisions"]
    accepted = [d["id"] for d in decided if d["accept"]]
    result = _outcomes(client, fid, [(accepted[0], ["a", "f"]), (accepted[1], ["b", "f"])]).json()
    # Shares per class: (1/2, 1/2) and (1, 0) against (1/2, 1/2, 0.4, 0.6): imbalance √(0.6² + 0.6²).
    assert result["realized"]["group_counts"] == {"0:a": 1, "0:b": 1, "1:f": 2, "1:m": 0}
    assert result["realized"]["imbalance"] == pytest.approx(math.sqrt(0.72), abs=TOL)
    assert "list of 2 groups" in _outcomes(client, fid, [(accepted[2], "a")], expect=422).text


# ----------------------------------------------------------------------------- delete


def _candidate_rows(sessions, fid: str) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).select_from(FilterCandidate)
                         .where(FilterCandidate.session_id == uuid.UUID(fid)))


def test_delete_removes_the_filter_its_candidates_and_its_log(client, sessions, settings):
    X, groups = _training(n=30)
    dataset = client.post("/v1/datasets", json={"features": X.tolist(), "groups": groups.tolist()}).json()["id"]
    fid = _ready(client, sessions, settings, training=None, training_dataset_id=dataset,
                 proxy={"type": "qp_tree", "max_depth": 2})
    kept = _ready(client, sessions, settings)
    ids, Xc = _candidates(20, 14)
    accepted = [d["id"] for d in _decide(client, fid, ids, Xc).json()["decisions"] if d["accept"]]
    _outcomes(client, fid, [(accepted[0], "a")])
    _decide(client, kept, ids, Xc)
    assert _candidate_rows(sessions, fid) == _candidate_rows(sessions, kept) == 20
    assert client.delete(f"/v1/datasets/{dataset}").status_code == 409  # the filter uses it
    assert client.delete(f"{URL}/{fid}").status_code == 204
    assert _candidate_rows(sessions, fid) == 0 and _candidate_rows(sessions, kept) == 20
    assert client.get(f"{URL}/{fid}").status_code == 404
    assert client.get(f"{URL}/{fid}/decisions").status_code == 404
    assert client.post(f"{URL}/{fid}/decisions", json=_body(ids, Xc)).status_code == 404
    assert client.delete(f"{URL}/{fid}").status_code == 404
    assert [f["id"] for f in client.get(URL).json()["items"]] == [kept]
    assert client.delete(f"/v1/datasets/{dataset}").status_code == 204
    assert _decide(client, kept, ids, Xc).json()["repeated"] == 20  # the other filter keeps its answers


def test_deleting_a_filter_being_fitted_cancels_its_job(client, sessions, settings):
    created = _create(client).json()
    assert client.delete(f"{URL}/{created['id']}").status_code == 204
    assert client.get(f"/v1/jobs/{created['job_id']}").json()["status"] == "cancelled"
    assert _run_jobs(sessions, settings) == []


# ----------------------------------------------------------------------------- a real worker process


def test_a_real_worker_fits_the_filter(client, worker):
    fid = _create(client).json()["id"]
    state = wait_for(lambda: (s := _get(client, fid))["status"] not in ("queued", "running") and s, 30, "the fit")
    assert state["status"] == "ready", state["error"]
    # Another process may take another BLAS path: equal to rounding, not bit for bit.
    assert state["acceptance_probabilities"] == pytest.approx(_library_proxy().rho_.tolist(), abs=TOL)
    ids, X = _candidates(20, 11)
    assert _decide(client, fid, ids, X).json()["new"] == 20


# ----------------------------------------------------------------------------- tenants


def test_other_tenants_get_404_on_every_route(client, sessions, settings):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    as_alice, as_bob = client.with_key(alice), client.with_key(bob)
    fid = _ready(as_alice, sessions, settings)
    ids, X = _candidates(10, 12)
    accepted = [d["id"] for d in _decide(as_alice, fid, ids, X).json()["decisions"] if d["accept"]]
    X_train, groups = _training(n=30)
    dataset = as_alice.post("/v1/datasets", json={"features": X_train.tolist(), "groups": groups.tolist()}).json()
    assert as_bob.get(f"{URL}/{fid}").status_code == 404
    assert as_bob.post(f"{URL}/{fid}/decisions", json=_body(ids, X)).status_code == 404
    assert as_bob.post(f"{URL}/{fid}/outcomes", json={"outcomes": [{"id": accepted[0], "group": "a"}]}
                       ).status_code == 404
    assert as_bob.get(f"{URL}/{fid}/decisions").status_code == 404
    assert as_bob.get(URL).json()["items"] == []
    stolen = as_bob.post(URL, json={"groups": ["a", "b"], "proxy": AB_TREE, "training_dataset_id": dataset["id"]})
    assert stolen.status_code == 404
    state = _get(as_alice, fid)
    assert state["version"] == 3 and state["decisions"]["total"] == 10 and state["realized"] is None
