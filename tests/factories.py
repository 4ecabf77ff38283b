"""Small factories for tests: a thin client wrapper, API keys, datasets."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from service.auth import create_api_key
from service.db import transaction


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


def make_key(sessions: sessionmaker[Session], tenant: str) -> str:
    with transaction(sessions) as db:
        return create_api_key(db, tenant)


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


def wait_for(predicate: Callable[[], Any], timeout: float = 30.0) -> Any:
    """Poll ``predicate`` until it returns something truthy; return that value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")
