"""Export use cases: ask for one (a job is queued), show it, stream its file; and the job's work.

::

    create     check the source (the tenant's session or dataset) and the filters, store the
               export with the log's sequence then (the snapshot it reads), queue its job
    generate   the job: encode the source a page at a time (formats.py), write the file in
               chunks of CHUNK_BYTES in short transactions, then mark it ready in the fenced commit
    show       its status is its job's; succeeded once the file is ready (with download_url)
    download   the chunks in order, each read in a short transaction of its own
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from service import jobs
from service.datasets.repository import DatasetRepository
from service.datasets.service import load_arrays
from service.db import transaction, utcnow
from service.errors import InvalidInput, NotFound, NotReady
from service.exports import formats
from service.exports import repository as chunks
from service.exports.models import Export
from service.exports.repository import ExportRepository
from service.exports.schemas import ExportCreate, ExportOut
from service.sessions import export as log_export
from service.sessions.repository import SessionRepository
from service.settings import Settings

__all__ = ["CHUNK_BYTES", "JOB_KIND", "MEDIA_TYPES", "create_export", "download", "generate", "show"]

JOB_KIND = "exports.generate"
CHUNK_BYTES = 1024 * 1024  # a stored piece of the file: one row, one short write
LOG_PAGE = 2_000  # log entries read per short transaction by the job
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "jsonl": "application/jsonl; charset=utf-8",
               "parquet": "application/vnd.apache.parquet"}
READY = "ready"


def session_kind(resource: str) -> str:
    """The stored kind of a collection: ``group-samplers`` -> ``group_sampler``."""
    return resource.replace("-", "_").removesuffix("s")


def _filters(payload: ExportCreate) -> dict[str, Any]:
    if payload.since is not None and payload.until is not None and payload.since >= payload.until:
        raise InvalidInput("since must be earlier than until", ["body", "since"])
    filters = {"since": payload.since.isoformat() if payload.since else None,
               "until": payload.until.isoformat() if payload.until else None,
               "kinds": sorted(set(payload.kinds)) if payload.kinds else None}
    if payload.source.type == "dataset":
        given = [name for name, value in filters.items() if value is not None]
        if given:
            raise InvalidInput(f"{', '.join(given)} filter(s) decision-log entries; a dataset is exported whole",
                               ["body", given[0]])
    return filters


def create_export(db: Session, tenant_id: uuid.UUID, settings: Settings, payload: ExportCreate) -> Export:
    filters = _filters(payload)
    last_sequence = None
    if payload.source.type == "decision_log":
        record = SessionRepository(db, tenant_id, session_kind(payload.source.resource)).get(payload.source.id)
        last_sequence = record.sequence
    else:
        DatasetRepository(db, tenant_id).get(payload.source.id)
    export = ExportRepository(db, tenant_id).add(Export(
        source=payload.source.model_dump(mode="json"), format=payload.format, filters=filters,
        last_sequence=last_sequence, status="pending"))
    job = jobs.enqueue(db, settings, tenant_id=tenant_id, kind=JOB_KIND, resource_type="export",
                       resource_id=export.id)
    export.job_id = job.id
    db.flush()
    return export


def show(db: Session, tenant_id: uuid.UUID, export: Export, settings: Settings) -> ExportOut:
    status, error = "succeeded", None
    progress: float | None = 1.0
    if export.status != READY:
        job = jobs.view(db, tenant_id, export.job_id) if export.job_id is not None else None
        if job is None:
            status, progress, error = "failed", None, "the export job no longer exists"
        elif job.status == "succeeded":  # it finished without marking the file ready: cannot happen
            status, progress, error = "failed", job.progress, "the export job stored no file"
        else:
            status, progress, error = job.status, job.progress, job.error
    retention = settings.export_retention_days
    filters = export.filters or {}
    return ExportOut.model_validate({
        "id": export.id, "status": status, "source": export.source, "format": export.format,
        "since": filters.get("since"), "until": filters.get("until"), "kinds": filters.get("kinds"),
        "job_id": export.job_id, "progress": progress, "error": error, "rows": export.rows, "bytes": export.bytes,
        "sha256": export.sha256, "created_at": export.created_at, "finished_at": export.finished_at,
        "download_url": f"/v1/exports/{export.id}/download" if export.status == READY else None,
        "expires_at": export.created_at + timedelta(days=retention) if retention > 0 else None,
    })


def download(readers: sessionmaker[Session], export: Export) -> Iterator[bytes]:
    """The file's chunks in order, each read in a short reader transaction (409 until ready)."""
    if export.status != READY or export.attempt is None:
        raise NotReady(f"export {export.id} is not ready; GET it until its status is succeeded")
    export_id, attempt = export.id, export.attempt
    with readers() as db:
        numbers = chunks.chunk_numbers(db, export_id, attempt)

    def stream() -> Iterator[bytes]:
        for seq in numbers:
            with readers() as db:
                data = chunks.chunk(db, export_id, attempt, seq)
            if data is None:  # deleted by retention while the client read
                return
            yield data

    return stream()


