"""``create_app()``: engine in the lifespan, routers, middleware and problem+json handlers."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi_offline import FastAPIOffline
from sqlalchemy.exc import OperationalError

import service.models  # noqa: F401  (registers every table)
from service import __version__
from service.auth import TenantCache, ensure_default_tenant
from service.checkpoints import Checkpointer
from service.datasets.router import router as datasets_router
from service.db import make_engine, make_reader_sessionmaker, make_sessionmaker, sqlite_file
from service.exports.router import router as exports_router
from service.fairness_metrics.router import router as metrics_router
from service.handlers import install_handlers
from service.jobs.router import router as jobs_router
from service.jobs.waiter import JobWaiter
from service.keys.router import router as keys_router
from service.labelstudio.router import router as labelstudio_router
from service.middleware import BodyGuard, RequestContext
from service.ops.metrics import REGISTRY, JobCollector
from service.ops.router import router as ops_router
from service.quotas import RateLimiter
from service.resources import routers
from service.settings import Settings, get_settings
from service.ui.router import router as ui_router
from service.webhooks.router import routers as webhook_routers
from service.write_gate import WriteGate

__all__ = ["create_app"]

log = logging.getLogger(__name__)

DESCRIPTION = """\
Fairness-aware data-acquisition decisions for labeling pipelines: which group to
sample next, which pool partition to acquire, whether to accept a candidate whose
group is unknown, how to compose the next epoch's batches, and fair regressors.

Errors are `application/problem+json`. Send `Idempotency-Key` on POSTs that create
or submit work; retried reports with the same client id count once.
"""


DOCS_ASSETS = "/docs-assets"


def _operation_id(route: APIRoute) -> str:
    return route.name


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    checkpoint_file = sqlite_file(settings.database_url)
    engine = make_engine(settings.database_url, statement_timeout_ms=settings.statement_timeout_ms,
                         lock_timeout_ms=settings.lock_timeout_ms, background_checkpoints=checkpoint_file is not None)
    app.state.engine = engine
    app.state.sessions = make_sessionmaker(engine)
    app.state.readers = make_reader_sessionmaker(engine)
    app.state.write_gate = WriteGate() if settings.is_sqlite else None
    if app.state.write_gate is not None:
        app.state.write_gate.install(engine)
    app.state.job_waiter = JobWaiter(app.state.readers)
    try:
        ensure_default_tenant(app.state.sessions)
    except OperationalError:  # the schema is not migrated yet: /readyz says so
        log.warning("could not create the default tenant; is the database migrated?")
    checkpointer = None if checkpoint_file is None else Checkpointer(checkpoint_file).start()
    app.state.checkpointer = checkpointer
    collector = JobCollector(engine)
    REGISTRY.register(collector)
    # Everything imported so far lives for the process: move it out of the collector's
    # reach so full collections stay short on the hot paths (large decision calls).
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        REGISTRY.unregister(collector)
        if checkpointer is not None:
            checkpointer.stop()
        engine.dispose()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    # Swagger UI and ReDoc from the assets fastapi-offline ships: /docs works offline.
    app = FastAPIOffline(
        static_url=DOCS_ASSETS,
        title="Fair data-acquisition decision service",
        version=__version__,
        description=DESCRIPTION,
        lifespan=_lifespan,
        generate_unique_id_function=_operation_id,
    )
    app.state.settings = settings
    app.state.tenant_cache = TenantCache()
    app.state.tenant_lookups = {}  # service.auth: a key's lookup in flight, shared by the requests that wait on it
    app.state.rate_limiter = RateLimiter(settings.rate_limit_per_second, settings.rate_limit_burst)

    install_handlers(app)
    # Routes are matched in order, one regex each: the per-decision routes of the session
    # resources go first, since they take the most requests.
    for router in (*routers(), datasets_router, exports_router, jobs_router, *webhook_routers, keys_router,
                   metrics_router, ops_router, ui_router):
        app.include_router(router)
    app.include_router(labelstudio_router)  # an integration, not a decision type: docs/labelstudio.md
    # The last added runs first: the request's context wraps everything, the body guard the app.
    app.add_middleware(BodyGuard, max_bytes=settings.max_body_bytes, timeout=settings.body_timeout_seconds,
                       min_rate=settings.body_min_bytes_per_second)
    app.add_middleware(RequestContext)
    return app
