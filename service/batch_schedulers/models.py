"""Batch schedulers keep their state in the shared ``sessions`` table (kind ``batch_scheduler``)."""

from service.sessions.models import SessionRecord

__all__ = ["KIND", "SessionRecord"]

KIND = "batch_scheduler"
