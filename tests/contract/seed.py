"""Real resources and a happy-path tour through the API, for the contract tests.

``seed_resources`` makes one resource of every kind and returns ``{collection path: id}``,
e.g. ``{"/v1/datasets": "…"}``: the contract tests map each ``{…_id}`` path parameter to the
id of its collection. Background fits run in-process so that filters and regressions are
``ready``. ``happy_path_tour`` then calls the state-changing routes with valid requests, so
that success bodies are checked against the schema too (random requests rarely succeed).
Both return the responses they got, to be validated by the caller.
"""

from __future__ import annotations

from typing import Any

import httpx
import numpy as np
from sqlalchemy.orm import Session, sessionmaker

from service.settings import Settings
from tests.factories import ApiClient, run_queued_jobs

__all__ = ["happy_path_tour", "seed_resources"]


def _dataset(n: int = 60, seed: int = 0) -> dict[str, Any]:
    """Three separated blobs in 2-D, two groups, labels that depend on the features."""
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])
    blob = np.arange(n) % 3
    features = (centres[blob] + rng.normal(scale=0.5, size=(n, 2))).round(5)
    return {"name": "contract", "features": features.tolist(),
            "groups": ["a" if i % 2 else "b" for i in range(n)],
            "labels": ((features[:, 0] + rng.normal(scale=0.5, size=n)) > 1).astype(int).tolist(),
            "ids": [f"item-{i}" for i in range(n)]}


class _Recorder:
    """Sends requests, asserts they succeed, and keeps every response."""

    def __init__(self, client: ApiClient) -> None:
        self.client = client
        self.responses: list[httpx.Response] = []

    def __call__(self, method: str, url: str, **kwargs: Any) -> dict[str, Any]:
        response = self.client.request(method, url, **kwargs)
        assert response.is_success, f"{method} {url}: {response.status_code} {response.text}"
        self.responses.append(response)
        return response.json() if response.content else {}


def seed_resources(client: ApiClient, sessions: sessionmaker[Session],
                   settings: Settings) -> tuple[dict[str, str], list[httpx.Response]]:
    call = _Recorder(client)
    dataset = call("POST", "/v1/datasets", json=_dataset())["id"]
    ids = {"/v1/datasets": dataset}
    ids["/v1/batch-schedulers"] = call("POST", "/v1/batch-schedulers", json={
        "metric": "equal_opportunity", "labels": [0, 1], "groups": ["a", "b"], "batch_size": 10, "seed": 0,
        "counts": [{"label": y, "group": g, "count": 10} for y in (0, 1) for g in ("a", "b")]})["id"]
    ids["/v1/group-samplers"] = call("POST", "/v1/group-samplers", json={
        "groups": ["a", "b"], "strategy": "aopt", "budget": 50, "seed": 0})["id"]
    bandit = call("POST", "/v1/partition-bandits", json={
        "pool_dataset_id": dataset, "partitioning": {"method": "gmm", "max_components": 3},
        "train_dataset_id": dataset, "test_dataset_id": dataset, "batch_size": 2, "budget": 20, "seed": 0})
    ids["/v1/partition-bandits"] = bandit["id"]
    ids["/v1/balanced-filters"] = call("POST", "/v1/balanced-filters", json={
        "groups": ["a", "b"], "proxy": {"type": "naive_tree", "max_depth": 3},
        "training_dataset_id": dataset, "seed": 0})["id"]
    ids["/v1/fair-regressions"] = call("POST", "/v1/fair-regressions", json={
        "dataset_id": dataset, "constraint": {"type": "bounded_group_loss", "bound": 0.5},
        "max_iterations": 5, "seed": 0})["id"]
    ids["/v1/jobs"] = bandit["job_id"]
    jobs = run_queued_jobs(sessions, settings)
    assert jobs and all(job.status == "succeeded" for job in jobs), [(j.kind, j.status, j.error) for j in jobs]
    return ids, call.responses


def happy_path_tour(client: ApiClient, ids: dict[str, str]) -> list[httpx.Response]:
    call = _Recorder(client)
    call("POST", "/v1/datasets?group_column=g&label_column=y&name=csv", content=b"x,colour,g,y\n"
         b"0.5,red,a,1\n1.5,blue,b,0\n2.5,red,a,0\n", headers={"content-type": "text/csv"})
    call("POST", "/v1/datasets", files={"file": ("t.csv", b"x,g,y\n0.5,a,1\n1.5,b,0\n", "text/csv")},
         data={"name": "form", "group_column": "g", "label_column": "y"})
    for collection, resource_id in ids.items():
        call("GET", collection)
        call("GET", f"{collection}/{resource_id}")
    call("POST", f"/v1/batch-schedulers/{ids['/v1/batch-schedulers']}/epochs", json={
        "epoch": 1, "losses": [{"label": y, "group": g, "loss": 0.3 + 0.1 * y} for y in (0, 1) for g in ("a", "b")]})
    sampler = f"/v1/group-samplers/{ids['/v1/group-samplers']}"
    decision = call("POST", f"{sampler}/next")
    call("POST", f"{sampler}/observations", json={
        "observation_id": "o1", "decision_id": decision["decision_id"], "group": decision["group"],
        "n_acquired": 5, "group_losses": {"a": 0.4, "b": 0.3}})
    bandit = f"/v1/partition-bandits/{ids['/v1/partition-bandits']}"
    decision = call("POST", f"{bandit}/next")
    call("POST", f"{bandit}/feedback", json={
        "decision_id": decision["decision_id"], "fairness_before": 0.2, "fairness_after": 0.15})
    run = call("POST", f"{bandit}/runs", json={})
    filter_url = f"/v1/balanced-filters/{ids['/v1/balanced-filters']}"
    candidates = [{"id": f"c{i}", "features": [float(i % 3) * 3, float(i % 2) * 3]} for i in range(12)]
    decided = call("POST", f"{filter_url}/decisions", json={"candidates": candidates})["decisions"]
    accepted = [d["id"] for d in decided if d["accept"]]
    assert accepted, decided
    call("POST", f"{filter_url}/outcomes", json={"outcomes": [{"id": accepted[0], "group": "a"}]})
    call("POST", f"/v1/fair-regressions/{ids['/v1/fair-regressions']}/predictions",
         json={"features": [[0.0, 0.0], [6.0, 0.0]]})
    call("POST", "/v1/fairness-metrics", json={
        "predictions": [1, 0, 1, 1], "labels": [1, 0, 0, 1], "groups": ["a", "a", "b", "b"],
        "metrics": ["demographic_parity", "equal_opportunity", "equalized_odds", "group_loss", "sp_ks"]})
    call("POST", "/v1/sampling-probabilities", json={
        "conditional_matrix": [[0.8, 0.2], [0.2, 0.8]], "leaf_rates": [0.75, 0.25]})
    for collection in ("/v1/batch-schedulers", "/v1/group-samplers", "/v1/partition-bandits",
                       "/v1/balanced-filters", "/v1/fair-regressions"):
        call("GET", f"{collection}/{ids[collection]}/decisions")
    call("POST", f"/v1/jobs/{run['id']}/cancel")  # the run is a job, still queued
    for path in ("/healthz", "/readyz"):
        call("GET", path)
    return call.responses
