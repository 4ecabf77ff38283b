"""``/v1/simulations`` for partition bandits, batch schedulers and balanced filters, through the API:
known winners on constructed data, a policy against itself, bit-for-bit reproducibility, the PNG, 422s."""

from __future__ import annotations

import json

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import service.simulations.tasks  # noqa: F401  (registers the job handlers)
from tests.api.test_simulations import URL, comparison, simulate


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(1):
        yield


def biased(n: int = 400, seed: int = 0) -> dict:
    """Group a (75%): y = [x0 > 0]. Group b: y = [x1 + noise > 0.5], with x2 ≈ the group.

    One logistic regression fits a's rule and mostly misses b's positives, so its true positive
    rates differ by about 0.4 (equal opportunity); the groups are told apart by x2.
    """
    rng = np.random.default_rng(seed)
    na = int(0.75 * n)
    X = rng.normal(size=(n, 3))
    g = np.r_[np.zeros(na, int), np.ones(n - na, int)]
    y = np.where(g == 0, X[:, 0] > 0, X[:, 1] + 0.3 * rng.normal(size=n) > 0.5).astype(float)
    X[:, 2] = g + 0.1 * rng.normal(size=n)
    return {"features": X.round(6).tolist(), "groups": ["a" if z == 0 else "b" for z in g], "labels": y.tolist()}


def schedulers(**overrides) -> dict:
    out = {"decision_type": "batch_scheduler", "budget": 30, "repetitions": 6, "seed": 5, "curve_points": 3,
           "metric": "equal_opportunity", "batch_size": 20, "learning_rate": 0.02, "data": biased(),
           "policies": [{"policy": "minibatch"}, {"policy": "minibatch", "name": "minibatch_again"},
                        {"policy": "fairbatch", "step_size": 0.01}]}
    out.update(overrides)
    return out


def bandits(**overrides) -> dict:
    datasift = {"policy": "datasift", "batch_size": 10}
    out = {"decision_type": "partition_bandit", "budget": 90, "repetitions": 4, "seed": 5, "curve_points": 3,
           "initial_size": 30, "max_partitions": 4, "data": biased(),
           "policies": [{"policy": "random"}, {"policy": "random", "name": "random_again"}, datasift,
                        {**datasift, "batch_selection": "influence"}]}
    out.update(overrides)
    return out


def filters(**overrides) -> dict:
    out = {"decision_type": "balanced_filter", "budget": 100, "repetitions": 4, "seed": 5, "curve_points": 2,
           "data": biased(),
           "policies": [{"proxy": {"type": "qp_tree", "max_depth": 3}},
                        {"name": "qp_again", "proxy": {"type": "qp_tree", "max_depth": 3}},
                        {"proxy": {"type": "ab_tree", "alpha": 0.2, "epsilon": 0.05}}]}
    out.update(overrides)
    return out


