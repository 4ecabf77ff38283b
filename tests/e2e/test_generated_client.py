"""A labeling pipeline driven through a client generated from ``openapi/openapi.json``.

The client comes from openapi-python-client (see conftest.py); the server is a real
``python -m service serve`` with two workers. Every resource is used only through the
generated typed functions and models, which is what proves that generated clients work:
background work is submitted first (a balanced filter, a fair regression, a pool to
partition), the interactive decisions run while the workers train, and the fitted
resources are used once their jobs have finished.
"""

from __future__ import annotations

import datetime
import math
from http import HTTPStatus
from types import ModuleType
from typing import Any
from uuid import UUID

import httpx
import numpy as np
import pytest

from tests.e2e.pipeline import Pipeline, labeled_data, ok, pool_data, regression_data, samples, wait_for_jobs

pytestmark = pytest.mark.slow

TOL = 1e-9
QP_TOL = 1e-6  # interior-point solutions are accurate to about 1e-8 in q; values derived from q to 1e-6
REQUEST_TIMEOUT = 30.0  # s; the PostgreSQL statement timeout of API requests is 30 s
# Three client-made partitions on a line: normalised centroid distances 0.5, 0.5 and 1; |ΔBR| 0.2, 0, 0.5.
PARTITIONS = [("a", 50, [0.0, 0.0], 0.2), ("b", 50, [3.0, 4.0], 0.0), ("c", 50, [6.0, 8.0], -0.5)]
BATCH_COUNTS = [(0, "m", 30), (1, "m", 20), (0, "f", 30), (1, "f", 20)]


# ----------------------------------------------------------------------------- steps


