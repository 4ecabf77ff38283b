"""Hostile clients against a real server: slow bodies, slow heads, oversized and deep bodies.

Each test runs ``fairacq serve`` on SQLite with two tenants. While the attacker
(tenant A, or nobody) misbehaves, tenant B keeps asking its group sampler for the
next group on a keep-alive connection, and the test checks B's latency as well
as what the attacker got: a 4xx or a closed connection, within a time bound.
"""

from __future__ import annotations

import contextlib
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from tests.conftest import on_postgres
from tests.factories import make_key
from tests.live import Client, serve

SERVER_ENV = {"FAIRACQ_BODY_TIMEOUT_SECONDS": "3", "FAIRACQ_HEADER_TIMEOUT_SECONDS": "2",
              "FAIRACQ_MAX_BODY_BYTES": str(1024 * 1024), "FAIRACQ_OPEN_MODE": "false"}
P99_TARGET_S = 0.050  # the bound for the other tenant's `next` while a body trickles in

pytestmark = [pytest.mark.slow, pytest.mark.latency]  # another tenant's p99 is asserted: run alone (scripts/test.sh)


@dataclass
class Probe:
    """Tenant B's `next` calls in a thread, until stopped; their latencies."""

    port: int
    key: str
    sampler: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with Client(self.port, self.key) as client:
            while not self._stop.is_set():
                start = time.perf_counter()
                reply = client.post(f"/v1/group-samplers/{self.sampler}/next")
                self.latencies.append(time.perf_counter() - start)
                if reply.status != 200:
                    self.errors.append(f"{reply.status} {reply.body[:200]!r}")
                time.sleep(0.005)

    @contextlib.contextmanager
    def running(self) -> Iterator[Probe]:
        thread = threading.Thread(target=self.run, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            deadline = time.monotonic() + 5
            while len(self.latencies) < 20 and time.monotonic() < deadline:  # a short attack: let B measure
                time.sleep(0.01)
            self._stop.set()
            thread.join(10)

    def p99(self) -> float:
        return statistics.quantiles(self.latencies, n=100)[98]


@pytest.fixture
def server(database_url, sessions, tmp_path):
    keys = {"a": make_key(sessions, "tenant-a"), "b": make_key(sessions, "tenant-b")}
    with serve(database_url, tmp_path / "server.log", env=SERVER_ENV) as live:
        with Client(live.port, keys["b"]) as client:
            reply = client.post("/v1/group-samplers", {"groups": ["x", "y"], "strategy": "uniform",
                                                       "mode": "reported", "budget": 10**6, "seed": 1})
            assert reply.status == 201, reply.body
        yield live, keys, reply.json()["id"]


def _raw(port: int, head: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head)
    return sock


def _response(sock: socket.socket) -> bytes:
    chunks = []
    with contextlib.suppress(OSError):
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks) and b"content-length" in b"".join(chunks).lower():
                head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length")))
                if len(body) >= length:
                    break
    return b"".join(chunks)


def _trickle(sock: socket.socket, body: bytes, per_byte_s: float, until: float) -> None:
    with contextlib.suppress(OSError):
        for byte in body:
            if time.monotonic() > until:
                return
            sock.sendall(bytes([byte]))
            time.sleep(per_byte_s)


def test_a_body_sent_at_one_byte_a_second_stalls_nobody_and_times_out(server):
    live, keys, sampler = server
    body = b'{"groups": ["a", "b"], "strategy": "uniform", "mode": "reported", "budget": 100}'
    head = (f"POST /v1/group-samplers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {keys['a']}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    probe = Probe(live.port, keys["b"], sampler)
    with probe.running():
        sock = _raw(live.port, head)
        started = time.monotonic()
        sender = threading.Thread(target=_trickle, args=(sock, body, 1.0, started + 6), daemon=True)
        sender.start()
        answer = _response(sock)
        elapsed = time.monotonic() - started
        sock.close()
        sender.join(10)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:300]
    assert b"FAIRACQ_BODY_TIMEOUT_SECONDS" in answer
    assert 2.5 < elapsed < 6, elapsed
    assert not probe.errors and len(probe.latencies) > 100
    print(f"tenant B: {len(probe.latencies)} next calls during the slow body, p99 {probe.p99() * 1000:.1f} ms")
    assert probe.p99() < P99_TARGET_S


