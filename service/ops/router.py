"""``/healthz``, ``/readyz`` and ``/metrics``: open without an API key."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from service.errors import problem_response
from service.migrations import current_revision, head_revision
from service.ops.metrics import REGISTRY

router = APIRouter(tags=["operations"])


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
            f"database is at migration {current}, head is {head}: run `python -m service migrate`",
            slug="unavailable",
        )
    return {"status": "ready", "migration": current}


@router.get("/metrics", operation_id="metrics", response_class=Response)
def metrics() -> Response:
    """Prometheus metrics."""
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
