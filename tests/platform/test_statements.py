"""service.statements: what the per-decision statements write and read is what Session.execute would."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import String, Uuid, bindparam, event, insert, select
from sqlalchemy.exc import IntegrityError

from service.db import table_of, transaction
from service.sessions.models import Decision, SessionRecord
from service.statements import Statement
from tests.factories import default_tenant

DECISIONS = table_of(Decision)
KEYS = ("id", "session_id", "sequence", "kind", "client_ref", "request", "response", "state_version", "key_id",
        "created_at")
APPEND = Statement(insert(DECISIONS), column_keys=KEYS)
BY_SESSION = Statement(select(DECISIONS.c.id, DECISIONS.c.request, DECISIONS.c.created_at, DECISIONS.c.key_id,
                              DECISIONS.c.client_ref)
                       .where(DECISIONS.c.session_id == bindparam("session_id", type_=Uuid()),
                              DECISIONS.c.kind == bindparam("kind", type_=String()))
                       .order_by(DECISIONS.c.sequence))


def _session(db) -> SessionRecord:
    """A new session row, added to the ORM and not flushed yet."""
    record = SessionRecord(id=uuid.uuid4(), tenant_id=default_tenant(db).id, kind="batch_scheduler",
                           status="active", config={}, state={}, seed=1, version=1, sequence=0)
    db.add(record)
    return record


def _row(record: SessionRecord, sequence: int, **changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": uuid.uuid4(), "session_id": record.id, "sequence": sequence, "kind": "epoch", "client_ref": None,
        "request": {"losses": [0.25, None], "note": "é"}, "response": {"ok": True}, "state_version": 1,
        "key_id": None, "created_at": datetime(2026, 11, 27, 8, 30, 1, 250_000, tzinfo=UTC)}
    row.update(changes)
    return row


def test_rows_written_and_read_as_through_the_orm(sessions) -> None:
    with transaction(sessions) as db:
        record = _session(db)
        first, second = _row(record, 1), _row(record, 2, client_ref="r-2", key_id=None,
                                               created_at=datetime(2026, 11, 27, 9, tzinfo=UTC) + timedelta(hours=1))
        APPEND.executemany(db, [first, second])
        read = BY_SESSION.first(db, {"session_id": record.id, "kind": "epoch"})
        session_id = record.id
    assert read == (first["id"], {"losses": [0.25, None], "note": "é"}, first["created_at"], None, None)
    assert read[2].tzinfo is not None
    with transaction(sessions) as db:
        orm = db.scalars(select(Decision).where(Decision.session_id == session_id).order_by(Decision.sequence)).all()
    assert [(d.id, d.sequence, d.request, d.response, d.client_ref, d.created_at) for d in orm] == [
        (first["id"], 1, first["request"], {"ok": True}, None, first["created_at"]),
        (second["id"], 2, second["request"], {"ok": True}, "r-2", datetime(2026, 11, 27, 10, tzinfo=UTC))]


def test_pending_orm_changes_are_flushed_first(sessions) -> None:
    with transaction(sessions) as db:
        record = _session(db)
        assert record in db.new
        APPEND.executemany(db, [_row(record, 1)])  # the session's row must be in before its log entry
        assert record not in db.new
        assert BY_SESSION.first(db, {"session_id": record.id, "kind": "epoch"}) is not None


def test_a_constraint_violation_is_sqlalchemys_and_no_row_is_read_is_none(sessions) -> None:
    with transaction(sessions) as db:
        record = _session(db)
        db.flush()
        row = _row(record, 1)
        APPEND.executemany(db, [row])
        assert BY_SESSION.first(db, {"session_id": record.id, "kind": "observation"}) is None
        with pytest.raises(IntegrityError):
            APPEND.executemany(db, [_row(record, 2, id=row["id"])])  # the same primary key
        db.rollback()


def test_the_engines_cursor_listeners_see_each_statement(sessions) -> None:
    seen: list[tuple[str, bool]] = []

    def listener(_conn, _cursor, statement, _parameters, _context, executemany) -> None:
        seen.append((statement.split()[0], executemany))

    with transaction(sessions) as db:
        record = _session(db)
        db.flush()
        engine = db.get_bind()
        event.listen(engine, "before_cursor_execute", listener)
        try:
            APPEND.executemany(db, [_row(record, 1), _row(record, 2)])
            APPEND.executemany(db, [_row(record, 3)])
            BY_SESSION.first(db, {"session_id": record.id, "kind": "epoch"})
        finally:
            event.remove(engine, "before_cursor_execute", listener)
    assert seen == [("INSERT", True), ("INSERT", False), ("SELECT", False)]
