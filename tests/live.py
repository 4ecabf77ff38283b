"""Real ``python -m service`` processes for the tests, and a keep-alive client: written once, used by all.

``serve()`` runs the API on a free port until its block ends; ``running()`` any other
command (workers) with its process group killed at the end; ``spawn()`` and
``stop_group()`` any program so; ``free_port()`` a port; ``wait_for()`` polls until something is true.

The client is the standard library's ``http.client``: one persistent HTTP/1.1
connection per thread, far cheaper per request than httpx, so sixteen of them
measure the server rather than themselves on a two-core machine. It never
retries: a dropped connection is an error the test reports.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["Client", "Reply", "Server", "free_port", "running", "serve", "spawn", "start", "stop_group", "wait_for"]

T = TypeVar("T")

READY_TIMEOUT = 60.0  # s; a loaded shared machine can take a while to import the service
REQUEST_TIMEOUT = 30.0  # s; the PostgreSQL statement timeout of API requests is 30 s


def wait_for(predicate: Callable[[], T], timeout: float = 30.0, what: str = "the condition", *,
             log: Path | None = None, every: float = 0.05) -> T:
    """Call ``predicate`` every ``every`` seconds until it returns something truthy, and return that.

    After ``timeout`` seconds an AssertionError says what was awaited, with the tail of ``log``.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            tail = f"\n{log.read_text()[-3000:]}" if log is not None and log.exists() else ""
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}{tail}")
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """One keep-alive connection to the server, with an API key."""

    def __init__(self, port: int, key: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
        self.headers = {"content-type": "application/json", "accept": "application/json"}
        if key is not None:
            self.headers["authorization"] = f"Bearer {key}"

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                *, raw: bytes | None = None, content_type: str | None = None) -> Reply:
        payload = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        sent = {**self.headers, **(headers or {})}
        if content_type is not None:
            sent["content-type"] = content_type
        try:
            self.connection.request(method, path, body=payload, headers=sent)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # The server closes a keep-alive connection idle past its timeout (5 s); as HTTP
            # clients do, a GET (safe to send twice) goes again on a new connection.
            if method != "GET":
                raise
            self.connection.close()
            self.connection.request(method, path, body=payload, headers=sent)
            response = self.connection.getresponse()
        data = response.read()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None, headers: dict[str, str] | None = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body, headers, **kwargs)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Server:
    port: int
    pid: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the API process has used so far; Linux only, else nan."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _wait_ready(port: int, proc: subprocess.Popen, log: Path) -> None:
    def ready() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError, http.client.HTTPException), Client(port) as client:
            return client.get("/readyz").status == 200
        return False

    wait_for(ready, READY_TIMEOUT, "the server to become ready", log=log, every=0.2)


def spawn(command: list[str], log: Path, env: dict[str, str], cwd: Path | None = None) -> subprocess.Popen:
    """Start ``command`` in a session (and process group) of its own, its output appended to ``log``."""
    with open(log, "ab") as out:
        return subprocess.Popen(command, env=env, cwd=cwd, stdout=out, stderr=out, start_new_session=True)


def start(args: list[str], database_url: str, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start ``python -m service <args>`` in a session of its own, its output appended to ``log``."""
    environment = {**os.environ, "FAIRACQ_DATABASE_URL": database_url, **(env or {})}
    return spawn([sys.executable, "-m", "service", *args], log, environment)


def stop_group(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Send ``sig`` to the process's whole group; SIGKILL it if it has not exited 15 s later."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


@contextlib.contextmanager
def running(args: list[str], database_url: str, log: Path, env: dict[str, str] | None = None,
            *, stop: int = signal.SIGKILL) -> Iterator[subprocess.Popen]:
    """``python -m service <args>`` until the block ends; then its whole process group gets ``stop``."""
    proc = start(args, database_url, log, env)
    try:
        yield proc
    finally:
        stop_group(proc, stop)


@contextlib.contextmanager
def serve(database_url: str, log: Path, *, workers: int = 0, env: dict[str, str] | None = None) -> Iterator[Server]:
    """Run ``python -m service serve`` on a free port until the block ends (once ``/readyz`` is 200).

    The process group is stopped with SIGTERM (SIGKILL after 15 s) so that worker
    children go too.
    """
    port = free_port()
    args = ["serve", "--port", str(port), "--workers", str(workers), "--log-level", "warning"]
    with running(args, database_url, log, env, stop=signal.SIGTERM) as proc:
        _wait_ready(port, proc, log)
        yield Server(port, proc.pid)
