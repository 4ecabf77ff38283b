"""The framework's limit: a bare FastAPI app whose one sync POST does one SQLite write.

It is served as ``python -m service serve`` serves the service — one uvicorn
process, no access log, uvloop and httptools when installed (uvicorn's "auto")
— and its database is set up as SPEC §6 sets up ours (WAL, ``synchronous=NORMAL``,
``busy_timeout`` 5 s, ``BEGIN IMMEDIATE``), so the load benchmark can report each
scenario's throughput as a share of what FastAPI + SQLAlchemy + SQLite can do on
this machine at all. ``--database-url`` writes to PostgreSQL instead (its own
table in the service's database, a pool as large as the threads that use it), for
the load benchmark's PostgreSQL configurations. ``--raw`` serves a fixed answer
with no framework at all, to measure what the load client itself can generate::

    .venv/bin/python -m bench.bare_app --port 8100 --database /tmp/bare.db
    .venv/bin/python -m bench.bare_app --port 8100 --database-url postgresql+psycopg://postgres@127.0.0.1:5432/x
    .venv/bin/python -m bench.bare_app --port 8100 --raw
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel
from sqlalchemy import create_engine, event
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

__all__ = ["BARE_PATH", "create_app", "main"]

BARE_PATH = "/v1/bare"
RAW_RESPONSE = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                b"content-length: 15\r\n\r\n{\"status\":\"ok\"}")


class Base(DeclarativeBase):
    pass


class Row(Base):
    __tablename__ = "bare_rows"

    id: Mapped[int] = mapped_column(primary_key=True)
    value: Mapped[int]
    created_at: Mapped[float]


class Payload(BaseModel):
    value: int = 0


def _sqlite_engine(path: str) -> Any:
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=5000"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


PG_POOL = 40  # = anyio's thread limit: no sync endpoint ever waits for a connection


def _engine(database: str) -> Any:
    """A SQLite file path, or a PostgreSQL URL (``postgresql+psycopg://...``)."""
    if "://" not in database:
        return _sqlite_engine(database)
    return create_engine(database, pool_size=PG_POOL, max_overflow=0, pool_pre_ping=True)


def create_app(database: str) -> FastAPI:
    """The bare app; its engine is built in the lifespan, as the service's is."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = _engine(database)
        Base.metadata.create_all(engine)
        app.state.sessions = sessionmaker(engine, expire_on_commit=False)
        try:
            yield
        finally:
            engine.dispose()

    app = FastAPI(title="bare baseline", lifespan=lifespan)

    @app.post(BARE_PATH)
    def write(payload: Payload, request: Request) -> dict[str, int]:
        """Insert one row in one transaction."""
        with request.app.state.sessions.begin() as session:
            row = Row(value=payload.value, created_at=time.time())
            session.add(row)
            session.flush()
            return {"id": row.id, "value": row.value}

    @app.get("/healthz")
    def health() -> dict[str, str]:
        """The process is alive."""
        return {"status": "ok"}

    return app


async def _serve_raw(host: str, port: int) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                for line in head.split(b"\r\n"):
                    if line[:15].lower() == b"content-length:" and int(line[15:]) > 0:
                        await reader.readexactly(int(line[15:]))
                writer.write(RAW_RESPONSE)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, host, port)
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bare_app", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", help="SQLite file (this or --database-url, unless --raw)")
    parser.add_argument("--database-url", help="PostgreSQL URL, e.g. postgresql+psycopg://user@host:port/db")
    parser.add_argument("--raw", action="store_true", help="no framework: a fixed answer to every request")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    if args.raw:
        from bench.load_client import run

        run(_serve_raw(args.host, args.port))
        return
    if bool(args.database) == bool(args.database_url):
        parser.error("give one of --database (SQLite file) and --database-url (PostgreSQL), unless --raw")
    import uvicorn

    uvicorn.run(create_app(args.database or args.database_url), host=args.host, port=args.port,
                log_level=args.log_level, access_log=False)


if __name__ == "__main__":
    main()
