"""Run a simulation through the real service: ``serve --workers 2`` on a fresh SQLite database."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.load_servers import HOST, Server, free_port

__all__ = ["simulate"]

WORKERS = 2
POLL_SECONDS = 0.5
TIMEOUT_SECONDS = 3600.0


def _call(port: int, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", data=data, method=method,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


def simulate(X: np.ndarray, y: np.ndarray, groups: Sequence[str], strategies: Sequence[str], budget: int,
             repetitions: int, curve_points: int, seed: int) -> tuple[dict[str, Any], float]:
    """POST the table inline and wait for the results: the results and the seconds from the POST to
    ``ready`` (the service's start is not counted). The service and its workers stop afterwards."""
    with tempfile.TemporaryDirectory(prefix="fairacq-sim-") as folder:
        env = {**os.environ, "FAIRACQ_DATABASE_URL": f"sqlite:///{Path(folder) / 'service.db'}",
               "FAIRACQ_OPEN_MODE": "true", "FAIRACQ_WORKERS": str(WORKERS), "FAIRACQ_JOB_POLL_SECONDS": "0.2"}
        argv = [sys.executable, "-m", "service", "serve", "--host", HOST, "--port", str(free_port()),
                "--workers", str(WORKERS), "--log-level", "warning"]
        server = Server("service", argv, env, Path(folder))
        asyncio.run(server.start())
        try:
            body = {"decision_type": "group_sampler", "budget": budget, "repetitions": repetitions,
                    "curve_points": curve_points, "seed": seed, "model": "logistic_regression",
                    "policies": [{"strategy": s} for s in strategies],
                    "data": {"features": X.tolist(), "groups": list(groups), "labels": y.tolist()}}
            started = time.monotonic()
            created = _call(server.port, "POST", "/v1/simulations", body)
            deadline = time.monotonic() + TIMEOUT_SECONDS
            while time.monotonic() < deadline:
                shown = _call(server.port, "GET", f"/v1/simulations/{created['id']}")
                if shown["status"] == "ready":
                    return dict(shown["results"]), time.monotonic() - started
                if shown["status"] not in ("queued", "running"):
                    raise RuntimeError(f"the simulation ended {shown['status']}: {shown['error']}")
                time.sleep(POLL_SECONDS)
            raise RuntimeError("the simulation did not finish in time")
        finally:
            server.stop()
