"""Database plumbing: declarative base, engines per dialect, and the request's transaction.

SQLite (embedded default): WAL, ``synchronous=NORMAL``, ``busy_timeout`` 5 s,
foreign keys on, and ``BEGIN IMMEDIATE`` for transactions that write, so that
concurrent writers queue on the database lock instead of failing on upgrade.
PostgreSQL: ``pool_pre_ping`` and, for API connections, a statement timeout and
a lock timeout.

One transaction per request: :class:`service.routing.ServiceRoute` opens the
session, the ``SessionDep`` dependency hands it to the route, and the route class
commits once the response has been built — before anything is sent — or rolls
back on error. Services and repositories flush, never commit.

On SQLite the API's writers also pass this process's write gate (service.write_gate).
"""

from __future__ import annotations

import logging
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy import CursorResult, DateTime, Engine, MetaData, Result, Table, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator

__all__ = [
    "ON_LOOP",
    "Base",
    "SessionDep",
    "UTCDateTime",
    "make_engine",
    "make_reader_sessionmaker",
    "make_sessionmaker",
    "new_id",
    "read_only",
    "retrying",
    "rowcount",
    "sqlite_file",
    "table_of",
    "transaction",
    "utcnow",
]

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
T = TypeVar("T")
log = logging.getLogger(__name__)
# Background writes are retried on a lost connection for this long: a PostgreSQL restart
# takes a few seconds, a failover under a minute.
TRANSIENT_RETRY_S = 60.0
SQLITE_BUSY_TIMEOUT_MS = 5_000
PG_CONNECT_TIMEOUT_S = 5
# Set while a request's work runs on the event loop, where nothing may block.
ON_LOOP: ContextVar[bool] = ContextVar("fairacq_on_loop", default=False)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on both dialects (SQLite stores them naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> uuid.UUID:
    return uuid.uuid4()


def table_of(model: type[Base]) -> Table:
    """A mapped class's table, typed as one (declarative classes type ``__table__`` as any FROM clause)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


def rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE or DELETE matched: ``Session.execute`` returns a CursorResult, typed as a Result."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def make_engine(url: str, *, statement_timeout_ms: int | None = None,
                lock_timeout_ms: int | None = None, pool_size: int = 10,
                background_checkpoints: bool = False) -> Engine:
    """An engine configured for its dialect (see the module docstring).

    ``background_checkpoints``: SQLite only, its connections never checkpoint the WAL
    themselves (a :class:`service.checkpoints.Checkpointer` does).
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # No cap on connections (max_overflow=-1): a request on the event loop (a light
        # endpoint) must never wait for the pool, or the requests holding its connections
        # could not be resumed to give them back. A SQLite connection is a file handle.
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               pool_size=pool_size, max_overflow=-1)
        _configure_sqlite(engine, background_checkpoints)
        return engine
    options = []
    if statement_timeout_ms:
        options.append(f"-c statement_timeout={statement_timeout_ms}")
    if lock_timeout_ms:
        options.append(f"-c lock_timeout={lock_timeout_ms}")
    # A database that silently drops packets must not hang a request for minutes.
    # UTF-8 whatever the server's default: a SQL_ASCII database would hand text back as bytes.
    connect_args: dict[str, Any] = {"connect_timeout": PG_CONNECT_TIMEOUT_S, "client_encoding": "utf8"}
    if options:
        connect_args["options"] = " ".join(options)
    if parsed.drivername in ("postgresql", "postgres"):
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return create_engine(
        url, pool_pre_ping=True, pool_size=pool_size, max_overflow=pool_size, connect_args=connect_args
    )


def sqlite_file(url: str) -> str | None:
    """The database file of a SQLite URL (None for PostgreSQL or an in-memory database)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return parsed.database


def _configure_sqlite(engine: Engine, background_checkpoints: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        if background_checkpoints:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Straight to the driver: these run once per transaction, and SQLAlchemy's
        # statement machinery cost ten times the statements themselves.
        driver = connection.connection.driver_connection
        mode = connection.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        try:
            if mode == "IMMEDIATE" and ON_LOOP.get():
                # On the event loop a busy database must fail at once, never wait: the caller
                # then runs the work on a thread (see service.routing).
                driver.execute("PRAGMA busy_timeout=0")
                try:
                    driver.execute("BEGIN IMMEDIATE")
                finally:
                    driver.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
                return
            driver.execute(f"BEGIN {mode}")
        except sqlite3.OperationalError as exc:  # as SQLAlchemy would have raised it
            raise OperationalError(f"BEGIN {mode}", None, exc) from exc


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False, autoflush=True)


def make_reader_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions whose transactions start as readers (SQLite ``BEGIN DEFERRED``).

    Unlike :func:`read_only` this takes no connection up front: the first query does,
    in whatever thread runs it.
    """
    return make_sessionmaker(engine.execution_options(sqlite_begin="DEFERRED"))


def read_only(session: Session) -> Session:
    """Let this session's next transaction start as a reader (SQLite ``BEGIN DEFERRED``)."""
    session.connection(execution_options={"sqlite_begin": "DEFERRED"})
    return session


def retrying(fn: Callable[[], T], *, within: float = TRANSIENT_RETRY_S, what: str = "a database write") -> T:
    """Run ``fn`` (a whole transaction), again on a lost connection, for up to ``within`` seconds.

    For background writes whose loss would cost a job attempt or hold a lock (a job's
    progress and result, a worker's record of an outcome, an idempotency claim's
    release) while the database restarts. ``fn`` must be safe to repeat: a transaction
    that failed committed nothing.
    """
    deadline = time.monotonic() + within
    delay = 0.2
    while True:
        try:
            return fn()
        except (OperationalError, InterfaceError) as exc:
            if time.monotonic() + delay > deadline:
                raise
            log.warning("%s failed (%s); retrying in %.1f s", what, type(exc).__name__, delay)
            time.sleep(delay)
            delay = min(delay * 2, 5.0)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work outside a request (workers, CLI): commit on success, else roll back."""
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


async def get_db(request: Request) -> Session:
    """The request's session, opened by :class:`service.routing.ServiceRoute`.

    ``async`` because it does no I/O: a sync dependency would cost a thread hop.
    """
    return request.state.db


SessionDep = Annotated[Session, Depends(get_db)]