def _upload_datasets(p: Pipeline) -> tuple[Any, Any, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    X, groups, labels = labeled_data(160, seed=0)
    body = p.m.DatasetCreate(name="labeled", features=X.tolist(), groups=groups.tolist(),
                                              labels=labels.tolist())
    response = p.api.datasets.create_dataset.sync_detailed(client=p.client, body=body)
    labeled = ok(response, HTTPStatus.CREATED)
    assert response.headers["location"] == f"/v1/datasets/{labeled.id}"
    assert (labeled.name, labeled.n_rows, labeled.n_features) == ("labeled", 160, 3)
    assert labeled.group_values == ["a", "b"] and labeled.label_values == [0, 1]
    assert isinstance(labeled.created_at, datetime.datetime) and isinstance(labeled.id, UUID)

    pool_X, pool_groups, pool_labels, ids = pool_data()
    pool = ok(p.api.datasets.create_dataset.sync_detailed(client=p.client, body=p.m.DatasetCreate(
        name="pool", features=pool_X.tolist(), groups=pool_groups, labels=pool_labels, ids=ids)), HTTPStatus.CREATED)
    assert (pool.n_rows, pool.has_ids) == (90, True)

    assert p.api.datasets.get_dataset.sync(labeled.id, client=p.client).to_dict() == labeled.to_dict()
    listed = p.api.datasets.list_datasets.sync(client=p.client, limit=10)
    assert [d.id for d in listed.items] == [labeled.id, pool.id] and listed.next_cursor is None
    return labeled, pool, (X, groups, labels)


def _submit_background_work(p: Pipeline, labeled: Any, pool: Any) -> dict[str, Any]:
    """A balanced filter, a fair regression and a pool bandit: each answers at once, a worker fits it."""
    m = p.m
    filter_body = m.BalancedFilterCreate(groups=["a", "b"], proxy=m.ProxySpec(type_=m.ProxySpecType.QP_TREE,
                                                                              max_depth=3),
                                         training_dataset_id=labeled.id, seed=11)
    response = p.api.balanced_filters.create_balanced_filter.sync_detailed(client=p.client, body=filter_body)
    balanced_filter = ok(response, HTTPStatus.ACCEPTED)
    assert response.headers["location"] == f"/v1/balanced-filters/{balanced_filter.id}"
    assert balanced_filter.status == m.SessionStatus.QUEUED and balanced_filter.job_id is not None
    # Decisions wait for the proxy: 409 (or, on a fast worker, already ready).
    early = p.api.balanced_filters.decide_balanced_filter_candidates.sync_detailed(
        balanced_filter.id, client=p.client, body=m.DecisionRequest(
            candidates=[m.Candidate(id="early", features=[0.0] * 3)]))
    assert early.status_code in (HTTPStatus.CONFLICT, HTTPStatus.OK)
    if early.status_code == HTTPStatus.CONFLICT:
        assert isinstance(early.parsed, m.Problem) and early.parsed.status == 409
    early_decisions = int(early.status_code == HTTPStatus.OK)

    X, groups, y = regression_data()
    regression_body = m.FairRegressionCreate(
        data=m.RegressionData(features=X.tolist(), groups=groups, labels=y.tolist()),
        constraint=m.StatisticalParityConstraint(type_="statistical_parity", slack=0.05, grid_size=20),
        max_iterations=30, seed=7)
    response = p.api.fair_regressions.create_fair_regression.sync_detailed(client=p.client, body=regression_body)
    regression = ok(response, HTTPStatus.ACCEPTED)
    assert response.headers["location"] == f"/v1/fair-regressions/{regression.id}"
    assert regression.status == m.SessionStatus.QUEUED and regression.result is None
    assert (regression.n_rows, regression.n_features, regression.groups) == (120, 3, ["a", "b"])
    assert regression.label_range == pytest.approx([y.min(), y.max()])

    bandit_body = m.PartitionBanditCreate(pool_dataset_id=pool.id, batch_size=5, budget=30, seed=3,
                                          partitioning=m.PartitioningSpec(method=m.PartitioningSpecMethod.GMM,
                                                                          max_components=4))
    pool_bandit = ok(p.api.partition_bandits.create_partition_bandit.sync_detailed(client=p.client, body=bandit_body),
                      HTTPStatus.ACCEPTED)
    assert pool_bandit.status == m.SessionStatus.QUEUED and pool_bandit.partitions == []
    return {"filter": balanced_filter, "regression": regression, "pool_bandit": pool_bandit,
            "early_decisions": early_decisions}


def _fairness_metrics(p: Pipeline, X: np.ndarray, groups: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """The client's own model (a threshold on x0) measured per group; returns its zero-one loss per group."""
    m = p.m
    predictions = (X[:, 0] > 0.3).astype(int)
    names = [m.MetricsRequestMetricsItem.DEMOGRAPHIC_PARITY, m.MetricsRequestMetricsItem.GROUP_LOSS]
    body = m.MetricsRequest(predictions=predictions.tolist(), labels=labels.tolist(), groups=groups.tolist(),
                            metrics=names)
    out = ok(p.api.fairness_metrics.compute_fairness_metrics.sync_detailed(client=p.client, body=body))
    assert out.n == len(labels) and sorted(out.groups) == ["a", "b"]
    dp, loss = out.metrics["demographic_parity"], out.metrics["group_loss"]
    rates = {g: predictions[groups == g].mean() for g in ("a", "b")}
    errors = {g: (predictions != labels)[groups == g].mean() for g in ("a", "b")}
    assert dp.by_group.to_dict() == pytest.approx(rates, abs=TOL)
    assert dp.disparity == pytest.approx(abs(rates["a"] - rates["b"]), abs=TOL)
    assert loss.by_group.to_dict() == pytest.approx(errors, abs=TOL)
    return {g: float(v) for g, v in loss.by_group.to_dict().items()}


def _group_sampler_reported(p: Pipeline, losses: dict[str, float]) -> None:
    """Aopt in reported mode: the client trains, measures (above) and reports each group's loss."""
    m, api, client = p.m, p.api.group_samplers, p.client
    created = ok(api.create_group_sampler.sync_detailed(client=client, body=m.GroupSamplerCreate(
        groups=["a", "b"], strategy=m.GroupSamplerCreateStrategy.AOPT, budget=60, seed=1)), HTTPStatus.CREATED)
    assert (created.round_, created.budget_remaining, created.status) == (0, 60, m.SessionStatus.READY)
    assert created.params.warmup_rounds == 2 and created.counts.to_dict() == {"a": 0, "b": 0}

    def observe(observation_id: str, decision: Any) -> Any:
        report = m.ObservationReport(observation_id=observation_id, decision_id=decision.decision_id,
                                     group=decision.group, n_acquired=10,
                                     group_losses=m.ObservationReportGroupLosses.from_dict(losses))
        return api.report_group_sampler_observation.sync_detailed(created.id, client=client, body=report)

    for round_, group in ((1, "a"), (2, "b")):  # warm-up: round-robin whatever the losses say
        decision = ok(api.next_group_sampler_decision.sync_detailed(created.id, client=client))
        assert (decision.round_, decision.group, decision.reason) == (round_, group, m.SamplerNextDecisionReason.WARMUP)
        first = observe(f"batch-{round_}", decision)
        assert ok(first).counts[group] == 10 and first.headers.get("idempotent-replayed") is None
    replay = observe("batch-2", decision)  # a retried report: the first answer, counted once
    assert replay.headers["idempotent-replayed"] == "true"
    assert ok(replay).to_dict() == first.parsed.to_dict()

    # Round 3: N = (10, 10), t = 21, 21^0.5 = 4.58 <= 10, so eq. 6 decides: U = L + 0.1 / sqrt(10).
    decision = ok(api.next_group_sampler_decision.sync_detailed(created.id, client=client))
    ucb = {g: losses[g] + 0.1 / math.sqrt(10) for g in ("a", "b")}
    assert (decision.round_, decision.reason) == (3, m.SamplerNextDecisionReason.UCB)
    assert decision.group == ("a" if ucb["a"] >= ucb["b"] else "b")
    for g in ("a", "b"):
        assert decision.scores[g].ucb == pytest.approx(ucb[g], abs=TOL)
        assert decision.scores[g].bonus == pytest.approx(0.1 / math.sqrt(10), abs=TOL)

    state = ok(api.get_group_sampler.sync_detailed(created.id, client=client))
    assert state.counts.to_dict() == {"a": 10, "b": 10} and state.mixture.to_dict() == {"a": 0.5, "b": 0.5}
    # Round 3's decision holds its batch (1 sample) until reported on; every next and report is a version.
    assert (state.round_, state.budget_remaining, state.version) == (2, 39, 6)
    held = [(d.decision_id, d.arm, d.size) for d in state.pending_decisions]
    assert held == [(decision.decision_id, decision.group, 1)]
    assert state.group_losses.to_dict() == pytest.approx(losses, abs=TOL)
    log = ok(api.list_group_sampler_decisions.sync_detailed(created.id, client=client))
    assert [e.kind for e in log.items] == ["create", "next", "observation", "next", "observation", "next"]


def _group_sampler_managed(p: Pipeline) -> list[UUID]:
    """Managed mode: the client sends samples; a worker refits; next says which model it used."""
    m, api, client = p.m, p.api.group_samplers, p.client
    created = ok(api.create_group_sampler.sync_detailed(client=client, body=m.GroupSamplerCreate(
        groups=["u", "v"], strategy=m.GroupSamplerCreateStrategy.AOPT, mode=m.GroupSamplerCreateMode.MANAGED,
        budget=100, batch_size=20, model=m.SamplerModelSpec(params=m.ModelParams(l2=1.0)), seed=3)),
        HTTPStatus.CREATED)
    decision = ok(api.next_group_sampler_decision.sync_detailed(created.id, client=client))
    assert (decision.group, decision.reason, decision.model_version) == ("u", m.SamplerNextDecisionReason.WARMUP, 0)
    report = m.ObservationReport(observation_id="m1", decision_id=decision.decision_id, group="u",
                                 train=samples(p, "u", 20, 1), validation=samples(p, "u", 30, 101))
    response = api.report_group_sampler_observation.sync_detailed(created.id, client=client, body=report)
    observed = ok(response, HTTPStatus.ACCEPTED)
    assert response.headers["location"] == f"/v1/jobs/{observed.job.id}"
    assert observed.counts.to_dict() == {"u": 20, "v": 0} and observed.budget_remaining == 80
    assert observed.job.kind == "group_samplers.fit"

    decision = ok(api.next_group_sampler_decision.sync_detailed(created.id, client=client, wait=20.0))
    assert (decision.group, decision.reason, decision.model_version) == ("v", m.SamplerNextDecisionReason.WARMUP, 1)
    assert decision.fit_pending is False
    assert 0.0 <= decision.scores["u"].loss <= 1.0 and decision.scores["v"].loss is None  # no v validation yet
    state = ok(api.get_group_sampler.sync_detailed(created.id, client=client))
    assert (state.model_version, state.fitted_observations, state.fit_job_id) == (1, 1, observed.job.id)
    return [observed.job.id]


def _partition_bandit_client_made(p: Pipeline) -> None:
    """DataSift over client-made partitions: next, feedback credited by eq. 1, a repeated feedback."""
    m, api, client = p.m, p.api.partition_bandits, p.client
    partitions = [m.PartitionIn(id=i, size=s, centroid=c, base_rate_difference=d) for i, s, c, d in PARTITIONS]
    created = ok(api.create_partition_bandit.sync_detailed(client=client, body=m.PartitionBanditCreate(
        partitions=partitions, batch_size=10, budget=100, seed=0)), HTTPStatus.CREATED)
    assert created.status == m.SessionStatus.READY and [q.id for q in created.partitions] == ["a", "b", "c"]

    decision = ok(api.next_partition_bandit_decision.sync_detailed(created.id, client=client))
    assert (decision.round_, decision.reason, decision.batch_size) == (1, m.BanditNextDecisionReason.UNTRIED, 10)
    assert decision.partition in ("a", "b", "c") and decision.item_ids is None  # no pool: the client holds the data
    feedback = m.FeedbackReport(decision_id=decision.decision_id, fairness_before=0.20, fairness_after=0.10)
    result = ok(api.report_partition_bandit_feedback.sync_detailed(created.id, client=client, body=feedback))
    # eq. 1: r_j = ΔF / ((1 + |ΔBR_j|)(1 + d(i, j))), centroid distances divided by the largest.
    centroids = {i: np.array(c) for i, _, c, _ in PARTITIONS}
    largest = max(np.linalg.norm(centroids[i] - centroids[j]) for i in centroids for j in centroids)
    expected = {j: 0.1 / ((1 + abs(d)) * (1 + np.linalg.norm(centroids[decision.partition] - centroids[j]) / largest))
                for j, _, _, d in PARTITIONS}
    assert result.accepted is True and result.delta_fairness == pytest.approx(0.1, abs=TOL)
    assert result.rewards.to_dict() == pytest.approx(expected, abs=TOL)
    assert (result.best_fairness, result.budget_remaining, result.done) == (pytest.approx(0.1), 90, False)
    again = api.report_partition_bandit_feedback.sync_detailed(created.id, client=client, body=feedback)
    assert ok(again).to_dict() == result.to_dict() and again.headers["idempotent-replayed"] == "true"

    state = ok(api.get_partition_bandit.sync_detailed(created.id, client=client))
    pulls = {q.id: q.pulls for q in state.partitions}
    assert pulls == {j: int(j == decision.partition) for j in ("a", "b", "c")}
    assert {q.id: q.reward for q in state.partitions} == pytest.approx(expected, abs=TOL)
    # Versions: create 1, next 2 (it holds its batch), feedback 3; nothing is pending any more.
    assert (state.evaluations, state.budget_spent, state.version, state.pending_decisions) == (1, 10, 3, [])


def _batch_scheduler(p: Pipeline) -> None:
    """FairBatch for equal opportunity: λ moves step_size toward the group with the larger loss."""
    m, api, client = p.m, p.api.batch_schedulers, p.client
    counts = [m.CellCount(label=y, group=z, count=n) for y, z, n in BATCH_COUNTS]
    created = ok(api.create_batch_scheduler.sync_detailed(client=client, body=m.BatchSchedulerCreate(
        metric=m.BatchSchedulerCreateMetric.EQUAL_OPPORTUNITY, labels=[0, 1], groups=["m", "f"], counts=counts,
        batch_size=10, step_size=0.005, seed=0)), HTTPStatus.CREATED)
    assert created.labels == [0, 1] and created.groups == ["m", "f"]  # echoed exactly as given
    assert created.lambdas == pytest.approx([0.2], abs=TOL)  # P(1, m) = 20/100 in the box [0, 0.4]

    for epoch, (loss_m, loss_f), lam in ((1, (0.5, 0.2), 0.205), (2, (0.45, 0.25), 0.21)):
        losses = [m.CellLoss(label=0, group="m", loss=0.3), m.CellLoss(label=1, group="m", loss=loss_m),
                  m.CellLoss(label=0, group="f", loss=0.3), m.CellLoss(label=1, group="f", loss=loss_f)]
        result = ok(api.report_epoch.sync_detailed(created.id, client=client,
                                                     body=m.EpochReport(epoch=epoch, losses=losses)))
        assert result.epoch == epoch and result.lambdas == pytest.approx([lam], abs=TOL)
        probabilities = {(c.label, c.group): c.probability for c in result.sampling_probabilities}
        assert probabilities[(1, "m")] == pytest.approx(lam, abs=TOL)
        assert sum(probabilities.values()) == pytest.approx(1.0, abs=TOL)
        assert sum(c.count for c in result.batch_composition) == 10
        assert all(isinstance(c.count, int) and c.count >= 0 for c in result.batch_composition)
        # Against the overall y = 1 loss (the two cells are the same size): half the gap.
        assert result.disparity == pytest.approx(abs(loss_m - loss_f) / 2, abs=TOL)

    state = ok(api.get_batch_scheduler.sync_detailed(created.id, client=client))
    assert state.epoch == 2 and [h.epoch for h in state.history] == [1, 2]
    assert [h.lambdas[0] for h in state.history] == pytest.approx([0.205, 0.21], abs=TOL)
    assert state.lambdas == pytest.approx([0.21], abs=TOL) and state.version == 3


def _sampling_probabilities(p: Pipeline) -> None:
    """Algorithm 1 without a session, on a 2 × 2 case by hand."""
    body = p.m.SamplingRequest(conditional_matrix=[[0.8, 0.2], [0.2, 0.8]], leaf_rates=[0.75, 0.25])
    out = ok(p.api.balanced_filters.compute_sampling_probabilities.sync_detailed(client=p.client, body=body))
    # U = (0.5, 0.5) is in the hull: q = (0.5, 0.5), ρ = q / r̂ = (2/3, 2) scaled to (1/3, 1), rate 0.5.
    assert out.in_hull is True
    assert out.q == pytest.approx([0.5, 0.5], abs=QP_TOL)
    assert out.acceptance_probabilities == pytest.approx([1 / 3, 1.0], abs=QP_TOL)
    assert out.acceptance_rate == pytest.approx(0.5, abs=QP_TOL) and out.imbalance == pytest.approx(0.0, abs=QP_TOL)


def _balanced_filter(p: Pipeline, fid: UUID, early_decisions: int) -> None:
    """The fitted filter: its proxy and QP, decisions fixed per candidate id, outcomes and realized balance."""
    m, api, client = p.m, p.api.balanced_filters, p.client
    state = ok(api.get_balanced_filter.sync_detailed(fid, client=client))
    assert state.status == m.SessionStatus.READY, state.error
    n_leaves = state.proxy.n_leaves
    A = np.array(state.conditional_matrix)
    assert n_leaves >= 2 and A.shape == (n_leaves, 2) and state.group_names == ["a", "b"]
    assert np.allclose(A.sum(axis=1)[A.sum(axis=1) > 0], 1.0)
    assert sum(state.leaf_rates) == pytest.approx(1.0, abs=TOL) and max(state.acceptance_probabilities) == 1.0
    rho = state.acceptance_probabilities
    assert state.acceptance_rate == pytest.approx(float(np.dot(state.leaf_rates, rho)), abs=QP_TOL)
    assert 0.0 <= state.disclosivity <= 1.0 and state.realized is None

    X, groups, _ = labeled_data(60, seed=5)  # candidates whose group the pipeline learns only after labeling
    ids = [f"cand-{i}" for i in range(60)]
    body = m.DecisionRequest(candidates=[
        m.Candidate(id=i, features=x) for i, x in zip(ids, X.tolist(),
                                                                                                 strict=True)])
    batch = ok(api.decide_balanced_filter_candidates.sync_detailed(fid, client=client, body=body))
    assert (batch.new, batch.repeated) == (60, 0) and [d.id for d in batch.decisions] == ids
    for d in batch.decisions:
        assert 0 <= d.leaf < n_leaves and d.probability == pytest.approx(rho[d.leaf], abs=TOL)
        assert d.accept in (True, False) and (d.accept or d.probability < 1.0)
    again = ok(api.decide_balanced_filter_candidates.sync_detailed(fid, client=client, body=body))
    assert (again.new, again.repeated) == (0, 60)
    assert [d.to_dict() for d in again.decisions] == [d.to_dict() for d in batch.decisions]

    accepted = [(d.id, str(g)) for d, g in zip(batch.decisions, groups, strict=True) if d.accept]
    assert accepted, "no candidate accepted"
    report = m.OutcomeReport(outcomes=[m.Outcome(id=i, group=g) for i, g in accepted])
    outcome = ok(api.report_balanced_filter_outcomes.sync_detailed(fid, client=client, body=report))
    assert (outcome.received, outcome.counted, outcome.repeated) == (len(accepted), len(accepted), 0)

    state = ok(api.get_balanced_filter.sync_detailed(fid, client=client))
    assert state.decisions.total == 60 + early_decisions
    assert state.decisions.accepted - len(accepted) in range(early_decisions + 1)
    counts = {g: sum(1 for _, h in accepted if h == g) for g in ("a", "b")}
    shares = np.array([counts["a"], counts["b"]]) / len(accepted)
    assert state.realized.outcomes == len(accepted) and state.realized.group_counts.to_dict() == counts
    assert state.realized.imbalance == pytest.approx(float(np.linalg.norm(shares - 0.5)), abs=TOL)  # Definition 2


def _partition_bandit_pool(p: Pipeline, bid: UUID, pool_size: int) -> None:
    """The pool a worker partitioned: next offers pool items of one partition; feedback spends the budget."""
    m, api, client = p.m, p.api.partition_bandits, p.client
    state = ok(api.get_partition_bandit.sync_detailed(bid, client=client))
    assert state.status == m.SessionStatus.READY, state.error
    assert len(state.partitions) >= 2 and sum(q.size for q in state.partitions) == pool_size
    decision = ok(api.next_partition_bandit_decision.sync_detailed(bid, client=client))
    assert decision.partition in {q.id for q in state.partitions} and decision.batch_size == 5
    assert len(decision.item_ids) == 5 == len(set(decision.item_ids))
    assert all(i.startswith("item-") for i in decision.item_ids)
    feedback = m.FeedbackReport(decision_id=decision.decision_id, fairness_before=0.3, fairness_after=0.25)
    result = ok(api.report_partition_bandit_feedback.sync_detailed(bid, client=client, body=feedback))
    assert result.accepted is True and result.budget_remaining == 25
    log = ok(api.list_partition_bandit_decisions.sync_detailed(bid, client=client))
    assert [e.kind for e in log.items] == ["create", "partition", "next", "feedback"]


def _fair_regression(p: Pipeline, rid: UUID) -> None:
    """The statistical-parity fit and its predictions (expected, and randomized with a seed)."""
    m, api, client = p.m, p.api.fair_regressions, p.client
    fitted = ok(api.get_fair_regression.sync_detailed(rid, client=client))
    assert fitted.status == m.SessionStatus.READY, fitted.error
    result = fitted.result
    assert result.feasible is True and result.slack == 0.05
    assert sum(result.weights) == pytest.approx(1.0, abs=TOL) and result.n_predictors == len(result.weights)
    assert result.disparity <= 0.05 + 1e-6  # the constraint holds on the training data (Theorem 4)

    X, _, y = regression_data()
    rows = X[:8].tolist()
    expected = ok(api.predict_fair_regression.sync_detailed(rid, client=client, body=m.PredictionRequest(
        features=rows)))
    unit = ok(api.predict_fair_regression.sync_detailed(rid, client=client, body=m.PredictionRequest(
        features=rows, scale=m.PredictionRequestScale.UNIT)))
    assert expected.mode == m.PredictionResultMode.EXPECTED and len(expected.predictions) == 8
    assert all(0.0 <= v <= 1.0 for v in unit.predictions)  # the fit's [0, 1] scale, mapped back to the labels'
    assert expected.predictions == pytest.approx([y.min() + v * np.ptp(y) for v in unit.predictions], abs=TOL)
    body = m.PredictionRequest(features=rows, mode=m.PredictionRequestMode.RANDOMIZED, seed=5)
    draws = [ok(api.predict_fair_regression.sync_detailed(rid, client=client, body=body)) for _ in range(2)]
    assert draws[0].seed == 5 and draws[0].predictions == draws[1].predictions and len(draws[0].predictions) == 8


def _jobs(p: Pipeline, jobs: dict[UUID, Any], resources: dict[UUID, str]) -> None:
    """Every job ran once and succeeded; the list by status shows them."""
    for job_id, job in jobs.items():
        assert job.status == p.m.JobStatus.SUCCEEDED, job.error
        assert (job.attempts, job.progress, job.resource.type_) == (1, 1.0, resources[job_id])
        assert job.finished_at >= job.started_at >= job.created_at
    listed = ok(p.api.jobs.list_jobs.sync_detailed(client=p.client, status=p.m.JobStatus.SUCCEEDED,
                                                    limit=100))
    assert set(jobs) <= {j.id for j in listed.items}
    assert all(j.status == p.m.JobStatus.SUCCEEDED for j in listed.items)
    assert ok(p.api.jobs.list_jobs.sync_detailed(client=p.client, status=p.m.JobStatus.FAILED)).items == []


# ----------------------------------------------------------------------------- the scenario


def test_a_labeling_pipeline_through_the_generated_client(generated_client: ModuleType, live_server: str):
    m = generated_client.models
    with generated_client.Client(base_url=live_server, timeout=httpx.Timeout(REQUEST_TIMEOUT),
                                 raise_on_unexpected_status=True) as client:
        p = Pipeline(api=generated_client.api, m=m, client=client)
        labeled, pool, (X, groups, labels) = _upload_datasets(p)
        submitted = _submit_background_work(p, labeled, pool)

        # While the workers fit, the interactive decisions.
        losses = _fairness_metrics(p, X, groups, labels)
        _group_sampler_reported(p, losses)
        sampler_jobs = _group_sampler_managed(p)
        _partition_bandit_client_made(p)
        _batch_scheduler(p)
        _sampling_probabilities(p)

        resources = {submitted["filter"].job_id: "balanced_filter", submitted["regression"].job_id: "fair_regression",
                     submitted["pool_bandit"].job_id: "partition_bandit", sampler_jobs[0]: "group_sampler"}
        jobs = wait_for_jobs(p, list(resources))
        _balanced_filter(p, submitted["filter"].id, submitted["early_decisions"])
        _partition_bandit_pool(p, submitted["pool_bandit"].id, pool.n_rows)
        _fair_regression(p, submitted["regression"].id)
        _jobs(p, jobs, resources)

        # A dataset in use cannot be deleted: the error arrives as a parsed problem+json.
        refused = p.api.datasets.delete_dataset.sync_detailed(labeled.id, client=client)
        assert refused.status_code == HTTPStatus.CONFLICT
        assert isinstance(refused.parsed, m.Problem) and refused.parsed.status == 409
