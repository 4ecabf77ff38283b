"""A fair regression: the Pareto frontier of a sweep (training loss against disparity) and group losses."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.fair_regressions.models import KIND
from service.fair_regressions.service import regression_out
from service.fair_regressions.state import load
from service.sessions.models import SessionRecord
from service.ui.charts import Figure, Slot, bars, empty, figure, lines, markers
from service.ui.views.base import Fact, View, count, number

__all__ = ["VIEW"]

FRONTIER, GROUP_LOSSES = "frontier", "group_losses"
SLOTS = (
    Slot(FRONTIER, "Pareto frontier", "Training loss against disparity: the frontier of a sweep of slacks "
         "(line), and the fit of every slack (points)."),
    Slot(GROUP_LOSSES, "Group losses", "Each group's mean training loss: per slack for a sweep, else for the "
         "one fit."),
)


def spent(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> str:
    _, state = load(record)
    fitted = 0 if state.fit is None else len(state.fit.results)
    return f"no budget; {count(fitted)} fitted"


def facts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> list[Fact]:
    out, (config, _) = regression_out(db, tenant_id, record), load(record)
    found = [Fact("Constraint", config.constraint.type.replace("_", " ")), Fact("Loss", out.loss),
             Fact("Training rows", count(out.n_rows)), Fact("Groups", ", ".join(out.groups))]
    if out.result is not None:
        found += [Fact("Training loss", number(out.result.train_loss)),
                  Fact("Disparity", number(out.result.disparity)),
                  Fact("Feasible", "yes" if out.result.feasible else "no"),
                  Fact("Fits", count(len(out.results) if out.results else 1))]
    if out.error:
        found.append(Fact("Error", out.error))
    return found


def charts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> dict[str, Figure]:
    out = regression_out(db, tenant_id, record)
    if out.result is None:
        waiting = empty(f"The fit is {out.status}")
        return {FRONTIER: waiting, GROUP_LOSSES: waiting}
    results = out.results or [out.result]
    fits = markers("fit of each slack" if out.results else "the fit", [r.disparity for r in results],
                   [r.train_loss for r in results], 1, text=[f"slack {r.slack}" for r in results])
    frontier = out.result.frontier
    data = [fits] if not frontier else [
        lines("Pareto frontier", [p.disparity for p in frontier], [p.loss for p in frontier], 0), fits]
    groups = out.groups
    if out.results:
        slacks = [r.slack for r in out.results]
        losses = figure([lines(g, slacks, [r.group_losses.get(g) for r in out.results], k)
                         for k, g in enumerate(groups)], "slack", "mean loss")
    else:
        losses = figure([bars("mean loss", groups, [out.result.group_losses.get(g) for g in groups], 0)],
                        "group", "mean loss")
    return {FRONTIER: figure(data, "disparity", "training loss"), GROUP_LOSSES: losses}


VIEW = View(kind=KIND, segment="fair-regressions", noun="fair regression", work="fit", slots=SLOTS, spent=spent,
            facts=facts, charts=charts)
