"""Queries for balanced filters: the shared session repository plus the decided candidates.

A decisions call looks up and stores up to 10,000 candidate ids, so those two
queries take each dialect's fast path: SQLite inserts with the driver's
``executemany`` and binds a lookup's ids as one JSON array (``json_each``);
PostgreSQL inserts with ``COPY`` and binds one array (``= ANY``). Both run in
the request's transaction, on its connection.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from psycopg.errors import UniqueViolation
from sqlalchemy import String, bindparam, func, select, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from service.balanced_filters.models import KIND, FilterCandidate, SessionRecord
from service.db import table_of
from service.sessions.repository import SessionRepository

__all__ = ["BalancedFilterRepository", "StoredCandidate", "repository"]

TABLE = table_of(FilterCandidate)
COLUMNS = ("session_id", "candidate_id", "leaf", "accept", "sequence")
# Ids per lookup on other dialects (bound one by one): within SQLite's and PostgreSQL's parameter limits.
LOOKUP_CHUNK = 5_000
# COPY's text format: these characters in an id must be escaped.
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_COPY_SPECIAL = re.compile(r"[\\\t\n\r]")
_SQLITE_LOOKUP = text(
    "SELECT candidate_id, leaf, accept, outcome, sequence FROM filter_candidates "
    "WHERE session_id = :session_id AND candidate_id IN (SELECT value FROM json_each(:ids))"
)
_SQLITE_INSERT = f"INSERT OR IGNORE INTO filter_candidates ({', '.join(COLUMNS)}) VALUES (?, ?, ?, ?, ?)"
_PG_COPY = f"COPY filter_candidates ({', '.join(COLUMNS)}) FROM STDIN"


class StoredCandidate(NamedTuple):
    leaf: int
    accept: bool
    outcome: int | None
    sequence: int


class BalancedFilterRepository(SessionRepository):
    @property
    def dialect(self) -> str:
        return self.db.get_bind().dialect.name

    def _session_key(self, record: SessionRecord) -> Any:
        """``record.id`` as the driver stores it in ``filter_candidates.session_id``."""
        process = TABLE.c.session_id.type.bind_processor(self.db.get_bind().dialect)
        return process(record.id) if process is not None else record.id

    def delete_candidates(self, record: SessionRecord) -> None:
        """Delete the filter's decided candidates (no foreign key cascades them: ``models.py``)."""
        self.db.execute(TABLE.delete().where(TABLE.c.session_id == record.id))

    def find_candidates(self, record: SessionRecord, ids: Sequence[str]) -> dict[str, StoredCandidate]:
        """The stored decisions (and outcomes) of those ``ids`` this filter has decided."""
        if not ids:
            return {}
        if self.dialect == "sqlite":
            batches = [self.db.execute(_SQLITE_LOOKUP, {"session_id": self._session_key(record),
                                                        "ids": json.dumps(list(ids))})]
        else:
            columns = (TABLE.c.candidate_id, TABLE.c.leaf, TABLE.c.accept, TABLE.c.outcome, TABLE.c.sequence)
            query = select(*columns).where(TABLE.c.session_id == record.id)
            if self.dialect == "postgresql":
                wanted = bindparam("ids", type_=ARRAY(String))
                batches = [self.db.execute(query.where(TABLE.c.candidate_id == func.any(wanted)), {"ids": list(ids)})]
            else:
                batches = [self.db.execute(query.where(TABLE.c.candidate_id.in_(list(ids[lo:lo + LOOKUP_CHUNK]))))
                           for lo in range(0, len(ids), LOOKUP_CHUNK)]
        return {cid: StoredCandidate(leaf, bool(accept), outcome, sequence)
                for rows in batches for cid, leaf, accept, outcome, sequence in rows}

    def add_candidates(self, record: SessionRecord, ids: list[str], leaves: np.ndarray, accept: np.ndarray,
                       sequence: int) -> dict[str, StoredCandidate]:
        """Store the first decisions of distinct ``ids``; return those decided before (left as they were).

        Optimistic: most ids are new, so insert first and look up only when some
        already exist (SQLite skips them with ``OR IGNORE``; PostgreSQL's ``COPY``
        fails on the first and is retried, under a savepoint, with the new ids only).
        The caller holds the filter's row lock, so nothing else inserts meanwhile.
        """
        if not ids:
            return {}
        driver = self.db.connection().connection.driver_connection
        assert driver is not None, "a checked-out connection has its driver's"
        if self.dialect == "sqlite":
            key = self._session_key(record)
            before = driver.total_changes
            driver.executemany(_SQLITE_INSERT, zip([key] * len(ids), ids, leaves.tolist(), accept.tolist(),
                                                   [sequence] * len(ids), strict=True))
            if driver.total_changes - before == len(ids):
                return {}
            return {cid: s for cid, s in self.find_candidates(record, ids).items() if s.sequence != sequence}
        if self.dialect == "postgresql":
            try:
                with driver.transaction():  # a savepoint: a duplicate id rolls back this COPY only
                    self._copy(driver, record, ids, leaves, accept, sequence)
                return {}
            except UniqueViolation:
                pass
        earlier = self.find_candidates(record, ids)
        new = [i for i, cid in enumerate(ids) if cid not in earlier]
        if new:
            self._insert([ids[i] for i in new], leaves[new], accept[new], record, sequence, driver)
        return earlier

    def _insert(self, ids: list[str], leaves: np.ndarray, accept: np.ndarray, record: SessionRecord,
                sequence: int, driver: Any) -> None:
        if self.dialect == "postgresql":
            self._copy(driver, record, ids, leaves, accept, sequence)
            return
        key = self._session_key(record)
        self.db.connection().execute(TABLE.insert(), [
            dict(zip(COLUMNS, (key, cid, leaf, ok, sequence), strict=True))
            for cid, leaf, ok in zip(ids, leaves.tolist(), accept.tolist(), strict=True)])

    @staticmethod
    def _copy(driver: Any, record: SessionRecord, ids: list[str], leaves: np.ndarray, accept: np.ndarray,
              sequence: int) -> None:
        joined = "".join(ids)
        if _COPY_SPECIAL.search(joined):
            ids = [cid.translate(_COPY_ESCAPES) for cid in ids]
        prefix = f"{record.id}\t"
        tails = [[f"\t{leaf}\t{flag}\t{sequence}\n" for flag in "ft"] for leaf in range(int(leaves.max()) + 1)]
        data = "".join([prefix + cid + tails[leaf][ok]
                        for cid, leaf, ok in zip(ids, leaves.tolist(), accept.tolist(), strict=True)])
        with driver.cursor() as cursor, cursor.copy(_PG_COPY) as copy:
            copy.write(data)

    def set_outcomes(self, record: SessionRecord, outcomes: dict[str, int]) -> None:
        """Record the group (joint code) learned for each accepted candidate id."""
        if not outcomes:
            return
        statement = TABLE.update().where(
            TABLE.c.session_id == bindparam("key"), TABLE.c.candidate_id == bindparam("cid"),
        ).values(outcome=bindparam("code"))
        self.db.connection().execute(statement, [{"key": record.id, "cid": cid, "code": code}
                                                 for cid, code in outcomes.items()])


def repository(db: Session, tenant_id: uuid.UUID) -> BalancedFilterRepository:
    return BalancedFilterRepository(db, tenant_id, KIND)
