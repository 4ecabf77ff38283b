"""Alembic helpers: the config for a URL, upgrading to head, and the current revision."""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

from alembic import command

__all__ = ["alembic_config", "current_revision", "head_revision", "upgrade"]

from functools import lru_cache

from alembic.script import ScriptDirectory


def script_location() -> Path:
    """``alembic/`` beside the package (a checkout), else in the working directory (an install)."""
    beside = Path(__file__).resolve().parent.parent / "alembic"
    return beside if beside.is_dir() else Path.cwd() / "alembic"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(script_location()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


@lru_cache
def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()
