"""Decision-log exports (service.sessions.export): CSV with formula cells neutralised, JSON Lines as the
API's items, read a page at a time up to the log as it stood when the export began."""

from __future__ import annotations

import csv
import io
import json

from sqlalchemy.orm import Session, sessionmaker

from service.auth import CurrentTenant
from service.db import transaction
from service.sessions import export
from service.sessions.models import SessionRecord
from service.sessions.repository import Entry, SessionRepository
from tests.factories import default_tenant

FORMULAS = ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]


def _session_with_log(sessions: sessionmaker[Session], entries: int) -> tuple[CurrentTenant, SessionRecord]:
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        repo = SessionRepository(db, tenant.id, "group_sampler")
        record = repo.create(config={}, state={}, seed=1, status="ready", name="export")
        for i in range(entries):
            ref = FORMULAS[i] if i < len(FORMULAS) else f"ref-{i}"
            repo.record(record, log=Entry("note", {"i": i, "text": "=cmd|' /C calc'!A0"}, {"ok": True},
                                          client_ref=ref))
    return tenant, record


def test_csv_neutralises_every_formula_cell_and_keeps_the_rest(sessions) -> None:
    tenant, record = _session_with_log(sessions, 8)
    text = "".join(export.export_chunks("csv", sessions, tenant.id, record))
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(export.COLUMNS)
    assert [int(r[0]) for r in rows[1:]] == list(range(1, 9))
    assert [r[3] for r in rows[1:]] == ["'" + f for f in FORMULAS] + ["ref-6", "ref-7"]
    assert rows[1][5] == ""  # key_id: written outside a request, by no key
    assert json.loads(rows[1][7]) == {"i": 0, "text": "=cmd|' /C calc'!A0"}  # inside JSON, not at a cell's start
    assert json.loads(rows[1][8]) == {"ok": True}
    assert export.csv_cell("=A1") == "'=A1" and export.csv_cell("a=1") == "a=1" and export.csv_cell("") == ""


def test_jsonl_lines_are_the_logs_api_items(sessions, client) -> None:
    tenant, record = _session_with_log(sessions, 3)
    lines = "".join(export.export_chunks("jsonl", sessions, tenant.id, record)).splitlines()
    items = client.get(f"/v1/group-samplers/{record.id}/decisions").json()["items"]
    assert [json.loads(line) for line in lines] == items
    assert [json.loads(line)["sequence"] for line in lines] == [1, 2, 3]


def test_pages_are_bounded_and_the_export_is_the_log_when_it_began(sessions) -> None:
    tenant, record = _session_with_log(sessions, 7)
    pages = export.decisions(sessions, tenant.id, record, page_size=3)
    first = next(pages)
    with transaction(sessions) as db:  # the session moves on while the export is being read
        repo = SessionRepository(db, tenant.id, "group_sampler")
        live = repo.get(record.id)
        for i in range(5):
            repo.record(live, log=Entry("note", {"i": 100 + i}, {}))
    rest = list(pages)
    assert [len(p) for p in [first, *rest]] == [3, 3, 1]
    assert [d.sequence for p in [first, *rest] for d in p] == list(range(1, 8))
