"""Fixtures: a fresh migrated database per test (SQLite by default, PostgreSQL when
``FAIRACQ_TEST_DATABASE_URL`` is set), settings tuned for fast jobs, the app and a client."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker

import service.models  # noqa: F401
from service.app import create_app
from service.db import Base, make_engine, make_sessionmaker
from service.migrations import upgrade
from service.settings import Settings
from tests.factories import ApiClient
from tests.live import running

POSTGRES_URL = os.environ.get("FAIRACQ_TEST_DATABASE_URL")
# Tests run the service as `make serve` does, keyless in open mode (tests of keys create them);
# the servers they start as subprocesses inherit it.
os.environ.setdefault("FAIRACQ_OPEN_MODE", "true")


def on_postgres() -> bool:
    return bool(POSTGRES_URL)


@pytest.fixture(scope="session")
def _migrated_template(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Migrate once per run: a template SQLite file, or the PostgreSQL test database."""
    if POSTGRES_URL:
        upgrade(POSTGRES_URL)
        return POSTGRES_URL
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade(f"sqlite:///{path}")
    return str(path)


@pytest.fixture
def database_url(_migrated_template: str, tmp_path: Path) -> str:
    """A fresh database at head for this test."""
    if POSTGRES_URL:
        engine = make_engine(POSTGRES_URL)
        tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
        with engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {tables} CASCADE"))
        engine.dispose()
        return POSTGRES_URL
    path = tmp_path / "test.db"
    shutil.copy(_migrated_template, path)
    return f"sqlite:///{path}"


def fast_settings(database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": database_url,
        "job_heartbeat_seconds": 0.2,
        "job_lease_seconds": 2.0,
        "job_poll_seconds": 0.05,
        "job_backoff_seconds": 0.1,
        "enable_diagnostic_jobs": True,
        "open_mode": True,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
def settings(database_url: str) -> Settings:
    return fast_settings(database_url)


@pytest.fixture
def app(settings: Settings):
    return create_app(settings)


@pytest.fixture
def client(app) -> Iterator[ApiClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield ApiClient(test_client)


@pytest.fixture
def worker(database_url, tmp_path):
    """A real ``python -m service worker`` process with fast job timing; its log is printed."""
    log_path = tmp_path / "worker.log"
    env = {"FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.2", "FAIRACQ_JOB_LEASE_SECONDS": "5", "FAIRACQ_JOB_POLL_SECONDS": "0.05",
           "OMP_NUM_THREADS": "1"}
    with running(["worker"], database_url, log_path, env) as proc:
        yield proc
    print(log_path.read_text()[-4000:])


@pytest.fixture
def sessions(settings: Settings) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(settings.database_url)
    yield make_sessionmaker(engine)
    engine.dispose()
