"""``/v1/exports``: a decision log or a dataset as CSV, JSON Lines or Parquet, through a job.

Every file is parsed back and compared with what the API shows of its source (the log's
items, the uploaded dataset); filters, formula cells, tenancy and retention are checked.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import time
import uuid
from datetime import UTC, datetime, timedelta

import pyarrow.parquet as pq
import pytest
from sqlalchemy import update

from service.db import transaction
from service.exports import service as export_service
from service.exports import tasks  # noqa: F401  (registers the export job for run_queued_jobs)
from service.exports.models import Export, ExportChunk
from service.exports.repository import purge_exports
from service.sessions import export as log_export
from service.sessions.models import Decision
from service.sessions.repository import Entry, SessionRepository
from tests.factories import dataset_payload, default_tenant, make_key, run_queued_jobs

URL = "/v1/exports"
BASE = datetime(2026, 1, 1, tzinfo=UTC)
FORMULAS = ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]
KINDS = ("next", "observation", "note")


@pytest.fixture
def log_session(sessions):
    """A group sampler's log of 31 entries: a create entry, then kinds cycling through KINDS
    (KINDS[(s - 1) % 3] at sequence s), formula-like client ids first; the entry at sequence s
    created at BASE + s minutes."""
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        repo = SessionRepository(db, tenant.id, "group_sampler")
        record = repo.create(config={}, state={}, seed=1, status="ready", name="export")
        repo.record(record, log=Entry("create", {"budget": 10}, {"id": str(record.id)}))
        for i in range(1, 31):
            ref = FORMULAS[i - 1] if i <= len(FORMULAS) else f"ref-{i}"
            repo.record(record, log=Entry(KINDS[i % 3], {"i": i, "text": "=cmd|' /C calc'!A0", "x": -i / 7},
                                          {"ok": True, "é": "ü"}, client_ref=ref))
        for i in range(1, 32):
            db.execute(update(Decision).where(Decision.session_id == record.id, Decision.sequence == i)
                       .values(created_at=BASE + timedelta(minutes=i)))
    return str(record.id)


def _items(client, session_id: str) -> list[dict]:
    response = client.get(f"/v1/group-samplers/{session_id}/decisions", params={"limit": 500})
    assert response.status_code == 200, response.text
    return response.json()["items"]


def _export(client, sessions, settings, body: dict) -> tuple[dict, bytes]:
    created = client.post(URL, json=body)
    assert created.status_code == 202, created.text
    shown = created.json()
    assert shown["status"] == "queued" and shown["download_url"] is None
    assert created.headers["location"] == f"{URL}/{shown['id']}"
    not_yet = client.get(f"{URL}/{shown['id']}/download")
    assert not_yet.status_code == 409 and not_yet.headers["content-type"].startswith("application/problem+json")
    [job] = run_queued_jobs(sessions, settings, [export_service.JOB_KIND])
    assert job.status == "succeeded", job.error
    ready = client.get(f"{URL}/{shown['id']}").json()
    assert ready["status"] == "succeeded" and ready["download_url"] == f"{URL}/{shown['id']}/download"
    got = client.get(ready["download_url"])
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith(export_service.MEDIA_TYPES[body["format"]].split(";")[0])
    assert int(got.headers["content-length"]) == len(got.content) == ready["bytes"]
    assert ready["sha256"] == hashlib.sha256(got.content).hexdigest()
    return ready, got.content


def _log_body(session_id: str, fmt: str, **extra) -> dict:
    return {"source": {"type": "decision_log", "resource": "group-samplers", "id": session_id}, "format": fmt,
            **extra}


def test_csv_is_the_log_with_formula_cells_neutralised(client, sessions, settings, log_session):
    items = _items(client, log_session)
    shown, content = _export(client, sessions, settings, _log_body(log_session, "csv"))
    rows = list(csv.reader(io.StringIO(content.decode("utf-8"), newline="")))
    assert rows[0] == list(log_export.COLUMNS)
    assert shown["rows"] == len(rows) - 1 == len(items) == 31
    for row, item in zip(rows[1:], items, strict=True):
        expected = [str(item["sequence"]), item["id"], item["kind"], item["client_ref"] or "",
                    str(item["state_version"]), item["key_id"] or "",
                    datetime.fromisoformat(item["created_at"]).isoformat()]
        assert row[:7] == [log_export.csv_cell(cell) for cell in expected]
        assert json.loads(row[7]) == item["request"] and json.loads(row[8]) == item["response"]
    # Every formula-like client id got a leading quote; the request's "=cmd" is inside JSON text.
    assert [r[3] for r in rows[2:8]] == ["'" + f for f in FORMULAS]
    assert rows[9][3] == "ref-8"
    assert not any(cell.startswith(tuple(log_export.FORMULA_STARTS)) for row in rows for cell in row)


def test_jsonl_lines_are_the_logs_items(client, sessions, settings, log_session):
    items = _items(client, log_session)
    shown, content = _export(client, sessions, settings, _log_body(log_session, "jsonl"))
    lines = content.decode("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == items
    assert shown["rows"] == 31


def test_parquet_holds_the_log_in_typed_columns(client, sessions, settings, log_session):
    items = _items(client, log_session)
    _, content = _export(client, sessions, settings, _log_body(log_session, "parquet"))
    table = pq.read_table(io.BytesIO(content))
    assert table.column_names == list(log_export.COLUMNS)
    rows = table.to_pylist()
    assert len(rows) == len(items)
    for row, item in zip(rows, items, strict=True):
        assert row["sequence"] == item["sequence"] and row["id"] == item["id"] and row["kind"] == item["kind"]
        assert row["client_ref"] == item["client_ref"] and row["state_version"] == item["state_version"]
        assert row["key_id"] == item["key_id"]
        assert row["created_at"] == datetime.fromisoformat(item["created_at"])
        assert json.loads(row["request"]) == item["request"] and json.loads(row["response"]) == item["response"]
    assert str(table.schema.field("created_at").type) == "timestamp[us, tz=UTC]"


def test_time_range_and_kinds_filter_the_entries(client, sessions, settings, log_session):
    since, until = BASE + timedelta(minutes=5), BASE + timedelta(minutes=20)
    body = _log_body(log_session, "jsonl", since=since.isoformat(), until=until.isoformat(),
                     kinds=["next", "note"])
    shown, content = _export(client, sessions, settings, body)
    got = [json.loads(line) for line in content.decode().splitlines()]
    # Sequences 5..19 (since inclusive, until exclusive) whose kind is next or note: the entry at
    # sequence s (s >= 2) is of kind KINDS[(s - 1) % 3].
    expected = [s for s in range(5, 20) if KINDS[(s - 1) % 3] in ("next", "note")]
    assert [entry["sequence"] for entry in got] == expected
    assert {entry["kind"] for entry in got} == {"next", "note"}
    assert shown["rows"] == len(expected)
    assert shown["kinds"] == ["next", "note"] and datetime.fromisoformat(shown["since"]) == since
    only_create = _export(client, sessions, settings, _log_body(log_session, "csv", kinds=["create"]))[1]
    assert len(list(csv.reader(io.StringIO(only_create.decode())))) == 2  # header + the create entry


def test_the_export_is_the_log_when_it_was_asked_for(client, sessions, settings, log_session):
    created = client.post(URL, json=_log_body(log_session, "jsonl")).json()
    with transaction(sessions) as db:  # the log grows after the export was asked for
        repo = SessionRepository(db, default_tenant(db).id, "group_sampler")
        record = repo.get(uuid.UUID(log_session))
        repo.record(record, log=Entry("note", {"late": True}, {}))
    run_queued_jobs(sessions, settings, [export_service.JOB_KIND])
    content = client.get(f"{URL}/{created['id']}/download").content
    assert len(content.decode().splitlines()) == 31


def test_a_dataset_exports_in_each_format(client, sessions, settings):
    payload = dataset_payload(n=25, d=3, seed=4, groups=("=evil", "b"))
    payload["feature_names"] = None
    payload.pop("feature_names")
    dataset = client.post("/v1/datasets", json=payload).json()
    body = {"source": {"type": "dataset", "id": dataset["id"]}}
    names = dataset["feature_names"]
    _, text = _export(client, sessions, settings, {**body, "format": "csv"})
    rows = list(csv.reader(io.StringIO(text.decode())))
    assert rows[0] == [*names, "group", "label"]
    for row, features, group, label in zip(rows[1:], payload["features"], payload["groups"], payload["labels"],
                                           strict=True):
        assert [float(v) for v in row[:3]] == features  # numbers stay numbers, negatives too
        assert row[3] == ("'=evil" if group == "=evil" else group) and float(row[4]) == label
    _, lines = _export(client, sessions, settings, {**body, "format": "jsonl"})
    objects = [json.loads(line) for line in lines.decode().splitlines()]
    assert [[o[n] for n in names] for o in objects] == payload["features"]
    assert [o["group"] for o in objects] == payload["groups"]
    _, parquet = _export(client, sessions, settings, {**body, "format": "parquet"})
    table = pq.read_table(io.BytesIO(parquet)).to_pydict()
    assert [list(r) for r in zip(*(table[n] for n in names), strict=True)] == payload["features"]
    assert table["group"] == payload["groups"] and table["label"] == [float(v) for v in payload["labels"]]


def test_files_are_written_in_chunks_and_read_back_whole(client, sessions, settings, log_session, monkeypatch):
    whole = _export(client, sessions, settings, _log_body(log_session, "csv"))[1]
    monkeypatch.setattr(export_service, "CHUNK_BYTES", 500)
    shown, chunked = _export(client, sessions, settings, _log_body(log_session, "csv"))
    assert chunked == whole
    with sessions() as db:
        count = db.query(ExportChunk).filter(ExportChunk.export_id == uuid.UUID(shown["id"])).count()
    assert count == -(-len(whole) // 500)  # whole chunks of 500 bytes, then the rest


def test_bad_requests_and_other_tenants(client, sessions, settings, log_session):
    dataset = client.post("/v1/datasets", json=dataset_payload()).json()
    refusals = [
        ({"source": {"type": "dataset", "id": dataset["id"]}, "format": "csv", "kinds": ["next"]}, 422),
        (_log_body(log_session, "csv", since="2026-01-02T00:00:00Z", until="2026-01-01T00:00:00Z"), 422),
        (_log_body(log_session, "csv", since="2026-01-02T00:00:00"), 422),  # no time zone
        (_log_body(log_session, "xlsx"), 422),
        (_log_body(log_session, "csv", extra=1), 422),
        (_log_body("00000000-0000-0000-0000-000000000000", "csv"), 404),
        ({**_log_body(log_session, "csv"), "source": {"type": "decision_log", "resource": "partition-bandits",
                                                      "id": log_session}}, 404),
    ]
    for body, status in refusals:
        response = client.post(URL, json=body)
        assert response.status_code == status, (body, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
    with sessions() as db:
        assert db.query(Export).count() == 0  # nothing stored for a refused request
    shown, _ = _export(client, sessions, settings, _log_body(log_session, "csv"))
    other = client.with_key(make_key(sessions, "other"))
    for path in (f"{URL}/{shown['id']}", f"{URL}/{shown['id']}/download"):
        assert other.get(path).status_code == 404
    assert other.post(URL, json=_log_body(log_session, "csv")).status_code == 404


def test_retention_deletes_old_exports_and_their_files(client, sessions, settings, log_session):
    shown, _ = _export(client, sessions, settings, _log_body(log_session, "csv"))
    assert shown["expires_at"] is not None
    with transaction(sessions) as db:
        assert purge_exports(db, 7) == 0
        db.execute(update(Export).values(created_at=datetime.now(UTC) - timedelta(days=8)))
    with transaction(sessions) as db:
        assert purge_exports(db, 0) == 0  # 0 keeps everything
        assert purge_exports(db, 7) == 1
    with sessions() as db:
        assert db.query(ExportChunk).count() == 0
    assert client.get(f"{URL}/{shown['id']}").status_code == 404


def test_an_export_job_runs_in_a_real_worker(client, log_session, worker):
    created = client.post(URL, json=_log_body(log_session, "parquet")).json()
    deadline = time.monotonic() + 60
    while (shown := client.get(f"{URL}/{created['id']}").json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, shown
        time.sleep(0.1)
    assert shown["status"] == "succeeded", shown
    table = pq.read_table(io.BytesIO(client.get(shown["download_url"]).content))
    assert table.column("sequence").to_pylist() == list(range(1, 32))
