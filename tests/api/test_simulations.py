"""``/v1/simulations`` through the API: a case whose winner is known, intervals that cover the truth,
bit-for-bit reproducibility, the PNG, a stored dataset as the source, and 422s that store nothing."""

from __future__ import annotations

import json
import uuid

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import service.simulations.tasks  # noqa: F401  (registers the job handlers)
from service.db import transaction
from service.jobs.models import Job
from service.simulations.fanout import CHILD_JOB
from tests.factories import run_queued_jobs, upload_dataset

URL = "/v1/simulations"


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Small matrices on a shared 2-core machine: BLAS threads would only contend."""
    with threadpool_limits(1):
        yield


def constant_and_halfspace(n: int = 240, d: int = 20, seed: int = 0, constant: tuple[str, ...] = ("a",)) -> dict:
    """The ``constant`` groups' label is always 1 (learnt from one sample); b's is a random halfspace in d dimensions.

    Features are block-diagonal (each group's indicator; b's d coordinates besides), so the
    groups share no coefficient: b's accuracy grows only with b's samples, and the worst group
    is b. A policy that spends the budget on b (Aopt: the other groups' loss is 0) must beat
    uniform sampling, the more so the more constant groups uniform sampling spends on.
    """
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    k = len(constant)
    X = np.zeros(((k + 1) * n, d + k + 1))
    for j in range(k + 1):
        X[j * n:(j + 1) * n, j] = 1.0
    X[k * n:, k + 1:] = rng.normal(size=(n, d))
    y = np.r_[np.ones(k * n), (X[k * n:, k + 1:] @ w > 0).astype(float)]
    groups = [g for g in constant for _ in range(n)] + ["b"] * n
    return {"features": X.round(6).tolist(), "groups": groups, "labels": y.tolist()}


def noise_group(n: int = 160, seed: int = 1) -> dict:
    """Group b's labels are fair coin flips: every classifier's expected accuracy on b is exactly 0.5."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(2 * n, 2))
    y = np.r_[(X[:n, 0] > 0).astype(float), (rng.random(n) < 0.5).astype(float)]
    return {"features": X.round(6).tolist(), "groups": ["a"] * n + ["b"] * n, "labels": y.tolist()}


def body(data: dict, **overrides) -> dict:
    out = {"decision_type": "group_sampler", "budget": 60, "repetitions": 8, "seed": 11, "curve_points": 3,
           "policies": [{"strategy": "aopt"}, {"strategy": "uniform"}], "data": data}
    out.update(overrides)
    return out


def simulate(client, sessions, settings, payload: dict) -> dict:
    created = client.post(URL, json=payload)
    assert created.status_code == 202, created.text
    assert created.json()["status"] == "queued"
    run_queued_jobs(sessions, settings)
    done = client.get(f"{URL}/{created.json()['id']}").json()
    assert done["status"] == "ready", done
    return done


def comparison(results: dict, a: str, b: str) -> dict:
    return next(c for c in results["comparisons"] if (c["policy_a"], c["policy_b"]) == (a, b))


def test_aopt_beats_uniform_when_the_other_groups_are_learnt_from_one_sample(client, sessions, settings):
    # 480 rows a group and 20 repetitions: the pilot's own sampling error of b's accuracy (144 test
    # rows) and the replays' spread must both be below Aopt's lead for the interval to exclude 0.
    data = constant_and_halfspace(n=480, constant=("a", "c"))
    results = simulate(client, sessions, settings, body(data, repetitions=20))["results"]
    assert results["points"] == [20, 40, 60] and results["repetitions"] == 20 and results["groups"] == ["a", "b", "c"]
    aopt, uniform = results["policies"]
    # Aopt spends on b, whose loss stays above a's and c's zero; uniform sampling splits the budget.
    assert aopt["curves"]["mixture"]["b"]["mean"][-1] > 0.65
    assert 0.2 < uniform["curves"]["mixture"]["b"]["mean"][-1] < 0.5
    # Group a is learnt exactly by every policy: accuracy 1 with a degenerate interval.
    assert aopt["curves"]["accuracy"]["a"] == {"mean": [1.0] * 3, "low": [1.0] * 3, "high": [1.0] * 3}
    diff = comparison(results, "aopt", "uniform")  # 0.149, 95% CI 0.076 to 0.222
    assert diff["difference"]["low"] > 0 and not diff["within_noise"]
    rec = results["recommendation"]
    assert rec["best"] == "aopt" and rec["beats"] == ["uniform"] and rec["within_noise"] == []
    assert "beyond noise" in rec["text"] and "At 60 samples, aopt has the best worst-group accuracy" in rec["text"]
    assert "include the data's own sampling error" in rec["text"]
    assert results["variance_factor"] == pytest.approx(1 / 20 + 0.3 / 0.7)
    for policy in results["policies"]:  # every interval holds its mean
        for curve in [policy["curves"]["worst_group"], *policy["curves"]["accuracy"].values()]:
            assert all(lo <= m <= hi for lo, m, hi in zip(curve["low"], curve["mean"], curve["high"], strict=True))


def test_intervals_cover_a_true_difference_of_zero_and_say_within_noise(client, sessions, settings):
    policies = [{"strategy": "greedy"}, {"strategy": "uniform"}, {"strategy": "uniform", "name": "uniform_again"}]
    results = simulate(client, sessions, settings, body(noise_group(), policies=policies, repetitions=10))["results"]
    for policy in results["policies"]:  # the truth is 0.5 on coin flips, whatever was acquired
        b = policy["curves"]["accuracy"]["b"]
        assert b["low"][-1] <= 0.5 <= b["high"][-1]
    diff = comparison(results, "greedy", "uniform")
    assert diff["difference"]["low"] <= 0.0 <= diff["difference"]["high"] and diff["within_noise"]
    # The same policy under two names sees the same rows and the same draws: a difference of exactly 0.
    same = comparison(results, "uniform", "uniform_again")
    assert same["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0} and same["within_noise"]
    assert results["policies"][1]["curves"] == results["policies"][2]["curves"]
    assert results["recommendation"]["beats"] == []
    assert "within noise" in results["recommendation"]["text"]
    assert "No policy is distinguishable" in results["recommendation"]["text"]


def test_the_same_seed_gives_identical_results_and_another_seed_does_not(client, sessions, settings):
    payload = body(noise_group(n=60), budget=30, repetitions=4, model="gradient_boosting", metric="log_loss")
    first = simulate(client, sessions, settings, payload)
    second = simulate(client, sessions, settings, payload)
    other = simulate(client, sessions, settings, {**payload, "seed": 12})
    assert json.dumps(first["results"], sort_keys=True) == json.dumps(second["results"], sort_keys=True)
    assert first["results"] != other["results"]
    assert first["results"]["measure"] == "worst-group log loss"
    with transaction(sessions) as db:
        children = db.query(Job).filter(Job.resource_id == uuid.UUID(first["id"]), Job.kind == CHILD_JOB).all()
        assert sorted(r for job in children for r in job.payload["repetitions"]) == [0, 1, 2, 3]
        assert {job.status for job in children} == {"succeeded"}


def test_a_policy_that_draws_more_rows_than_a_group_holds_is_warned_about(client, sessions, settings):
    payload = body(noise_group(n=20), budget=40, repetitions=2, policies=[{"strategy": "uniform"}])
    results = simulate(client, sessions, settings, payload)["results"]
    # 40 samples split evenly draw about 40 rows (training and validation) from each group's pool of 14.
    assert len(results["warnings"]) == 1 and results["warnings"][0].startswith("uniform drew more rows")
    assert "a (" in results["warnings"][0] and "of 14)" in results["warnings"][0]
    assert "Note: uniform drew more rows" in results["recommendation"]["text"]
    roomy = simulate(client, sessions, settings, body(noise_group(n=200), budget=20, repetitions=2))["results"]
    assert roomy["warnings"] == []


def test_plot_is_a_png_once_there_are_results_and_409_before(client, sessions, settings):
    created = client.post(URL, json=body(noise_group(n=40), budget=20, repetitions=2)).json()
    early = client.get(f"{URL}/{created['id']}/plot.png")
    assert early.status_code == 409 and early.headers["content-type"] == "application/problem+json"
    run_queued_jobs(sessions, settings)
    png = client.get(f"{URL}/{created['id']}/plot.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n") and len(png.content) > 5000


def test_a_stored_dataset_is_replayed_like_the_same_table_inline(client, sessions, settings):
    dataset = upload_dataset(client, n=80, d=3, seed=4)
    from tests.factories import dataset_payload

    inline = {k: v for k, v in dataset_payload(n=80, d=3, seed=4).items() if k in ("features", "groups", "labels")}
    by_id = body(None, budget=20, repetitions=3, dataset_id=dataset["id"])
    del by_id["data"]
    stored = simulate(client, sessions, settings, by_id)["results"]
    sent = simulate(client, sessions, settings, body(inline, budget=20, repetitions=3))["results"]
    assert stored == sent


@pytest.mark.parametrize(("change", "where", "words"), [
    ({"decision_type": "partition_bandit"}, "body.policies.0.policy", "Field required"),
    ({"labels": "two"}, "labels", "must be 0 or 1"),
    ({"tiny_group": True}, "groups", "fewer than 4 rows"),
    ({"policies": [{"strategy": "aopt", "c1": 0.5}]}, "policies.0", "aopt_plus"),
    ({"policies": [{"strategy": "aopt"}, {"strategy": "aopt"}]}, "policies", "distinct names"),
    ({"dataset_id": "00000000-0000-4000-8000-000000000000"}, "body", "either dataset_id or data"),
    ({"repetitions": 200, "budget": 10_000}, "body", "sampler rounds"),
    ({"unknown": 1}, "unknown", "Extra inputs"),
    ({"repetitions": 1}, "repetitions", "greater than or equal to 2"),
])
def test_bad_requests_are_422_and_store_nothing(client, change, where, words):
    data = noise_group(n=20)
    if change.pop("labels", None):
        data["labels"][0] = 2.0
    if change.pop("tiny_group", None):
        data["groups"][:3] = ["c", "c", "c"]
    response = client.post(URL, json=body(data, **change))
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert words in response.text and where in response.text
    assert client.get(URL).json()["items"] == []
