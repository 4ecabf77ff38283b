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
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import service.webhooks.tasks  # noqa: F401  (registers the delivery job, run by run_queued_jobs)
from service.auth import ApiKey, Tenant, hash_key
from service.exports import tasks as _export_tasks  # noqa: F401  (the export job, for run_queued_jobs)
from service.settings import Settings
from tests.factories import ApiClient, make_key, run_queued_jobs

__all__ = ["ADMIN_PREFIX", "happy_path_tour", "is_collection", "seed_resources"]

# Routes for admin-scoped keys only: the contract tests' keys are plain, so these answer them 403
# (documented) before looking at any id; seed_resources tours them with an admin key of alpha's.
ADMIN_PREFIX = "/v1/admin/"
UNLISTED = ("/v1/labelstudio/connections",)  # resources read by id only (no list route)


def is_collection(key: str) -> bool:
    """Whether a key of ``seed_resources``' ids is a top-level collection (not a nested one like decisions)."""
    return "{" not in key


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
        json_body = response.headers.get("content-type", "").startswith("application/json")
        return response.json() if response.content and json_body else {}


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
    ids["/v1/simulations"] = call("POST", "/v1/simulations", json={
        "decision_type": "group_sampler", "dataset_id": dataset, "budget": 10, "repetitions": 2, "curve_points": 2,
        "policies": [{"strategy": "aopt"}, {"strategy": "uniform"}], "seed": 0})["id"]
    ids["/v1/jobs"] = bandit["job_id"]
    ids["/v1/exports"] = call("POST", "/v1/exports", json={
        "source": {"type": "decision_log", "resource": "group-samplers", "id": ids["/v1/group-samplers"]},
        "format": "csv"})["id"]
    managed = call("POST", "/v1/group-samplers", json={
        "groups": ["a", "b"], "strategy": "aopt", "mode": "managed", "budget": 50, "seed": 0})["id"]
    ids["/v1/labelstudio/connections"] = call("POST", "/v1/labelstudio/connections", json={
        "session_type": "group_sampler", "session_id": managed,
        "mapping": {"features": "x", "group": "g", "label": {"control": "y", "positive": "1"}}})["id"]
    # A webhook whose receiver is not listening (127.0.0.1's discard port): the jobs' finishes queue
    # deliveries, each tried once and failed (no retries in this schedule), redeliverable by the tour.
    webhook = call("POST", "/v1/webhooks", json={"url": "http://127.0.0.1:9/hooks", "event_types": [
        "job.finished", "session.done", "filter.ready"], "description": "contract"})["id"]
    ids["/v1/webhooks"] = webhook
    jobs = run_queued_jobs(sessions, settings.model_copy(update={"webhook_retry_schedule_seconds": []}))
    assert jobs and all(job.status == "succeeded" for job in jobs), [(j.kind, j.status, j.error) for j in jobs]
    ids["/v1/webhook-deliveries"] = call("GET", f"/v1/webhooks/{webhook}/deliveries")["items"][0]["id"]
    ids["/v1/admin/keys"] = _admin_tour(client, sessions, call)
    # A pending decision of each kind that has them: ids of a nested collection are keyed by its
    # path template, so that a {decision_id} goes with its own session's id.
    for collection, parameter in (("/v1/group-samplers", "sampler_id"), ("/v1/partition-bandits", "bandit_id")):
        decision = call("POST", f"{collection}/{ids[collection]}/next")
        ids[f"{collection}/{{{parameter}}}/decisions"] = decision["decision_id"]
    return ids, call.responses


def _admin_tour(client: ApiClient, sessions: sessionmaker[Session], call: _Recorder) -> str:
    """The key routes with an admin key of the same tenant (the fuzzing's plain key gets 403 from them);
    the id of a live key, for the routes that take one."""
    tenant = client.get("/v1/admin/keys")  # the plain key: refused, as documented
    assert tenant.status_code == 403, tenant.text
    call.responses.append(tenant)
    admin = _Recorder(client.with_key(make_key(sessions, _tenant_of(client, sessions), scope="admin")))
    kept = admin("POST", "/v1/admin/keys", json={"name": "contract", "scope": "plain"})
    gone = admin("POST", "/v1/admin/keys", json={"name": "to revoke", "expires_at": "2999-01-01T00:00:00Z"})
    admin("GET", "/v1/admin/keys")
    admin("GET", f"/v1/admin/keys/{kept['id']}")
    rotated = admin("POST", f"/v1/admin/keys/{gone['id']}/rotate", json={"grace_seconds": 60})
    admin("POST", f"/v1/admin/keys/{rotated['new']['id']}/revoke")
    call.responses.extend(admin.responses)
    return str(kept["id"])


def _tenant_of(client: ApiClient, sessions: sessionmaker[Session]) -> str:
    assert client.key is not None
    with sessions() as db:
        return str(db.scalar(select(Tenant.name).join(ApiKey, ApiKey.tenant_id == Tenant.id)
                             .where(ApiKey.key_hash == hash_key(client.key))))


