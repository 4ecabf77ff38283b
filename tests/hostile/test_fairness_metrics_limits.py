"""``POST /v1/fairness-metrics`` within its limits (issue 13, item 2).

The row limit (``FAIRACQ_MAX_ROWS``) and the group limit (``FAIRACQ_MAX_GROUPS``) are checked
before anything is computed, and ``sp_ks`` needs memory O(rows + groups): it used to keep a
curve of every threshold per group, so 16,000 rows in 16,000 groups (a 0.36 MB body) took
18 s and 4.2 GB.
"""

from __future__ import annotations

import json
import time
import tracemalloc

import numpy as np
import pytest
from fastapi.testclient import TestClient

from service.algorithms import metrics as m
from service.app import create_app
from service.fairness_metrics.schemas import MetricsRequest
from service.fairness_metrics.service import compute_metrics
from tests.conftest import fast_settings
from tests.factories import ApiClient

PROBLEM = "application/problem+json"
ALL = ["demographic_parity", "equal_opportunity", "equalized_odds", "group_loss", "sp_ks"]
TOL = 1e-12


def _problem(response, status: int = 422) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    return response.json()


def test_sixteen_thousand_groups_are_refused_at_once(client):
    n = 16_000
    body = {"predictions": [i / n for i in range(n)], "groups": [f"g{i}" for i in range(n)], "metrics": ["sp_ks"]}
    text = json.dumps(body)
    started = time.perf_counter()
    response = client.post("/v1/fairness-metrics", content=text.encode(), headers={"content-type": "application/json"})
    elapsed = time.perf_counter() - started
    print(f"\n16,000 rows x 16,000 groups ({len(text) / 1e6:.2f} MB): {response.status_code} in {elapsed:.3f} s")
    problem = _problem(response)
    assert "16000 distinct groups" in problem["detail"] and "FAIRACQ_MAX_GROUPS" in problem["detail"]
    assert problem["errors"][0]["loc"] == ["body", "groups"]
    assert elapsed < 1.0


def test_the_group_limit_is_the_setting(client, settings):
    groups = [f"g{i}" for i in range(settings.max_groups)]
    ok = client.post("/v1/fairness-metrics", json={"predictions": [0.5] * len(groups), "groups": groups,
                                                   "metrics": ["demographic_parity"]})
    assert ok.status_code == 200, ok.text
    over = groups + ["one more"]
    _problem(client.post("/v1/fairness-metrics", json={"predictions": [0.5] * len(over), "groups": over,
                                                       "metrics": ["demographic_parity"]}))


def test_the_row_limit_is_the_setting(database_url):
    app = create_app(fast_settings(database_url, max_rows=100))
    with TestClient(app, raise_server_exceptions=False) as raw:
        client = ApiClient(raw)
        ok = {"predictions": [0.5] * 100, "groups": ["a", "b"] * 50, "metrics": ["demographic_parity"]}
        assert client.post("/v1/fairness-metrics", json=ok).status_code == 200
        over = {"predictions": [0.5] * 101, "groups": ["a"] * 101, "metrics": ["demographic_parity"]}
        problem = _problem(client.post("/v1/fairness-metrics", json=over))
        assert "101 rows" in problem["detail"] and "FAIRACQ_MAX_ROWS" in problem["detail"]
        assert problem["errors"][0]["loc"] == ["body", "predictions"]


def test_at_the_limits_sp_ks_needs_little_memory(settings):
    n, k = settings.max_rows, settings.max_groups
    rng = np.random.default_rng(0)
    request = MetricsRequest(predictions=rng.random(n).round(3).tolist(), labels=rng.integers(0, 2, n).tolist(),
                             groups=[f"group {i % k}" for i in range(n)], metrics=ALL)
    tracemalloc.start()
    try:
        started = time.perf_counter()
        out = compute_metrics(request, settings)
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    print(f"\n{n:,} rows x {k} groups, every metric: {elapsed:.2f} s, peak {peak / 1e6:.1f} MB traced")
    assert len(out.metrics["sp_ks"].by_group) == k
    assert peak < 300e6


def _dense_sp_ks(f: np.ndarray, groups: np.ndarray) -> tuple[dict[str, float], float, float]:
    """The former implementation, one survival curve per group over every threshold (a reference)."""
    thresholds = np.unique(f)

    def survival(values: np.ndarray) -> np.ndarray:
        return 1.0 - np.searchsorted(np.sort(values), thresholds, side="left") / len(values)

    overall = survival(f)
    curves = {str(g): survival(f[groups == g]) for g in sorted(np.unique(groups).tolist())}
    by_group = {g: float(np.max(np.abs(c - overall))) for g, c in curves.items()}
    stacked = np.array(list(curves.values()))
    return by_group, float(np.max(stacked.max(axis=0) - stacked.min(axis=0))), max(by_group.values())


def test_sp_ks_by_hand():
    # Overall P[f >= z] at z = .1 .2 .3 .4: 1, .75, .5, .25; a: 1, .5, 0, 0; b: 1, 1, 1, .5.
    result = m.sp_ks(np.array([0.1, 0.2, 0.3, 0.4]), np.array(["a", "a", "b", "b"]))
    assert result.by_group == pytest.approx({"a": 0.5, "b": 0.5}, abs=TOL)
    assert result.disparity == pytest.approx(1.0, abs=TOL)  # at z = .3: a 0, b 1
    assert result.disparity_vs_overall == pytest.approx(0.5, abs=TOL)


@pytest.mark.parametrize("seed", range(5))
def test_sp_ks_agrees_with_the_dense_curves(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    f = rng.integers(0, 12, n) / 4.0  # many ties
    groups = rng.choice(["a", "b", "c", "d", "e"][: int(rng.integers(1, 6))], n)
    result = m.sp_ks(f, groups)
    by_group, pairwise, vs_overall = _dense_sp_ks(f, groups)
    assert result.by_group == pytest.approx(by_group, abs=TOL)
    assert result.disparity == pytest.approx(pairwise, abs=TOL)
    assert result.disparity_vs_overall == pytest.approx(vs_overall, abs=TOL)