def test_an_unauthenticated_slow_body_is_refused_before_it_is_read(server):
    live, _, _ = server
    head = (b"POST /v1/datasets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 80\r\n\r\n{")
    sock = _raw(live.port, head)
    started = time.monotonic()
    answer = _response(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 401"), answer[:300]
    assert time.monotonic() - started < 1.0


def test_half_open_connections_are_closed_and_others_are_served(server):
    live, keys, sampler = server
    sockets = [_raw(live.port, b"POST /v1/datasets HTTP/1.1\r\nHost: x\r\n") for _ in range(300)]
    probe = Probe(live.port, keys["b"], sampler)
    try:
        with probe.running():
            time.sleep(1.0)
            with Client(live.port) as client:
                assert client.get("/healthz").status == 200
            deadline = time.monotonic() + 6
            closed = 0
            for sock in sockets:
                sock.settimeout(max(0.1, deadline - time.monotonic()))
                with contextlib.suppress(OSError):
                    if sock.recv(1) == b"":
                        closed += 1
    finally:
        for sock in sockets:
            sock.close()
    assert closed == len(sockets), f"{closed} of {len(sockets)} half-open connections were closed"
    assert not probe.errors and probe.p99() < 0.2, (probe.errors[:3], probe.p99())


def test_oversized_and_deep_bodies_get_4xx_quickly(server):
    live, keys, sampler = server
    probe = Probe(live.port, keys["b"], sampler)
    client = Client(live.port, keys["a"])
    with probe.running():
        cases = {
            "declared too large": (b"x" * 10, {"content-length": str(2 * 1024 * 1024)}),
            "streamed too large": (b"[" + b"1," * (700 * 1024) + b"1]", {}),
            "deep": (b"[" * 100_000 + b"]" * 100_000, {}),
            "not JSON": (b"\xff\xfe\x00garbage", {}),
            "NaN and Infinity": (b'{"groups": ["a", "b"], "strategy": "uniform", "budget": NaN}', {}),
            "huge integer": (b'{"groups": ["a", "b"], "budget": 1' + b"0" * 5000 + b"}", {}),
        }
        for name, (raw, headers) in cases.items():
            started = time.monotonic()
            try:
                reply = client.post("/v1/group-samplers", raw=raw, headers=headers)
            except (ConnectionError, OSError):  # a declared-too-large body may be cut off: allowed
                client.close()
                client = Client(live.port, keys["a"])
                continue
            assert 400 <= reply.status < 500, (name, reply.status, reply.body[:300])
            assert reply.headers["content-type"] == "application/problem+json", name
            assert time.monotonic() - started < 2.0, name
            if reply.headers.get("connection") == "close":
                client.close()
                client = Client(live.port, keys["a"])
    client.close()
    assert not probe.errors and probe.p99() < 0.2, (probe.errors[:3], probe.p99())


LOCK_HOLDER = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
connection.execute("COMMIT")
"""


@pytest.mark.skipif(on_postgres(), reason="SQLite's file lock: PostgreSQL locks rows, not the database")
def test_a_write_lock_held_by_another_process_never_blocks_the_event_loop(server, database_url):
    """Another process (a worker, another API process) holds SQLite's write lock for 2 s: the
    decision call waits for it off the event loop, and /healthz answers meanwhile."""
    import subprocess
    import sys

    live, keys, sampler = server
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, database_url.removeprefix("sqlite:///"), "2"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        result: dict[str, float] = {}

        def decide() -> None:
            with Client(live.port, keys["b"]) as client:
                reply = client.post(f"/v1/group-samplers/{sampler}/next")
                result["status"], result["seconds"] = reply.status, time.monotonic() - started

        thread = threading.Thread(target=decide)
        thread.start()
        time.sleep(0.2)
        health = []
        with Client(live.port) as client:
            while thread.is_alive() and time.monotonic() - started < 10:
                t0 = time.perf_counter()
                assert client.get("/healthz").status == 200
                health.append(time.perf_counter() - t0)
                time.sleep(0.05)
        thread.join(10)
    finally:
        holder.wait(10)
        holder.stdout.close()  # type: ignore[union-attr]
    assert result["status"] == 200 and 1.5 < result["seconds"] < 5, result
    # A loop blocked by the lock would hold /healthz for the whole 2 s.
    assert len(health) >= 10 and max(health) < 0.5, f"/healthz took up to {max(health) * 1000:.0f} ms"
