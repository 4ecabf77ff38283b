"""Stateful property tests: a group sampler and a batch scheduler against reference models.

Hypothesis drives random sequences of create / next / report / release (a sampler's
decisions are pending until a report names them or they are released), replayed reports,
reports that reuse an observation id, epoch number or ``Idempotency-Key`` with
another body, and replays of an ``Idempotency-Key``, through the API. After every
step the service must agree with a plain-Python model of what it should hold:
counts, budget, round, version, decisions logged, sampling probabilities and λ.

The models share no code with ``service``: the sampler's counters are sums, its
choice of group is written out from SPEC §5.1 (uniform, greedy, Aopt with c0 = 0.1
and ξ = 0.5), and FairBatch's signed update for binary equal opportunity is worked
by hand (SPEC §5.4). They live in ``tests/reliability/reference.py``; the last two
tests here check them on numbers worked out by hand.

Each Hypothesis example runs as a tenant of its own (a fresh API key), so examples
never see each other's data on SQLite or PostgreSQL; one app and client serve the
whole test.
"""

from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.factories import ApiClient, make_key
from tests.reliability.reference import AOPT_C0, TIE, TOL, SamplerModel, SchedulerModel

SAMPLERS = "/v1/group-samplers"
SCHEDULERS = "/v1/batch-schedulers"
MAX_SESSIONS = 2  # per example: enough to catch cross-talk, few enough to GET after every step

# Reported losses: a coarse grid makes exact ties (and equal-loss epochs) common.
LOSS_GRID = (0.0, 0.1, 0.2, 0.25, 0.5, 0.75, 1.0)
unit_loss = st.sampled_from(LOSS_GRID) | st.floats(0.0, 1.0, allow_nan=False)
epoch_loss = st.sampled_from(LOSS_GRID) | st.floats(0.0, 2.0, allow_nan=False)

SETTINGS = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@dataclass
class Sent:
    """A POST that succeeded under an ``Idempotency-Key``: what a replay must return."""

    path: str
    body: bytes
    status: int
    answer: Any


class ApiMachine(RuleBasedStateMachine):
    """Shared by both machines: a tenant of its own and the ``Idempotency-Key`` rules."""

    def __init__(self, client: ApiClient, sessions) -> None:
        super().__init__()
        self.api = client.with_key(make_key(sessions, f"stateful-{uuid.uuid4().hex}"))
        self.keyed: dict[str, Sent] = {}
        self.released: list[str] = []  # keys of failed requests: free again (SPEC §3)
        self.serial = 0

    def new_id(self, prefix: str) -> str:
        self.serial += 1
        return f"{prefix}-{self.serial}"

    def post(self, path: str, body: dict | None, key: str | None = None):
        """POST ``body`` as JSON bytes; remember it under ``key`` when it succeeds."""
        content = b"" if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        response = self.api.post(path, content=content, headers=headers)
        if key is not None:
            if response.status_code < 400:
                self.keyed[key] = Sent(path, content, response.status_code, response.json())
            else:
                self.released.append(key)
        assert "idempotent-replayed" not in response.headers, response.text
        return response

    def key_for_new_request(self, data) -> str | None:
        """No key, a fresh key, or (now and then) a key whose request failed and was released."""
        choice = data.draw(st.sampled_from(("none", "fresh", "fresh", "released")))
        if choice == "none":
            return None
        if choice == "released" and self.released:
            return self.released.pop(data.draw(st.integers(0, len(self.released) - 1)))
        return self.new_id("key")  # deterministic, so that Hypothesis replays an example exactly

    def fresh_request(self, data) -> tuple[str, dict]:
        """A valid request that has not been sent before (to misuse a stored key with)."""
        raise NotImplementedError

    @precondition(lambda self: self.keyed)
    @rule(data=st.data())
    def send_idempotency_key_again(self, data) -> None:
        """A used key: the same request gets the stored answer; another request 422, applying nothing."""
        key = data.draw(st.sampled_from(sorted(self.keyed)))
        sent = self.keyed[key]
        if data.draw(st.booleans(), label="same request"):
            response = self.api.post(sent.path, content=sent.body,
                                     headers={"content-type": "application/json", "Idempotency-Key": key})
            assert response.status_code == sent.status, response.text
            assert response.json() == sent.answer
            assert response.headers["idempotent-replayed"] == "true"
            return
        path, body = self.fresh_request(data)
        response = self.api.post(path, json=body, headers={"Idempotency-Key": key})
        assert response.status_code == 422, response.text
        assert "different request" in response.json()["detail"]
        # Nothing was applied: the invariants compare every counter with the model.


