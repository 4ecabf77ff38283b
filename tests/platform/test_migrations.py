"""``alembic upgrade head`` on an empty database gives exactly the models (both dialects)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

import service.models  # noqa: F401
from service.db import Base, make_engine
from service.migrations import upgrade
from tests.conftest import POSTGRES_URL


def _empty_database(tmp_path) -> str:
    if POSTGRES_URL:
        engine = make_engine(POSTGRES_URL)
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA IF EXISTS migration_check CASCADE"))
            connection.execute(text("CREATE SCHEMA migration_check"))
        engine.dispose()
        sep = "&" if "?" in POSTGRES_URL else "?"
        return f"{POSTGRES_URL}{sep}options=-csearch_path%3Dmigration_check"
    return f"sqlite:///{tmp_path / 'empty.db'}"


def test_upgrade_head_matches_the_models(tmp_path):
    url = _empty_database(tmp_path)
    upgrade(url)
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
            assert set(Base.metadata.tables) <= tables
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()
