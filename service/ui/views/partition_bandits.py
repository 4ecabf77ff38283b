"""A partition bandit: fairness against points acquired (accepted and rejected batches), pulls and rewards."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.partition_bandits.models import KIND
from service.partition_bandits.schemas import FeedbackReport, FeedbackResult
from service.partition_bandits.service import bandit_out
from service.partition_bandits.state import load
from service.sessions.models import SessionRecord
from service.ui.charts import Figure, Slot, bars, empty, figure, lines, markers
from service.ui.views.base import Fact, View, count, number, plotted_entries

__all__ = ["VIEW"]

FAIRNESS, PARTITIONS = "fairness", "partitions"
SLOTS = (
    Slot(FAIRNESS, "Fairness against points acquired", "The fairness measure F reported after each batch, "
         "accepted batches and rejected ones apart, and the best F kept so far, against the points acquired."),
    Slot(PARTITIONS, "Pulls and mean reward per partition", "How many times each partition was chosen (bars, "
         "left axis) and the mean reward R_j credited to it (diamonds, right axis)."),
)


def spent(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> str:
    config, state = load(record)
    used = 0 if state.bandit is None else state.bandit.budget_spent
    return count(used, config.bandit.budget)


def facts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> list[Fact]:
    out = bandit_out(db, tenant_id, record)
    found = [
        Fact("Metric", f"{out.metric}, reward {out.reward}"),
        Fact("Batches evaluated", count(out.evaluations)),
        Fact("Accepted batches", count(out.accepted_batches, out.evaluations)),
        Fact("Budget spent", count(out.budget_spent, out.budget)),
        Fact("Best fairness", number(out.best_fairness)),
        Fact("Partitions", count(len(out.partitions))),
    ]
    if out.stop_reason:
        found.append(Fact("Stopped", out.stop_reason))
    return found


def charts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> dict[str, Figure]:
    config, state = load(record)
    if state.bandit is None:
        waiting = empty("The pool is being partitioned")
        return {FAIRNESS: waiting, PARTITIONS: waiting}
    budget = config.bandit.budget
    best: tuple[list[int], list[float]] = ([], [])
    accepted: tuple[list[int], list[float]] = ([], [])
    rejected: tuple[list[int], list[float]] = ([], [])
    for entry in plotted_entries(db, record, "feedback"):
        result = FeedbackResult.model_validate(entry.response)
        report = FeedbackReport.model_validate(entry.request)
        points = budget - result.budget_remaining
        side = accepted if result.accepted else rejected
        side[0].append(points)
        side[1].append(report.fairness_after)
        best[0].append(points)
        best[1].append(result.best_fairness)
    out = bandit_out(db, tenant_id, record)
    ids = [p.id for p in out.partitions]
    partitions = figure(
        [bars("pulls n_j", ids, [p.pulls for p in out.partitions], 0),
         markers("mean reward R_j", ids, [p.reward for p in out.partitions], 1, symbol="diamond")
         | {"yaxis": "y2"}],
        "partition", "pulls", yaxis2={"title": {"text": "mean reward R_j"}, "overlaying": "y", "side": "right",
                                      "automargin": True, "zeroline": False})
    if not best[0]:
        return {FAIRNESS: empty("No feedback reported yet"), PARTITIONS: partitions}
    fairness = figure([lines("best F so far", best[0], best[1], 0),
                       markers("accepted batch", accepted[0], accepted[1], 2, symbol="circle"),
                       markers("rejected batch", rejected[0], rejected[1], 3, symbol="x")],
                      "points acquired", "fairness F")
    return {FAIRNESS: fairness, PARTITIONS: partitions}


VIEW = View(kind=KIND, segment="partition-bandits", noun="partition bandit", work="partitioning", slots=SLOTS,
            spent=spent, facts=facts, charts=charts)
