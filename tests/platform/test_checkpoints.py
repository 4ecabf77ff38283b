"""SQLite's WAL checkpoints run on the API's own thread, never inside a request's commit."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import text

from service.checkpoints import Checkpointer
from service.db import make_engine
from tests.conftest import on_postgres

pytestmark = pytest.mark.skipif(on_postgres(), reason="SQLite's write-ahead log")

ROWS, ROW_BYTES = 3_000, 2_000  # about 6 MB: six times SQLite's automatic threshold of 1,000 pages


def _fill(path: Path) -> None:
    """Commits that take the log far past SQLite's automatic threshold on connections that never checkpoint."""
    engine = make_engine(f"sqlite:///{path}", background_checkpoints=True)
    with engine.begin() as db:
        db.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)"))
    for _ in range(0, ROWS, 500):
        with engine.begin() as db:
            db.execute(text("INSERT INTO t (body) VALUES (:body)"), [{"body": "x" * ROW_BYTES}] * 500)
    with engine.connect() as db:
        assert db.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        assert db.exec_driver_sql("SELECT count(*) FROM t").scalar() == ROWS
    engine.dispose(close=False)  # closing the last connection would checkpoint the log itself


def test_request_connections_leave_the_log_to_the_checkpointer(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    _fill(path)
    wal = path.with_name("wal.db-wal")
    # Nothing copied the rows into the database file: they are only in the log.
    assert path.stat().st_size < 100_000 < ROWS * ROW_BYTES <= wal.stat().st_size
    checkpointer = Checkpointer(str(path), interval=0.05).start()
    try:
        deadline = time.monotonic() + 10
        while checkpointer.checkpoints == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        checkpointer.stop()
    assert checkpointer.checkpoints >= 1
    assert path.stat().st_size >= ROWS * ROW_BYTES  # the rows are in the database file now


def test_the_api_runs_one_checkpointer_on_its_sqlite_file(client, app, settings) -> None:
    assert client.get("/healthz").status_code == 200
    checkpointer = app.state.checkpointer
    assert checkpointer is not None and checkpointer.path == settings.database_url.removeprefix("sqlite:///")
    with app.state.engine.connect() as db:
        assert db.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
