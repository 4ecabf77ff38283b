"""A minimal keep-alive HTTP/1.1 client and the three ways the load benchmark drives it.

httpx spends about 0.9 ms of CPU per request (measured here), so at 800+ requests/s
on a shared 2-core machine the client would be measured. This one takes about 20 µs:
it writes the request bytes and reads the status line, the headers and a
Content-Length (or chunked) body — nothing else. No TLS, no pipelining.

* :func:`unloaded` — one connection, one request at a time: a single client's p50/p99.
* :func:`open_loop` — a fixed arrival rate. Request *i* is due at ``t0 + i / rate``
  and its latency is measured from that *scheduled* time, so a slow server cannot
  slow the generator down and hide its queue (no coordinated omission, as in wrk2).
  Each connection carries one request at a time; due requests wait for a free
  connection and that wait counts.
* :func:`closed_loop` — every connection sends back to back: maximum throughput.

Each connection drives one :class:`Lane`: the session it works on builds its
next request and hears whether the server accepted it.

``python -m bench.load --calibrate`` measures what it can generate on this machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import Counter
from collections.abc import Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

__all__ = ["Endpoint", "HTTPConnection", "Lane", "RequestFailed", "Response", "RunResult",
           "closed_loop", "open_loop", "run", "unloaded", "warm_up"]

T = TypeVar("T")
REQUEST_TIMEOUT = 10.0  # s; a request slower than this counts as an error ("timeout")
DRAIN_SECONDS = 10.0  # s an open-loop run waits past its window for requests still due
START_DELAY = 0.05  # s between opening the connections and the first due request
MIN_SLEEP = 0.0005  # s; shorter waits are not worth a timer wake-up (uvloop's timers tick at 1 ms)
DETAIL_CHARS = 300  # characters of an error body kept for the report


class ProtocolError(Exception):
    """The server's answer is not HTTP/1.1 this client understands."""


class _Stale(Exception):
    """A kept-alive connection was closed by the server before it answered."""


