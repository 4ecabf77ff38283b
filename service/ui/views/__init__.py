"""What the dashboard shows of each decision type: one module per type, one :class:`View` each.

A view reads a session through its resource's own loaders (``state.load``, the
service's ``*_out``) and its decision log through :mod:`service.ui.repository`:

    spent(db, tenant_id, record)   the home page's "budget spent" cell
    facts(db, tenant_id, record)   the session page's headline numbers (cheap: drawn with the page)
    charts(db, tenant_id, record)  each chart slot's figure (the page fetches them, and again as they change)
"""

from __future__ import annotations

from service.ui.views import balanced_filters, batch_schedulers, fair_regressions, group_samplers, partition_bandits
from service.ui.views.base import Fact, View

__all__ = ["VIEWS", "Fact", "View", "by_segment"]

VIEWS: dict[str, View] = {view.kind: view for view in (
    group_samplers.VIEW, partition_bandits.VIEW, balanced_filters.VIEW, batch_schedulers.VIEW, fair_regressions.VIEW)}


def by_segment(segment: str) -> View | None:
    return next((view for view in VIEWS.values() if view.segment == segment), None)
