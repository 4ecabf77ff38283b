"""Small factories for tests: a thin client wrapper, API keys, datasets, queued jobs run in-process."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.auth import DEFAULT_TENANT, CurrentTenant, Tenant, create_api_key
from service.db import transaction
from service.jobs import queue
from service.jobs.models import Job
from service.jobs.registry import HANDLERS, JobContext, PermanentError
from service.resources import load_tasks
from service.settings import Settings
from tests.live import wait_for

__all__ = ["ApiClient", "dataset_payload", "default_tenant", "make_key", "run_claimed", "run_queued_jobs",
           "upload_dataset", "wait_for"]

load_tasks()  # every decision type's job handlers, for the in-process runner


class ApiClient:
    """``TestClient`` with an optional default API key."""

    def __init__(self, client: TestClient, key: str | None = None) -> None:
        self.raw = client
        self.key = key

    def with_key(self, key: str | None) -> ApiClient:
        return ApiClient(self.raw, key)

    def _headers(self, headers: dict[str, str] | None) -> dict[str, str]:
        out = dict(headers or {})
        if self.key is not None:
            out.setdefault("Authorization", f"Bearer {self.key}")
        return out

    def request(self, method: str, url: str, *, headers: dict[str, str] | None = None, **kwargs: Any):
        return self.raw.request(method, url, headers=self._headers(headers), **kwargs)

    def get(self, url: str, **kwargs: Any):
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any):
        return self.request("POST", url, **kwargs)

    def delete(self, url: str, **kwargs: Any):
        return self.request("DELETE", url, **kwargs)


def default_tenant(db: Session) -> CurrentTenant:
    """Open mode's tenant (created if the app has not started yet), in ``db``'s transaction."""
    tenant = db.scalar(select(Tenant).where(Tenant.name == DEFAULT_TENANT))
    if tenant is None:
        tenant = Tenant(name=DEFAULT_TENANT)
        db.add(tenant)
        db.flush()
    return CurrentTenant(tenant.id, tenant.name)


def make_key(sessions: sessionmaker[Session], tenant: str, scope: str = "plain") -> str:
    with transaction(sessions) as db:
        return create_api_key(db, tenant, scope=scope)


def dataset_payload(n: int = 40, d: int = 3, seed: int = 0, groups: tuple[str, ...] = ("a", "b")) -> dict:
    rng = np.random.default_rng(seed)
    features = rng.normal(size=(n, d))
    return {
        "name": "toy",
        "features": features.round(6).tolist(),
        "groups": [groups[i % len(groups)] for i in range(n)],
        "labels": (features[:, 0] > 0).astype(int).tolist(),
    }


def upload_dataset(client: ApiClient, **kwargs: Any) -> dict:
    response = client.post("/v1/datasets", json=dataset_payload(**kwargs))
    assert response.status_code == 201, response.text
    return response.json()


def run_claimed(sessions: sessionmaker[Session], ctx: JobContext) -> None:
    """Run one claimed job in-process, as a worker's child would: a PermanentError fails it."""
    try:
        HANDLERS[ctx.kind](ctx)
    except PermanentError as exc:
        with transaction(sessions) as db:
            queue.finish_failure(db, ctx.job_id, ctx.attempt, str(exc), backoff_seconds=0.0, retry=False)


def run_queued_jobs(sessions: sessionmaker[Session], settings: Settings,
                    kinds: Sequence[str] | None = None) -> list[Job]:
    """Run every queued job of ``kinds`` (every kind when ``None``) in-process, one after another."""
    wanted = list(kinds) if kinds is not None else list(HANDLERS)
    ran = []
    while True:
        with transaction(sessions) as db:
            job = queue.claim(db, "test", 60.0, wanted)
            if job is None:
                return ran
            ctx = JobContext(job_id=job.id, attempt=job.attempts, kind=job.kind, tenant_id=job.tenant_id,
                             resource_id=job.resource_id, payload=dict(job.payload), settings=settings,
                             sessions=sessions)
        run_claimed(sessions, ctx)
        with sessions() as db:
            ran.append(db.get(Job, ctx.job_id))