class RequestFailed(Exception):
    """A setup or warm-up request got a non-2xx answer."""

    def __init__(self, method: str, path: str, response: Response) -> None:
        self.response = response
        super().__init__(f"{method} {path} -> {response.status}: {response.text()[:DETAIL_CHARS]}")


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class HTTPConnection:
    """One keep-alive HTTP/1.1 connection; reconnects once if the server closed it while idle."""

    def __init__(self, host: str, port: int, headers: dict[str, str] | None = None) -> None:
        self.host, self.port = host, port
        common = {"Host": f"{host}:{port}", "User-Agent": "fairacq-load", "Accept": "application/json",
                  "Content-Type": "application/json", **(headers or {})}
        self._common = "".join(f"{k}: {v}\r\n" for k, v in common.items())
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self.reconnects = 0

    async def connect(self) -> HTTPConnection:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def request(self, method: str, path: str, body: bytes | None = None) -> Response:
        head = f"{method} {path} HTTP/1.1\r\n{self._common}Content-Length: {len(body or b'')}\r\n\r\n"
        data = head.encode("latin-1") + (body or b"")
        fresh = self._writer is None
        if fresh:
            await self.connect()
        try:
            return await self._exchange(data, method)
        except _Stale:
            await self.close()
            if fresh:
                raise ConnectionResetError("the server closed a new connection without answering") from None
            self.reconnects += 1
            await self.connect()
            try:
                return await self._exchange(data, method)
            except _Stale:
                await self.close()
                raise ConnectionResetError("the server closed the connection without answering") from None

    async def _exchange(self, data: bytes, method: str) -> Response:
        reader, writer = self._reader, self._writer
        assert reader is not None and writer is not None
        try:
            writer.write(data)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
            raise _Stale from None
        except (ConnectionResetError, BrokenPipeError):
            raise _Stale from None
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise ProtocolError(f"bad status line {lines[0]!r}")
        status = int(parts[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        body = await self._read_body(reader, status, headers, method)
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, headers, body)

    async def _read_body(self, reader: asyncio.StreamReader, status: int, headers: dict[str, str],
                         method: str) -> bytes:
        if method == "HEAD" or status in (204, 304) or status < 200:
            return b""
        if "content-length" in headers:
            return await reader.readexactly(int(headers["content-length"]))
        if "chunked" in headers.get("transfer-encoding", "").lower():
            chunks: list[bytes] = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
                if size == 0:
                    while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                        pass
                    return b"".join(chunks)
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
        body = await reader.read()  # delimited by the server closing the connection
        await self.close()
        return body


@dataclass(frozen=True)
class Endpoint:
    """Where requests go, and headers every request carries (e.g. Authorization).

    With ``more_ports`` (several API processes of one deployment) connections are
    opened on ``port`` and each of ``more_ports`` in turn, so a run's connections,
    and the lanes they carry, are spread evenly over the processes.
    """

    host: str
    port: int
    headers: dict[str, str] = field(default_factory=dict)
    more_ports: tuple[int, ...] = ()
    _turn: Iterator[int] = field(default_factory=itertools.count, compare=False, repr=False)

    @property
    def ports(self) -> tuple[int, ...]:
        return (self.port, *self.more_ports)

    async def connect(self) -> HTTPConnection:
        ports = self.ports
        port = ports[next(self._turn) % len(ports)]
        return await HTTPConnection(self.host, port, self.headers).connect()


class Lane:
    """The session one connection works on: builds its next request, hears the answer.

    The default sends one fixed request; subclasses keep per-session counters
    (an epoch number, fresh candidate ids) and advance them only on success, so
    a request that timed out is retried with the same client id.
    """

    def __init__(self, method: str = "GET", path: str = "/", body: bytes | None = None) -> None:
        self.method, self.path, self.body = method, path, body

    def request(self) -> tuple[str, str, bytes | None]:
        return self.method, self.path, self.body

    def answered(self, status: int, body: bytes) -> None:
        """Called with each response's status and body."""


@dataclass
class RunResult:
    """What one measured run saw. Latencies are of successful (2xx) requests only."""

    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    first_error: str | None = None
    elapsed: float = 0.0  # s from the first send (or due time) to the last answer
    client_cpu: float = 0.0  # this process's CPU seconds per wall second during the run
    send_lag_p99_ms: float | None = None  # open loop: how late the generator put requests on the queue
    reconnects: int = 0

    @property
    def ok(self) -> int:
        return len(self.latencies_ms)

    @property
    def n_errors(self) -> int:
        return sum(self.errors.values())

    @property
    def throughput(self) -> float:
        return self.ok / self.elapsed if self.elapsed > 0 else 0.0

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.latencies_ms, q)) if self.latencies_ms else float("nan")

    @property
    def p50(self) -> float:
        return self.percentile(50)

    @property
    def p99(self) -> float:
        return self.percentile(99)

    @property
    def max(self) -> float:
        return max(self.latencies_ms, default=float("nan"))

    def error_summary(self) -> str:
        return ", ".join(f"{k} x{v}" for k, v in self.errors.most_common()) or "-"


class _Recorder:
    def __init__(self) -> None:
        self.result = RunResult()
        self.answered = 0
        self.last = 0.0

    def error(self, kind: str, detail: str) -> None:
        self.answered += 1
        self.result.errors[kind] += 1
        if self.result.first_error is None:
            self.result.first_error = f"{kind}: {detail[:DETAIL_CHARS]}"

    async def call(self, conn: HTTPConnection, lane: Lane, start: float, timeout: float) -> None:
        method, path, body = lane.request()
        try:
            async with asyncio.timeout(timeout):
                response = await conn.request(method, path, body)
        except TimeoutError:
            await conn.close()
            self.error("timeout", f"{method} {path} took more than {timeout} s")
            return
        except (OSError, asyncio.IncompleteReadError, ProtocolError, ValueError) as exc:
            await conn.close()
            self.error(type(exc).__name__, f"{method} {path}: {exc}")
            return
        end = time.perf_counter()
        lane.answered(response.status, response.body)
        if 200 <= response.status < 300:
            self.answered += 1
            self.last = end
            self.result.latencies_ms.append((end - start) * 1e3)
        else:
            self.error(f"HTTP {response.status}", f"{method} {path}: {response.text()}")

    def finish(self, t0: float, cpu0: float, conns: Sequence[HTTPConnection]) -> RunResult:
        wall = time.perf_counter() - t0
        self.result.elapsed = max(self.last - t0, 1e-9)
        self.result.client_cpu = (time.process_time() - cpu0) / wall if wall > 0 else 0.0
        self.result.reconnects = sum(c.reconnects for c in conns)
        return self.result


