"""A group sampler: the mixture π_n and each group's reported loss by round, and the last decision's UCB terms."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.group_samplers.models import KIND
from service.group_samplers.schemas import ObservationResult, SamplerNextDecision
from service.group_samplers.service import sampler_out
from service.group_samplers.state import load
from service.sessions.models import SessionRecord
from service.ui import repository
from service.ui.charts import Figure, Slot, bars, empty, figure, lines, markers
from service.ui.views.base import Fact, View, count, number, plotted_entries

__all__ = ["VIEW"]

MIXTURE, LOSSES, UCB = "mixture", "losses", "ucb"
SLOTS = (
    Slot(MIXTURE, "Mixture π by round", "The share of acquired samples from each group after each round."),
    Slot(LOSSES, "Reported loss by round", "Each group's validation loss as reported after each round."),
    Slot(UCB, "UCB terms of the last decision", "For each group, the loss, exploration bonus and trend terms "
         "of the last next decision, stacked, and their sum (the UCB score)."),
)
COMPONENTS = (("loss", "loss L̂"), ("bonus", "bonus"), ("trend", "trend"))


def spent(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> str:
    out = sampler_out(record)
    return count(out.budget - out.budget_remaining, out.budget)


def facts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> list[Fact]:
    out = sampler_out(record)
    return [
        Fact("Strategy", f"{out.strategy} ({out.mode} mode)"),
        Fact("Rounds observed", count(out.round)),
        Fact("Budget spent", count(out.budget - out.budget_remaining, out.budget)),
        Fact("Groups", ", ".join(out.groups)),
        Fact("Mixture π", ", ".join(f"{g}: {number(p)}" for g, p in out.mixture.items())),
        Fact("Latest losses", ", ".join(f"{g}: {number(v)}" for g, v in out.group_losses.items())),
    ]


def charts(db: Session, tenant_id: uuid.UUID, record: SessionRecord) -> dict[str, Figure]:
    groups = list(load(record).sampler.groups)
    rounds: list[int] = []
    mixture: dict[str, list[float | None]] = {g: [] for g in groups}
    losses: dict[str, list[float | None]] = {g: [] for g in groups}
    for entry in plotted_entries(db, record, "observation"):
        point = ObservationResult.model_validate(entry.response)
        rounds.append(point.round)
        for g in groups:
            mixture[g].append(point.mixture.get(g))
            losses[g].append(point.group_losses.get(g))
    out: dict[str, Figure] = {}
    if rounds:
        out[MIXTURE] = figure([lines(g, rounds, mixture[g], k) for k, g in enumerate(groups)], "round", "π(z)",
                              yaxis={"title": {"text": "π(z)"}, "range": [0, 1], "gridcolor": "#e5e5e5"})
        out[LOSSES] = figure([lines(g, rounds, losses[g], k) for k, g in enumerate(groups)], "round", "loss")
    else:
        out[MIXTURE] = out[LOSSES] = empty("No observation reported yet")
    out[UCB] = _ucb(db, record, groups)
    return out


def _ucb(db: Session, record: SessionRecord, groups: list[str]) -> Figure:
    last = repository.last_entry(db, record, "next")
    if last is None:
        return empty("No next decision yet")
    decision = SamplerNextDecision.model_validate(last.response)
    scores = [decision.scores.get(g) for g in groups]
    data = []
    for k, (name, label) in enumerate(COMPONENTS):
        values = [None if s is None else getattr(s, name) for s in scores]
        if any(v is not None for v in values):
            data.append(bars(label, groups, values, k))
    ucb = [None if s is None else s.ucb for s in scores]
    if any(v is not None for v in ucb):
        data.append(markers("UCB (sum)", groups, ucb, 6, symbol="diamond"))
    if not data:
        return empty(f"Round {decision.round}: {decision.note}")
    return figure(data, f"group (round {decision.round}: chose {decision.group}, {decision.reason})", "score",
                  barmode="relative")


VIEW = View(kind=KIND, segment="group-samplers", noun="group sampler", work="fit", slots=SLOTS, spent=spent,
            facts=facts, charts=charts)
