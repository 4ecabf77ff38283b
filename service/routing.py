"""The route class every ``/v1`` router uses: one transaction per request, and idempotency.

The handler's session is opened here and committed after the response is
built but before it is sent, so a client never sees success for a change that
did not commit. POSTs with an ``Idempotency-Key`` are claimed first and their
response is stored in the same transaction as the change (see
``service.idempotency``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, nullcontext
from contextvars import ContextVar
from typing import Any, TypeVar

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session, sessionmaker

from service import idempotency
from service.auth import CurrentTenant, resolve_tenant
from service.db import transaction
from service.errors import ServiceError

__all__ = ["TransactionalRoute", "light_endpoint", "read_only_endpoint"]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

log = logging.getLogger(__name__)
REPLAY_HEADER = "Idempotent-Replayed"
# Response headers worth replaying; the rest are recomputed by the server.
STORED_HEADERS = ("location", "etag", "content-type")
FINISHER_THREADS = 16  # at most this many commits at once; each takes a fraction of a millisecond
# Set for the request being handled when its sync work runs on the event loop (see light_endpoint).
_ON_LOOP: ContextVar[bool] = ContextVar("fairacq_on_loop", default=False)


def read_only_endpoint(fn: F) -> F:
    """Mark a POST that writes nothing (a stateless computation): it runs as a reader."""
    fn.__read_only__ = True  # type: ignore[attr-defined]
    return fn


def light_endpoint(fn: F) -> F:
    """Mark a sync endpoint whose work is O(session state): one decision or one report.

    On SQLite such a request runs on the event loop, with no thread hop: its writes
    queue on the process's write gate anyway and the GIL lets no thread run beside it,
    so a hop to the pool and back (for the endpoint, then for the commit) would only
    add the hop's own cost to a request that takes a fraction of a millisecond. On
    PostgreSQL, whose calls wait on the network, it runs in the thread pool like
    every other endpoint.
    """
    fn.__light__ = True  # type: ignore[attr-defined]
    return fn


async def _run(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn`` on the event loop when this request runs there, else in the thread pool."""
    if _ON_LOOP.get():
        return fn(*args, **kwargs)
    return await run_in_threadpool(fn, *args, **kwargs)


# Commits, rollbacks and claim releases run on threads of their own, not the pool that
# runs endpoints: a request holds its connection from its first query until this last
# hop, and if that hop queued behind endpoints waiting for a connection (PostgreSQL's
# pool is bounded), neither would ever move.
_FINISHERS = ThreadPoolExecutor(max_workers=FINISHER_THREADS, thread_name_prefix="fairacq-finish")


async def _finish(fn: Callable[..., T], *args: Any) -> T:
    """``fn`` on the event loop when this request runs there, else on a finisher thread."""
    if _ON_LOOP.get():
        return fn(*args)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_FINISHERS, functools.partial(fn, *args))


def _as_coroutine(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A sync endpoint seen by FastAPI as ``async``: :func:`_run` decides where it runs.

    FastAPI validates a sync endpoint's return value in a second thread hop; as a
    coroutine its (small) response is validated on the loop. The signature, the
    docstring and the return annotation FastAPI reads are the endpoint's own
    (``functools.wraps``; FastAPI unwraps ``__wrapped__``).
    """

    @functools.wraps(endpoint)
    async def call(**kwargs: Any) -> Any:
        return await _run(endpoint, **kwargs)

    return call


def _tenant_for(factory: sessionmaker[Session], authorization: str | None, open_mode: bool) -> CurrentTenant | None:
    try:
        with transaction(factory) as db:
            return resolve_tenant(db, authorization, open_mode=open_mode)
    except ServiceError:
        return None  # the route's own auth dependency answers 401


def _commit_and_close(db: Session, claim: idempotency.Claim | None, response: Response) -> None:
    """Store the idempotent response (if any) with the change, commit, close: one thread hop."""
    try:
        if claim is not None:
            idempotency.complete(db, claim, response.status_code, _stored_headers(response), bytes(response.body))
        db.commit()
    finally:
        db.close()


def _rollback_and_close(db: Session) -> None:
    try:
        db.rollback()
    finally:
        db.close()


def _stored_headers(response: Response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.lower() in STORED_HEADERS}


class TransactionalRoute(APIRoute):
    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = _as_coroutine(endpoint)
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Awaitable[Response]]:
        handler = super().get_route_handler()
        read_only_route = getattr(self.endpoint, "__read_only__", False)
        light = getattr(self.endpoint, "__light__", False)

        async def route(request: Request) -> Response:
            reader = read_only_route or request.method in ("GET", "HEAD")
            gate: asyncio.Lock | None = request.app.state.write_gate
            # SQLite admits one writer: queue this process's writers on a lock instead of
            # letting them poll in SQLite's busy handler (which sleeps up to 100 ms a try).
            context: AbstractAsyncContextManager[Any] = nullcontext() if reader or gate is None else gate
            token = _ON_LOOP.set(light and gate is not None)
            try:
                async with context:
                    return await self._handle(handler, request, reader)
            finally:
                _ON_LOOP.reset(token)

        return route

    @staticmethod
    async def _handle(handler: Callable[[Request], Awaitable[Response]], request: Request,
                      reader: bool) -> Response:
        factory: sessionmaker[Session] = request.app.state.sessions
        settings = request.app.state.settings
        claim = None
        key = request.headers.get(idempotency.HEADER)
        if request.method == "POST" and key is not None and not reader:
            tenant = await _run(_tenant_for, factory, request.headers.get("authorization"), settings.open_mode)
            if tenant is not None:
                request.state.tenant = tenant
                body = await request.body()
                print_ = idempotency.fingerprint(
                    request.method, request.url.path, request.url.query, body
                )
                claim = await _run(
                    idempotency.claim, factory, tenant.id, key, print_,
                    lock_seconds=settings.idempotency_lock_seconds,
                    ttl_hours=settings.idempotency_ttl_hours,
                )
                if claim.replay is not None:
                    record = claim.replay
                    headers = idempotency.stored_headers(record)
                    headers[REPLAY_HEADER] = "true"
                    return Response(content=record.response_body, status_code=record.response_status or 200,
                                    headers=headers)
        # A reader's session takes its connection (BEGIN DEFERRED) at its first query, in
        # whichever thread runs it: a checkout here, on the event loop, could wait on the pool.
        db = request.app.state.readers() if reader else factory()
        request.state.db = db
        closed = False
        try:
            response = await handler(request)
            status = response.status_code
            if status < 400:
                await _finish(_commit_and_close, db, claim, response)
                claim = None
            else:
                await _finish(_rollback_and_close, db)
            closed = True
            return response
        finally:
            if not closed:
                await _finish(_rollback_and_close, db)
            if claim is not None:
                try:
                    await _finish(idempotency.release, factory, claim)
                except Exception:  # noqa: BLE001 - the claim's lock expires on its own
                    log.warning("could not release idempotency claim %s", claim.key, exc_info=True)
