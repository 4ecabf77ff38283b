"""A balanced filter: group shares before and after filtering, P(group | leaf), and the realized balance."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.balanced_filters.models import KIND
from service.balanced_filters.schemas import OutcomeResult
from service.balanced_filters.service import filter_out
from service.balanced_filters.state import load
from service.sessions.models import SessionRecord
from service.ui.charts import Figure, Slot, bars, empty, figure, heatmap, lines
from service.ui.views.base import Fact, View, count, number, plotted_entries

__all__ = ["VIEW"]

SHARES, MATRIX, REALIZED = "shares", "matrix", "realized"
SLOTS = (
    Slot(SHARES, "Group shares before and after filtering", "Each group's share of the training data (before), "
         "the expected share among accepted candidates (after), the target U, and the share among reported "
         "outcomes (realized)."),
    Slot(MATRIX, "Conditional matrix P(group | leaf)", "A heatmap of the proxy's conditional matrix A: for each "
         "leaf, the share of its training points in each group."),
    Slot(REALIZED, "Realized balance as outcomes are reported", "Each group's share among the accepted candidates "
         "whose group was reported, against the number of outcomes counted."),
)


def spent(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> str:
    _, state = load(record)
    if state.counts is None:
        return "no budget; not fitted yet"
    return f"no budget; {count(state.counts.accepted, state.counts.total)} accepted"


def facts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> list[Fact]:
    out = filter_out(db, tenant_id, record, include_tree=False)
    found = [Fact("Groups", ", ".join(out.group_names)), Fact("Proxy", out.proxy.type)]
    if out.decisions is not None:
        found += [
            Fact("Disclosivity", number(out.disclosivity)),
            Fact("Imbalance (expected)", number(out.imbalance)),
            Fact("Acceptance rate", number(out.acceptance_rate)),
            Fact("Candidates accepted", count(out.decisions.accepted, out.decisions.total)),
            Fact("Outcomes reported", count(out.realized.outcomes if out.realized else 0)),
            Fact("Imbalance (realized)", number(out.realized.imbalance if out.realized else None)),
        ]
    return found


def charts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> dict[str, Figure]:
    out = filter_out(db, tenant_id, record, include_tree=False)
    if out.conditional_matrix is None or out.base_rates is None or out.accepted_distribution is None:
        waiting = empty("The proxy is not fitted yet")
        return {SHARES: waiting, MATRIX: waiting, REALIZED: waiting}
    names = out.group_names
    shares = [bars("training (before)", names, out.base_rates, 0),
              bars("accepted, expected (after)", names, out.accepted_distribution, 1),
              bars("target U", names, [out.target[g] for g in names], 2)]
    if out.realized is not None:
        shares.append(bars("realized (reported outcomes)", names, [out.realized.group_shares.get(g) for g in names],
                           3))
    leaves = [f"leaf {j}" for j in range(len(out.conditional_matrix))]
    return {
        SHARES: figure(shares, "group", "share", barmode="group"),
        MATRIX: figure([heatmap(out.conditional_matrix, names, leaves, "P(group | leaf)")], "group", "leaf",
                       yaxis={"title": {"text": "leaf"}, "automargin": True, "autorange": "reversed"}),
        REALIZED: _realized(db, record, names),
    }


def _realized(db: Session, record: SessionRecord, names: list[str]) -> Figure:
    outcomes: list[int] = []
    shares: dict[str, list[float | None]] = {g: [] for g in names}
    for entry in plotted_entries(db, record, "outcomes"):
        realized = OutcomeResult.model_validate(entry.response).realized
        outcomes.append(realized.outcomes)
        for g in names:
            shares[g].append(realized.group_shares.get(g))
    if not outcomes:
        return empty("No outcome reported yet")
    return figure([lines(g, outcomes, shares[g], k) for k, g in enumerate(names)], "outcomes counted", "share",
                  yaxis={"title": {"text": "share"}, "range": [0, 1], "gridcolor": "#e5e5e5"})


VIEW = View(kind=KIND, segment="balanced-filters", noun="balanced filter", work="fit", slots=SLOTS, spent=spent,
            facts=facts, charts=charts)
