"""The life of a ``/v1`` request: one path for every route, in this order.

::

    ASGI middleware (service.middleware)
      RequestContext    X-Request-ID in and out, one JSON log line, latency metric, trace span
      BodyGuard         Content-Length over the limit: 413; a body slower than its deadline: 408
    ServiceRoute (this module), before FastAPI sees the request
      1. authenticate   the tenant from ``Authorization`` (cached; a miss is a read, never a lock): 401
      2. admit          the tenant's request rate (service.quotas): 429 + Retry-After
      3. read the body  whole, under the size limit and deadline, before any lock; a body FastAPI
                        parses (not a RawBody) has FAIRACQ_MAX_JSON_BODY_BYTES; JSON-only, not JSON: 415
      4. idempotency    a POST with ``Idempotency-Key`` claims the key (its own short
                        transaction) or replays the stored response
    FastAPI             parses and validates the body, solves the dependencies
    the endpoint        (wrapped by this module)
      5. wait           an endpoint's declared pre-wait (``next?wait=`` for a fit), holding nothing
      6. run            in the thread pool; or, for a light endpoint on SQLite, on the event
                        loop (no thread hop), its BEGIN awaiting, never blocking on, the write
                        gate and another process's lock
    ServiceRoute, after the response is built and before it is sent
      7. finish         commit, with the idempotent response, or roll back

A writer's transaction on SQLite takes this process's write gate when it begins
(service.write_gate) and gives it back when it ends, so the gate spans the
transaction only: never a body being read, a client being authenticated or a
wait. Commits run on finisher threads of their own (see ``_finish``).

Endpoint markers (``read_only_endpoint``, ``light_endpoint``, ``wait_before``)
and how the route calls an endpoint (its session and tenant handed over, not
solved as dependencies) are in service.endpoints.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session, sessionmaker

from service import idempotency
from service.auth import authenticate
from service.db import ON_LOOP, retrying
from service.endpoints import SCOPE, Options, Scope, bind
from service.errors import PayloadTooLarge
from service.media import require_json
from service.quotas import admit

__all__ = ["REPLAY_HEADER", "ServiceRoute", "commit_and_close", "rollback_and_close"]

T = TypeVar("T")

log = logging.getLogger(__name__)
REPLAY_HEADER = "Idempotent-Replayed"
# Response headers worth replaying; the rest are recomputed by the server.
STORED_HEADERS = ("location", "etag", "content-type")
FINISHER_THREADS = 16  # at most this many commits at once; each takes a fraction of a millisecond


# Commits, rollbacks and claim releases run on threads of their own, not the pool that
# runs endpoints: a request holds its connection from its first query until this last
# hop, and if that hop queued behind endpoints waiting for a connection (PostgreSQL's
# pool is bounded), neither would ever move.
_FINISHERS = ThreadPoolExecutor(max_workers=FINISHER_THREADS, thread_name_prefix="fairacq-finish")


async def _finish(fn: Callable[..., T], *args: Any) -> T:
    """``fn`` on the event loop when this request runs there, else on a finisher thread."""
    if ON_LOOP.get():
        return fn(*args)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_FINISHERS, functools.partial(fn, *args))


def commit_and_close(db: Session, claim: idempotency.Claim | None = None, response: Response | None = None) -> None:
    """Store the idempotent response (if any) with the change, commit, close: one thread hop."""
    try:
        if claim is not None and response is not None:
            idempotency.complete(db, claim, response.status_code, _stored_headers(response), bytes(response.body))
        db.commit()
    finally:
        db.close()


def rollback_and_close(db: Session) -> None:
    try:
        db.rollback()
    finally:
        db.close()


def _stored_headers(response: Response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.lower() in STORED_HEADERS}


class ServiceRoute(APIRoute):
    """The route class of every ``/v1`` router (see the module docstring)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        self._original = endpoint
        self._options: Options | None = None
        super().__init__(path, bind(endpoint), **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            if self._options is None:  # read late, so markers above @router.post count too
                self._options = Options.of(self, self._original)
            token = ON_LOOP.set(False)
            try:
                return await _handle(handler, request, self._options)
            finally:
                ON_LOOP.reset(token)

        return route


async def _handle(handler: Callable[[Request], Awaitable[Response]], request: Request,
                  options: Options) -> Response:
    app = request.app
    settings = app.state.settings
    tenant = await authenticate(request)
    admit(request, tenant)
    limit = settings.max_body_bytes if options.raw_body else settings.max_json_body_bytes
    declared = request.headers.get("content-length", "")
    if (declared.isdigit() and int(declared) > limit) or len(await request.body()) > limit:
        # (the body is read under BodyGuard's limit and deadline, and cached for FastAPI)
        raise PayloadTooLarge(
            f"this operation takes a JSON body of at most {limit} bytes (FAIRACQ_MAX_JSON_BODY_BYTES); "
            "upload large tables with POST /v1/datasets and refer to them by id")
    if options.json_only:
        require_json(request.headers.get("content-type"))
    reader = options.read_only or request.method in ("GET", "HEAD")
    factory: sessionmaker[Session] = app.state.sessions
    claim = None
    key = request.headers.get(idempotency.HEADER)
    if request.method == "POST" and key is not None and not reader:
        print_ = idempotency.fingerprint(request.method, request.url.path, request.url.query, await request.body())
        claim = await run_in_threadpool(
            idempotency.claim, factory, tenant.id, key, print_,
            lock_seconds=settings.idempotency_lock_seconds, ttl_hours=settings.idempotency_ttl_hours,
        )
        if claim.replay is not None:
            record = claim.replay
            headers = idempotency.stored_headers(record)
            headers[REPLAY_HEADER] = "true"
            return Response(content=record.response_body, status_code=record.response_status or 200,
                            headers=headers)
    db = app.state.readers() if reader else factory()
    request.state.db = db
    SCOPE.set(Scope(request, options, None if reader else db, app.state.write_gate))
    closed = False
    try:
        response = await handler(request)
        if response.status_code < 400:
            await _finish(commit_and_close, db, claim, response)
            claim = None
        else:
            await _finish(rollback_and_close, db)
        closed = True
        return response
    finally:
        if not closed:
            await _finish(rollback_and_close, db)
        if claim is not None:
            try:
                await _finish(idempotency.release, factory, claim)
            except Exception:  # noqa: BLE001 - retried in the background; at worst its lock expires
                log.warning("could not release idempotency claim %s; retrying in the background", claim.key)
                _FINISHERS.submit(_release_later, factory, claim)


def _release_later(factory: sessionmaker[Session], claim: idempotency.Claim) -> None:
    """Release a claim once the database is back, so retries of its key need not wait out its lock."""
    try:
        retrying(functools.partial(idempotency.release, factory, claim), what="an idempotency claim's release")
    except Exception:  # noqa: BLE001 - the claim's lock expires on its own
        log.warning("gave up releasing idempotency claim %s; it expires with its lock", claim.key)
