"""Logging: one JSON object a line (default) or plain text, with the request's id in every line.

``REQUEST_ID`` holds the id of the request being served (set by
``service.middleware.RequestContext``) or of the request that queued the job a
worker runs; every record logged meanwhile carries it as ``request_id``. A record's
``extra={"fields": {...}}`` adds its own keys (the access log's route, status,
tenant and duration).
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

__all__ = ["JOB_ID", "REQUEST_ID", "JsonFormatter", "configure_logging"]

REQUEST_ID: ContextVar[str | None] = ContextVar("fairacq_request_id", default=None)
JOB_ID: ContextVar[str | None] = ContextVar("fairacq_job_id", default=None)
TEXT_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


class _ContextFilter(logging.Filter):
    """Stamp each record with the request and job it belongs to."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.job_id = JOB_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key in ("request_id", "job_id"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure_logging(fmt: str = "json", level: int = logging.INFO) -> None:
    """Send every logger's records to stderr in ``fmt`` ("json" or "text")."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(_ContextFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    logging.getLogger("alembic").setLevel(logging.WARNING)