def test_fairbatch_lowers_the_disparity_of_plain_minibatches_on_a_biased_table(client, sessions, settings):
    # 1,600 rows (b's test share holds 120): with the table's own sampling error in the interval, the
    # 400-row table of the other tests cannot put FairBatch's lead beyond noise; this one does
    # (0.34, 99.2% CI 0.17 to 0.52).
    results = simulate(client, sessions, settings, schedulers(data=biased(n=1600)))["results"]
    assert results["points"] == [10, 20, 30] and results["x_label"] == "epoch"
    assert results["plotted"] == ["disparity", "accuracy"]
    plain, again, fair = results["policies"]
    assert plain["curves"]["disparity"]["mean"][-1] > 0.3  # a's rule misses b's positives
    assert fair["curves"]["disparity"]["mean"][-1] < plain["curves"]["disparity"]["mean"][-1] - 0.15
    diff = comparison(results, "minibatch", "fairbatch")
    assert diff["difference"]["low"] > 0 and not diff["within_noise"]
    same = comparison(results, "minibatch", "minibatch_again")
    assert same["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0} and same["within_noise"]
    assert plain["curves"] == again["curves"]
    rec = results["recommendation"]
    assert rec["best"] == "fairbatch" and rec["beats"] == ["minibatch", "minibatch_again"]
    assert rec["text"].startswith("At 30 epochs, fairbatch has the best equal opportunity disparity")
    accuracy = {c["policy_a"] + "/" + c["policy_b"]: c for c in results["comparisons_by_curve"]["accuracy"]}
    assert accuracy["minibatch/minibatch_again"]["difference"]["mean"] == 0.0
    for policy in results["policies"]:
        for curve in policy["curves"].values():
            assert all(lo <= m <= hi for lo, m, hi in zip(curve["low"], curve["mean"], curve["high"], strict=True))


def test_partition_bandits_same_seed_same_bits_and_a_policy_against_itself(client, sessions, settings):
    first = simulate(client, sessions, settings, bandits())
    second = simulate(client, sessions, settings, bandits())
    assert json.dumps(first["results"], sort_keys=True) == json.dumps(second["results"], sort_keys=True)
    results = first["results"]
    names = [p["name"] for p in results["policies"]]
    assert names == ["random", "random_again", "datasift_random", "datasift_influence"]
    assert results["measure"] == "demographic parity disparity" and results["x_label"] == "points acquired"
    for measure, pairs in results["comparisons_by_curve"].items():
        same = next(c for c in pairs if (c["policy_a"], c["policy_b"]) == ("random", "random_again"))
        assert same["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0}, measure
    random, _, sift, _ = results["policies"]
    assert random["curves"]["acquired"]["mean"] == [30.0, 60.0, 90.0]  # every random batch is kept
    assert all(0 < v <= n for v, n in zip(sift["curves"]["acquired"]["mean"], [30, 60, 90], strict=True))
    for policy in results["policies"]:
        assert all(0.0 <= v <= 1.0 for v in policy["curves"]["fairness"]["mean"] + policy["curves"]["accuracy"]["mean"])
    other = simulate(client, sessions, settings, bandits(seed=6))
    assert other["results"] != results
    png = client.get(f"{URL}/{first['id']}/plot.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG\r\n\x1a\n")


def test_balanced_filters_trade_imbalance_for_disclosivity(client, sessions, settings):
    results = simulate(client, sessions, settings, filters())["results"]
    qp, again, ab = results["policies"]
    assert [qp["name"], ab["name"]] == ["qp_tree", "ab_tree_alpha_0.2"]
    assert qp["curves"] == again["curves"]
    # The groups are told apart by x2: an unconstrained tree discloses them, the α = 0.2 tree may not.
    assert qp["curves"]["disclosivity"]["mean"][-1] > 0.5
    assert ab["curves"]["disclosivity"]["high"][-1] < 0.3
    assert qp["curves"]["imbalance"]["mean"][-1] < ab["curves"]["imbalance"]["mean"][-1]
    for policy in results["policies"]:
        assert all(0.0 < v <= 1.0 for v in policy["curves"]["acceptance_rate"]["mean"])
    rec = results["recommendation"]
    # The α = 0.2 tree's imbalance varies from split to split as much as the gap: this small table
    # cannot say beyond noise that qp_tree is better, only that it is not worse than itself.
    assert rec["best"] == "qp_tree" and "qp_again" in rec["within_noise"]
    assert "At 100 candidates" in rec["text"]


@pytest.mark.parametrize(("payload", "where", "words"), [
    (bandits(policies=[{"policy": "random", "alpha": 0.5}]), "policies.0", "Extra inputs"),
    (bandits(policies=[{"policy": "sometimes"}]), "policies.0", "policy"),
    (bandits(budget=400), "budget", "fewer than the budget"),
    (bandits(repetitions=200, policies=[{"policy": "datasift", "batch_size": 1, "max_evaluations": 10_000}]), "body",
     "model fits"),
    (schedulers(model="gradient_boosting"), "model", "Extra inputs"),
    (schedulers(policies=[{"policy": "fairbatch", "step_size": 0}]), "step_size", "greater than 0"),
    (schedulers(budget=1000, repetitions=200, policies=[{"policy": "minibatch", "name": f"m{k}"} for k in range(10)]),
     "body", "example gradients"),
    (filters(policies=[{"proxy": {"type": "ab_tree"}}]), "policies.0.proxy", "needs alpha and epsilon"),
    (filters(target={"a": 0.5, "c": 0.5}), "body.target", "unknown group 'c'"),
    (filters(policies=[{"proxy": {"type": "qp_tree"}}, {"proxy": {"type": "qp_tree"}}]), "policies",
     "distinct names"),
    ({**filters(), "decision_type": "crystal_ball"}, "decision_type", "crystal_ball"),
])
def test_bad_policies_are_422_naming_the_field_and_store_nothing(client, payload, where, words):
    response = client.post(URL, json=payload)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert words in response.text and where in response.text, response.text
    assert client.get(URL).json()["items"] == []
