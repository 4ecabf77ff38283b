"""The load benchmark's scenarios: each creates its sessions, then names its hot call.

A scenario's :meth:`Scenario.setup` runs before anything is measured and returns
one :class:`~bench.load_client.Lane` per connection: the session that connection
works on (one session per connection, so connections do not queue on one row).
Paths and field names follow SPEC §4.3–4.8. A resource whose create path answers
404 or 405 is not built yet: setup raises :class:`NotAvailable`.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.bare_app import BARE_PATH
from bench.load_client import HTTPConnection, Lane

__all__ = ["SCENARIOS", "NotAvailable", "Scenario", "SetupFailed", "bare_lanes"]

GROUPS = ["a", "b", "c", "d"]
FILTERS = 4  # balanced filters shared round-robin by the connections: fitting 16 costs minutes
FILTER_ROWS = 2_000  # training rows of each filter's synthetic two-group dataset
FILTER_FEATURES = 4
FIT_TIMEOUT = 300.0  # s to wait for the filters to become ready (one worker fits them in turn)
POLL_SECONDS = 0.5
CANDIDATE_POOL = 1_000  # distinct feature rows the candidates cycle through


class NotAvailable(Exception):
    """The scenario's resource is not built yet (its create path answers 404/405)."""


class SetupFailed(Exception):
    """Creating the scenario's sessions failed for another reason."""


def _dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode()


async def _create(api: HTTPConnection, path: str, payload: Any, expect: tuple[int, ...] = (201,)) -> Any:
    response = await api.request("POST", path, _dumps(payload))
    if response.status in (404, 405):
        raise NotAvailable(f"POST {path} -> {response.status} (resource not built yet)")
    if response.status == 401:
        raise SetupFailed(f"POST {path} -> 401: the server has API keys; pass --api-key")
    if response.status not in expect:
        raise SetupFailed(f"POST {path} -> {response.status}: {response.text()[:300]}")
    return response.json()


@dataclass(frozen=True)
class Scenario:
    name: str
    hot_call: str  # what is measured, for the report
    target: str = "service"  # or "bare": which server answers it
    decisions_per_call: float = 1.0  # decisions one request makes on average (decisions/s = req/s x this)

    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        raise NotImplementedError


def bare_lanes(lanes: int) -> list[Lane]:
    return [Lane("POST", BARE_PATH, b'{"value":1}') for _ in range(lanes)]


class Bare(Scenario):
    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        return bare_lanes(lanes)


class Metrics(Scenario):
    """A stateless call with a small body: the service's own floor, no session row."""

    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        rng = np.random.default_rng(0)
        n = 200
        body = _dumps({
            "predictions": rng.integers(0, 2, n).tolist(),
            "labels": rng.integers(0, 2, n).tolist(),
            "groups": rng.choice(["a", "b"], n).tolist(),
            "metrics": ["demographic_parity", "equal_opportunity"],
        })
        await _create(api, "/v1/fairness-metrics", json.loads(body), expect=(200,))
        return [Lane("POST", "/v1/fairness-metrics", body) for _ in range(lanes)]


async def _samplers(api: HTTPConnection, lanes: int) -> list[str]:
    """One reported-mode Aopt sampler per lane, with a budget no run exhausts (batch_size 1)."""
    ids = []
    for i in range(lanes):
        session = await _create(api, "/v1/group-samplers", {
            "groups": GROUPS, "strategy": "aopt", "mode": "reported", "budget": 10**9, "seed": i,
        })
        ids.append(session["id"])
    return ids


class NextGroup(Scenario):
    """Reported-mode Aopt with no observations: warm-up and forced exploration pick the groups.

    Only ``next``: every call holds its batch of 1 as a pending decision until it
    expires (an hour), which a budget of 10**9 absorbs.
    """

    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        return [Lane("POST", f"/v1/group-samplers/{sid}/next", b"{}") for sid in await _samplers(api, lanes)]


