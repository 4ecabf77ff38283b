"""Imports every table so ``Base.metadata`` is complete (Alembic and tests use it)."""

from service.auth import ApiKey, Tenant
from service.datasets.models import Dataset
from service.db import Base
from service.exports.models import Export, ExportChunk
from service.idempotency import IdempotencyRecord
from service.jobs.models import Job, JobDurationStats
from service.resources import load_models
from service.sessions.models import Decision, SessionBlob, SessionDataset, SessionRecord
from service.sessions.pending import PendingDecision
from service.ui.models import UiSession  # noqa: F401  (the dashboard's logins)
from service.webhooks.models import WebhookDelivery, WebhookSubscription

__all__ = [
    "ApiKey", "Base", "Dataset", "Decision", "Export", "ExportChunk", "IdempotencyRecord", "Job", "JobDurationStats",
    "PendingDecision", "SessionBlob", "SessionDataset", "SessionRecord", "Tenant", "WebhookDelivery",
    "WebhookSubscription",
]

load_models()
