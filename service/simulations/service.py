"""Simulation use cases: create (check, copy the data, queue the run), read, and the replay's inputs."""

from __future__ import annotations

import uuid

import numpy as np
from sqlalchemy.orm import Session

from service.datasets.service import DatasetArrays, build_table, load_arrays
from service.errors import InvalidInput
from service.pages import readable
from service.sessions.lifecycle import new_seed, shown_status, start_job
from service.sessions.models import SessionRecord
from service.sessions.repository import Entry, SessionRepository
from service.settings import Settings
from service.simulations.checks import check_policies, options, policy_names, sampler_policy
from service.simulations.common import Problem, curve_points
from service.simulations.models import DATA_BLOB, KIND
from service.simulations.schemas import BalancedFilterSimulation, SimulationCreate, SimulationOut

__all__ = ["NOUN", "RUN_JOB", "create_simulation", "problem", "repository", "simulation_out"]

NOUN = "simulation"
RUN_JOB = "simulations.run"
# A group needs rows in both the pool and the test set of every repetition.
MIN_GROUP_ROWS = 4


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
    labels_needed = not isinstance(payload, BalancedFilterSimulation)
    if table.group_codes is None or (labels_needed and table.labels is None):
        raise InvalidInput(f"dataset {payload.dataset_id} needs groups{' and labels' if labels_needed else ''} "
                           "to be replayed", ["body", "dataset_id"])
    return table


def _check(table: DatasetArrays, payload: SimulationCreate) -> tuple[list[str], np.ndarray]:
    """The group names and labels, after checking labels, group sizes, policies and the amount of work."""
    assert table.group_codes is not None and table.group_values is not None
    where = ["body", "data" if payload.data is not None else "dataset_id"]
    labels = table.labels if table.labels is not None else np.zeros(table.n_rows)
    if not np.isin(labels, (0.0, 1.0)).all():
        raise InvalidInput("labels must be 0 or 1: the simulated models are binary classifiers", [*where, "labels"])
    groups = [str(v) for v in table.group_values]
    if len(groups) < 2:
        raise InvalidInput("the table has one group; a simulation compares policies over at least 2",
                           [*where, "groups"])
    sizes = np.bincount(table.group_codes, minlength=len(groups))
    small = [g for g, n in zip(groups, sizes, strict=True) if n < MIN_GROUP_ROWS]
    if small:
        raise InvalidInput(f"groups {small} have fewer than {MIN_GROUP_ROWS} rows; each needs rows to acquire "
                           "and rows to score on", [*where, "groups"])
    check_policies(payload, groups, labels, table.group_codes)
    return groups, labels


def create_simulation(db: Session, tenant_id: uuid.UUID, settings: Settings,
                      payload: SimulationCreate) -> SessionRecord:
    table = _table(db, tenant_id, settings, payload)
    groups, labels = _check(table, payload)
    assert table.group_codes is not None
    config = payload.model_dump(mode="json", exclude={"data", "seed"})
    config["policies"] = policy_names(payload, config["policies"])
    config["groups"] = groups
    config["points"] = list(curve_points(payload.budget, payload.curve_points))
    config["n_rows"] = table.n_rows
    config["group_rows"] = np.bincount(table.group_codes, minlength=len(groups)).tolist()
    repo = repository(db, tenant_id)
    record = repo.create(config=config, state={}, seed=new_seed(payload.seed), status="pending", name=payload.name)
    repo.put_blob(record, DATA_BLOB, {"features": table.features, "labels": labels,
                                      "group_codes": table.group_codes.astype(np.int32)})
    job = start_job(db, settings, record, RUN_JOB)
    repo.record(record, log=Entry("create", config, {"job_id": str(job.id)}))
    return record


def problem(record: SessionRecord, data: dict[str, np.ndarray]) -> Problem:
    """The replay's inputs from a stored simulation and its data blob."""
    config = record.config
    policies = tuple(sampler_policy(p, config["loss"]) if config["decision_type"] == "group_sampler" else p
                     for p in config["policies"])
    return Problem(X=data["features"], y=data["labels"].astype(float), group=data["group_codes"].astype(int),
                   groups=tuple(config["groups"]), policies=policies, budget=int(config["budget"]),
                   points=tuple(config["points"]), model=config.get("model", "logistic_regression"),
                   test_fraction=float(config["test_fraction"]), seed=int(record.seed),
                   decision_type=config["decision_type"], options=options(config))


def simulation_out(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> SimulationOut:
    def render() -> SimulationOut:
        shown = shown_status(db, tenant_id, record, "simulation")
        return SimulationOut(id=record.id, name=record.name, status=shown.status, progress=shown.progress,
                             error=shown.error, job_id=record.job_id, decision_type=record.config["decision_type"],
                             config=record.config, seed=record.seed, results=record.state.get("results"),
                             created_at=record.created_at)

    return readable(record, NOUN, render)