# ================================================================================ group samplers




class GroupSamplerMachine(ApiMachine):
    def __init__(self, client: ApiClient, sessions) -> None:
        super().__init__(client, sessions)
        self.samplers: list[SamplerModel] = []

    # -- rules -----------------------------------------------------------------------------

    @initialize(data=st.data())
    def first_sampler(self, data) -> None:
        self.create(data)

    @precondition(lambda self: len(self.samplers) < MAX_SESSIONS)
    @rule(data=st.data())
    def create(self, data) -> None:
        groups = data.draw(st.lists(st.sampled_from(("a", "b", "c", "d", "grüppe 5")), min_size=2, max_size=4,
                                    unique=True), label="groups")
        body = {"groups": groups, "strategy": data.draw(st.sampled_from(("aopt", "aopt", "greedy", "uniform"))),
                "mode": "reported", "budget": data.draw(st.integers(1, 80), label="budget"),
                "batch_size": data.draw(st.integers(1, 5), label="batch_size"),
                "seed": data.draw(st.integers(0, 2**32))}
        response = self.post(SAMPLERS, body, self.key_for_new_request(data))
        assert response.status_code == 201, response.text
        out = response.json()
        assert response.headers["location"] == f"{SAMPLERS}/{out['id']}"
        assert out["groups"] == groups and out["counts"] == dict.fromkeys(groups, 0)
        self.samplers.append(SamplerModel(out["id"], groups, body["strategy"], body["budget"], body["batch_size"],
                                          [0] * len(groups), [None] * len(groups)))

    @rule(data=st.data())
    def next(self, data, model: SamplerModel | None = None) -> None:
        model = model or data.draw(st.sampled_from(self.samplers))
        response = self.post(f"{SAMPLERS}/{model.id}/next", None, self.key_for_new_request(data))
        if model.remaining <= 0:
            assert response.status_code == 409, response.text
            assert "budget" in response.json()["detail"]
            return
        assert response.status_code == 200, response.text
        decision = response.json()
        expected = model.expected_choice()
        counts = [n + p for n, p in zip(model.counts, model.held, strict=True)]  # N_z + P_z, before this one
        assert decision["round"] == model.round + len(model.pending) + 1
        assert decision["budget_remaining"] == model.remaining
        assert decision["batch_size"] == min(model.batch_size, model.remaining)
        assert (decision["group"], decision["reason"]) == expected, (decision, model)
        if model.strategy == "aopt":
            for group, n in zip(model.groups, counts, strict=True):
                bonus = decision["scores"][group]["bonus"]
                assert bonus is None if n == 0 else bonus == pytest.approx(AOPT_C0 / math.sqrt(n), abs=TIE)
        # The decision holds its batch until a report names it or it is released.
        model.pending[decision["decision_id"]] = (model.groups.index(decision["group"]), decision["batch_size"])
        model.nexts += 1
        model.version += 1
        model.last_decision = decision
        assert response.headers["etag"] == f'"{model.version}"'

    @staticmethod
    def releasable(model: SamplerModel) -> list[str]:
        """Decision ids to release: the pending ones, and those reports settled (a 409)."""
        settled = {body["decision_id"] for body, _ in model.reports.values() if body.get("decision_id")}
        return sorted(model.pending) + sorted(settled - set(model.pending))

    @precondition(lambda self: any(self.releasable(m) for m in self.samplers))
    @rule(data=st.data())
    def release(self, data) -> None:
        """Let a decision go: a pending one gives its samples back; any other is a 409 that changes nothing."""
        model = data.draw(st.sampled_from([m for m in self.samplers if self.releasable(m)]))
        decision_id = data.draw(st.sampled_from(self.releasable(model)), label="decision released")
        response = self.post(f"{SAMPLERS}/{model.id}/decisions/{decision_id}/release", None,
                             self.key_for_new_request(data))
        if decision_id not in model.pending:
            assert response.status_code == 409, response.text
            assert "not pending" in response.json()["detail"]
            return
        assert response.status_code == 200, response.text
        group, held = model.pending.pop(decision_id)
        model.releases += 1
        model.version += 1
        answer = response.json()
        assert (answer["decision_id"], answer["group"], answer["released"]) == (decision_id, model.groups[group], held)
        assert response.headers["etag"] == f'"{model.version}"'
        self.check_summary(model, answer)

    @rule(data=st.data())
    def report(self, data) -> None:
        model = data.draw(st.sampled_from(self.samplers))
        decision = model.last_decision
        if decision is not None and not data.draw(st.booleans(), label="answers the last decision"):
            decision = None
        self.send_report(model, self.observation(model, data, decision), self.key_for_new_request(data))

    @rule(data=st.data(), rounds=st.integers(1, 4))
    def next_and_report(self, data, rounds: int) -> None:
        """A client's loop: ask for a group, acquire up to the batch from it, report with the decision id."""
        model = data.draw(st.sampled_from(self.samplers))
        for _ in range(rounds):
            if model.remaining <= 0:
                return
            self.next(data, model)
            decision = model.last_decision
            body = self.observation(model, data, decision)
            batch = decision["batch_size"]
            body["n_acquired"] = data.draw(st.just(batch) | st.integers(0, batch), label="n_acquired")
            self.send_report(model, body, self.key_for_new_request(data))

    @precondition(lambda self: any(m.reports for m in self.samplers))
    @rule(data=st.data())
    def report_again(self, data) -> None:
        """A known observation id: the same body gets the first answer (counted once), another body 422."""
        model = data.draw(st.sampled_from([m for m in self.samplers if m.reports]))
        body, answer = model.reports[data.draw(st.sampled_from(sorted(model.reports)))]
        what = data.draw(st.sampled_from(("same", "same", "n_acquired", "group", "group_losses")))
        if what == "same":
            response = self.api.post(f"{SAMPLERS}/{model.id}/observations", json=body)
            assert response.status_code == 200, response.text
            assert response.json() == answer
            assert response.headers["idempotent-replayed"] == "true"
            return
        changed = dict(body)
        if what == "n_acquired":
            changed["n_acquired"] = body["n_acquired"] + 1
        elif what == "group":
            changed["group"] = next(g for g in model.groups if g != body["group"])
            changed.pop("decision_id", None)
        else:
            changed["group_losses"] = {**body["group_losses"], model.groups[0]: 0.123456}
            if changed["group_losses"] == body["group_losses"]:
                changed["group_losses"][model.groups[0]] = 0.654321
        response = self.api.post(f"{SAMPLERS}/{model.id}/observations", json=changed)
        assert response.status_code == 422, response.text
        assert "already reported with different contents" in response.json()["detail"]

    @rule()
    def decision_logs_match(self) -> None:
        """Each sampler's log: the creation, every next, every counted observation once."""
        for model in self.samplers:
            page = self.api.get(f"{SAMPLERS}/{model.id}/decisions", params={"limit": 500}).json()
            items = page["items"]
            assert [d["sequence"] for d in items] == list(range(1, len(items) + 1))
            kinds = [d["kind"] for d in items]
            assert kinds.count("create") == 1 and kinds.count("next") == model.nexts
            assert kinds.count("release") == model.releases
            refs = sorted(d["client_ref"] for d in items if d["kind"] == "observation")
            assert refs == sorted(f"observation:{i}" for i in model.reports)
        listed = self.api.get(SAMPLERS, params={"limit": 500}).json()["items"]
        assert sorted(s["id"] for s in listed) == sorted(m.id for m in self.samplers)

    # -- helpers ---------------------------------------------------------------------------

    def observation(self, model: SamplerModel, data, decision: dict | None = None) -> dict:
        body: dict[str, Any] = {"observation_id": self.new_id("obs")}
        if decision is not None:
            body.update(decision_id=decision["decision_id"], group=decision["group"])
        else:
            body["group"] = data.draw(st.sampled_from(model.groups))
        body["n_acquired"] = data.draw(st.integers(0, model.batch_size + 2), label="n_acquired")
        measured = data.draw(st.lists(st.sampled_from(model.groups), unique=True), label="measured groups")
        body["group_losses"] = {g: data.draw(unit_loss, label=f"loss {g}") for g in measured}
        return body

    def send_report(self, model: SamplerModel, body: dict, key: str | None) -> None:
        response = self.post(f"{SAMPLERS}/{model.id}/observations", body, key)
        settles = model.pending.get(body.get("decision_id") or "")  # a pending decision the report settles
        if body["n_acquired"] > model.remaining + (0 if settles is None else settles[1]):
            assert response.status_code == 409, response.text
            assert "exceeds the remaining budget" in response.json()["detail"]
            return  # nothing applied: the decision stays pending
        assert response.status_code == 200, response.text
        if settles is not None:
            del model.pending[body["decision_id"]]
        index = model.groups.index(body["group"])
        model.counts[index] += body["n_acquired"]
        model.spent += body["n_acquired"]
        model.round += 1
        model.version += 1
        for group, loss in body["group_losses"].items():
            model.losses[model.groups.index(group)] = loss
        answer = response.json()
        model.reports[body["observation_id"]] = (body, answer)
        assert response.headers["etag"] == f'"{model.version}"'
        assert answer["observation_id"] == body["observation_id"] and answer["n_acquired"] == body["n_acquired"]
        assert answer["decision_id"] == body.get("decision_id")
        self.check_summary(model, answer)

    def fresh_request(self, data) -> tuple[str, dict]:
        model = data.draw(st.sampled_from(self.samplers))
        return f"{SAMPLERS}/{model.id}/observations", self.observation(model, data)

    def check_summary(self, model: SamplerModel, body: dict) -> None:
        assert body["counts"] == dict(zip(model.groups, model.counts, strict=True))
        assert body["round"] == model.round
        assert body["budget_remaining"] == model.remaining
        assert body["pending"] == dict(zip(model.groups, model.held, strict=True))
        assert body["status"] == ("ready" if model.spent < model.budget else "done")
        assert body["group_losses"] == dict(zip(model.groups, model.losses, strict=True))
        mixture = body["mixture"]
        assert list(mixture) == model.groups
        assert all(0.0 <= p <= 1.0 for p in mixture.values())
        total = sum(model.counts)
        if total:
            assert sum(mixture.values()) == pytest.approx(1.0, abs=TOL)
            assert list(mixture.values()) == pytest.approx([n / total for n in model.counts], abs=TOL)
        else:
            assert set(mixture.values()) == {0.0}

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def counters_match_the_model(self) -> None:
        for model in self.samplers:
            response = self.api.get(f"{SAMPLERS}/{model.id}")
            assert response.status_code == 200, response.text
            body = response.json()
            assert body["version"] == model.version and response.headers["etag"] == f'"{model.version}"'
            assert sorted(d["decision_id"] for d in body["pending_decisions"]) == sorted(model.pending)
            self.check_summary(model, body)


