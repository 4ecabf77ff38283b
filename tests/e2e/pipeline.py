"""The scenario's plumbing: a handle on the generated client, response and job helpers, small data."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from uuid import UUID

import numpy as np

from tests.live import wait_for

__all__ = ["Pipeline", "labeled_data", "ok", "pool_data", "regression_data", "samples", "wait_for_jobs"]

JOB_TIMEOUT = 45.0  # s; each fit here takes well under a few seconds on a worker
FINISHED = ("succeeded", "failed", "cancelled")
MEANS = {"u": ((-2.0, 2.0), (2.0, 2.0)), "v": ((-1.0, -1.0), (1.0, 1.0))}  # SPEC §5.1, instance I


@dataclass
class Pipeline:
    """The generated package's ``api`` and ``models`` and one connected client."""

    api: Any
    m: Any
    client: Any


def ok(response: Any, status: HTTPStatus = HTTPStatus.OK) -> Any:
    """The parsed body of a ``sync_detailed`` response that must have ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:2000])
    return response.parsed


# ----------------------------------------------------------------------------- data


def labeled_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two groups, a (60 %) and b, b shifted along the first two features; label from a linear rule."""
    rng = np.random.default_rng(seed)
    groups = np.where(rng.random(n) < 0.6, "a", "b")
    X = rng.normal(size=(n, 3)) + (groups == "b")[:, None] * np.array([1.0, 0.5, 0.0])
    labels = (X[:, 0] - 0.5 * X[:, 1] + 0.3 * rng.normal(size=n) > 0.3).astype(int)
    return X.round(6), groups, labels


def pool_data(n_per: int = 30, seed: int = 0) -> tuple[np.ndarray, list[str], list[int], list[str]]:
    """A pool of three well-separated blobs; the label is 1 in the first blob only."""
    rng = np.random.default_rng(seed)
    blob = np.repeat(np.arange(3), n_per)
    X = (np.array([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]])[blob] + rng.normal(scale=0.5, size=(3 * n_per, 2)))
    groups = ["g" if i % 2 else "h" for i in range(3 * n_per)]
    return X.round(6), groups, (blob == 0).astype(int).tolist(), [f"item-{i}" for i in range(3 * n_per)]


def regression_data(n: int = 120, seed: int = 0) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Group b has larger labels and shifted features: unconstrained, the SP disparity is about 0.46."""
    rng = np.random.default_rng(seed)
    a = (rng.random(n) < 0.4).astype(int)
    X = rng.normal(size=(n, 2)) + 0.8 * a[:, None]
    y = 10 * (X @ np.array([1.0, 0.5]) + 0.8 * a + 0.4 * rng.normal(size=n)) + 50
    return np.column_stack([X, a]), np.where(a == 1, "b", "a").tolist(), y


def samples(p: Pipeline, group: str, n: int, seed: int) -> Any:
    """Managed-mode samples of one group (SPEC §5.1, instance I), as the generated `SampleSet`."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, size=n)
    features = np.array(MEANS[group])[labels] + rng.normal(size=(n, 2))
    return p.m.SampleSet(features=features.tolist(), labels=labels.tolist())


# ----------------------------------------------------------------------------- jobs


def wait_for_jobs(p: Pipeline, job_ids: list[UUID]) -> dict[UUID, Any]:
    """Poll ``GET /v1/jobs/{id}`` until every job has finished (bounded)."""
    pending, done = set(job_ids), {}

    def all_finished() -> bool:
        for job_id in sorted(pending):
            job = p.api.jobs.get_job.sync(job_id, client=p.client)
            assert isinstance(job, p.m.JobOut), job
            if job.status in FINISHED:
                done[job_id] = job
                pending.discard(job_id)
        return not pending

    wait_for(all_finished, JOB_TIMEOUT, f"jobs {sorted(map(str, job_ids))} to finish", every=0.2)
    return done
