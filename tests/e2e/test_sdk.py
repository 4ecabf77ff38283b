"""The Python SDK (``clients/python``, package ``fairacq_client``) against a live server.

* its generated part is what ``make client`` writes from ``openapi/openapi.json`` today
  (regenerated into a temporary folder and compared), and the generator warns of nothing;
* the labeling loop of its README runs against ``python -m service serve`` with workers:
  datasets from a DataFrame and a CSV file, a group sampler's next → observe loop, a
  retry after a lost answer that re-sends the same ``Idempotency-Key`` (the server
  replays, the report counts once), ``wait_for_job`` and ``wait_ready`` on a fit, a
  paged list across pages and typed problem errors with their fields.
"""

from __future__ import annotations

import filecmp
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pandas as pd
import pytest

SDK = Path(__file__).resolve().parents[2] / "clients" / "python"
LOSSES = {"a": 0.30, "b": 0.20}


@pytest.fixture(scope="module")
def sdk() -> Iterator[ModuleType]:
    sys.path.insert(0, str(SDK))
    try:
        import fairacq_client

        yield fairacq_client
    finally:
        sys.path.remove(str(SDK))


def _differences(left: Path, right: Path) -> list[str]:
    compared = filecmp.dircmp(left, right, ignore=["__pycache__"])
    found = [f"only in one: {n}" for n in compared.left_only + compared.right_only] + \
        [f"differs: {n}" for n in compared.diff_files]
    for name in compared.common_dirs:
        found += _differences(left / name, right / name)
    return found


def test_the_generated_sdk_is_fresh_and_the_generator_warns_of_nothing(tmp_path: Path):
    sys.path.insert(0, str(SDK))
    try:
        from generate import TARGET, generate
    finally:
        sys.path.remove(str(SDK))
    warnings = generate(tmp_path / "_generated")
    assert warnings == []
    assert _differences(TARGET, tmp_path / "_generated") == [], "stale: run `make client` and commit the result"


def test_retries_back_off_with_jitter_and_resend_the_same_key(sdk: ModuleType):
    """503, a lost connection, then 200: three attempts of one request with one key; the waits are
    uniform in [0, min(max_backoff, backoff * 2^n)] (full jitter), and Retry-After is honoured."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if len(seen) == 1:
            return httpx.Response(503, headers={"retry-after": "0.5"})
        if len(seen) == 2:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, json={"ok": True})

    sleeps: list[float] = []
    transport = sdk.RetryTransport(httpx.MockTransport(answer), retries=3, backoff=0.1, max_backoff=1.0,
                                   sleep=sleeps.append)
    with httpx.Client(transport=transport, base_url="http://fairacq.test") as http:
        response = http.post("/v1/group-samplers", json={"groups": ["a", "b"]})
    assert response.status_code == 200 and len(seen) == 3
    keys = {r.headers["idempotency-key"] for r in seen}
    assert len(keys) == 1 and uuid.UUID(keys.pop()).version == 4
    assert {r.content for r in seen} == {b'{"groups":["a","b"]}'}
    assert sleeps[0] == 0.5 and 0.0 <= sleeps[1] <= 0.2  # Retry-After; then attempt 1: at most 0.1 * 2
    draws = [transport.delay(5) for _ in range(2000)]
    assert max(draws) <= 1.0 and min(draws) >= 0.0 and 0.45 < sum(draws) / len(draws) < 0.55  # capped, uniform

    gives_up = sdk.RetryTransport(httpx.MockTransport(lambda r: httpx.Response(503)), retries=2, sleep=sleeps.append)
    with httpx.Client(transport=gives_up, base_url="http://fairacq.test") as http:
        assert http.get("/v1/jobs").status_code == 503  # the last answer, after 1 + 2 attempts
        assert "idempotency-key" not in http.get("/v1/jobs").request.headers  # only POSTs get a key


class LosesFirstAnswer(httpx.BaseTransport):
    """Sends every request to the server, but loses the answer to the first report (a dropped connection)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.keys: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/observations"):
            self.keys.append(request.headers["idempotency-key"])
            if len(self.keys) == 1:
                response.read()
                response.close()
                raise httpx.ReadError("connection lost before the answer arrived", request=request)
        return response

    def close(self) -> None:
        self.inner.close()


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"x1": [0.1, 0.5, 0.9, 1.3, 1.7, 2.1], "x2": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
                         "g": ["a", "b", "a", "b", "a", "b"], "y": [0, 1, 0, 1, 1, 0]})


def _labeling_loop(sdk: ModuleType, fc: Any, sampler: Any) -> list[str]:
    """The README's loop: ask which group to label next, label it, report its losses."""
    api, models = sdk.api, sdk.models
    groups, budget = [], sampler.budget_remaining
    while budget > 0:
        decision = fc.call(api.group_samplers.next_group_sampler_decision, sampler.id)
        result = fc.call(api.group_samplers.report_group_sampler_observation, sampler.id,
                         body=models.ObservationReport(
                             observation_id=f"batch-{decision.round_}", decision_id=decision.decision_id,
                             group=decision.group, n_acquired=10,
                             group_losses=models.ObservationReportGroupLosses.from_dict(LOSSES)))
        groups.append(decision.group)
        budget = result.budget_remaining
    return groups