# ================================================================================ batch schedulers




class BatchSchedulerMachine(ApiMachine):
    def __init__(self, client: ApiClient, sessions) -> None:
        super().__init__(client, sessions)
        self.schedulers: list[SchedulerModel] = []

    @initialize(data=st.data())
    def first_scheduler(self, data) -> None:
        self.create(data)

    @precondition(lambda self: len(self.schedulers) < MAX_SESSIONS)
    @rule(data=st.data())
    def create(self, data) -> None:
        # Labels as numbers or strings, the positive one first or last (1, else the last label).
        labels, positive = data.draw(st.sampled_from((([0, 1], 1), ([1, 0], 0), (["neg", "pos"], 1))))
        groups = data.draw(st.sampled_from((["m", "f"], [2, 7.5], ["x", 0])), label="groups")
        counts = []
        for y in range(2):
            for _ in groups:  # positive cells need examples (EO compares them); negative ones may be empty
                counts.append(data.draw(st.integers(1 if y == positive else 0, 30)))
        body = {"metric": "equal_opportunity", "labels": labels, "groups": groups,
                "counts": [{"label": y, "group": z, "count": n}
                           for (y, z), n in zip([(y, z) for y in labels for z in groups], counts, strict=True)],
                "step_size": data.draw(st.sampled_from((0.005, 0.05, 0.2, 0.5, 1.0)), label="step_size"),
                "batch_size": data.draw(st.integers(1, 50), label="batch_size"),
                "seed": data.draw(st.integers(0, 2**32))}
        response = self.post(SCHEDULERS, body, self.key_for_new_request(data))
        assert response.status_code == 201, response.text
        out = response.json()
        total = sum(counts)
        model = SchedulerModel(out["id"], labels, groups, counts, body["step_size"], body["batch_size"],
                               [n / total for n in counts], positive)
        self.schedulers.append(model)
        # Echoed exactly: numbers stay numbers of the same type, strings stay strings.
        assert json.dumps([out["labels"], out["groups"]]) == json.dumps([labels, groups])
        assert out["lambdas"] == pytest.approx([model.lam], abs=TOL)
        self.check_probabilities(model, out["sampling_probabilities"], out["batch_composition"])

    @rule(data=st.data())
    def report_epoch(self, data) -> None:
        model = data.draw(st.sampled_from(self.schedulers))
        body = self.epoch_report(model, data)
        response = self.post(f"{SCHEDULERS}/{model.id}/epochs", body, self.key_for_new_request(data))
        assert response.status_code == 200, response.text
        losses = [cell["loss"] for cell in body["losses"]]
        expected = model.step_epoch(losses)
        model.epoch += 1
        model.version += 1
        model.history.append(model.lam)
        answer = response.json()
        model.reports[body["epoch"]] = (body, answer)
        assert answer["epoch"] == body["epoch"] and answer["moved"] == expected["moved"]
        assert answer["disparity"] == pytest.approx(expected["disparity"], abs=TOL)
        assert answer["pair_disparities"] == pytest.approx(expected["pair_disparities"], abs=TOL)
        assert answer["max_pair_disparity"] == pytest.approx(abs(expected["pair_disparities"][0]), abs=TOL)
        assert answer["lambdas"] == pytest.approx([model.lam], abs=TOL)
        assert response.headers["etag"] == f'"{model.version}"'
        self.check_probabilities(model, answer["sampling_probabilities"], answer["batch_composition"])

    @precondition(lambda self: any(m.reports for m in self.schedulers))
    @rule(data=st.data())
    def report_epoch_again(self, data) -> None:
        """A repeated epoch: the same losses get the first answer (applied once), other losses 422."""
        model = data.draw(st.sampled_from([m for m in self.schedulers if m.reports]))
        body, answer = model.reports[data.draw(st.sampled_from(sorted(model.reports)))]
        if data.draw(st.booleans(), label="same losses"):
            response = self.api.post(f"{SCHEDULERS}/{model.id}/epochs", json=body)
            assert response.status_code == 200, response.text
            assert response.json() == answer
            assert response.headers["idempotent-replayed"] == "true"
            return
        losses = [dict(c) for c in body["losses"]]
        losses[data.draw(st.integers(0, 3), label="changed cell")]["loss"] += 0.5
        response = self.api.post(f"{SCHEDULERS}/{model.id}/epochs", json={"epoch": body["epoch"], "losses": losses})
        assert response.status_code == 422, response.text
        assert "already reported with different contents" in response.json()["detail"]

    @rule()
    def decision_logs_match(self) -> None:
        for model in self.schedulers:
            items = self.api.get(f"{SCHEDULERS}/{model.id}/decisions", params={"limit": 500}).json()["items"]
            assert [(d["kind"], d["client_ref"]) for d in items] == [("create", None)] + [
                ("epoch", f"epoch:{e}") for e in range(1, model.epoch + 1)]
        listed = self.api.get(SCHEDULERS, params={"limit": 500}).json()["items"]
        assert sorted(s["id"] for s in listed) == sorted(m.id for m in self.schedulers)

    def epoch_report(self, model: SchedulerModel, data) -> dict:
        return {"epoch": model.epoch + 1,
                "losses": [{"label": y, "group": z, "loss": data.draw(epoch_loss, label=f"loss {y},{z}")}
                           for y, z in model.cells]}

    def fresh_request(self, data) -> tuple[str, dict]:
        model = data.draw(st.sampled_from(self.schedulers))
        return f"{SCHEDULERS}/{model.id}/epochs", self.epoch_report(model, data)

    def check_probabilities(self, model: SchedulerModel, probabilities: list[dict], composition: list[dict]) -> None:
        assert [(p["label"], p["group"]) for p in probabilities] == model.cells
        values = [p["probability"] for p in probabilities]
        assert values == pytest.approx(model.probabilities, abs=TOL)
        assert sum(values) == pytest.approx(1.0, abs=TOL)
        total = sum(model.counts)
        a, b = model.pair
        for k, p in enumerate(values):
            if k in (a, b):  # the positive label's cells move inside [0, c]
                assert -TOL <= p <= model.box + TOL
            else:  # the other label keeps its natural share
                assert p == pytest.approx(model.counts[k] / total, abs=TOL)
        assert [(c["label"], c["group"]) for c in composition] == model.cells
        counts = [c["count"] for c in composition]
        assert sum(counts) == model.batch_size
        assert all(abs(n - p * model.batch_size) < 1.0 for n, p in zip(counts, values, strict=True))

    @invariant()
    def state_matches_the_model(self) -> None:
        for model in self.schedulers:
            response = self.api.get(f"{SCHEDULERS}/{model.id}")
            assert response.status_code == 200, response.text
            body = response.json()
            assert body["epoch"] == model.epoch
            assert body["version"] == model.version and response.headers["etag"] == f'"{model.version}"'
            assert len(body["history"]) == model.epoch
            assert [h["epoch"] for h in body["history"]] == list(range(1, model.epoch + 1))
            assert [h["lambdas"][0] for h in body["history"]] == pytest.approx(model.history, abs=TOL)
            assert body["lambdas"] == pytest.approx([model.lam], abs=TOL)
            assert -TOL <= body["lambdas"][0] <= model.box + TOL
            assert body["lambda_info"][0]["box"] == pytest.approx([0.0, model.box], abs=TOL)
            self.check_probabilities(model, body["sampling_probabilities"], body["batch_composition"])