def _parse(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


@dataclass
class _Rows:
    """Rows encoded so far, and how many the file will hold at most (for progress)."""

    done: int = 0
    expected: int = 0


def _counted(pages: Iterator[list[Any]], rows: _Rows) -> Iterator[list[Any]]:
    for page in pages:
        rows.done += len(page)
        yield page


def source_chunks(sessions: sessionmaker[Session], export: Export, rows: _Rows) -> Iterator[bytes]:
    """The file's bytes as the format encodes them; ``rows`` counts what they hold."""
    source, tenant_id = export.source, export.tenant_id
    with sessions() as db:
        if source["type"] == "dataset":
            table = load_arrays(db, tenant_id, uuid.UUID(source["id"]))
            rows.done = rows.expected = table.n_rows
            return formats.dataset_chunks(export.format, table)
        record = SessionRepository(db, tenant_id, session_kind(source["resource"])).get(uuid.UUID(source["id"]))
        db.expunge(record)
    filters = export.filters or {}
    where = log_export.LogFilter(tuple(filters.get("kinds") or ()), _parse(filters.get("since")),
                                 _parse(filters.get("until")))
    rows.expected = export.last_sequence if export.last_sequence is not None else record.sequence
    pages = log_export.decisions(sessions, tenant_id, record, LOG_PAGE, last=rows.expected, where=where)
    return formats.log_chunks(export.format, _counted(pages, rows))


def generate(ctx: jobs.JobContext) -> None:
    """The job: write the file in chunks under this attempt, then mark the export ready (fenced)."""
    with ctx.sessions() as db:
        export = db.get(Export, ctx.resource)
        if export is None:
            raise jobs.PermanentError(f"export {ctx.resource} no longer exists")
        db.expunge(export)
    rows = _Rows()
    try:
        encoded = source_chunks(ctx.sessions, export, rows)
    except NotFound as exc:  # the session or dataset was deleted since
        raise jobs.PermanentError(exc.detail) from None
    digest, size, seq, pending = hashlib.sha256(), 0, 0, bytearray()

    def flush(size: int) -> None:
        nonlocal seq
        with transaction(ctx.sessions) as db:
            chunks.add_chunk(db, export.id, ctx.attempt, seq, bytes(pending[:size]))
        seq += 1
        del pending[:size]

    for piece in encoded:
        digest.update(piece)
        size += len(piece)
        pending += piece
        while len(pending) >= CHUNK_BYTES:  # whole chunks only: a page may encode to more than one
            flush(CHUNK_BYTES)
        ctx.progress(min(0.99, rows.done / max(1, rows.expected)))
    if pending or seq == 0:
        flush(len(pending))

    def finish(db: Session, job: jobs.Job) -> dict[str, Any]:
        stored = db.get(Export, export.id)
        if stored is None:
            raise jobs.PermanentError(f"export {export.id} was deleted while it was written")
        source = export.source
        if source["type"] == "decision_log" and SessionRepository(
                db, export.tenant_id, session_kind(source["resource"])).find(uuid.UUID(source["id"])) is None:
            raise jobs.PermanentError(f"session {source['id']} was deleted while its log was exported")
        chunks.delete_chunks(db, export.id, keep_attempt=ctx.attempt)
        stored.status, stored.attempt, stored.rows, stored.bytes = READY, ctx.attempt, rows.done, size
        stored.sha256, stored.finished_at = digest.hexdigest(), utcnow()
        return {"export_id": str(export.id), "rows": rows.done, "bytes": size}

    ctx.commit(finish)
