"""ASGI middleware: the request's context (id, log line, latency, trace) and its body's guard.

``RequestContext`` gives every request an id (the client's ``X-Request-ID`` when it
is sane, else a new one), returns it as ``X-Request-ID``, makes it the context of
every log line the request causes (and of the jobs it queues), writes one JSON
line per request (``service.access``: route, status, tenant, duration) and
observes the latency under the route's template.

``BodyGuard`` refuses a body over ``FAIRACQ_MAX_BODY_BYTES`` (413, by
Content-Length or while streaming) and one that does not arrive by its deadline
(408): ``FAIRACQ_BODY_TIMEOUT_SECONDS``, stretched for a large declared
Content-Length at ``FAIRACQ_BODY_MIN_BYTES_PER_SECOND``. A slow client holds only
its own connection: nothing is locked before its body is in (service.routing).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import tracing
from service.errors import PayloadTooLarge, RequestTimeout, problem_of
from service.logs import REQUEST_ID
from service.ops.metrics import REQUEST_LATENCY

__all__ = ["BodyGuard", "RequestContext"]

access_log = logging.getLogger("service.access")
REQUEST_ID_HEADER = b"x-request-id"
_SANE_ID = re.compile(rb"^[A-Za-z0-9._:\-]{1,128}$")
CLOSE = {"Connection": "close"}  # the rest of a refused body is not read: the connection ends


class RequestContext:
    """Request id, access log line, latency metric and trace span of every HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        given = next((v for k, v in scope["headers"] if k == REQUEST_ID_HEADER), None)
        request_id = given.decode() if given is not None and _SANE_ID.match(given) else uuid.uuid4().hex
        token = REQUEST_ID.set(request_id)
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (REQUEST_ID_HEADER, request_id.encode())]
            await send(message)

        try:
            with tracing.request_span(scope):
                await self.app(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            REQUEST_LATENCY.labels(scope["method"], route, str(status)).observe(elapsed)
            tenant = scope.get("state", {}).get("tenant")
            access_log.info("%s %s %d", scope["method"], route, status, extra={"fields": {
                "method": scope["method"], "route": route, "path": scope["path"], "status": status,
                "tenant": getattr(tenant, "name", None), "duration_ms": round(elapsed * 1000, 3)}})
            REQUEST_ID.reset(token)


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class BodyGuard:
    """Refuse bodies over ``max_bytes`` (413) and bodies that miss their deadline (408)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float, min_rate: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.min_rate = min_rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        declared = int(length) if length is not None and length.isdigit() else 0
        if declared > self.max_bytes:
            await self._too_large(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + max(self.timeout, declared / self.min_rate)
        seen = 0
        more = True
        started = False

        async def guarded_receive() -> Message:
            nonlocal seen, more
            if not more:  # the body is in: what is left to receive is the disconnect
                return await receive()
            try:
                # (a timeout on this task, not wait_for's task per message: most bodies are in already)
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise _TooSlow from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                more = message.get("more_body", False)
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, guarded_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._too_large(scope, receive, send)
        except _TooSlow:
            if not started:
                await problem_of(RequestTimeout(
                    f"the request body did not arrive within {max(self.timeout, declared / self.min_rate):.0f} s "
                    "(FAIRACQ_BODY_TIMEOUT_SECONDS); send it faster or in smaller parts"), CLOSE)(scope, receive, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problem_of(PayloadTooLarge(
            f"the request body is larger than the limit of {self.max_bytes} bytes (FAIRACQ_MAX_BODY_BYTES); "
            "split the upload"), CLOSE)
        await response(scope, receive, send)
