"""Sessions of every type, made through the API of a live server, and what their charts must show.

Each ``seed_*`` returns the session's id and, per chart slot, the number of series its
chart must draw (what the test compares with what the browser rendered).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.auth import Tenant
from service.batch_schedulers import service as scheduler_service
from service.batch_schedulers.schemas import BatchSchedulerCreate, EpochReport
from service.db import transaction
from tests.live import Client, Reply

GROUPS = ["women", "men", "nonbinary"]


@dataclass
class Seeded:
    segment: str  # the URL segment: "group-samplers"
    id: str
    series: dict[str, int] = field(default_factory=dict)  # chart slot -> series it must draw

    @property
    def page(self) -> str:
        return f"/ui/sessions/{self.segment}/{self.id}"


def ok(reply: Reply, status: int = 200) -> Any:
    assert reply.status == status, reply.body[:1000]
    return reply.json()


def wait_for_job(client: Client, job_id: str, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ok(client.get(f"/v1/jobs/{job_id}"))
        if job["status"] in ("succeeded", "failed", "cancelled"):
            assert job["status"] == "succeeded", job
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s")


def dataset(client: Client, rows: int, seed: int, name: str = "ui") -> str:
    """Two features, groups a/b (a is 2/3 of the rows), labels that depend on both."""
    rng = np.random.default_rng(seed)
    groups = np.where(rng.random(rows) < 2 / 3, "a", "b")
    features = rng.random((rows, 2))
    labels = ((features[:, 0] + 0.3 * (groups == "a") + 0.2 * rng.random(rows)) > 0.8).astype(int)
    body = {"name": name, "features": np.round(features, 4).tolist(), "groups": groups.tolist(),
            "labels": labels.tolist()}
    return ok(client.post("/v1/datasets", body), 201)["id"]


def seed_group_sampler(client: Client, rounds: int = 40, name: str = "sampler-demo") -> Seeded:
    sampler = ok(client.post("/v1/group-samplers", {"name": name, "groups": GROUPS, "strategy": "aopt",
                                                    "budget": 500, "batch_size": 5, "seed": 7}), 201)["id"]
    losses = {"women": 0.40, "men": 0.30, "nonbinary": 0.45}
    for i in range(rounds):
        decision = ok(client.post(f"/v1/group-samplers/{sampler}/next"))
        group = decision["group"]
        losses[group] *= 0.97
        ok(client.post(f"/v1/group-samplers/{sampler}/observations", {
            "observation_id": f"obs-{i}", "decision_id": decision["decision_id"], "group": group,
            "n_acquired": decision["batch_size"], "group_losses": {g: round(v, 4) for g, v in losses.items()}}))
    last = ok(client.post(f"/v1/group-samplers/{sampler}/next"))
    # Aopt's scores have a loss, a bonus and a trend term (0 without Aopt+'s c1): stacked, and their sum.
    assert all(None not in (s["loss"], s["bonus"], s["trend"]) for s in last["scores"].values()), last
    return Seeded("group-samplers", sampler, {"mixture": 3, "losses": 3, "ucb": 4})


def seed_partition_bandit(client: Client) -> Seeded:
    partitions = [{"id": f"p{k}", "size": 400, "centroid": [float(k), 0.0], "base_rate_difference": 0.1 * k}
                  for k in range(1, 5)]
    bandit = ok(client.post("/v1/partition-bandits", {"name": "bandit-demo", "partitions": partitions,
                                                      "batch_size": 20, "budget": 400, "seed": 5}), 201)["id"]
    fairness = 0.30
    rng = np.random.default_rng(3)
    rejected = 0
    for _ in range(20):
        decision = client.post(f"/v1/partition-bandits/{bandit}/next")
        if decision.status == 409:  # done: the budget is spent
            break
        decision_id = ok(decision)["decision_id"]
        after = fairness + float(rng.normal(-0.01, 0.02))
        result = ok(client.post(f"/v1/partition-bandits/{bandit}/feedback", {
            "decision_id": decision_id, "fairness_before": fairness, "fairness_after": round(after, 4)}))
        rejected += not result["accepted"]
        if result["accepted"]:
            fairness = after
    assert rejected > 0, "the seed should give the chart rejected batches too"
    return Seeded("partition-bandits", bandit, {"fairness": 3, "partitions": 2})


def seed_balanced_filter(client: Client, dataset_id: str) -> Seeded:
    created = ok(client.post("/v1/balanced-filters", {
        "name": "filter-demo", "groups": ["a", "b"], "proxy": {"type": "qp_tree", "max_depth": 2},
        "training_dataset_id": dataset_id, "seed": 1}), 202)
    wait_for_job(client, created["job_id"])
    rng = np.random.default_rng(11)
    candidates = [{"id": f"c{i}", "features": np.round(rng.random(2), 4).tolist()} for i in range(400)]
    decided = ok(client.post(f"/v1/balanced-filters/{created['id']}/decisions", {"candidates": candidates}))
    accepted = [d["id"] for d in decided["decisions"] if d["accept"]]
    assert len(accepted) >= 4, decided["decisions"][:5]
    for part in (accepted[: len(accepted) // 2], accepted[len(accepted) // 2:]):
        outcomes = [{"id": cid, "group": "a" if int(cid[1:]) % 3 else "b"} for cid in part]
        ok(client.post(f"/v1/balanced-filters/{created['id']}/outcomes", {"outcomes": outcomes}))
    return Seeded("balanced-filters", created["id"], {"shares": 4, "matrix": 1, "realized": 2})


def scheduler_body(name: str) -> dict:
    cells = [{"label": y, "group": g, "count": 20 + 5 * k} for k, g in enumerate(["m", "f", "x"]) for y in (0, 1)]
    return {"name": name, "metric": "equal_opportunity", "labels": [0, 1], "groups": ["m", "f", "x"],
            "batch_size": 30, "counts": cells}


def epoch_losses(epoch: int) -> list[dict]:
    wobble = 0.05 * np.sin(epoch / 7)
    return [{"label": 1, "group": "m", "loss": round(0.50 + wobble, 4)},
            {"label": 1, "group": "f", "loss": 0.20}, {"label": 1, "group": "x", "loss": 0.30},
            {"label": 0, "group": "m", "loss": 0.30}, {"label": 0, "group": "f", "loss": 0.30},
            {"label": 0, "group": "x", "loss": 0.30}]


def seed_batch_scheduler(client: Client, epochs: int, name: str = "scheduler-demo") -> Seeded:
    scheduler = ok(client.post("/v1/batch-schedulers", scheduler_body(name)), 201)["id"]
    for epoch in range(1, epochs + 1):
        ok(client.post(f"/v1/batch-schedulers/{scheduler}/epochs", {"epoch": epoch, "losses": epoch_losses(epoch)}))
    # Equal opportunity over three groups: two λ, and one disparity.
    return Seeded("batch-schedulers", scheduler, {"lambdas": 2, "disparity": 1})


def big_batch_scheduler(sessions: sessionmaker[Session], tenant: str, epochs: int) -> Seeded:
    """A scheduler with ``epochs`` epochs, written by the resource's own service (the code under
    ``POST /epochs``) in one transaction: 10,000 epochs through HTTP take a minute on a busy
    two-core machine, in-process about 15 s."""
    with transaction(sessions) as db:
        tenant_id = db.scalar(select(Tenant.id).where(Tenant.name == tenant))
        assert tenant_id is not None
        record = scheduler_service.create_scheduler(
            db, tenant_id, BatchSchedulerCreate.model_validate(scheduler_body("ten-thousand-epochs")))
        for epoch in range(1, epochs + 1):
            report = EpochReport.model_validate({"epoch": epoch, "losses": epoch_losses(epoch)})
            scheduler_service.report_epoch(db, tenant_id, record.id, report, None)
        assert record.sequence == epochs + 1
    return Seeded("batch-schedulers", str(record.id), {"lambdas": 2, "disparity": 1})


def seed_fair_regression(client: Client, dataset_id: str) -> Seeded:
    created = ok(client.post("/v1/fair-regressions", {
        "name": "regression-demo", "dataset_id": dataset_id, "seed": 3,
        "constraint": {"type": "statistical_parity", "slack": [0.02, 0.05, 0.1, 0.2]}}), 202)
    wait_for_job(client, created["job_id"])
    # The frontier and each slack's fit; each group's loss along the sweep.
    return Seeded("fair-regressions", created["id"], {"frontier": 2, "group_losses": 2})
