"""Every query on sessions, their blobs and their decision log."""

from __future__ import annotations

import builtins
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import Row, String, Text, Uuid, bindparam, cast, delete, func, insert, inspect, select, update
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_dict, set_committed_value

from service import arrays
from service.auth import API_KEY_ID
from service.db import table_of, utcnow
from service.errors import NotFound, PreconditionFailed
from service.ops.metrics import DECISIONS
from service.pages import in_list_order
from service.sessions.models import Decision, SessionBlob, SessionDataset, SessionRecord
from service.statements import Statement
from service.webhooks import outbox

__all__ = ["Entry", "SessionRepository"]

# The per-decision statements (service.statements): a session's row read for update, the
# UPDATE of the columns a step writes and the INSERT of its log entries.
# The bound types are explicit: a foreign-key column's type is only known once the table it
# points at is defined, and these are built at import, whatever was imported before.
_SESSIONS = table_of(SessionRecord)
_BY_ID = select(SessionRecord).where(
    SessionRecord.id == bindparam("session_id", type_=Uuid()),
    SessionRecord.tenant_id == bindparam("tenant_id", type_=Uuid()),
    SessionRecord.kind == bindparam("kind", type_=String()),
)
_ROW_KEYS = tuple(column.key for column in _SESSIONS.c)
_NEW_RECORD = inspect(SessionRecord).class_manager.new_instance
_ROW_FOR_UPDATE = Statement(select(*_SESSIONS.c).where(
    _SESSIONS.c.id == bindparam("session_id", type_=Uuid()),
    _SESSIONS.c.tenant_id == bindparam("tenant_id", type_=Uuid()),
    _SESSIONS.c.kind == bindparam("kind", type_=String()),
).with_for_update())
_LOG_KEYS = ("id", "session_id", "sequence", "kind", "client_ref", "request", "response", "state_version", "key_id",
             "created_at")
_APPEND_DECISION = Statement(insert(table_of(Decision)), column_keys=_LOG_KEYS)
_ROW_UPDATES: dict[tuple[str, ...], Statement] = {}  # one UPDATE statement per set of columns written
# A log entry's columns, in DecisionOut's order, request and response as their stored JSON text:
# parsing and writing them again was most of an export's time.
_LOG_COLUMNS = (Decision.id, Decision.sequence, Decision.kind, Decision.client_ref,
                cast(Decision.request, Text).label("request"), cast(Decision.response, Text).label("response"),
                Decision.state_version, Decision.key_id, Decision.created_at)
_REPORT_BY_REF = select(Decision.request, Decision.response).where(
    Decision.session_id == bindparam("session_id", type_=Uuid()),
    Decision.client_ref == bindparam("client_ref", type_=String()),
)

@dataclass(frozen=True)
class Entry:
    """A decision-log entry: what was asked and answered (and a report's client id)."""

    kind: str
    request: dict[str, Any]
    response: dict[str, Any]
    client_ref: str | None = None
    decision_id: uuid.UUID | None = None


def _update(db: Session, record: SessionRecord, values: dict[str, Any]) -> None:
    """One UPDATE of these columns of the row (and ``updated_at``), shown on ``record`` at once.

    The values are set on the record as its committed state, so the ORM has nothing to
    flush for them: its unit of work would cost several times the UPDATE on a path that
    runs once per decision.
    """
    values["updated_at"] = utcnow()
    for key, value in values.items():
        set_committed_value(record, key, value)
    names = tuple(sorted(values))
    statement = _ROW_UPDATES.get(names)
    if statement is None:
        statement = Statement(update(_SESSIONS).where(_SESSIONS.c.id == bindparam("row_id", type_=Uuid())).values(
            {key: bindparam(key) for key in names}))
        _ROW_UPDATES[names] = statement
    statement.execute(db, {**values, "row_id": record.id})


def _attached(db: Session, row: tuple[Any, ...]) -> SessionRecord:
    """The session row as the ORM object this transaction knows it by (as a query would give it)."""
    values = dict(zip(_ROW_KEYS, row, strict=True))
    known = db.identity_map.get(db.identity_key(SessionRecord, values["id"]))
    if isinstance(known, SessionRecord):
        return known
    record = _NEW_RECORD()  # (the constructor's per-attribute events cost twice the rest)
    instance_dict(record).update(values)
    make_transient_to_detached(record)  # persistent as loaded: ORM changes to it are flushed as usual
    db.add(record)
    return record


