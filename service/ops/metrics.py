"""Prometheus metrics: request latency, decisions by kind, jobs by status and their durations.

Job figures come from the database at scrape time, since jobs run in other
processes (possibly on other machines): counts by status from ``jobs``, durations
from ``job_duration_stats``, which only grows, so ``rate()`` over it is right.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from service.jobs.models import DURATION_BUCKETS, JOB_STATUSES, Job, JobDurationStats

__all__ = ["DECISIONS", "REGISTRY", "REQUEST_LATENCY", "JobCollector"]

REGISTRY = CollectorRegistry(auto_describe=True)
REQUEST_LATENCY = Histogram(
    "fairacq_request_duration_seconds", "HTTP request latency by route template",
    ["method", "route", "status"], registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
DECISIONS = Counter("fairacq_decisions", "Decisions made, by kind", ["kind"], registry=REGISTRY)
class JobCollector:
    """Reads job counts and the cumulative job-duration histogram from the database at scrape time."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[Metric]:
        counts = GaugeMetricFamily("fairacq_jobs", "Jobs by status", labels=["status"])
        durations = HistogramMetricFamily(
            "fairacq_job_duration_seconds", "Run time of finished jobs (start to end, over attempts)",
            labels=["kind"],
        )
        try:
            with Session(self.engine) as db:
                by_status = dict(db.execute(select(Job.status, func.count()).group_by(Job.status)).all())
                stats = list(db.scalars(select(JobDurationStats).order_by(JobDurationStats.kind)))
        except Exception:  # noqa: BLE001 - a scrape must not fail because the database is down
            return
        for status in JOB_STATUSES:
            counts.add_metric([status], by_status.get(status, 0))
        yield counts
        for row in stats:
            buckets = [(str(bound), getattr(row, f"le_{i}")) for i, bound in enumerate(DURATION_BUCKETS)]
            buckets.append(("+Inf", row.count))
            durations.add_metric([row.kind], buckets, row.sum_seconds)
        yield durations
