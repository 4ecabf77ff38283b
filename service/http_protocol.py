"""uvicorn's HTTP protocol with a deadline for the request head.

uvicorn closes idle keep-alive connections but gives a client that sends its
request line and headers slowly (or never) all the time it wants, so a few
hundred half-open connections exhaust the process's file descriptors. Here a
connection whose head is not complete ``FAIRACQ_HEADER_TIMEOUT_SECONDS`` after it
opened, or after its previous response, is closed. The body has its own deadline
(``service.middleware.BodyGuard``).
"""

from __future__ import annotations

import asyncio
import resource

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["GuardedHttpToolsProtocol", "protocol_class", "raise_file_limit"]


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """HttpToolsProtocol whose connections must send a complete request head in time."""

    header_timeout: float = 10.0

    # uvicorn's protocol takes a Transport, narrower than asyncio's BaseTransport (and ignores it so too).
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.header_timeout, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.logger.info("closing a connection whose request head took over %.0f s", self.header_timeout)
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_class(header_timeout: float) -> type[GuardedHttpToolsProtocol]:
    """A protocol class with this deadline (uvicorn takes a class, not an instance)."""
    return type("HttpProtocol", (GuardedHttpToolsProtocol,), {"header_timeout": header_timeout})


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's open-file limit to its hard limit; return (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft, hard
