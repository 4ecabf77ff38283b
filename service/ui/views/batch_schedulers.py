"""A batch scheduler: λ per epoch and the disparity the client reported, from the log's epoch entries."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.batch_schedulers.models import KIND
from service.batch_schedulers.schemas import EpochResult
from service.batch_schedulers.service import scheduler_out
from service.sessions.models import SessionRecord
from service.ui.charts import Figure, Slot, empty, figure, lines
from service.ui.views.base import Fact, View, count, number, plotted_entries

__all__ = ["VIEW"]

LAMBDAS, DISPARITY = "lambdas", "disparity"
SLOTS = (
    Slot(LAMBDAS, "λ per epoch", "Each λ of FairBatch, the share of a label's batch given to a group, after "
         "each epoch."),
    Slot(DISPARITY, "Reported disparity per epoch", "The disparity computed from the losses reported for each "
         "epoch: the largest gap of a group against the overall rate."),
)


def spent(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> str:
    return f"no budget; epoch {count(scheduler_out(record).epoch)}"


def facts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> list[Fact]:
    out = scheduler_out(record)
    return [
        Fact("Metric", out.metric),
        Fact("Epochs reported", count(out.epoch)),
        Fact("Batch size", count(out.batch_size)),
        Fact("λ now", ", ".join(number(v) for v in out.lambdas)),
        Fact("Groups", ", ".join(str(g) for g in out.groups)),
        Fact("Labels", ", ".join(str(y) for y in out.labels)),
    ]


def _lambda_names(record: SessionRecord) -> list[str]:
    """λ's legend names: the label it splits and the groups it weighs."""
    info = scheduler_out(record).lambda_info
    return [f"λ{k + 1} (y={i.label}: {' vs '.join(str(g) for g in i.groups)})" for k, i in enumerate(info)]


def charts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> dict[str, Figure]:
    names = _lambda_names(record)
    epochs: list[int] = []
    disparity: list[float | None] = []
    lambdas: list[list[float | None]] = [[] for _ in names]
    for entry in plotted_entries(db, record, "epoch"):
        result = EpochResult.model_validate(entry.response)
        epochs.append(result.epoch)
        disparity.append(result.disparity)
        for k, values in enumerate(lambdas):
            values.append(result.lambdas[k] if k < len(result.lambdas) else None)
    if not epochs:
        nothing = empty("No epoch reported yet")
        return {LAMBDAS: nothing, DISPARITY: nothing}
    return {
        LAMBDAS: figure([lines(name, epochs, lambdas[k], k) for k, name in enumerate(names)], "epoch", "λ"),
        DISPARITY: figure([lines("disparity", epochs, disparity, 3)], "epoch", "disparity"),
    }


VIEW = View(kind=KIND, segment="batch-schedulers", noun="batch scheduler", work="fit", slots=SLOTS, spent=spent,
            facts=facts, charts=charts)