def happy_path_tour(client: ApiClient, ids: dict[str, str]) -> list[httpx.Response]:
    call = _Recorder(client)
    call("POST", "/v1/datasets?group_column=g&label_column=y&name=csv", content=b"x,colour,g,y\n"
         b"0.5,red,a,1\n1.5,blue,b,0\n2.5,red,a,0\n", headers={"content-type": "text/csv"})
    call("POST", "/v1/datasets", files={"file": ("t.csv", b"x,g,y\n0.5,a,1\n1.5,b,0\n", "text/csv")},
         data={"name": "form", "group_column": "g", "label_column": "y"})
    for collection, resource_id in ids.items():
        if not is_collection(collection) or collection.startswith(ADMIN_PREFIX):
            continue  # nested ids have no GET; admin routes are toured with an admin key by seed_resources
        if collection not in UNLISTED:
            call("GET", collection)
        call("GET", f"{collection}/{resource_id}")
    call("POST", f"/v1/batch-schedulers/{ids['/v1/batch-schedulers']}/epochs", json={
        "epoch": 1, "losses": [{"label": y, "group": g, "loss": 0.3 + 0.1 * y} for y in (0, 1) for g in ("a", "b")]})
    sampler = f"/v1/group-samplers/{ids['/v1/group-samplers']}"
    decision = call("POST", f"{sampler}/next")
    call("POST", f"{sampler}/observations", json={
        "observation_id": "o1", "decision_id": decision["decision_id"], "group": decision["group"],
        "n_acquired": 5, "group_losses": {"a": 0.4, "b": 0.3}})
    released = call("POST", f"{sampler}/decisions", json={"count": 2})["decisions"][1]
    call("POST", f"{sampler}/decisions/{released['decision_id']}/release")
    bandit = f"/v1/partition-bandits/{ids['/v1/partition-bandits']}"
    released = call("POST", f"{bandit}/decisions", json={"count": 1})["decisions"][0]
    call("POST", f"{bandit}/decisions/{released['decision_id']}/release")
    decision = call("POST", f"{bandit}/next")
    call("POST", f"{bandit}/feedback", json={
        "decision_id": decision["decision_id"], "fairness_before": 0.2, "fairness_after": 0.15})
    run = call("POST", f"{bandit}/runs", json={})
    guarded = call("POST", "/v1/partition-bandits", json={  # beyond the paper: β and δ with reported accuracy
        "partitions": [{"id": "p", "size": 4, "centroid": [0.0], "base_rate_difference": 0.1},
                       {"id": "q", "size": 4, "centroid": [1.0], "base_rate_difference": 0.0}],
        "batch_size": 2, "budget": 4, "accuracy_weight": 0.5, "accuracy_tolerance": 0.01, "seed": 0})
    decision = call("POST", f"/v1/partition-bandits/{guarded['id']}/next")
    call("POST", f"/v1/partition-bandits/{guarded['id']}/feedback", json={
        "decision_id": decision["decision_id"], "fairness_before": 0.2, "fairness_after": 0.15,
        "accuracy_before": 0.8, "accuracy_after": 0.805})
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
    call("POST", "/v1/fairness-metrics", json={
        "predictions": [1, 0, 1, 1, 0, 1], "labels": [1, 0, 0, 1, 1, 0], "groups": ["a", "a", "a", "b", "b", "b"],
        "metrics": ["demographic_parity", "equalized_odds"], "bootstrap": {"resamples": 50, "seed": 3}})
    for fmt in ("csv", "jsonl", "parquet"):
        call("POST", "/v1/exports", json={"source": {"type": "dataset", "id": ids["/v1/datasets"]}, "format": fmt})
    call("POST", "/v1/exports", json={
        "source": {"type": "decision_log", "resource": "group-samplers", "id": ids["/v1/group-samplers"]},
        "format": "jsonl", "since": "2020-01-01T00:00:00Z", "until": "2100-01-01T00:00:00+02:00", "kinds": ["next"]})
    call("GET", f"/v1/exports/{ids['/v1/exports']}/download")
    simulated = {"dataset_id": ids["/v1/datasets"], "budget": 10, "repetitions": 2, "curve_points": 2, "seed": 0}
    call("POST", "/v1/simulations", json={**simulated, "decision_type": "partition_bandit", "initial_size": 6,
                                          "policies": [{"policy": "random"}, {"policy": "datasift", "batch_size": 5}]})
    call("POST", "/v1/simulations", json={**simulated, "decision_type": "batch_scheduler", "batch_size": 8,
                                          "policies": [{"policy": "minibatch"}, {"policy": "fairbatch"}]})
    call("POST", "/v1/simulations", json={**simulated, "decision_type": "balanced_filter",
                                          "target": {"a": 0.5, "b": 0.5},
                                          "policies": [{"proxy": {"type": "naive_tree", "max_depth": 2}}]})
    call("POST", "/v1/sampling-probabilities", json={
        "conditional_matrix": [[0.8, 0.2], [0.2, 0.8]], "leaf_rates": [0.75, 0.25]})
    for collection in ("/v1/batch-schedulers", "/v1/group-samplers", "/v1/partition-bandits",
                       "/v1/balanced-filters", "/v1/fair-regressions"):
        call("GET", f"{collection}/{ids[collection]}/decisions")
    call("POST", f"/v1/jobs/{run['id']}/cancel")  # the run is a job, still queued
    call("GET", f"/v1/webhooks/{ids['/v1/webhooks']}/deliveries")
    call("POST", f"/v1/webhook-deliveries/{ids['/v1/webhook-deliveries']}/redeliver")  # it failed: again
    extra = call("POST", "/v1/webhooks", json={"url": "https://hooks.example.com/x", "event_types": ["session.done"]})
    call("DELETE", f"/v1/webhooks/{extra['id']}")
    for path in ("/healthz", "/readyz"):
        call("GET", path)
    return call.responses