class DecisionsBatch(Scenario):
    """``POST .../decisions`` with ``{"count": k}``: k decisions (k pending batches) per call."""

    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        body = _dumps({"count": int(self.decisions_per_call)})
        return [Lane("POST", f"/v1/group-samplers/{sid}/decisions", body) for sid in await _samplers(api, lanes)]


class SettleLane(Lane):
    """A worker's loop: ``next``, then the observation that names its decision_id, then ``next`` again.

    A failed ``next`` is sent again; a failed observation too (same observation_id,
    which the service counts once).
    """

    def __init__(self, sampler_id: str, prefix: str, seed: int) -> None:
        super().__init__("POST", f"/v1/group-samplers/{sampler_id}/next", b"{}")
        self.observe = f"/v1/group-samplers/{sampler_id}/observations"
        self.prefix, self.count, self.rng = prefix, 0, random.Random(seed)
        self.decision: dict[str, Any] | None = None  # the pending decision to report on next
        self.report: bytes = b""

    def request(self) -> tuple[str, str, bytes | None]:
        if self.decision is None:
            return self.method, self.path, self.body
        return "POST", self.observe, self.report

    def answered(self, status: int, body: bytes) -> None:
        if not 200 <= status < 300:
            return
        if self.decision is not None:
            self.decision = None
            return
        self.decision = decision = json.loads(body)
        self.count += 1
        self.report = _dumps({
            "observation_id": f"{self.prefix}-{self.count}", "decision_id": decision["decision_id"],
            "group": decision["group"], "n_acquired": decision["batch_size"],
            "group_losses": {decision["group"]: round(self.rng.uniform(0.1, 0.9), 4)},
        })


class NextSettle(Scenario):
    """Decide and settle, one request each: the sampler's realistic steady state (nothing stays pending)."""

    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        run = uuid.uuid4().hex[:8]
        return [SettleLane(sid, f"{run}-{i}", seed=i) for i, sid in enumerate(await _samplers(api, lanes))]


class EpochLane(Lane):
    """One batch scheduler: epochs count up from 1; a failed epoch is sent again, with the same losses.

    The same body matters: a request that timed out here may have been applied, and
    the service gives a repeated epoch its first result back only when the report is
    the same (a different one is refused, and every later epoch with it).
    """

    def __init__(self, path: str, cells: list[tuple[int, str]], seed: int) -> None:
        super().__init__("POST", path)
        self.cells, self.epoch, self.rng = cells, 1, random.Random(seed)
        self.report: bytes | None = None  # the current epoch's body, until it is accepted

    def request(self) -> tuple[str, str, bytes | None]:
        if self.report is None:
            losses = [{"label": y, "group": z, "loss": round(self.rng.uniform(0.1, 0.9), 4)}
                      for y, z in self.cells]
            self.report = _dumps({"epoch": self.epoch, "losses": losses})
        return self.method, self.path, self.report

    def answered(self, status: int, body: bytes) -> None:
        if 200 <= status < 300:
            self.epoch += 1
            self.report = None


class Epochs(Scenario):
    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        counts = {(0, "a"): 400, (0, "b"): 100, (1, "a"): 300, (1, "b"): 200}
        out: list[Lane] = []
        for i in range(lanes):
            session = await _create(api, "/v1/batch-schedulers", {
                "metric": "equal_opportunity", "labels": [0, 1], "groups": ["a", "b"],
                "counts": [{"label": y, "group": z, "count": c} for (y, z), c in counts.items()],
                "batch_size": 100, "seed": i,
            })
            out.append(EpochLane(f"/v1/batch-schedulers/{session['id']}/epochs", list(counts), seed=i))
        return out


def _two_groups(n: int, rng: np.random.Generator) -> tuple[list[list[float]], list[str]]:
    """Features whose first two columns say something, not everything, about the group."""
    groups = rng.choice(["a", "b"], size=n, p=[0.7, 0.3])
    shift = np.outer(groups == "b", [1.0, -0.75] + [0.0] * (FILTER_FEATURES - 2))
    features = np.round(rng.normal(size=(n, FILTER_FEATURES)) + shift, 4)
    return features.tolist(), groups.tolist()


