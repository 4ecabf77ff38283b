"""The schema's migrations, shipped inside the package so an installed service can migrate.

``env.py``, ``script.py.mako`` and ``versions/`` are Alembic's script directory;
``alembic.ini`` at the repository root points here for developers who run the
``alembic`` command. The service itself never reads an ini file: it builds the
config from this folder and the database URL.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

__all__ = ["SCRIPT_LOCATION", "alembic_config", "current_revision", "head_revision", "upgrade"]

SCRIPT_LOCATION = Path(__file__).resolve().parent


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


@lru_cache
def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
