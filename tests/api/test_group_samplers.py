"""``/v1/group-samplers`` through the API: Aopt by hand, warm-up and forced exploration, budget,
observations counted once, 412/422, the decision log and its replay, managed mode with a real
worker and ``?wait``, and tenant isolation."""

from __future__ import annotations

import json
import math
import threading
import time

import numpy as np
import pytest

from service.algorithms.adaptive_sampling import SamplerConfig, SamplerState, apply_observation, fit_and_evaluate
from service.algorithms.adaptive_sampling import next_decision as library_next
from service.algorithms.adaptive_sampling.scores import theoretical_bonus
from service.jobs.models import Job
from tests.factories import make_key, run_queued_jobs

URL = "/v1/group-samplers"
TOL = 1e-12
FIT_JOB = "group_samplers.fit"


def _create(client, **overrides):
    body = {"groups": ["a", "b", "c"], "strategy": "aopt", "budget": 100, **overrides}
    response = client.post(URL, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _next(client, sid, **kwargs):
    response = client.post(f"{URL}/{sid}/next", **kwargs)
    assert response.status_code == 200, response.text
    return response.json()


def _observe(client, sid, observation_id, group, n, losses, expect=200, **extra):
    body = {"observation_id": observation_id, "group": group, "n_acquired": n, "group_losses": losses, **extra}
    response = client.post(f"{URL}/{sid}/observations", json=body)
    assert response.status_code == expect, response.text
    return response


def _release(client, sid, decision_id, expect=200):
    response = client.post(f"{URL}/{sid}/decisions/{decision_id}/release")
    assert response.status_code == expect, response.text
    return response.json()


def _get(client, sid):
    return client.get(f"{URL}/{sid}").json()


# ----------------------------------------------------------------------------- decisions by hand


def test_create_returns_the_resolved_configuration(client):
    response = client.post(URL, json={"name": "loans", "groups": ["a", "b"], "strategy": "aopt_plus", "budget": 50})
    body = response.json()
    assert response.status_code == 201
    assert response.headers["location"] == f"{URL}/{body['id']}" and response.headers["etag"] == '"1"'
    assert body["params"] == {"c0": 0.1, "c1": 0.1, "epsilon": 0.1, "xi": 0.5, "warmup_rounds": 2,
                              "bound": "empirical", "trend_window": 30, "bound_c": 0.5, "bound_delta": 0.05,
                              "bound_vc_dim": 3}
    assert body["counts"] == {"a": 0, "b": 0} and body["mixture"] == {"a": 0.0, "b": 0.0}
    assert body["round"] == 0 and body["budget_remaining"] == 50 and body["status"] == "ready"
    assert body["mode"] == "reported" and body["model"] is None and body["model_version"] is None
    assert _get(client, body["id"]) == body


def test_aopt_decision_by_hand(client):
    sid = _create(client)["id"]
    # Warm-up: rounds 1..3 go round-robin whatever the losses say.
    losses = {"a": 0.30, "b": 0.29, "c": 0.27}
    for i, (group, n) in enumerate((("a", 25), ("b", 9), ("c", 16)), start=1):
        decision = _next(client, sid)
        assert (decision["round"], decision["group"], decision["reason"]) == (i, group, "warmup")
        _observe(client, sid, f"o{i}", group, n, losses, decision_id=decision["decision_id"])
    decision = _next(client, sid)
    # Round 4: t = 50 + 1 samples, t^0.5 = 7.14 <= min N = 9, so no forced exploration. eq. 6:
    #   a: 0.30 + 0.1/sqrt(25) = 0.32;  b: 0.29 + 0.1/sqrt(9) = 0.32333;  c: 0.27 + 0.1/sqrt(16) = 0.295.
    # b has the largest UCB although a has the largest loss.
    assert (decision["round"], decision["group"], decision["reason"]) == (4, "b", "ucb")
    expected = {"a": (0.30, 0.02), "b": (0.29, 0.1 / 3), "c": (0.27, 0.025)}
    for group, (loss, bonus) in expected.items():
        score = decision["scores"][group]
        assert score["loss"] == pytest.approx(loss, abs=TOL) and score["bonus"] == pytest.approx(bonus, abs=TOL)
        assert score["trend"] == 0.0 and score["ucb"] == pytest.approx(loss + bonus, abs=TOL)
    assert decision["budget_remaining"] == 50 and decision["batch_size"] == 1 and decision["model_version"] is None
    state = _get(client, sid)
    assert state["counts"] == {"a": 25, "b": 9, "c": 16}
    assert state["mixture"] == {"a": 0.5, "b": 0.18, "c": 0.32} and state["round"] == 3


def test_aopt_plus_trend_term_by_hand_over_its_window(client):
    sid = _create(client, groups=["a", "b"], strategy="aopt_plus", params={"trend_window": 3})["id"]
    for i, accuracy in enumerate((0.6, 0.7, 0.8), start=1):
        _observe(client, sid, f"o{i}", "a", 10, {"a": 1 - accuracy, "b": 0.1}, group_accuracies={"a": accuracy})
    # a's accuracies 0.6, 0.7, 0.8: S = 3, Var S = 3·2·11/18 = 11/3, trend = 0.1 · 3 / sqrt(11/3) = 0.156670.
    # b's series (from 1 - loss) is flat: S = 0.
    scores = _next(client, sid)["scores"]
    assert scores["a"]["trend"] == pytest.approx(0.3 / math.sqrt(11 / 3), abs=TOL)
    assert scores["b"]["trend"] == 0.0
    # A fourth value 0.5 drops 0.6 from the window of 3: (0.7, 0.8, 0.5) has S = 1 - 1 - 1 = -1.
    _observe(client, sid, "o4", "a", 10, {"a": 0.5}, group_accuracies={"a": 0.5})
    assert _next(client, sid)["scores"]["a"]["trend"] == pytest.approx(-0.1 / math.sqrt(11 / 3), abs=TOL)


def test_theoretical_bound_reaches_the_library(client):
    params = {"bound": "theoretical", "bound_c": 0.2, "bound_delta": 0.1, "bound_vc_dim": 4}
    sid = _create(client, groups=["a", "b"], params=params)["id"]
    _observe(client, sid, "o1", "a", 10, {"a": 0.3, "b": 0.2})
    _observe(client, sid, "o2", "b", 30, {"a": 0.3, "b": 0.2})
    scores = _next(client, sid)["scores"]
    bonus = theoretical_bonus(np.array([10.0, 30.0]), 0.2, 4, 0.1)  # eq. 4, tested by hand in tests/algorithms
    assert [scores[g]["bonus"] for g in ("a", "b")] == pytest.approx(bonus.tolist(), abs=TOL)
    assert scores["a"]["ucb"] == pytest.approx(0.3 + bonus[0], abs=TOL)


def test_warmup_then_forced_exploration_then_ucb(client):
    sid = _create(client, groups=["a", "b"])["id"]
    first = _next(client, sid)
    again = _next(client, sid)  # no observation yet: a second worker's decision, for round 2: the other group
    assert (first["group"], first["round"], again["group"], again["round"]) == ("a", 1, "b", 2)
    assert first["decision_id"] != again["decision_id"]
    _release(client, sid, again["decision_id"])  # that worker gave up: its sample returns to the budget
    _observe(client, sid, "o1", "a", 1, {"a": 0.1, "b": 0.4}, decision_id=first["decision_id"])
    decision = _next(client, sid)
    assert (decision["group"], decision["reason"], decision["round"]) == ("b", "warmup", 2)
    _observe(client, sid, "o2", "b", 9, {"a": 0.1, "b": 0.4}, decision_id=decision["decision_id"])
    # N = (1, 9), t = 10 + 1: min N = 1 < 11^0.5 = 3.32, so a is forced although b's loss is larger.
    decision = _next(client, sid)
    assert (decision["group"], decision["reason"]) == ("a", "forced_exploration")
    assert "3.317" in decision["note"]
    _observe(client, sid, "o3", "a", 3, {"a": 0.1, "b": 0.4}, decision_id=decision["decision_id"])
    # N = (4, 9), t = 14: 4 >= 3.74. UCB a = 0.1 + 0.1/2 = 0.15, b = 0.4 + 0.1/3 = 0.4333.
    decision = _next(client, sid)
    assert (decision["group"], decision["reason"]) == ("b", "ucb")
    assert decision["scores"]["b"]["ucb"] == pytest.approx(0.4 + 0.1 / 3, abs=TOL)


def test_budget_is_counted_and_409_once_spent(client):
    sid = _create(client, groups=["a", "b"], budget=5, batch_size=2, strategy="uniform")["id"]
    first = _next(client, sid)
    assert first["batch_size"] == 2
    _observe(client, sid, "o1", "a", 2, {"a": 0.2}, decision_id=first["decision_id"])
    _observe(client, sid, "o2", "b", 2, {"b": 0.2})  # samples no decision held: they fit the free budget
    last = _next(client, sid)
    assert (last["batch_size"], last["budget_remaining"]) == (1, 1)  # cut to what is left
    assert _get(client, sid)["budget_remaining"] == 0  # the last sample is held by that decision
    _release(client, sid, last["decision_id"])
    over = _observe(client, sid, "o3", "a", 2, {"a": 0.2}, expect=409)
    assert over.json()["type"].endswith("budget-exhausted") and "exceeds the remaining budget 1" in over.text
    assert _get(client, sid)["version"] == 6  # create, next, o1, o2, next, release: the 409 changed nothing
    body = _observe(client, sid, "o4", "a", 1, {"a": 0.2}).json()
    assert (body["budget_remaining"], body["status"], body["counts"]) == (0, "done", {"a": 3, "b": 2})
    spent = client.post(f"{URL}/{sid}/next")
    assert spent.status_code == 409 and spent.json()["title"] == "Budget exhausted"
    assert "budget of 5 samples is spent" in spent.json()["detail"]
    assert _get(client, sid)["status"] == "done"


# ----------------------------------------------------------------------------- reports counted once


def test_a_repeated_observation_returns_the_first_answer_and_counts_once(client):
    sid = _create(client)["id"]
    first = _observe(client, sid, "batch-1", "a", 4, {"a": 0.3})
    again = _observe(client, sid, "batch-1", "a", 4, {"a": 0.3})
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    assert again.headers["etag"] == first.headers["etag"] == '"2"'
    state = _get(client, sid)
    assert state["counts"]["a"] == 4 and state["round"] == 1 and state["version"] == 2
    other = _observe(client, sid, "batch-1", "a", 5, {"a": 0.3}, expect=422)
    assert "already reported with different contents" in other.json()["detail"]
    assert _get(client, sid)["version"] == 2


def test_concurrent_duplicate_reports_count_once(client):
    sid = _create(client)["id"]
    answers: list = []

    def report() -> None:
        answers.append(client.post(f"{URL}/{sid}/observations", json={
            "observation_id": "same", "group": "b", "n_acquired": 3, "group_losses": {"b": 0.25}}))

    threads = [threading.Thread(target=report) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [200] * 8
    assert len({r.text for r in answers}) == 1
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in answers) == 7
    state = _get(client, sid)
    assert state["counts"]["b"] == 3 and state["round"] == 1 and state["version"] == 2


def test_if_match_guards_observations_and_next(client):
    sid = _create(client)["id"]
    stale = {"If-Match": '"9"'}
    body = {"observation_id": "o1", "group": "a", "n_acquired": 1, "group_losses": {"a": 0.2}}
    assert client.post(f"{URL}/{sid}/observations", json=body, headers=stale).status_code == 412
    assert client.post(f"{URL}/{sid}/next", headers=stale).status_code == 412
    fresh = client.post(f"{URL}/{sid}/observations", json=body, headers={"If-Match": '"1"'})
    assert fresh.status_code == 200 and fresh.headers["etag"] == '"2"'
    assert client.post(f"{URL}/{sid}/next", headers={"If-Match": '"2"'}).status_code == 200


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"group": "z", "n_acquired": 1, "group_losses": {"a": 0.2}}, "unknown group 'z'"),
        ({"group": "a", "n_acquired": 1, "group_losses": {"q": 0.2}}, "unknown group 'q'"),
        ({"group": "a", "n_acquired": 1, "group_losses": {"a": 1.5}}, "outside [0.0, 1.0]"),
        ({"group": "a", "n_acquired": -1, "group_losses": {"a": 0.2}}, "greater than or equal to 0"),
        ({"group": "a", "group_losses": {"a": 0.2}}, "n_acquired: is required in reported mode"),
        ({"group": "a", "n_acquired": 1, "group_losses": {"a": 0.2},
          "train": {"features": [[1.0]], "labels": [1]}}, "reported mode"),
        ({"group": "a", "n_acquired": 1, "group_losses": {"a": 0.2},
          "decision_id": "00000000-0000-4000-8000-000000000000"}, "no next decision"),
    ],
)
def test_bad_reported_observations_are_422_and_leave_the_state_untouched(client, body, fragment):
    sid = _create(client)["id"]
    response = client.post(f"{URL}/{sid}/observations", json={"observation_id": "o1", **body})
    assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"
    assert fragment in response.text
    state = _get(client, sid)
    assert state["version"] == 1 and state["round"] == 0 and state["counts"]["a"] == 0
    # The refused id is free: a correct report with it counts.
    assert _observe(client, sid, "o1", "a", 1, {"a": 0.2}).json()["counts"]["a"] == 1


