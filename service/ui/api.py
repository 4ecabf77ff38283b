"""The dashboard's data: what its pages poll (JSON), a job's cancel, and a decision log's export.

``GET /ui/api/sessions/{type}/{id}?revision=R`` answers ``{"changed": false}`` while the
session's revision (its log sequence, version, status and job progress) is still R, so a
page polling a quiet session costs one row read; charts are rebuilt only when it moved.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import StreamingResponse

from service.db import transaction
from service.errors import NotFound
from service.jobs.service import cancel_job, job_out
from service.sessions import export
from service.sessions.lifecycle import shown_status
from service.sessions.models import SessionRecord
from service.ui import repository
from service.ui.auth import CSRF_HEADER, check_csrf
from service.ui.http import UiRoute, reader, user_or_401
from service.ui.overview import FINISHED, Filters, overview
from service.ui.views import View, by_segment

__all__ = ["router"]

router = APIRouter(route_class=UiRoute)


def _view(segment: str) -> View:
    view = by_segment(segment)
    if view is None:
        raise NotFound(f"no decision type {segment!r}")
    return view


def _revision(record: SessionRecord, status: str, progress: float | None) -> str:
    return f"{record.sequence}.{record.version}.{status}.{'' if progress is None else round(progress, 4)}"


@router.get("/api/overview")
def overview_data(request: Request, type: str | None = None, status: str | None = None) -> dict[str, Any]:
    """The home page's sessions and jobs, as it shows them."""
    user = user_or_401(request)
    with reader(request) as db:
        return overview(db, user.tenant.id, Filters.of(type, status)).to_json()


@router.get("/api/sessions/{segment}/{session_id}")
def session_data(request: Request, segment: str, session_id: uuid.UUID,
                 revision: Annotated[str | None, Query(max_length=200)] = None) -> dict[str, Any]:
    """A session's status, facts and chart figures; only the revision when nothing moved since ``revision``."""
    user = user_or_401(request)
    view = _view(segment)
    with reader(request) as db:
        record = repository.find_session(db, user.tenant.id, view.kind, session_id)
        shown = shown_status(db, user.tenant.id, record, view.work)
        now = _revision(record, shown.status, shown.progress)
        head: dict[str, Any] = {"revision": now, "status": shown.status, "progress": shown.progress,
                                "error": shown.error, "finished": shown.status in FINISHED,
                                "log_total": record.sequence}
        if revision == now:
            return {**head, "changed": False}
        facts = view.facts(db, user.tenant.id, record)
        figures = view.charts(db, user.tenant.id, record)
    return {**head, "changed": True, "facts": [{"label": f.label, "value": f.value} for f in facts],
            "charts": {key: figure.to_json() for key, figure in figures.items()}}


@router.post("/api/jobs/{job_id}/cancel")
def cancel(request: Request, job_id: uuid.UUID,
           csrf: Annotated[str | None, Header(alias=CSRF_HEADER)] = None) -> dict[str, Any]:
    """Cancel one of the tenant's jobs (the home page's button); needs the session's CSRF token."""
    user = user_or_401(request)
    check_csrf(request, user, csrf)
    with transaction(request.app.state.sessions) as db:
        job = job_out(cancel_job(db, user.tenant.id, job_id))
    return job.model_dump(mode="json")


@router.get("/sessions/{segment}/{session_id}/decisions.{fmt}")
def export_log(request: Request, segment: str, session_id: uuid.UUID,
               fmt: Annotated[export.ExportFormat, Path()]) -> StreamingResponse:
    """The session's whole decision log as CSV or JSON Lines, streamed."""
    user = user_or_401(request)
    view = _view(segment)
    with reader(request) as db:
        record = repository.find_session(db, user.tenant.id, view.kind, session_id)
    media_type, extension = export.FORMATS[fmt]
    filename = f"{view.kind}-{record.id}-decisions.{extension}"
    return StreamingResponse(export.export_chunks(fmt, request.app.state.readers, user.tenant.id, record),
                             media_type=media_type,
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})
