"""How :class:`service.routing.ServiceRoute` calls an endpoint: its markers, and what the route supplies.

Markers (:func:`read_only_endpoint`, :func:`light_endpoint`, :func:`wait_before`)
may be written above or below ``@router.post``: the route reads them when it
handles its first request.

The request's session and tenant (``SessionDep``, ``TenantDep``) are opened and
found by the route before FastAPI sees the request. An endpoint declares them as
usual, and :func:`bind` hands them over itself instead of leaving them to
FastAPI's dependency solver, which costs a sub-resolution per dependency and
request (about 6% of a decision's instructions for these two). Elsewhere (a
router of another route class) the same annotations stay ordinary dependencies.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, get_args, get_origin

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.params import Depends as DependsParam
from sqlalchemy.orm import Session

from service.auth import current_tenant
from service.db import ON_LOOP, get_db
from service.media import takes_json_only
from service.write_gate import WriteGate, begin_on_loop

if TYPE_CHECKING:
    from fastapi.routing import APIRoute

__all__ = ["SCOPE", "Options", "RawBody", "Scope", "bind", "light_endpoint", "read_only_endpoint", "wait_before"]

F = TypeVar("F", bound=Callable[..., Any])
Waiter = Callable[[Request], Awaitable[None]]


def read_only_endpoint(fn: F) -> F:
    """Mark a POST that writes nothing (a stateless computation): it runs as a reader."""
    fn.__dict__["__read_only__"] = True  # the markers go in the function's namespace: Options.of reads them
    return fn


def light_endpoint(fn: F) -> F:
    """Mark a sync endpoint whose work is O(session state): one decision or one report.

    On SQLite such a request runs on the event loop: its writes would queue on the
    process's write gate anyway and the GIL lets no thread run beside it, so a hop to the
    pool and back would only add the hop's own cost to a request that takes a fraction of
    a millisecond. Its BEGIN never blocks the loop: a gate held by a thread is awaited, a
    database locked by another process is tried again after short sleeps (and after
    SQLite's busy timeout the request goes to the thread pool, which raises what SQLite
    says). Falling back to a thread whenever the gate was held would hand every later
    light request to the pool too while that thread held it: under load the process would
    run all of them on threads, at about half the throughput. On PostgreSQL it always runs
    in the thread pool.
    """
    fn.__dict__["__light__"] = True
    return fn


def wait_before(waiter: Waiter) -> Callable[[F], F]:
    """Mark an endpoint that first awaits ``waiter(request)``, holding no lock or transaction."""

    def mark(fn: F) -> F:
        fn.__dict__["__wait_before__"] = waiter
        return fn

    return mark


async def _raw_body(request: Request) -> bytes:
    return await request.body()


RawBody = Annotated[bytes, Depends(_raw_body)]
"""The body as bytes, for an endpoint that parses it itself (and may take FAIRACQ_MAX_BODY_BYTES)."""


@dataclass(frozen=True)
class Options:
    read_only: bool
    light: bool
    waiter: Waiter | None
    raw_body: bool
    json_only: bool

    @classmethod
    def of(cls, route: APIRoute, fn: Callable[..., Any]) -> Options:
        return cls(getattr(fn, "__read_only__", False), getattr(fn, "__light__", False), getattr(fn, "__wait_before__",
                   None), any(d.call is _raw_body for d in route.dependant.dependencies),
                   takes_json_only(route.openapi_extra, route.body_field is not None))


@dataclass
class Scope:
    """What the bound endpoint needs to know about its request."""

    request: Request
    options: Options
    db: Session | None  # None for a reader
    gate: WriteGate | None  # SQLite's; None on PostgreSQL


SCOPE: ContextVar[Scope] = ContextVar("fairacq_request_scope")
# Dependencies the route has already resolved when the endpoint runs, and where it keeps them.
_SUPPLIED: dict[Callable[..., Any], Callable[[Request], Any]] = {
    get_db: lambda request: request.state.db,
    current_tenant: lambda request: request.state.tenant,
}


def _supplier(annotation: Any) -> Callable[[Request], Any] | None:
    if get_origin(annotation) is not Annotated:
        return None
    depends = [m for m in get_args(annotation)[1:] if isinstance(m, DependsParam)]
    return _SUPPLIED.get(depends[-1].dependency) if depends else None  # type: ignore[arg-type]


def bind(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """The coroutine FastAPI calls for ``endpoint``: steps 5 and 6 of service.routing's docstring.

    A sync endpoint runs on the event loop (a light one on SQLite) or in the thread
    pool; FastAPI, seeing a coroutine, validates its (small) response on the loop
    instead of in a second thread hop. The signature FastAPI reads is the endpoint's
    own less the parameters the route supplies (see the module docstring); the name,
    docstring and return annotation are the endpoint's (``functools.wraps``).
    """
    signature = inspect.signature(endpoint, eval_str=True)
    supplied = {name: s for name, p in signature.parameters.items() if (s := _supplier(p.annotation)) is not None}
    is_async = inspect.iscoroutinefunction(endpoint)

    @functools.wraps(endpoint)
    async def call(**kwargs: Any) -> Any:
        scope = SCOPE.get()
        for name, supply in supplied.items():
            kwargs[name] = supply(scope.request)
        if is_async:
            return await endpoint(**kwargs)
        if scope.options.waiter is not None:
            await scope.options.waiter(scope.request)
        if scope.options.light and scope.gate is not None and scope.db is not None:
            ON_LOOP.set(True)
            if await begin_on_loop(scope.db, scope.gate):
                return endpoint(**kwargs)
            ON_LOOP.set(False)
        return await run_in_threadpool(endpoint, **kwargs)

    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for name, p in signature.parameters.items() if name not in supplied])
    return call
