"""A session row's state, version and sequence: one UPDATE with its log entry's INSERT, committed or not at all."""

from __future__ import annotations

import pytest
from sqlalchemy import event, select

from service.db import transaction
from service.sessions.models import Decision, SessionRecord
from service.sessions.repository import Entry, SessionRepository
from tests.factories import default_tenant


def _created(sessions) -> tuple:
    with transaction(sessions) as db:
        tenant = default_tenant(db)
        record = SessionRepository(db, tenant.id, "batch_scheduler").create(
            config={}, state={"n": 0}, seed=1, status="active"
        )
        return tenant.id, record.id


def _row(sessions, session_id) -> SessionRecord:
    with transaction(sessions) as db:
        return db.scalar(select(SessionRecord).where(SessionRecord.id == session_id))


def test_a_saved_state_and_its_logged_decision_are_one_update_and_one_insert(sessions):
    """A decision that leaves the status as it is (the hot path) is one UPDATE and one INSERT."""
    tenant_id, session_id = _created(sessions)
    before = _row(sessions, session_id)
    statements: list[str] = []
    with transaction(sessions) as db:
        repo = SessionRepository(db, tenant_id, "batch_scheduler")
        record = repo.get_for_update(session_id)
        engine = db.get_bind()

        def seen(_conn, _cursor, statement, *_):
            statements.append(statement.split()[0])

        event.listen(engine, "before_cursor_execute", seen)
        try:
            repo.record(record, state={"n": 1}, status="active",
                        log=Entry("epoch", {"epoch": 1}, {"ok": True}, client_ref="epoch:1"))
            assert (record.state, record.version, record.status, record.sequence) == ({"n": 1}, 2, "active", 1)
            assert not db.dirty  # nothing left for the ORM's unit of work
        finally:
            event.remove(engine, "before_cursor_execute", seen)
    assert statements == ["UPDATE", "INSERT"]
    row = _row(sessions, session_id)
    assert (row.state, row.version, row.status, row.sequence) == ({"n": 1}, 2, "active", 1)
    assert row.updated_at >= before.updated_at
    with transaction(sessions) as db:
        logged = db.scalars(select(Decision).where(Decision.session_id == session_id)).all()
    assert [(d.sequence, d.state_version, d.client_ref) for d in logged] == [(1, 2, "epoch:1")]


def test_a_status_change_also_reads_the_tenants_webhooks_once(sessions):
    """A status that changes (to done here) is announced in the same transaction: one more statement,
    the read of the tenant's subscriptions (service.webhooks.outbox)."""
    tenant_id, session_id = _created(sessions)
    statements: list[str] = []
    with transaction(sessions) as db:
        repo = SessionRepository(db, tenant_id, "batch_scheduler")
        record = repo.get_for_update(session_id)
        engine = db.get_bind()

        def seen(_conn, _cursor, statement, *_):
            statements.append(statement.split()[0])

        event.listen(engine, "before_cursor_execute", seen)
        try:
            repo.record(record, state={"n": 1}, status="done", log=Entry("epoch", {"epoch": 1}, {"ok": True}))
        finally:
            event.remove(engine, "before_cursor_execute", seen)
    assert statements == ["UPDATE", "SELECT", "INSERT"]
    assert _row(sessions, session_id).status == "done"


def test_a_state_saved_without_a_log_is_written_at_once(sessions):
    tenant_id, session_id = _created(sessions)
    with transaction(sessions) as db:
        repo = SessionRepository(db, tenant_id, "batch_scheduler")
        repo.record(repo.get_for_update(session_id), state={"n": 7})
    row = _row(sessions, session_id)
    assert (row.state, row.version, row.sequence) == ({"n": 7}, 2, 0)


def test_a_rolled_back_state_is_not_written(sessions):
    tenant_id, session_id = _created(sessions)
    with pytest.raises(RuntimeError), transaction(sessions) as db:
        repo = SessionRepository(db, tenant_id, "batch_scheduler")
        record = repo.get_for_update(session_id)
        repo.record(record, state={"n": 9}, log=Entry("epoch", {}, {}))
        raise RuntimeError("the request failed after logging")
    row = _row(sessions, session_id)
    assert (row.state, row.version, row.sequence) == ({"n": 0}, 1, 0)
    with transaction(sessions) as db:  # and the next transaction on a fresh session stages nothing stale
        repo = SessionRepository(db, tenant_id, "batch_scheduler")
        record = repo.get_for_update(session_id)
        assert record.state == {"n": 0}
    assert _row(sessions, session_id).version == 1


def test_lookup_statements_bind_uuids_whatever_was_imported_first():
    """Built at import: a foreign key's type is unknown until its table exists, so the binds say theirs."""
    import subprocess
    import sys

    code = (
        "from service.sessions import repository as r\n"  # before service.auth defines `tenants`
        "print(sorted({type(c.right.type).__name__ for c in r._BY_ID.whereclause.clauses}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['String', 'Uuid']"
