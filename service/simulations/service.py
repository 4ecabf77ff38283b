"""Simulation use cases: create (check, copy the data, queue the run), read, and the replay's inputs."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.adaptive_sampling import SamplerConfig
from service.algorithms.validation import InputError
from service.datasets.service import DatasetArrays, build_table, load_arrays
from service.errors import InvalidInput
from service.pages import readable
from service.sessions.lifecycle import new_seed, shown_status, start_job
from service.sessions.models import SessionRecord
from service.sessions.repository import Entry, SessionRepository
from service.settings import Settings
from service.simulations.models import DATA_BLOB, KIND
from service.simulations.replay import Problem, curve_points
from service.simulations.schemas import SimulationCreate, SimulationOut

__all__ = ["NOUN", "RUN_JOB", "create_simulation", "problem", "repository", "simulation_out"]

NOUN = "simulation"
RUN_JOB = "simulations.run"
SUPPORTED = ("group_sampler",)
# A group needs rows in both the pool and the test set of every repetition.
MIN_GROUP_ROWS = 4
# Sampler rounds in one simulation (policies × repetitions × budget / batch): about an hour
# of worker time at 3 ms a refit, so one request cannot occupy the pool for days.
MAX_ROUNDS = 1_000_000


def repository(db: Session, tenant_id: uuid.UUID) -> SessionRepository:
    return SessionRepository(db, tenant_id, KIND)


def _table(db: Session, tenant_id: uuid.UUID, settings: Settings, payload: SimulationCreate) -> DatasetArrays:
    if (payload.dataset_id is None) == (payload.data is None):
        raise InvalidInput("send either dataset_id or data (the table inline), not both and not neither", ["body"])
    if payload.data is not None:
        data = payload.data
        return build_table(data.features, data.groups, data.labels, None, settings, loc=("body", "data"))
    assert payload.dataset_id is not None
    table = load_arrays(db, tenant_id, payload.dataset_id)
    if table.group_codes is None or table.labels is None:
        raise InvalidInput(f"dataset {payload.dataset_id} needs groups and labels to be replayed",
                           ["body", "dataset_id"])
    return table


def _check(table: DatasetArrays, payload: SimulationCreate) -> list[str]:
    """The group names, after checking labels, group sizes, policies and the amount of work."""
    assert table.labels is not None and table.group_codes is not None and table.group_values is not None
    where = ["body", "data" if payload.data is not None else "dataset_id"]
    if not np.isin(table.labels, (0.0, 1.0)).all():
        raise InvalidInput("labels must be 0 or 1: the simulated models are binary classifiers", [*where, "labels"])
    groups = [str(v) for v in table.group_values]
    if len(groups) < 2:
        raise InvalidInput("the table has one group; a group sampler chooses among at least 2", [*where, "groups"])
    sizes = np.bincount(table.group_codes, minlength=len(groups))
    small = [g for g, n in zip(groups, sizes, strict=True) if n < MIN_GROUP_ROWS]
    if small:
        raise InvalidInput(f"groups {small} have fewer than {MIN_GROUP_ROWS} rows; each needs rows to acquire "
                           "and rows to score on", [*where, "groups"])
    names = [p.name or p.strategy for p in payload.policies]
    if len(set(names)) != len(names):
        raise InvalidInput("policies need distinct names: give each a name when two share a strategy",
                           ["body", "policies"])
    rounds = 0
    for k, spec in enumerate(payload.policies):
        try:
            SamplerConfig(groups=tuple(groups), budget=payload.budget, **_policy(spec.model_dump(), payload.loss))
        except InputError as exc:
            raise InvalidInput(str(exc), ["body", "policies", k]) from None
        rounds += payload.repetitions * -(-payload.budget // spec.batch_size)
    if rounds > MAX_ROUNDS:
        raise InvalidInput(f"{rounds} sampler rounds (policies × repetitions × budget / batch_size) exceed the "
                           f"limit of {MAX_ROUNDS}; run fewer repetitions or a smaller budget", ["body"])
    return groups


def _policy(spec: dict[str, Any], loss: str) -> dict[str, Any]:
    """A stored policy as ``SamplerConfig`` fields (besides groups and budget)."""
    fields = {k: spec[k] for k in ("strategy", "c0", "c1", "epsilon", "xi", "batch_size")}
    return {**fields, "loss": loss}


def create_simulation(db: Session, tenant_id: uuid.UUID, settings: Settings,
                      payload: SimulationCreate) -> SessionRecord:
    if payload.decision_type not in SUPPORTED:
        raise InvalidInput(f"decision_type {payload.decision_type!r} cannot be simulated yet; supported: "
                           f"{list(SUPPORTED)}", ["body", "decision_type"])
    table = _table(db, tenant_id, settings, payload)
    groups = _check(table, payload)
    config = payload.model_dump(mode="json", exclude={"data", "seed"})
    config["groups"] = groups
    config["policies"] = [{**p, "name": p["name"] or p["strategy"]} for p in config["policies"]]
    config["points"] = list(curve_points(payload.budget, payload.curve_points))
    config["n_rows"] = table.n_rows
    repo = repository(db, tenant_id)
    record = repo.create(config=config, state={}, seed=new_seed(payload.seed), status="pending", name=payload.name)
    assert table.labels is not None and table.group_codes is not None
    repo.put_blob(record, DATA_BLOB, {"features": table.features, "labels": table.labels,
                                      "group_codes": table.group_codes.astype(np.int32)})
    job = start_job(db, settings, record, RUN_JOB)
    repo.record(record, log=Entry("create", config, {"job_id": str(job.id)}))
    return record


def problem(record: SessionRecord, data: dict[str, np.ndarray]) -> Problem:
    """The replay's inputs from a stored simulation and its data blob."""
    config = record.config
    policies = tuple(_policy(p, config["loss"]) for p in config["policies"])
    return Problem(X=data["features"], y=data["labels"].astype(float), group=data["group_codes"].astype(int),
                   groups=tuple(config["groups"]), policies=policies, budget=int(config["budget"]),
                   points=tuple(config["points"]), model=config["model"],
                   test_fraction=float(config["test_fraction"]), seed=int(record.seed))


def simulation_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> SimulationOut:
    def render() -> SimulationOut:
        shown = shown_status(db, tenant_id, record, "simulation")
        return SimulationOut(id=record.id, name=record.name, status=shown.status, progress=shown.progress,
                             error=shown.error, job_id=record.job_id, decision_type=record.config["decision_type"],
                             config=record.config, seed=record.seed, results=record.state.get("results"),
                             created_at=record.created_at)

    return readable(record, NOUN, render)