def test_nan_losses_and_a_mismatched_decision_are_refused(client):
    sid = _create(client)["id"]
    raw = b'{"observation_id": "o1", "group": "a", "n_acquired": 1, "group_losses": {"a": NaN}}'
    response = client.post(f"{URL}/{sid}/observations", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422 and "finite" in response.json()["detail"]
    decision = _next(client, sid)  # warm-up: a
    wrong = _observe(client, sid, "o1", "b", 1, {"b": 0.2}, expect=422, decision_id=decision["decision_id"])
    assert "chose group 'a'" in wrong.json()["detail"]
    assert _get(client, sid)["version"] == 2  # the decision's reservation; the refused report changed nothing


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"groups": ["a", "a"]}, "distinct"),
        ({"groups": ["a"]}, "at least 2"),
        ({"strategy": "aopt", "params": {"c1": 0.3}}, "use strategy 'aopt_plus'"),
        ({"params": {"c_0": 0.3}}, "Extra inputs are not permitted"),
        ({"model": {"type": "logistic_regression"}}, "managed mode only"),
        ({"budget": 0}, "greater than or equal to 1"),
        ({"strategy": "thompson"}, "strategy"),
    ],
)
def test_bad_create_requests_are_422(client, overrides, fragment):
    response = client.post(URL, json={"groups": ["a", "b"], "strategy": "aopt", "budget": 10, **overrides})
    assert response.status_code == 422 and fragment in response.text
    assert client.get(URL).json()["items"] == []


