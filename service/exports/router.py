"""``/v1/exports``: ask for an export of a decision log or a dataset, read it, download its file."""

from __future__ import annotations

import uuid

from fastapi import Request, Response, status
from fastapi.responses import StreamingResponse

from service.api import LimitQuery, Responses, parse_cursor, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.exports import service
from service.exports.repository import ExportRepository
from service.exports.schemas import ExportCreate, ExportList, ExportOut
from service.pages import page
from service.settings import SettingsDep

router = resource_router("/exports", "exports")

_BINARY = {"schema": {"type": "string", "format": "binary"}}
_FILE: Responses = {
    200: {"description": "the file", "content": {media: _BINARY for media in service.MEDIA_TYPES.values()}},
    409: {"description": "the export is not ready"},
}


@router.post("", status_code=status.HTTP_202_ACCEPTED, operation_id="create_export",
             responses={404: {"description": "no such session or dataset"}})
def create_export(payload: ExportCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                  response: Response) -> ExportOut:
    """Export a decision log (filtered by time and kind) or a dataset as CSV, JSON Lines or Parquet: a job."""
    export = service.create_export(db, tenant.id, settings, payload)
    response.headers["Location"] = f"/v1/exports/{export.id}"
    return service.show(db, tenant.id, export, settings)


@router.get("", operation_id="list_exports")
def list_exports(db: SessionDep, tenant: TenantDep, settings: SettingsDep, limit: LimitQuery = 50,
                 cursor: str | None = None) -> ExportList:
    """List exports, oldest first."""
    rows = ExportRepository(db, tenant.id).list(limit, parse_cursor(cursor))
    return ExportList(**page(rows, limit, "export", lambda e: service.show(db, tenant.id, e, settings)))


@router.get("/{export_id}", operation_id="get_export")
def get_export(export_id: uuid.UUID, db: SessionDep, tenant: TenantDep, settings: SettingsDep) -> ExportOut:
    """Read an export: its job's status and, once it succeeded, its download_url."""
    return service.show(db, tenant.id, ExportRepository(db, tenant.id).get(export_id), settings)


@router.get("/{export_id}/download", operation_id="download_export", response_class=StreamingResponse,
            responses=_FILE)
def download_export(export_id: uuid.UUID, db: SessionDep, tenant: TenantDep, request: Request) -> StreamingResponse:
    """Download an export's file, streamed."""
    export = ExportRepository(db, tenant.id).get(export_id)
    body = service.download(request.app.state.readers, export)
    extension = export.format
    headers = {"Content-Disposition": f'attachment; filename="export-{export.id}.{extension}"',
               "Content-Length": str(export.bytes), "ETag": f'"{export.sha256}"'}
    return StreamingResponse(body, media_type=service.MEDIA_TYPES[export.format], headers=headers)
