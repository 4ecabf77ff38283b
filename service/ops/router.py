"""``/healthz``, ``/readyz`` and ``/metrics``: open without an API key."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from service.errors import problem_response
from service.migrations import current_revision, head_revision
from service.ops.metrics import REGISTRY

router = APIRouter(tags=["operations"])
# Embedded mode is not ready when no worker has polled or renewed a lease for this many heartbeats.
WORKER_STALE_BEATS = 3


@router.get("/healthz", operation_id="health")
def health() -> dict[str, str]:
    """The process is alive."""
    return {"status": "ok"}


@router.get("/readyz", operation_id="ready", responses={503: {"description": "not ready"}})
def ready(request: Request):
    """The database is reachable and migrated to head."""
    engine = request.app.state.engine
    head = head_revision()
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            current = current_revision(connection)
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        return problem_response(503, "Service unavailable", f"database not reachable: {type(exc).__name__}",
                                slug="unavailable")
    if current != head:
        return problem_response(
            503, "Service unavailable",
            f"database is at migration {current}, head is {head}: run `fairacq migrate`",
            slug="unavailable",
        )
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


@router.get("/metrics", operation_id="metrics", response_class=Response)
def metrics() -> Response:
    """Prometheus metrics."""
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