# ----------------------------------------------------------------------------- the decision log


def _drive(client, sid, rounds: int) -> list[dict]:
    """Ask, acquire from the chosen group, report: losses fixed so that greedy picks b."""
    decisions = []
    for i in range(rounds):
        decision = _next(client, sid)
        decisions.append(decision)
        _observe(client, sid, f"o{i}", decision["group"], 2, {"a": 0.1, "b": 0.3, "c": 0.2},
                 decision_id=decision["decision_id"])
    return decisions


def test_decision_log_contents_and_replay_from_the_seed(client):
    create = {"strategy": "epsilon_greedy", "params": {"epsilon": 0.5}, "seed": 11}
    sid = _create(client, **create)["id"]
    decisions = _drive(client, sid, 12)
    reasons = [d["reason"] for d in decisions]
    assert reasons[:3] == ["warmup"] * 3 and {"epsilon", "greedy"} <= set(reasons[3:])
    assert all(d["group"] == "b" for d in decisions if d["reason"] == "greedy")
    log = client.get(f"{URL}/{sid}/decisions").json()["items"]
    assert [e["kind"] for e in log] == ["create"] + ["next", "observation"] * 12
    assert [e["sequence"] for e in log] == list(range(1, 26))
    nexts = [e for e in log if e["kind"] == "next"]
    assert [e["id"] for e in nexts] == [d["decision_id"] for d in decisions]
    assert [e["response"] for e in nexts] == decisions
    assert log[2]["client_ref"] == "observation:o0" and log[2]["state_version"] == 3  # after the next's reservation
    assert log[2]["request"]["decision_id"] == decisions[0]["decision_id"]

    # The same seed and the same reports give the same choices.
    twin = _create(client, **create)["id"]
    assert [(d["group"], d["reason"]) for d in _drive(client, twin, 12)] == [(d["group"], d["reason"])
                                                                             for d in decisions]
    # And the log alone replays them: next at sequence s draws from default_rng([seed, s]).
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, strategy="epsilon_greedy", epsilon=0.5)
    state = SamplerState.initial(config)
    for entry in log[1:]:
        if entry["kind"] == "next":
            replayed = library_next(config, state, np.random.default_rng([11, entry["sequence"]]))
            assert (replayed.group, replayed.reason) == (entry["response"]["group"], entry["response"]["reason"])
        else:
            request = entry["request"]
            state = apply_observation(config, state, request["group"], request["n_acquired"],
                                      request["group_losses"])


