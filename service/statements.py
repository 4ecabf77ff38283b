"""The per-decision path's statements, compiled once per dialect and run on the transaction's own connection.

A decision writes a few one-row statements (the session's row, its log entry, its
reservation). Through ``Session.execute`` each costs SQLAlchemy's per-call work —
cache key, execution context, result wrapping, session bookkeeping — about ten
times what SQLite takes to run it, and on the load benchmark that was most of a
decision. A :class:`Statement` is an ordinary Core statement, built with the tables'
own columns, compiled once per dialect by SQLAlchemy, and run on the DBAPI
connection of the session's current transaction (so it commits or rolls back with
everything else the request wrote). Values go through the dialect's own bind
processors and result columns through its result processors, so UUIDs, JSON and
UTC datetimes are stored and read exactly as ``Session.execute`` would; a DBAPI error
is raised as SQLAlchemy's (``IntegrityError``, ``OperationalError``, …), as it would
have been. Pending ORM changes are flushed first, as ``Session.execute`` autoflushes, and
the engine's ``before_cursor_execute`` / ``after_cursor_execute`` listeners (tests,
instrumentation) see each statement as they would.

Use it for statements that run once per decision; everything else stays on
``Session.execute``, whose flexibility costs nothing there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

__all__ = ["Statement"]

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Compiled:
    sql: str
    keys: tuple[str, ...]  # the caller's parameter names, in the order the DBAPI takes them
    names: tuple[str, ...]  # the compiled names the SQL uses (named paramstyles)
    binds: tuple[Processor, ...]
    defaults: tuple[Any, ...]  # a bound literal's value where the caller gives none
    results: tuple[Processor, ...]
    positional: bool


_NO_DEFAULT = object()


class Statement:
    """A Core statement run with SQLAlchemy's compilation and types, without its per-call machinery.

    ``column_keys`` names the columns an INSERT or UPDATE without explicit values sets.
    """

    def __init__(self, statement: Executable, column_keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.column_keys = None if column_keys is None else list(column_keys)
        self._compiled: dict[str, _Compiled] = {}

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect.name)
        if compiled is not None:
            return compiled
        c = self.statement.compile(dialect=dialect, column_keys=self.column_keys)  # type: ignore[attr-defined]
        names = tuple(c.positiontup) if dialect.positional else tuple(c.binds)
        binds = [c.binds[name] for name in names]
        results: tuple[Processor, ...] = ()
        if isinstance(self.statement, Select):
            results = tuple(col.type.dialect_impl(dialect).result_processor(dialect, None)
                            for col in self.statement.selected_columns)
        compiled = _Compiled(
            sql=c.string, keys=tuple(b.key for b in binds), names=names,
            binds=tuple(b.type.dialect_impl(dialect).bind_processor(dialect) for b in binds),
            defaults=tuple(b.effective_value if b.value is not None or b.callable else _NO_DEFAULT for b in binds),
            results=results, positional=dialect.positional)
        self._compiled[dialect.name] = compiled
        return compiled

    def _parameters(self, compiled: _Compiled, values: Mapping[str, Any]) -> Any:
        row = []
        for key, process, default in zip(compiled.keys, compiled.binds, compiled.defaults, strict=True):
            value = values[key] if key in values or default is _NO_DEFAULT else default
            row.append(value if process is None else process(value))
        return tuple(row) if compiled.positional else dict(zip(compiled.names, row, strict=True))

    def _run(self, db: Session, values: Sequence[Mapping[str, Any]], many: bool) -> tuple[Any, _Compiled]:
        if db.new or db.dirty or db.deleted:
            db.flush()  # as Session.execute's autoflush would
        connection = db.connection()
        dialect = connection.dialect
        compiled = self._compile(dialect)
        parameters = [self._parameters(compiled, v) for v in values]
        cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        sent = parameters if many else parameters[0]
        dispatch = connection.dispatch
        listened = bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)  # (tests, instrumentation)
        for before in dispatch.before_cursor_execute if listened else ():
            before(connection, cursor, compiled.sql, sent, None, many)
        try:
            if many:
                cursor.executemany(compiled.sql, sent)
            else:
                cursor.execute(compiled.sql, sent)
        except dialect.loaded_dbapi.Error as exc:
            cursor.close()
            raise DBAPIError.instance(compiled.sql, sent, exc, dialect.loaded_dbapi.Error, dialect=dialect) from exc
        for after in dispatch.after_cursor_execute if listened else ():
            after(connection, cursor, compiled.sql, sent, None, many)
        return cursor, compiled

    def execute(self, db: Session, values: Mapping[str, Any]) -> int:
        """Run it once; the rows it changed."""
        cursor, _ = self._run(db, [values], many=False)
        count: int = cursor.rowcount
        cursor.close()
        return count

    def executemany(self, db: Session, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run it once per row of values (one DBAPI ``executemany``)."""
        if rows:
            self._run(db, rows, many=len(rows) > 1)[0].close()

    def first(self, db: Session, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """A SELECT's first row, its columns read as their types read them (None: no row)."""
        cursor, compiled = self._run(db, [values], many=False)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        if row is None:
            return None
        return tuple(value if process is None else process(value)
                     for value, process in zip(row, compiled.results, strict=True))
