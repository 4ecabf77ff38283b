"""Prometheus metrics: request latency, decisions by kind, jobs by status and their durations.

Job figures come from the ``jobs`` table at scrape time, since jobs run in
other processes (possibly on other machines).
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from service.jobs.models import JOB_STATUSES, Job

__all__ = ["DECISIONS", "REGISTRY", "REQUEST_LATENCY", "JobCollector"]

REGISTRY = CollectorRegistry(auto_describe=True)
REQUEST_LATENCY = Histogram(
    "fairacq_request_duration_seconds", "HTTP request latency by route template",
    ["method", "route", "status"], registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
DECISIONS = Counter("fairacq_decisions", "Decisions made, by kind", ["kind"], registry=REGISTRY)
JOB_DURATION_BUCKETS = (0.5, 1, 5, 15, 60, 300, 900, 3600)
# The duration histogram reads this many most recent finished jobs at a scrape.
DURATION_WINDOW = 1000


class JobCollector:
    """Reads job counts and recent job durations from the database at scrape time."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[Metric]:
        counts = GaugeMetricFamily("fairacq_jobs", "Jobs by status", labels=["status"])
        durations = HistogramMetricFamily(
            "fairacq_job_duration_seconds", "Run time of recently finished jobs", labels=["kind"]
        )
        try:
            with Session(self.engine) as db:
                by_status = dict(db.execute(select(Job.status, func.count()).group_by(Job.status)).all())
                recent = db.execute(
                    select(Job.kind, Job.started_at, Job.finished_at)
                    .where(Job.finished_at.is_not(None), Job.started_at.is_not(None))
                    .order_by(Job.finished_at.desc()).limit(DURATION_WINDOW)
                ).all()
        except Exception:  # noqa: BLE001 - a scrape must not fail because the database is down
            return
        for status in JOB_STATUSES:
            counts.add_metric([status], by_status.get(status, 0))
        yield counts
        per_kind: dict[str, list[float]] = {}
        for kind, started, finished in recent:
            per_kind.setdefault(kind, []).append((finished - started).total_seconds())
        for kind, values in per_kind.items():
            buckets = [(str(b), sum(v <= b for v in values)) for b in JOB_DURATION_BUCKETS]
            buckets.append(("+Inf", len(values)))
            durations.add_metric([kind], buckets, sum(values))
        yield durations