def test_list_pages_through_samplers(client):
    ids = [_create(client, name=f"s{i}")["id"] for i in range(3)]
    first = client.get(URL, params={"limit": 2}).json()
    second = client.get(URL, params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [s["id"] for s in first["items"] + second["items"]] == ids and second["next_cursor"] is None


# ----------------------------------------------------------------------------- managed mode

MEANS = {"u": ((-2.0, 2.0), (2.0, 2.0)), "v": ((-1.0, -1.0), (1.0, 1.0))}  # SPEC §5.1, instance I


def _samples(group: str, n: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, size=n)
    features = np.array(MEANS[group])[labels] + rng.normal(size=(n, 2))
    return {"features": features.tolist(), "labels": labels.tolist()}


def _managed(client, **overrides) -> str:
    body = {"groups": ["u", "v"], "mode": "managed", "budget": 100, "batch_size": 20, "seed": 3, **overrides}
    return _create(client, **body)["id"]


def _managed_observation(observation_id: str, group: str, seed: int, **extra) -> dict:
    return {"observation_id": observation_id, "group": group, "train": _samples(group, 20, seed),
            "validation": _samples(group, 30, seed + 100), **extra}


def _run_fit_jobs(sessions, settings) -> list[Job]:
    """Run queued fit jobs in-process, one after another, as a worker's child would."""
    return run_queued_jobs(sessions, settings, [FIT_JOB])


def test_managed_observations_count_at_once_and_a_fit_covers_all_queued_samples(client, sessions, settings):
    sid = _managed(client)
    first = client.post(f"{URL}/{sid}/observations", json=_managed_observation("m1", "u", 1))
    assert first.status_code == 202, first.text
    body = first.json()
    assert first.headers["location"] == f"/v1/jobs/{body['job']['id']}" and body["job"]["status"] == "queued"
    assert (body["counts"], body["budget_remaining"], body["n_acquired"]) == ({"u": 20, "v": 0}, 80, 20)
    second = client.post(f"{URL}/{sid}/observations", json=_managed_observation("m2", "v", 2))
    replay = client.post(f"{URL}/{sid}/observations", json=_managed_observation("m2", "v", 2))
    assert replay.status_code == 202 and replay.headers["idempotent-replayed"] == "true"
    assert replay.json()["job"]["id"] == second.json()["job"]["id"]
    changed = client.post(f"{URL}/{sid}/observations", json=_managed_observation("m2", "v", 5))
    assert changed.status_code == 422 and "different contents" in changed.json()["detail"]
    pending = _next(client, sid)
    assert (pending["model_version"], pending["fit_pending"], pending["group"]) == (0, True, "u")
    # A bounded wait with no worker running returns with the old model.
    started = time.monotonic()
    waited = _next(client, sid, params={"wait": 0.3})
    assert 0.25 <= time.monotonic() - started < 3 and waited["model_version"] == 0

    jobs = _run_fit_jobs(sessions, settings)
    # The first job to run trains on both observations; the second finds nothing new.
    assert [j.status for j in jobs] == ["succeeded", "succeeded"]
    assert jobs[0].result["model_version"] == 1 and jobs[0].result["observations"] == 2
    assert jobs[1].result == {"skipped": "the model is up to date", "model_version": 1}
    state = _get(client, sid)
    assert (state["model_version"], state["fitted_observations"], state["round"]) == (1, 2, 2)
    assert state["fit_job_id"] == second.json()["job"]["id"]
    train = [_samples("u", 20, 1), _samples("v", 20, 2)]
    val = [_samples("u", 30, 101), _samples("v", 30, 102)]
    fit = fit_and_evaluate(np.vstack([t["features"] for t in train]), np.hstack([t["labels"] for t in train]),
                           np.vstack([v["features"] for v in val]), np.hstack([v["labels"] for v in val]),
                           np.repeat([0, 1], 30), 2, "zero_one")
    losses, accuracies = fit.evaluation.reported()
    assert [state["group_losses"][g] for g in ("u", "v")] == pytest.approx(losses, abs=TOL)
    assert [state["group_accuracies"][g] for g in ("u", "v")] == pytest.approx(accuracies, abs=TOL)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda b: b["train"]["features"][3].append(1.0), "has 3 values but row 0 has 2"),
        (lambda b: b["train"]["labels"].__setitem__(0, 2), "must be 0 or 1"),
        (lambda b: b["validation"]["labels"].pop(), "has 29 values; expected 30"),
        (lambda b: b.update(n_acquired=20), "managed mode: send train and validation samples, not n_acquired"),
        (lambda b: b.pop("validation"), "validation: is required in managed mode"),
        (lambda b: b.update(group="w"), "unknown group 'w'"),
        (lambda b: b["train"].update(features=[[0.0] * 3] * 20), "rows have 3 features; this sampler's model takes 2"),
        (lambda b: b["train"].update(features=[[0.0] * 2] * 82), "exceeds the remaining budget 80"),
    ],
    ids=["ragged", "label", "label-count", "reported-field", "no-validation", "unknown-group", "feature-count",
         "over-budget"],
)
def test_bad_managed_observations_are_refused_and_leave_the_state_untouched(client, change, fragment):
    sid = _managed(client)
    assert client.post(f"{URL}/{sid}/observations", json=_managed_observation("m1", "u", 1)).status_code == 202
    body = _managed_observation("m2", "v", 2)
    if "budget" in fragment:
        body["train"]["labels"] = [0, 1] * 41
    change(body)
    response = client.post(f"{URL}/{sid}/observations", json=body)
    assert response.status_code == (409 if "budget" in fragment else 422), response.text
    assert fragment in response.text
    state = _get(client, sid)
    assert state["version"] == 2 and state["counts"] == {"u": 20, "v": 0} and state["round"] == 1


