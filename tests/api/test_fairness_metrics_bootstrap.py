"""``POST /v1/fairness-metrics`` with per-group counts and bootstrap intervals, checked against
fairlearn's ``MetricFrame`` on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest
from fairlearn.metrics import MetricFrame, selection_rate, true_positive_rate
from sklearn.metrics import mean_absolute_error, mean_squared_error, zero_one_loss

from service.fairness_metrics.service import MAX_BOOTSTRAP_WORK

TOL = 1e-12
PROBLEM = "application/problem+json"


def _data(n: int = 600, seed: int = 7):
    rng = np.random.default_rng(seed)
    groups = rng.choice(["north", "south", "east"], size=n, p=[0.5, 0.3, 0.2])
    labels = (rng.random(n) < np.where(groups == "north", 0.4, 0.6)).astype(float)
    scores = np.clip(0.3 * labels + rng.random(n) * 0.7 + np.where(groups == "east", 0.1, 0.0), 0, 1)
    return scores, labels, groups


def _post(client, scores, labels, groups, metrics, **extra):
    response = client.post("/v1/fairness-metrics", json={
        "predictions": scores.tolist(), "labels": labels.tolist(), "groups": groups.tolist(),
        "metrics": metrics, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def _frame(metric, y_true, y_pred, groups):
    return MetricFrame(metrics=metric, y_true=y_true, y_pred=y_pred, sensitive_features=groups)


def _check(out, frame):
    expected = frame.by_group.to_dict()
    assert out["by_group"].keys() == expected.keys()
    for group, value in expected.items():
        assert out["by_group"][group] == pytest.approx(value, abs=TOL)
    assert out["disparity"] == pytest.approx(frame.difference(method="between_groups"), abs=TOL)
    assert out["disparity_vs_overall"] == pytest.approx(frame.difference(method="to_overall"), abs=TOL)


def test_point_values_match_fairlearn_metricframe(client):
    scores, labels, groups = _data()
    hard = (scores >= 0.5).astype(float)
    body = _post(client, scores, labels, groups, ["demographic_parity", "equal_opportunity", "equalized_odds"])
    metrics = body["metrics"]
    _check(metrics["demographic_parity"], _frame(selection_rate, labels, hard, groups))
    assert metrics["demographic_parity"]["overall"] == pytest.approx(hard.mean(), abs=TOL)
    _check(metrics["equal_opportunity"], _frame(true_positive_rate, labels, hard, groups))
    # Equalized odds: fairlearn's equalized_odds_difference is the larger of the TPR and FPR gaps.
    tpr = _frame(true_positive_rate, labels, hard, groups)
    fpr = _frame(lambda y, p: float(((p == 1) & (y == 0)).sum() / (y == 0).sum()), labels, hard, groups)
    for group, value in fpr.by_group.to_dict().items():
        assert metrics["equalized_odds"]["details"]["false_positive_rate"][group] == pytest.approx(value, abs=TOL)
    expected_gap = max(tpr.difference(method="between_groups"), fpr.difference(method="between_groups"))
    assert metrics["equalized_odds"]["disparity"] == pytest.approx(expected_gap, abs=TOL)
    # Counts are the rows of each group, always.
    assert body["counts"] == {g: int((groups == g).sum()) for g in ("east", "north", "south")}


@pytest.mark.parametrize(("loss", "metric", "on_scores"), [
    ("zero_one", zero_one_loss, False), ("square", mean_squared_error, True), ("absolute", mean_absolute_error, True),
])
def test_group_loss_matches_fairlearn(client, loss, metric, on_scores):
    scores, labels, groups = _data(seed=3)
    predictions = scores if on_scores else (scores >= 0.5).astype(float)
    out = _post(client, scores, labels, groups, ["group_loss"], loss=loss)["metrics"]["group_loss"]
    _check(out, _frame(metric, labels, predictions, groups))


def test_intervals_are_reproducible_and_hold_the_point_values(client):
    scores, labels, groups = _data(n=400)
    options = {"resamples": 300, "seed": 99, "level": 0.9}
    metrics = ["demographic_parity", "equalized_odds", "group_loss", "sp_ks"]
    first = _post(client, scores, labels, groups, metrics, bootstrap=options)
    again = _post(client, scores, labels, groups, metrics, bootstrap=options)
    assert first == again  # bit for bit, through JSON
    assert first["bootstrap"] == {"resamples": 300, "seed": 99, "level": 0.9,
                                  "method": "percentile intervals of a bootstrap stratified by group"}
    other = _post(client, scores, labels, groups, metrics, bootstrap={**options, "seed": 100})
    assert other["metrics"] != first["metrics"]
    for name, out in first["metrics"].items():
        ci = out["ci"]
        assert ci["by_group"].keys() == out["by_group"].keys()
        for group, value in out["by_group"].items():
            interval = ci["by_group"][group]
            assert interval["lower"] < interval["upper"], (name, group)
            # With 130+ rows a group, the 90% percentile interval straddles the point value.
            assert interval["lower"] <= value <= interval["upper"], (name, group)
        assert ci["disparity"]["lower"] <= out["disparity"] <= ci["disparity"]["upper"], name
        assert ci["details"].keys() == out["details"].keys()
    # Without bootstrap no intervals are drawn; with it and no seed, the seed used is returned.
    plain = _post(client, scores, labels, groups, ["demographic_parity"])
    assert plain["bootstrap"] is None and plain["metrics"]["demographic_parity"]["ci"] is None
    drawn = _post(client, scores, labels, groups, ["demographic_parity"], bootstrap={"resamples": 50})
    replay = _post(client, scores, labels, groups, ["demographic_parity"],
                   bootstrap={"resamples": 50, "seed": drawn["bootstrap"]["seed"]})
    assert drawn["metrics"] == replay["metrics"]


def test_bootstrap_limits_are_422_before_any_work(client):
    n = 4_000
    body = {"predictions": [0.0, 1.0] * (n // 2), "groups": ["a", "b"] * (n // 2), "metrics": ["demographic_parity"]}
    too_many = client.post("/v1/fairness-metrics", json={**body, "bootstrap": {"resamples": 10_001}})
    assert too_many.status_code == 422 and too_many.headers["content-type"].startswith(PROBLEM)
    resamples = MAX_BOOTSTRAP_WORK // (2 * n) + 1  # one metric: work = rows × resamples × 2
    over = client.post("/v1/fairness-metrics", json={**body, "bootstrap": {"resamples": resamples}})
    assert over.status_code == 422, over.text
    problem = over.json()
    assert problem["errors"][0]["loc"] == ["body", "bootstrap", "resamples"]
    assert f"{MAX_BOOTSTRAP_WORK:,}" in problem["detail"]
    within = client.post("/v1/fairness-metrics", json={**body, "bootstrap": {"resamples": resamples - 1, "seed": 1}})
    assert within.status_code == 200, within.text
    for bad in ({"level": 1.0}, {"level": 0}, {"resamples": 0}, {"seed": -1}, {"extra": 1}):
        response = client.post("/v1/fairness-metrics", json={**body, "bootstrap": bad})
        assert response.status_code == 422, (bad, response.text)
