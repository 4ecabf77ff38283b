"""Batch scheduler use cases: create, report an epoch (counted once), read."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms import fairbatch
from service.batch_schedulers.repository import repository
from service.batch_schedulers.schemas import BatchSchedulerCreate, BatchSchedulerOut, EpochReport
from service.pages import readable
from service.sessions.lifecycle import READY, new_seed
from service.sessions.models import SessionRecord
from service.sessions.repository import Entry
from service.sessions.service import Step, algorithm_errors, report_once

__all__ = ["create_scheduler", "report_epoch", "scheduler_out"]


# λ history kept in the JSON state: only the last row, so an epoch call stays O(cells)
# however long training runs. The full history is the decision log's epoch entries.
STATE_HISTORY_ROWS = 1


def _state_json(state: fairbatch.FairBatchState) -> dict[str, Any]:
    data = state.to_dict()
    data["history"] = {k: np.asarray(v)[-STATE_HISTORY_ROWS:].tolist() for k, v in data["history"].items()}
    return data


def _epoch_json(result: fairbatch.EpochResult) -> dict[str, Any]:
    """``POST /v1/batch-schedulers/{id}/epochs``'s answer: disparities, λ, and each cell's probability and count."""
    cells = result.cells
    return {"epoch": result.epoch, "disparity": result.disparity, "max_pair_disparity": result.max_pair_disparity,
            "pair_disparities": list(result.pair_disparities), "moved": result.moved, "lambdas": list(result.lambdas),
            "sampling_probabilities": [{"label": y, "group": z, "probability": p}
                                       for (y, z), p in zip(cells, result.sampling_probabilities, strict=True)],
            "batch_composition": [{"label": y, "group": z, "count": n}
                                  for (y, z), n in zip(cells, result.batch_composition, strict=True)]}


def _load(record: SessionRecord) -> fairbatch.FairBatchState:
    return fairbatch.FairBatchState.from_dict(record.state)


def create_scheduler(db: Session, tenant_id: uuid.UUID, payload: BatchSchedulerCreate) -> SessionRecord:
    counts: dict[tuple[Any, Any], int] = {}
    for cell in payload.counts:
        counts[(cell.label, cell.group)] = counts.get((cell.label, cell.group), 0) + cell.count
    with algorithm_errors():
        state = fairbatch.init_state(
            payload.metric, payload.labels, payload.groups, counts, batch_size=payload.batch_size,
            step_size=payload.step_size, threshold=payload.threshold, positive_label=payload.positive_label,
        )
    config = payload.model_dump(mode="json", exclude={"counts", "seed"})
    repo = repository(db, tenant_id)
    record = repo.create(config=config, state=_state_json(state), seed=new_seed(payload.seed), status=READY,
                         name=payload.name)
    out = scheduler_out(record)
    repo.record(record, log=Entry("create", record.config, {
        "lambdas": out.lambdas, "sampling_probabilities": [p.model_dump() for p in out.sampling_probabilities]}))
    return record


def report_epoch(db: Session, tenant_id: uuid.UUID, scheduler_id: uuid.UUID, payload: EpochReport,
                 if_match: str | None) -> tuple[dict[str, Any], SessionRecord, bool]:
    """Apply one epoch's losses; a repeated epoch number gets its first result back."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(scheduler_id, if_match)
    state = readable(record, "batch scheduler", lambda: _load(record))
    request = payload.model_dump(mode="json")

    def apply() -> Step:
        losses = {(cell.label, cell.group): cell.loss for cell in payload.losses}
        with algorithm_errors():
            new_state, result = fairbatch.epoch_step(state, losses, payload.epoch)
        return Step(_epoch_json(result), state=_state_json(new_state))

    # Epochs count up: one after the state's last cannot have been logged yet.
    response, replayed = report_once(repo, record, f"epoch:{payload.epoch}", request, apply, "epoch",
                                     may_be_logged=payload.epoch <= state.epoch)
    return response, record, replayed


def epoch_history(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> list[dict[str, Any]]:
    """Every applied epoch's disparity and λ, in order, from the decision log."""
    repo = repository(db, tenant_id)
    rows: list[dict[str, Any]] = []
    after = 0
    while True:
        page = repo.decisions(record, 1000, after, kind="epoch")
        rows += [{"epoch": d.response["epoch"], "disparity": d.response["disparity"],
                  "lambdas": d.response["lambdas"]} for d in page]
        if len(page) < 1000:
            return rows
        after = page[-1].sequence


def scheduler_out(record: SessionRecord, history: list[dict[str, Any]] | None = None) -> BatchSchedulerOut:
    """The scheduler as the API shows it; ``history`` is left empty unless given."""
    state = _load(record)
    composition = fairbatch.largest_remainder(np.asarray(state.probabilities), state.batch_size)
    cells = state.cells
    return BatchSchedulerOut(
        id=record.id, name=record.name, metric=state.metric, labels=list(state.labels),
        groups=list(state.groups), positive_label=state.labels[state.positive], step_size=state.step_size,
        batch_size=state.batch_size, threshold=state.threshold, epoch=state.epoch,
        lambdas=list(state.lambdas), lambda_info=state.describe_lambdas(),
        sampling_probabilities=[{"label": y, "group": z, "probability": p}
                                for (y, z), p in zip(cells, state.probabilities, strict=True)],
        batch_composition=[{"label": y, "group": z, "count": int(n)}
                           for (y, z), n in zip(cells, composition, strict=True)],
        history=history or [],
        status=record.status, version=record.version, seed=record.seed,
        created_at=record.created_at,
    )
