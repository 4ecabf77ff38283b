"""``POST /v1/fairness-metrics`` against values worked by hand."""

from __future__ import annotations

import pytest

TOL = 1e-12

# Two groups of four. Group a: predictions 1,1,0,0 with labels 1,0,1,0;
# group b: predictions 1,1,1,0 with labels 1,1,0,0.
CASE = {
    "predictions": [1, 1, 0, 0, 1, 1, 1, 0],
    "labels": [1, 0, 1, 0, 1, 1, 0, 0],
    "groups": ["a", "a", "a", "a", "b", "b", "b", "b"],
}


def _metrics(client, names, **extra):
    response = client.post("/v1/fairness-metrics", json={**CASE, "metrics": names, **extra})
    assert response.status_code == 200, response.text
    return response.json()["metrics"]


def test_demographic_parity_by_hand(client):
    dp = _metrics(client, ["demographic_parity"])["demographic_parity"]
    # P(ŷ=1|a) = 2/4, P(ŷ=1|b) = 3/4, overall 5/8.
    assert dp["by_group"] == {"a": 0.5, "b": 0.75}
    assert dp["overall"] == pytest.approx(0.625, abs=TOL)
    assert dp["disparity"] == pytest.approx(0.25, abs=TOL)
    assert dp["disparity_vs_overall"] == pytest.approx(0.125, abs=TOL)


def test_equal_opportunity_and_odds_by_hand(client):
    out = _metrics(client, ["equal_opportunity", "equalized_odds"])
    # TPR a = 1/2 (one of two positives), b = 2/2; FPR a = 1/2, b = 1/2.
    assert out["equal_opportunity"]["by_group"] == {"a": 0.5, "b": 1.0}
    assert out["equal_opportunity"]["disparity"] == pytest.approx(0.5, abs=TOL)
    eo = out["equalized_odds"]
    assert eo["details"]["false_positive_rate"] == {"a": 0.5, "b": 0.5}
    assert eo["disparity"] == pytest.approx(0.5, abs=TOL)


def test_group_loss_and_sp_ks(client):
    out = _metrics(client, ["group_loss", "sp_ks"], loss="zero_one")
    # errors a: rows 2,3 wrong (pred 1 label 0; pred 0 label 1) -> 2/4; b: row 3 wrong -> 1/4.
    assert out["group_loss"]["by_group"] == {"a": 0.5, "b": 0.25}
    # P[f >= 1]: a 0.5, b 0.75, overall 0.625 -> per-group KS 0.125, pairwise 0.25.
    assert out["sp_ks"]["disparity_vs_overall"] == pytest.approx(0.125, abs=TOL)
    assert out["sp_ks"]["disparity"] == pytest.approx(0.25, abs=TOL)


def test_labels_required_for_label_metrics(client):
    response = client.post("/v1/fairness-metrics", json={
        "predictions": [1, 0], "groups": ["a", "b"], "metrics": ["equal_opportunity"]})
    assert response.status_code == 422
    assert "labels are needed" in response.json()["detail"]


def test_length_mismatch_and_unknown_metric_are_422(client):
    bad_len = client.post("/v1/fairness-metrics", json={
        "predictions": [1, 0], "groups": ["a"], "metrics": ["demographic_parity"]})
    assert bad_len.status_code == 422 and "expected 2" in bad_len.json()["detail"]
    unknown = client.post("/v1/fairness-metrics", json={
        "predictions": [1], "groups": ["a"], "metrics": ["accuracy"]})
    assert unknown.status_code == 422


def test_a_group_without_positives_reports_null_not_nan(client):
    out = client.post("/v1/fairness-metrics", json={
        "predictions": [1, 0, 1], "labels": [1, 0, 0], "groups": ["a", "b", "b"],
        "metrics": ["equal_opportunity"]}).json()["metrics"]["equal_opportunity"]
    assert out["by_group"] == {"a": 1.0, "b": None}
