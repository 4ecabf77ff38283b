"""``/healthz``, ``/readyz`` and ``/metrics``: open without an API key."""

from __future__ import annotations

import hmac
import shutil
from pathlib import Path

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from service.errors import is_disk_full, problem_response
from service.migrations import current_revision, head_revision
from service.ops.metrics import REGISTRY

router = APIRouter(tags=["operations"])
# Embedded mode is not ready when no worker has polled or renewed a lease for this many heartbeats.
WORKER_STALE_BEATS = 3
# SQLite: not ready when the database's file system has less free space than this.
DISK_FREE_MIN_BYTES = 64 * 1024**2


def _sqlite_free_bytes(url: str) -> int | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    try:
        return shutil.disk_usage(Path(parsed.database).resolve().parent).free
    except OSError:
        return None


@router.get("/healthz", operation_id="health")
def health() -> dict[str, str]:
    """The process is alive."""
    return {"status": "ok"}


@router.get("/readyz", operation_id="ready", response_model=None, responses={503: {"description": "not ready"}})
def ready(request: Request) -> Response | dict[str, str | None]:
    """The database is reachable and migrated to head."""
    engine = request.app.state.engine
    head = head_revision()
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            current = current_revision(connection)
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        reason = "its disk is full" if is_disk_full(exc) else f"not reachable ({type(exc).__name__})"
        return problem_response(503, "Service unavailable", f"database {reason}", slug="unavailable")
    if current != head:
        return problem_response(
            503, "Service unavailable",
            f"database is at migration {current}, head is {head}: run `fairacq migrate`",
            slug="unavailable",
        )
    free = _sqlite_free_bytes(request.app.state.settings.database_url)
    if free is not None and free < DISK_FREE_MIN_BYTES:
        return problem_response(
            503, "Service unavailable",
            f"the database's disk has {free // 1024**2} MiB free, under {DISK_FREE_MIN_BYTES // 1024**2} MiB: "
            "writes would fail; free space on it", slug="unavailable")
    supervisor = getattr(request.app.state, "supervisor", None)
    if supervisor is not None:  # embedded mode: this process's workers must be polling
        settings = request.app.state.settings
        stale_after = WORKER_STALE_BEATS * settings.job_heartbeat_seconds + settings.job_poll_seconds
        quiet = supervisor.seconds_since_seen()
        if quiet > stale_after:
            return problem_response(
                503, "Service unavailable",
                f"no worker process has polled for jobs in the last {stale_after:.0f} s "
                f"(last seen {quiet:.0f} s ago): jobs would not run; see the server's log",
                slug="unavailable",
            )
    return {"status": "ready", "migration": current}


@router.get("/metrics", operation_id="metrics", response_class=Response,
            responses={401: {"description": "FAIRACQ_METRICS_TOKEN is set and was not sent"}})
def metrics(request: Request) -> Response:
    """Prometheus metrics (with ``FAIRACQ_METRICS_TOKEN`` set, only for ``Authorization: Bearer <token>``)."""
    token = request.app.state.settings.metrics_token
    if token is not None:
        sent = request.headers.get("authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token.get_secret_value()}".encode()):
            return problem_response(401, "Unauthorized", "send 'Authorization: Bearer <FAIRACQ_METRICS_TOKEN>'",
                                    slug="unauthorized")
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
