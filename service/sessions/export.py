"""A session's decision log as a download: CSV or JSON Lines, streamed a page at a time.

The export is the log as it stood when it began (up to the session's sequence then),
read in pages of :data:`EXPORT_PAGE` entries, each in a short reader transaction of its
own: no whole log is held in memory, and no transaction stays open while a slow client
reads. Rows have the fields of :class:`~service.sessions.schemas.DecisionOut`, the items of
``GET /v1/<resource>/{id}/decisions``, and JSON Lines write them as that endpoint does.

CSV cells that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return) are neutralised with a leading single quote (OWASP's
advice for CSV injection). JSON Lines are written as they are: JSON is never evaluated.
Used by the dashboard (service.ui) and by ``/v1/exports`` (service.exports), which also filters
the entries (:class:`LogFilter`) and adds Parquet.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from sqlalchemy.orm import Session, sessionmaker

from service.sessions.models import SessionRecord
from service.sessions.repository import SessionRepository

__all__ = ["COLUMNS", "EXPORT_PAGE", "FORMATS", "ExportFormat", "LogEntry", "LogFilter", "csv_cell", "csv_chunks",
           "csv_row", "decisions", "entry_json", "export_chunks", "jsonl_chunks"]

EXPORT_PAGE = 500  # entries per read: a few hundred kB of text at most
COLUMNS = ("sequence", "id", "kind", "client_ref", "state_version", "key_id", "created_at", "request", "response")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ExportFormat = Literal["csv", "jsonl"]
FORMATS: dict[str, tuple[str, str]] = {  # format -> (media type, file extension)
    "csv": ("text/csv; charset=utf-8", "csv"),
    "jsonl": ("application/jsonl; charset=utf-8", "jsonl"),
}


class LogEntry(Protocol):
    """A log entry as read for an export: :class:`DecisionOut`'s fields (a row, or the model)."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def sequence(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def client_ref(self) -> str | None: ...
    @property
    def request(self) -> str: ...  # JSON text
    @property
    def response(self) -> str: ...
    @property
    def state_version(self) -> int: ...
    @property
    def key_id(self) -> uuid.UUID | None: ...
    @property
    def created_at(self) -> datetime: ...


@dataclass(frozen=True)
class LogFilter:
    """Which entries an export holds: these kinds (all when empty), ``since <= created_at < until``."""

    kinds: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None


def decisions(readers: sessionmaker[Session], tenant_id: uuid.UUID, record: SessionRecord,
              page_size: int = EXPORT_PAGE, *, last: int | None = None,
              where: LogFilter = LogFilter()) -> Iterator[list[LogEntry]]:
    """The session's log in pages, in order, up to ``last`` (its sequence when the export began).

    Entries are plain rows with :class:`DecisionOut`'s fields: a million of them are read without
    an ORM object or a model each (about half the time of an export was spent on those)."""
    last = record.sequence if last is None else last
    after = 0
    while after < last:
        with readers() as db:
            rows = SessionRepository(db, tenant_id, record.kind).log_rows(
                record, page_size, after, last, where.kinds, where.since, where.until)
            page: list[LogEntry] = list(rows)
        if not page:
            return
        yield page
        after = page[-1].sequence


def csv_cell(value: str) -> str:
    """A cell a spreadsheet shows as text: a leading formula character gets a single quote before it."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def entry_json(item: LogEntry) -> str:
    """The entry as ``DecisionOut.model_dump_json`` writes it (UTC times end in ``Z``), its request
    and response spliced in as the JSON text they are stored as."""
    head = _json({"id": str(item.id), "sequence": item.sequence, "kind": item.kind, "client_ref": item.client_ref})
    tail = _json({"state_version": item.state_version, "key_id": None if item.key_id is None else str(item.key_id),
                  "created_at": item.created_at.isoformat().replace("+00:00", "Z")})
    return f'{head[:-1]},"request":{item.request},"response":{item.response},{tail[1:]}'



def csv_row(item: LogEntry) -> list[str]:
    cells = (str(item.sequence), str(item.id), item.kind, item.client_ref or "", str(item.state_version),
             "" if item.key_id is None else str(item.key_id), item.created_at.isoformat(), item.request, item.response)
    return [csv_cell(cell) for cell in cells]


def csv_chunks(pages: Iterator[list[LogEntry]]) -> Iterator[str]:
    """A header line, then one chunk of CSV per page (request and response as their stored JSON text)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    yield buffer.getvalue()
    for page in pages:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerows(csv_row(item) for item in page)
        yield buffer.getvalue()


def jsonl_chunks(pages: Iterator[list[LogEntry]]) -> Iterator[str]:
    """One JSON object per line, as the log's API items; one chunk per page."""
    for page in pages:
        yield "".join(entry_json(item) + "\n" for item in page)


def export_chunks(fmt: ExportFormat, readers: sessionmaker[Session], tenant_id: uuid.UUID,
                  record: SessionRecord) -> Iterator[str]:
    pages = decisions(readers, tenant_id, record)
    return csv_chunks(pages) if fmt == "csv" else jsonl_chunks(pages)