def _check_if_match(if_match: str, version: int) -> None:
    """412 unless ``If-Match`` is ``*`` or lists the version's ETag, compared strongly (RFC 9110 §13.1.1).

    A weak ETag (``W/"3"``) never matches: a weak validator does not promise the same
    state, which is what a conditional write relies on. A bare ``3`` is read as ``"3"``.
    """
    tags = [tag.strip() for tag in if_match.split(",") if tag.strip()]
    if "*" in tags or any(not tag.startswith("W/") and tag.strip('"') == str(version) for tag in tags):
        return
    if tags and all(tag.startswith("W/") for tag in tags):
        raise PreconditionFailed(
            f"If-Match {if_match} holds only weak ETags, which never match: If-Match compares strongly "
            "(RFC 9110); send the session's ETag as it was given, without W/"
        )
    raise PreconditionFailed(
        f"If-Match {if_match} does not match the current version {version}; GET the session and retry with its ETag"
    )


class SessionRepository:
    def __init__(self, db: Session, tenant_id: uuid.UUID, kind: str) -> None:
        self.db = db
        self.tenant_id = tenant_id
        self.kind = kind

    def create(
        self,
        *,
        config: dict[str, Any],
        state: dict[str, Any],
        seed: int,
        status: str,
        name: str | None = None,
        datasets: dict[str, uuid.UUID] | None = None,
    ) -> SessionRecord:
        record = SessionRecord(
            tenant_id=self.tenant_id, kind=self.kind, name=name, status=status,
            config=config, state=state, seed=seed, version=1, sequence=0,
        )
        self.db.add(record)
        self.db.flush()
        for role, dataset_id in (datasets or {}).items():
            self.db.add(SessionDataset(session_id=record.id, dataset_id=dataset_id, role=role))
        self.db.flush()
        return record

    def _by_id(self, statement: Any, session_id: uuid.UUID) -> SessionRecord | None:
        return self.db.scalar(statement, {"session_id": session_id, "tenant_id": self.tenant_id, "kind": self.kind})

    def find(self, session_id: uuid.UUID) -> SessionRecord | None:
        return self._by_id(_BY_ID, session_id)

    def get(self, session_id: uuid.UUID) -> SessionRecord:
        record = self.find(session_id)
        if record is None:
            raise NotFound(f"no {self.kind.replace('_', ' ')} with id {session_id}")
        return record

    def get_for_update(self, session_id: uuid.UUID, if_match: str | None = None) -> SessionRecord:
        """Load and lock the session row (PostgreSQL row lock; SQLite holds the write lock already)."""
        row = _ROW_FOR_UPDATE.first(self.db, {"session_id": session_id, "tenant_id": self.tenant_id,
                                              "kind": self.kind})
        if row is None:
            raise NotFound(f"no {self.kind.replace('_', ' ')} with id {session_id}")
        record = _attached(self.db, row)
        if if_match is not None:
            _check_if_match(if_match, record.version)
        return record

    def delete(self, record: SessionRecord) -> None:
        """Delete the row; its blobs, dataset links and decision log go with it (ON DELETE CASCADE)."""
        self.db.execute(delete(SessionRecord).where(SessionRecord.id == record.id))
        self.db.expunge(record)

    def list(self, limit: int, after: uuid.UUID | None = None) -> list[SessionRecord]:
        query = select(SessionRecord).where(
            SessionRecord.tenant_id == self.tenant_id, SessionRecord.kind == self.kind
        )
        anchor = None if after is None else self.get(after)
        return list(self.db.scalars(in_list_order(query, SessionRecord.created_at, SessionRecord.id, anchor, limit)))

    def record(self, record: SessionRecord, *, state: dict[str, Any] | None = None, status: str | None = None,
               log: Entry | Sequence[Entry] | None = None) -> None:
        """Write a step of the session in this transaction: its new ``state`` (the version goes up),
        its ``status``, and, with ``log``, its decision-log entries (the sequence goes up by one each).

        The row is one UPDATE and the entries one INSERT (one ``executemany`` for several), run
        at once (service.statements): a second report with the same ``client_ref`` fails here
        (unique constraint). Each entry names the request's API key (``API_KEY_ID``);
        a status change is announced to the tenant's webhooks in this transaction (``outbox``).
        """
        entries = [] if log is None else [log] if isinstance(log, Entry) else list(log)
        values: dict[str, Any] = {}
        if state is not None:
            values["state"], values["version"] = state, record.version + 1
        if status is not None:
            values["status"] = status
        if entries:
            values["sequence"] = record.sequence + len(entries)
        if not values:
            return
        first, before = record.sequence + 1, record.status
        _update(self.db, record, values)
        if status is not None and status != before:
            outbox.session_status(self.db, record, before)
        if entries:
            key_id, now = API_KEY_ID.get(), record.updated_at  # the entries are as old as the change
            rows = [{
                "id": entry.decision_id or uuid.uuid4(), "session_id": record.id, "sequence": first + k,
                "kind": entry.kind, "client_ref": entry.client_ref, "request": entry.request,
                "response": entry.response, "state_version": record.version, "key_id": key_id, "created_at": now,
            } for k, entry in enumerate(entries)]
            _APPEND_DECISION.executemany(self.db, rows)
            for kind, n in Counter(entry.kind for entry in entries).items():
                DECISIONS.labels(f"{self.kind}.{kind}").inc(n)

    # -- decision log -------------------------------------------------------------------------

    def find_report(self, record: SessionRecord, client_ref: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The logged request and response of the report with this client id, if any."""
        row = self.db.execute(_REPORT_BY_REF, {"session_id": record.id, "client_ref": client_ref}).first()
        return None if row is None else (row.request, row.response)

    def find_decision(self, record: SessionRecord, decision_id: uuid.UUID) -> Decision | None:
        return self.db.scalar(
            select(Decision).where(Decision.session_id == record.id, Decision.id == decision_id)
        )

    @staticmethod
    def next_rng(record: SessionRecord) -> np.random.Generator:
        """The generator for the session's next decision: ``default_rng([seed, sequence])``."""
        return np.random.default_rng([record.seed, record.sequence + 1])

    def decisions(self, record: SessionRecord, limit: int, after_sequence: int = 0,
                  kind: str | None = None) -> builtins.list[Decision]:  # list is a method here
        query = select(Decision).where(Decision.session_id == record.id, Decision.sequence > after_sequence)
        if kind is not None:
            query = query.where(Decision.kind == kind)
        return list(self.db.scalars(query.order_by(Decision.sequence).limit(limit)))

    def log_rows(self, record: SessionRecord, limit: int, after_sequence: int, last_sequence: int,
                 kinds: Sequence[str] | None = None, since: datetime | None = None,
                 until: datetime | None = None) -> builtins.list[Row[Any]]:
        """Log entries after ``after_sequence`` up to ``last_sequence`` (kinds, and ``since <=
        created_at < until``, when given), in order, as plain rows (no ORM object per entry), with
        ``request`` and ``response`` as JSON text."""
        query = select(*_LOG_COLUMNS).where(Decision.session_id == record.id, Decision.sequence > after_sequence,
                                            Decision.sequence <= last_sequence)
        if kinds:
            query = query.where(Decision.kind.in_(kinds))
        if since is not None:
            query = query.where(Decision.created_at >= since)
        if until is not None:
            query = query.where(Decision.created_at < until)
        return list(self.db.execute(query.order_by(Decision.sequence).limit(limit)))

    def count_decisions(self, record: SessionRecord, kind: str) -> int:
        return self.db.scalar(
            select(func.count()).select_from(Decision).where(
                Decision.session_id == record.id, Decision.kind == kind
            )
        ) or 0

    # -- blobs -------------------------------------------------------------------------------

    def put_blob(self, record: SessionRecord, name: str, values: dict[str, np.ndarray],
                 meta: dict[str, Any] | None = None) -> SessionBlob:
        blob = self.db.get(SessionBlob, (record.id, name))
        data = arrays.pack(values)
        if blob is None:
            blob = SessionBlob(session_id=record.id, name=name, data=data, meta=meta or {}, version=1)
            self.db.add(blob)
        else:
            blob.data, blob.meta, blob.version = data, meta or {}, blob.version + 1
        self.db.flush()
        return blob

    def get_blob(self, record: SessionRecord, name: str) -> tuple[dict[str, np.ndarray], SessionBlob] | None:
        blob = self.db.get(SessionBlob, (record.id, name))
        if blob is None:
            return None
        return arrays.unpack(blob.data), blob