# ================================================================================ the tests


def test_group_sampler_against_its_model(client, sessions):
    run_state_machine_as_test(lambda: GroupSamplerMachine(client, sessions), settings=SETTINGS)


def test_batch_scheduler_against_its_model(client, sessions):
    run_state_machine_as_test(lambda: BatchSchedulerMachine(client, sessions), settings=SETTINGS)


def test_the_scheduler_model_by_hand():
    """The reference update on numbers worked by hand (no service involved)."""
    # m = (30, 30, 20, 20) for (0,m) (0,f) (1,m) (1,f): p = (0.3, 0.3, 0.2, 0.2), λ = p(1,m) = 0.2 in [0, 0.4].
    model = SchedulerModel("s", [0, 1], ["m", "f"], [30, 30, 20, 20], 0.005, 10, [0.3, 0.3, 0.2, 0.2], positive=1)
    assert model.box == 0.4
    # L(1,m) = 0.5 > L(1,f) = 0.2: e = 0.3, so 0.005 moves from (1,f) to (1,m); L_+ = (20·0.5 + 20·0.2)/40 = 0.35,
    # so the disparity is |0.5 - 0.35| = 0.15.
    out = model.step_epoch([0.3, 0.3, 0.5, 0.2])
    assert out == {"disparity": pytest.approx(0.15), "pair_disparities": [pytest.approx(0.3)], "moved": 0}
    assert model.probabilities == pytest.approx([0.3, 0.3, 0.205, 0.195], abs=TOL)
    # Equal losses move nothing.
    assert model.step_epoch([0.1, 0.9, 0.4, 0.4])["moved"] is None and model.lam == pytest.approx(0.205, abs=TOL)
    # A step of 0.5 is cut to the 0.195 that (1,f) holds: λ reaches c = 0.4, and the next push moves nothing.
    model.step = 0.5
    assert model.step_epoch([0.0, 0.0, 1.0, 0.0])["moved"] == 0
    assert model.probabilities == pytest.approx([0.3, 0.3, 0.4, 0.0], abs=TOL)
    assert model.step_epoch([0.0, 0.0, 1.0, 0.0])["moved"] is None
    # e < 0 moves mass back toward (1,f).
    assert model.step_epoch([0.0, 0.0, 0.0, 1.0])["pair_disparities"] == [-1.0]
    assert model.probabilities == pytest.approx([0.3, 0.3, 0.0, 0.4], abs=TOL)