async def _connect_all(endpoint: Endpoint, n: int) -> list[HTTPConnection]:
    return list(await asyncio.gather(*(endpoint.connect() for _ in range(n))))


async def _close_all(conns: Sequence[HTTPConnection]) -> None:
    await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)


async def warm_up(endpoint: Endpoint, lanes: Sequence[Lane], per_lane: int) -> None:
    """Send ``per_lane`` requests on every lane; raise :class:`RequestFailed` at the first non-2xx."""
    conns = await _connect_all(endpoint, len(lanes))
    try:
        for _ in range(per_lane):
            for conn, lane in zip(conns, lanes, strict=True):
                method, path, body = lane.request()
                response = await conn.request(method, path, body)
                lane.answered(response.status, response.body)
                if not 200 <= response.status < 300:
                    raise RequestFailed(method, path, response)
    finally:
        await _close_all(conns)


async def unloaded(endpoint: Endpoint, lane: Lane, n: int, *, timeout: float = REQUEST_TIMEOUT) -> RunResult:
    """``n`` requests one after another on one connection."""
    conn = await endpoint.connect()
    recorder = _Recorder()
    cpu0, t0 = time.process_time(), time.perf_counter()
    try:
        for _ in range(n):
            await recorder.call(conn, lane, time.perf_counter(), timeout)
    finally:
        await conn.close()
    return recorder.finish(t0, cpu0, [conn])


async def open_loop(endpoint: Endpoint, lanes: Sequence[Lane], rate: float, duration: float, *,
                    timeout: float = REQUEST_TIMEOUT, drain: float = DRAIN_SECONDS) -> RunResult:
    """``rate * duration`` requests due at a fixed rate over ``len(lanes)`` connections."""
    conns = await _connect_all(endpoint, len(lanes))
    recorder = _Recorder()
    queue: asyncio.Queue[float] = asyncio.Queue()

    async def worker(conn: HTTPConnection, lane: Lane) -> None:
        while True:
            due = await queue.get()
            try:
                await recorder.call(conn, lane, due, timeout)
            finally:
                queue.task_done()

    total = max(1, round(rate * duration))
    cpu0 = time.process_time()
    t0 = time.perf_counter() + START_DELAY
    tasks = [asyncio.create_task(worker(c, lane)) for c, lane in zip(conns, lanes, strict=True)]
    lags = np.empty(total)
    try:
        for i in range(total):
            due = t0 + i / rate
            delay = due - time.perf_counter()
            if delay > MIN_SLEEP:
                await asyncio.sleep(delay)
            lags[i] = time.perf_counter() - due
            queue.put_nowait(due)
        try:
            async with asyncio.timeout(drain):
                await queue.join()
        except TimeoutError:
            pass
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await _close_all(conns)
    unfinished = total - recorder.answered
    if unfinished > 0:
        recorder.error("unfinished", f"{unfinished} requests not answered {drain} s after the run")
        recorder.result.errors["unfinished"] += unfinished - 1
    result = recorder.finish(t0, cpu0, conns)
    result.send_lag_p99_ms = float(np.percentile(np.maximum(lags, 0.0), 99) * 1e3)
    return result


async def closed_loop(endpoint: Endpoint, lanes: Sequence[Lane], duration: float, *,
                      timeout: float = REQUEST_TIMEOUT) -> RunResult:
    """Every connection sends its next request as soon as the last one is answered."""
    conns = await _connect_all(endpoint, len(lanes))
    recorder = _Recorder()
    cpu0, t0 = time.process_time(), time.perf_counter()
    end = t0 + duration

    async def worker(conn: HTTPConnection, lane: Lane) -> None:
        while time.perf_counter() < end:
            await recorder.call(conn, lane, time.perf_counter(), timeout)

    try:
        await asyncio.gather(*(worker(c, lane) for c, lane in zip(conns, lanes, strict=True)))
    finally:
        await _close_all(conns)
    return recorder.finish(t0, cpu0, conns)


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on uvloop when it is installed (less client CPU per request than asyncio's loop)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)