@pytest.mark.slow
def test_a_labeling_pipeline_through_the_sdk(sdk: ModuleType, live_server: str, tmp_path: Path):
    api, models = sdk.api, sdk.models
    with sdk.Client(live_server, retries=3, backoff=0.05) as fc:
        # Datasets from a DataFrame and from a CSV file: the same table, the same dataset.
        frame = fc.upload_dataframe(_frame(), name="frame", group_column="g", label_column="y")
        path = tmp_path / "table.csv"
        _frame().to_csv(path, index=False)
        filed = fc.upload_csv(path, name="file", group_column="g", label_column="y")
        for dataset, name in ((frame, "frame"), (filed, "file")):
            assert (dataset.name, dataset.n_rows, dataset.feature_names) == (name, 6, ["x1", "x2"])
            assert (dataset.group_values, dataset.label_values) == (["a", "b"], [0, 1])

        # The loop: 40 / 10 = 4 rounds; two warm-up rounds, round-robin, then eq. 6.
        sampler = fc.call(api.group_samplers.create_group_sampler, body=models.GroupSamplerCreate(
            groups=["a", "b"], strategy=models.GroupSamplerCreateStrategy.AOPT, budget=40, seed=1))
        assert sampler.status == models.SessionStatus.READY
        groups = _labeling_loop(sdk, fc, sampler)
        state = fc.call(api.group_samplers.get_group_sampler, sampler.id)
        assert groups[:2] == ["a", "b"] and len(groups) == 4
        assert state.budget_remaining == 0 and sum(state.counts.to_dict().values()) == 40

        # A fit in a worker: wait for its job, then for the session.
        regression = fc.call(api.fair_regressions.create_fair_regression, body=models.FairRegressionCreate(
            data=models.RegressionData(features=[[0.1], [0.4], [0.6], [0.9]] * 5, groups=["a", "b", "a", "b"] * 5,
                                       labels=[0.0, 1.0, 0.0, 1.0] * 5),
            constraint=models.StatisticalParityConstraint(type_="statistical_parity", slack=0.05)))
        job = fc.wait_for_job(regression.job_id, timeout=60)
        assert job.status == models.JobStatus.SUCCEEDED and job.resource.id == regression.id
        ready = fc.wait_ready(regression, timeout=30)
        assert ready.status == models.SessionStatus.READY and ready.result.feasible is True

        # A paged list, one item per page, across pages.
        listed = [d.id for d in fc.pages(api.datasets.list_datasets, limit=1)]
        assert listed == [frame.id, filed.id]

        # Typed problem errors, with their fields.
        with pytest.raises(sdk.ValidationError) as bad:
            fc.call(api.group_samplers.create_group_sampler, body=models.GroupSamplerCreate(
                groups=["a"], strategy=models.GroupSamplerCreateStrategy.AOPT, budget=10))
        assert (bad.value.status, bad.value.fields) == (422, ["body.groups"])
        assert "at least 2" in bad.value.errors[0].msg
        with pytest.raises(sdk.NotFoundError) as missing:
            fc.call(api.jobs.get_job, uuid.uuid4())
        assert missing.value.status == 404 and "no job" in missing.value.detail
        with pytest.raises(sdk.ConflictError) as finished:
            fc.call(api.jobs.cancel_job, job.id)
        assert finished.value.job_status == "succeeded"

    # A lost answer: the retry re-sends the same key, the server replays its stored answer.
    transport = LosesFirstAnswer()
    with sdk.Client(live_server, retries=2, backoff=0.01, transport=transport) as fc:
        sampler = fc.call(api.group_samplers.create_group_sampler, body=models.GroupSamplerCreate(
            groups=["a", "b"], strategy=models.GroupSamplerCreateStrategy.AOPT, budget=40, seed=2))
        decision = fc.call(api.group_samplers.next_group_sampler_decision, sampler.id)
        report = models.ObservationReport(observation_id="only-once", decision_id=decision.decision_id,
                                          group=decision.group, n_acquired=10,
                                          group_losses=models.ObservationReportGroupLosses.from_dict(LOSSES))
        response = fc.request(api.group_samplers.report_group_sampler_observation, sampler.id, body=report)
        assert len(transport.keys) == 2 and transport.keys[0] == transport.keys[1]
        assert response.headers["idempotent-replayed"] == "true"
        assert response.parsed.counts[decision.group] == 10 and response.parsed.budget_remaining == 30
        state = fc.call(api.group_samplers.get_group_sampler, sampler.id)
        assert state.counts[decision.group] == 10 and state.budget_remaining == 30  # counted once