def test_the_sampler_model_by_hand():
    """The reference choice of group on the case of tests/api/test_group_samplers.py, worked by hand."""
    model = SamplerModel("s", ["a", "b", "c"], "aopt", 100, 1, [25, 9, 16], [0.30, 0.29, 0.27], round=3, spent=50)
    # t = 50 + 1, sqrt(51) = 7.14 <= min N = 9: no forced exploration. UCB a = 0.30 + 0.1/5 = 0.32,
    # b = 0.29 + 0.1/3 = 0.3233, c = 0.27 + 0.1/4 = 0.295: b.
    assert model.expected_choice() == ("b", "ucb")
    model.counts = [25, 5, 16]  # min N = 5 < sqrt(46 + 1) = 6.86: b is forced
    assert model.expected_choice() == ("b", "forced_exploration")
    model.strategy = "greedy"  # the largest loss: a
    assert model.expected_choice() == ("a", "greedy")
    model.strategy, model.counts = "uniform", [25, 9, 9]  # the fewest samples, ties to the lowest index: b
    assert model.expected_choice() == ("b", "uniform")
    model.round = 1  # round 2 of the warm-up: round-robin
    assert model.expected_choice() == ("b", "warmup")


def test_the_sampler_model_with_pending_decisions_by_hand():
    """Pending decisions in the reference model, worked by hand."""
    # Uniform over a, b, c, d, batch 1, eight decisions before any report: warm-up rounds 1-4 skip the
    # groups a pending decision covers (a, b, c, d in turn), then the fewest N + P: each group twice.
    model = SamplerModel("s", ["a", "b", "c", "d"], "uniform", 100, 1, [0, 0, 0, 0], [None] * 4)
    chosen = []
    for k in range(8):
        group, _ = model.expected_choice()
        chosen.append(group)
        model.pending[f"d{k}"] = (model.groups.index(group), 1)
    assert chosen == ["a", "b", "c", "d", "a", "b", "c", "d"]
    assert model.held == [2, 2, 2, 2] and model.remaining == 92
    # Aopt with N = (25, 9, 16), t = 51: no forced exploration; UCB picks b (test_the_sampler_model_by_hand).
    # A pending decision holding 7 samples of b makes N + P = (25, 16, 16): UCB b = 0.29 + 0.1/4 = 0.315 and
    # c = 0.27 + 0.1/4 = 0.295 against a = 0.30 + 0.1/5 = 0.32: a.
    model = SamplerModel("s", ["a", "b", "c"], "aopt", 100, 1, [25, 9, 16], [0.30, 0.29, 0.27], round=3, spent=50)
    model.pending["d"] = (1, 7)
    assert model.expected_choice() == ("a", "ucb") and model.remaining == 43