class AcceptLane(Lane):
    """Decisions on ``k`` fresh candidate ids per request."""

    def __init__(self, path: str, k: int, rows: list[str], prefix: str) -> None:
        super().__init__("POST", path)
        self.k, self.rows, self.prefix, self.count = k, rows, prefix, 0

    def request(self) -> tuple[str, str, bytes | None]:
        self.count += 1
        stem, base, rows = f"{self.prefix}-{self.count}-", self.count * self.k, self.rows
        items = ",".join(f'{{"id":"{stem}{j}","features":{rows[(base + j) % len(rows)]}}}'
                         for j in range(self.k))
        return self.method, self.path, f'{{"candidates":[{items}]}}'.encode()


async def _fitted_filters(api: HTTPConnection, shared: dict[str, Any]) -> list[str]:
    """Create FILTERS balanced filters and wait until a worker has fitted them (once per run)."""
    if "filters" in shared:
        if isinstance(shared["filters"], Exception):
            raise shared["filters"]
        return shared["filters"]
    try:
        ids = []
        for seed in range(FILTERS):
            features, groups = _two_groups(FILTER_ROWS, np.random.default_rng(seed))
            created = await _create(api, "/v1/balanced-filters", {
                "groups": ["a", "b"], "proxy": {"type": "qp_tree", "max_depth": 4},
                "training": {"features": features, "groups": groups}, "seed": seed,
            }, expect=(201, 202))
            ids.append(created["id"])
        deadline = time.monotonic() + FIT_TIMEOUT
        for fid in ids:
            while True:
                response = await api.request("GET", f"/v1/balanced-filters/{fid}")
                state = response.json() if response.status == 200 else {}
                if state.get("status") == "ready":
                    break
                if state.get("status") == "failed" or response.status != 200:
                    raise SetupFailed(f"balanced filter {fid}: {response.status} {response.text()[:300]}")
                if time.monotonic() > deadline:
                    raise SetupFailed(f"balanced filter {fid} not ready after {FIT_TIMEOUT:.0f} s "
                                      f"(status {state.get('status')!r}); is a worker running?")
                await asyncio.sleep(POLL_SECONDS)
    except Exception as exc:
        shared["filters"] = exc
        raise
    shared["filters"] = ids
    return ids


@dataclass(frozen=True)
class Accept(Scenario):
    k: int = 1  # candidates per decision call

    async def setup(self, api: HTTPConnection, lanes: int, shared: dict[str, Any]) -> list[Lane]:
        ids = await _fitted_filters(api, shared)
        features, _ = _two_groups(CANDIDATE_POOL, np.random.default_rng(1234))
        rows = [json.dumps(row, separators=(",", ":")) for row in features]
        run = uuid.uuid4().hex[:8]  # fresh ids in every run, even against a reused server
        return [AcceptLane(f"/v1/balanced-filters/{ids[i % len(ids)]}/decisions", self.k, rows,
                           f"{run}-{self.k}-{i}")
                for i in range(lanes)]


SCENARIOS: dict[str, Scenario] = {s.name: s for s in (
    Bare("bare", f"POST {BARE_PATH} (bench/bare_app.py: one INSERT into the configuration's database)",
         target="bare"),
    Metrics("metrics", "POST /v1/fairness-metrics (200 rows, 2 metrics; stateless)"),
    NextGroup("next-group", "POST /v1/group-samplers/{id}/next"),
    DecisionsBatch("decisions-batch", "POST /v1/group-samplers/{id}/decisions, count 100", decisions_per_call=100),
    NextSettle("next-settle", "POST /v1/group-samplers/{id}/next, then …/observations naming its decision_id "
               "(alternately)", decisions_per_call=0.5),
    Epochs("epochs", "POST /v1/batch-schedulers/{id}/epochs"),
    Accept("accept-1", "POST /v1/balanced-filters/{id}/decisions, 1 candidate", k=1),
    Accept("accept-1000", "POST /v1/balanced-filters/{id}/decisions, 1,000 candidates", k=1000),
)}