def test_managed_nan_feature_is_422(client):
    sid = _managed(client)
    body = _managed_observation("m1", "u", 1)
    body["train"]["features"][0][0] = "__nan__"
    raw = json.dumps(body).replace('"__nan__"', "NaN").encode()
    response = client.post(f"{URL}/{sid}/observations", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422 and "finite" in response.json()["detail"]
    assert _get(client, sid)["version"] == 1


def test_a_wait_does_not_hold_up_other_writers(client):
    sid = _managed(client)
    client.post(f"{URL}/{sid}/observations", json=_managed_observation("m1", "u", 1))  # queued; no worker
    other = _create(client)["id"]
    waited: list[float] = []

    def wait() -> None:
        started = time.monotonic()
        assert _next(client, sid, params={"wait": 1.5})["fit_pending"] is True
        waited.append(time.monotonic() - started)

    waiting = threading.Thread(target=wait)
    waiting.start()
    time.sleep(0.2)
    started = time.monotonic()
    _observe(client, other, "o1", "a", 1, {"a": 0.2})
    _next(client, other)
    assert time.monotonic() - started < 1.0  # not queued behind the 1.5 s wait (>= 1.3 s if it were)
    waiting.join()
    assert len(waited) == 1 and waited[0] >= 1.45
    assert client.post(f"{URL}/{sid}/next", params={"wait": 31}).status_code == 422


def test_managed_mode_end_to_end_with_a_real_worker(client, worker):
    sid = _managed(client)
    decision = _next(client, sid)
    assert (decision["group"], decision["reason"], decision["model_version"]) == ("u", "warmup", 0)
    first = client.post(f"{URL}/{sid}/observations",
                        json=_managed_observation("m1", "u", 1, decision_id=decision["decision_id"]))
    assert first.status_code == 202
    decision = _next(client, sid, params={"wait": 20})  # waits for the worker's fit
    assert (decision["group"], decision["reason"], decision["model_version"]) == ("v", "warmup", 1)
    assert decision["fit_pending"] is False and decision["scores"]["v"]["loss"] is None
    fit1 = fit_and_evaluate(np.array(_samples("u", 20, 1)["features"]), np.array(_samples("u", 20, 1)["labels"]),
                            np.array(_samples("u", 30, 101)["features"]), np.array(_samples("u", 30, 101)["labels"]),
                            np.zeros(30, dtype=int), 2, "zero_one")
    assert decision["scores"]["u"]["loss"] == pytest.approx(fit1.evaluation.reported()[0][0], abs=TOL)
    second = client.post(f"{URL}/{sid}/observations",
                         json=_managed_observation("m2", "v", 2, decision_id=decision["decision_id"]))
    assert second.status_code == 202
    decision = _next(client, sid, params={"wait": 20})
    # Round 3: t = 40 + 20 = 60 samples, 60^0.5 = 7.75 <= min N = 20: the UCB decides.
    assert (decision["round"], decision["reason"], decision["model_version"]) == (3, "ucb", 2)
    # The second fit is warm-started from the first and trained on both groups' samples.
    train = [_samples("u", 20, 1), _samples("v", 20, 2)]
    val = [_samples("u", 30, 101), _samples("v", 30, 102)]
    fit2 = fit_and_evaluate(np.vstack([t["features"] for t in train]), np.hstack([t["labels"] for t in train]),
                            np.vstack([v["features"] for v in val]), np.hstack([v["labels"] for v in val]),
                            np.repeat([0, 1], 30), 2, "zero_one", previous=fit1.params)
    losses = fit2.evaluation.reported()[0]
    for group, loss in zip(("u", "v"), losses, strict=True):
        score = decision["scores"][group]
        assert score["loss"] == pytest.approx(loss, abs=TOL)
        assert score["ucb"] == pytest.approx(loss + 0.1 / math.sqrt(20), abs=TOL)
    assert decision["group"] == ("u" if losses[0] >= losses[1] else "v")
    job = client.get(second.headers["location"]).json()
    assert job["status"] == "succeeded" and job["result"]["model_version"] == 2
    assert job["resource"] == {"type": "group_sampler", "id": sid}
    state = _get(client, sid)
    # 100 - 40 acquired - 20 held by the last decision, still pending
    assert (state["counts"], state["mixture"], state["budget_remaining"]) == ({"u": 20, "v": 20},
                                                                              {"u": 0.5, "v": 0.5}, 40)
    assert state["pending"] == {decision["group"]: 20, ("v" if decision["group"] == "u" else "u"): 0}
    assert [p["decision_id"] for p in state["pending_decisions"]] == [decision["decision_id"]]
    kinds = [e["kind"] for e in client.get(f"{URL}/{sid}/decisions").json()["items"]]
    assert kinds == ["create", "next", "observation", "fit", "next", "observation", "fit", "next"]


# ----------------------------------------------------------------------------- tenants


def test_other_tenants_get_404_on_every_route(client, sessions):
    alice, bob = make_key(sessions, "alice"), make_key(sessions, "bob")
    as_alice, as_bob = client.with_key(alice), client.with_key(bob)
    sid = _create(as_alice)["id"]
    _next(as_alice, sid)
    body = {"observation_id": "o1", "group": "a", "n_acquired": 1, "group_losses": {"a": 0.2}}
    assert as_bob.get(f"{URL}/{sid}").status_code == 404
    assert as_bob.post(f"{URL}/{sid}/next").status_code == 404
    started = time.monotonic()
    assert as_bob.post(f"{URL}/{sid}/next", params={"wait": 5}).status_code == 404
    assert time.monotonic() - started < 2
    assert as_bob.post(f"{URL}/{sid}/observations", json=body).status_code == 404
    assert as_bob.get(f"{URL}/{sid}/decisions").status_code == 404
    assert as_bob.get(URL).json()["items"] == []
    assert client.get(f"{URL}/{sid}").status_code == 401
    assert _get(as_alice, sid)["version"] == 2 and len(as_alice.get(f"{URL}/{sid}/decisions").json()["items"]) == 2
