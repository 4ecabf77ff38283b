"""Command line: ``python -m service serve | worker | migrate | export-openapi | create-api-key | list-api-keys |
revoke-api-key | rotate-api-key | labelstudio``."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from pathlib import Path

__all__ = ["main"]

log = logging.getLogger("service")
OPENAPI_PATH = Path("openapi") / "openapi.json"
# How long `serve` lets requests in flight finish after SIGTERM.
SHUTDOWN_GRACE_S = 10


def _migrate(url: str) -> None:
    from service.migrations import upgrade

    upgrade(url)


def _any_key(url: str) -> bool:
    from sqlalchemy import inspect, select

    from service.auth import ApiKey
    from service.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table("api_keys"):
                return False
            return connection.execute(select(ApiKey.id).limit(1)).first() is not None
    finally:
        engine.dispose()


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from service import tracing
    from service.app import create_app
    from service.http_protocol import protocol_class, raise_file_limit
    from service.jobs.supervisor import Supervisor
    from service.settings import get_settings

    settings = get_settings()
    host = args.host or settings.host
    port = args.port or settings.port
    workers = settings.workers if args.workers is None else args.workers
    if settings.is_sqlite:
        _migrate(settings.database_url)  # embedded mode: nothing else to run first
    if not _any_key(settings.database_url):
        if not settings.open_mode:
            log.error("no API key exists, so every request would be refused. Create one with "
                      "`fairacq create-api-key --tenant NAME` (in docker compose: `docker compose run --rm api "
                      "fairacq create-api-key --tenant NAME`), or set FAIRACQ_OPEN_MODE=true to serve without "
                      "keys, every request acting as tenant 'default'.")
            return 2
        log.warning("OPEN MODE (FAIRACQ_OPEN_MODE=true, no API key exists): every request acts as tenant "
                    "'default' on http://%s:%d", host, port)
    app = create_app(settings)
    supervisor = Supervisor(settings, workers) if workers else None
    app.state.supervisor = supervisor
    # uvicorn shuts down gracefully on SIGTERM, then raises the signal again for the handler
    # that was there before it: this one, so the process returns here and stops its workers.
    signal.signal(signal.SIGTERM, lambda *_: None)
    if supervisor is not None:
        supervisor.start()
        log.info("started %d worker process(es)", workers)
    log.info("API on http://%s:%d (docs at /docs)", host, port)
    raise_file_limit()
    try:
        uvicorn.run(app, host=host, port=port, log_level=args.log_level, access_log=False, log_config=None,
                    http=protocol_class(settings.header_timeout_seconds), timeout_graceful_shutdown=SHUTDOWN_GRACE_S)
    finally:
        if supervisor is not None:
            supervisor.stop()
        tracing.shutdown()
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from service.jobs.supervisor import run_workers
    from service.settings import get_settings

    run_workers(get_settings(), args.processes)
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from service.settings import get_settings

    _migrate(get_settings().database_url)
    print("database is at head")
    return 0


def cmd_export_openapi(args: argparse.Namespace) -> int:
    from service.openapi import openapi_document

    path = Path(args.output)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fairacq", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API and worker processes")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int, help="worker processes (default: FAIRACQ_WORKERS)")
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(func=cmd_serve)
    worker = sub.add_parser("worker", help="run job workers only (scale-out)")
    worker.add_argument("--processes", type=int, default=1)
    worker.set_defaults(func=cmd_worker)
    sub.add_parser("migrate", help="upgrade the database to head").set_defaults(func=cmd_migrate)
    export = sub.add_parser("export-openapi", help="write the OpenAPI document")
    export.add_argument("--output", default=str(OPENAPI_PATH))
    export.set_defaults(func=cmd_export_openapi)
    from service.keys.cli import add_commands as add_key_commands

    add_key_commands(sub)
    from service.labelstudio.setup import add_commands as add_labelstudio_commands  # (imports no SDK yet)

    add_labelstudio_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from service import tracing
    from service.logs import configure_logging
    from service.settings import get_settings

    args = build_parser().parse_args(argv)
    settings = get_settings()
    configure_logging(settings.log_format, getattr(logging, str(getattr(args, "log_level", "info")).upper()))
    if args.command in ("serve", "worker"):
        tracing.configure(settings.otel_exporter, f"fairacq-{args.command}")
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
