"""The servers the load benchmark starts: the service, the bare baseline, the raw calibration server.

Each runs in its own process group on 127.0.0.1, with its output in a log file in
the run's temporary folder, so that stopping it also stops the worker processes
``serve`` started, and nothing outlives the benchmark. A :class:`Deployment` is one
configuration (SQLite or a throwaway PostgreSQL; one or two API processes) with as
many bare endpoints beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.load_client import Endpoint

__all__ = ["HOST", "Deployment", "PostgresServer", "Server", "bare_server", "service_server", "spread"]

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
STARTUP_TIMEOUT = 120.0  # s for a server to answer /healthz (migrations, imports on a busy machine)
STOP_TIMEOUT = 20.0  # s for a graceful stop before the process group is killed
PG_SCRIPT = ROOT / "scripts" / "pg_tmp.sh"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """A server process this script started, in its own process group (so its workers stop with it)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], folder: Path,
                 startup_timeout: float = STARTUP_TIMEOUT) -> None:
        self.name, self.argv, self.env, self.startup_timeout = name, argv, env, startup_timeout
        self.port = int(argv[argv.index("--port") + 1])
        self.log_path = folder / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> Endpoint:
        return Endpoint(HOST, self.port)

    async def start(self) -> Server:
        with self.log_path.open("wb") as out:
            self.proc = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        try:
            await self._wait_healthy(self.proc)
        except BaseException:
            self.stop()
            raise
        return self

    async def _wait_healthy(self, proc: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {proc.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(OSError):
                conn = await self.endpoint.connect()
                try:
                    if (await conn.request("GET", "/healthz")).status == 200:
                        return
                finally:
                    await conn.close()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not answer /healthz in {self.startup_timeout:.0f} s:\n"
                                   f"{self.log_tail()}")
            await asyncio.sleep(0.25)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()  # uvicorn shuts down gracefully; `serve` then stops its workers
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(STOP_TIMEOUT)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # whatever of this group is left
        self.proc.wait()
        self.proc = None


def _service_env(database_url: str) -> dict[str, str]:
    return {**os.environ, "FAIRACQ_DATABASE_URL": database_url, "FAIRACQ_WORKERS": "1", "FAIRACQ_OPEN_MODE": "true",
            "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def service_server(folder: Path, database_url: str | None = None, name: str = "service", workers: int = 1) -> Server:
    """``serve`` with ``workers`` job workers (one, so that balanced filters get fitted; 0 for a second process)."""
    env = _service_env(database_url or f"sqlite:///{folder / 'service.db'}")
    argv = [sys.executable, "-m", "service", "serve", "--host", HOST, "--port", str(free_port()),
            "--workers", str(workers), "--log-level", "warning"]
    return Server(name, argv, env, folder)


def bare_server(folder: Path, raw: bool = False, database_url: str | None = None, name: str = "bare") -> Server:
    argv = [sys.executable, "-m", "bench.bare_app", "--host", HOST, "--port", str(free_port())]
    if raw:
        argv += ["--raw"]
    elif database_url:
        argv += ["--database-url", database_url]
    else:
        argv += ["--database", str(folder / "bare.db")]
    return Server("raw" if raw else name, argv, dict(os.environ), folder)


def spread(servers: list[Server]) -> Endpoint:
    """One endpoint whose connections go to each server in turn."""
    first, *rest = servers
    return Endpoint(HOST, first.port, more_ports=tuple(s.port for s in rest))


class PostgresServer:
    """A throwaway PostgreSQL server (``scripts/pg_tmp.sh``) in its own folder, removed at stop."""

    def __init__(self) -> None:
        # Straight under the temporary root, not in the run's private folder: as root the
        # script runs the server as the postgres user, who must be able to reach it.
        self.folder = Path(tempfile.mkdtemp(prefix="fairacq-load-pg-"))
        self.url: str | None = None

    def start(self) -> str:
        done = subprocess.run(["bash", str(PG_SCRIPT), "start", str(self.folder)], cwd=ROOT, capture_output=True,
                              text=True, timeout=STARTUP_TIMEOUT)
        if done.returncode != 0:
            self.stop()
            raise RuntimeError(f"{PG_SCRIPT.name} start failed ({done.returncode}): {done.stderr[-2000:]}")
        self.url = done.stdout.strip().splitlines()[-1]
        return self.url

    def stop(self) -> None:
        subprocess.run(["bash", str(PG_SCRIPT), "stop", str(self.folder)], cwd=ROOT, capture_output=True,
                       timeout=STOP_TIMEOUT * 3, check=False)
        self.url = None


def migrate(database_url: str) -> None:
    """``python -m service migrate`` (``serve`` migrates only SQLite by itself)."""
    done = subprocess.run([sys.executable, "-m", "service", "migrate"], cwd=ROOT, env=_service_env(database_url),
                          capture_output=True, text=True, timeout=STARTUP_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"service migrate failed ({done.returncode}): {(done.stdout + done.stderr)[-2000:]}")


@dataclass
class Deployment:
    """One configuration under test: a database and ``processes`` API processes, beside as many bare ones.

    The service's processes share one database (a SQLite file, or a throwaway
    PostgreSQL server); only the first runs a job worker. The bare endpoint is
    doubled the same way, on the same kind of database, so the ratio stays fair.
    """

    database: str  # "sqlite" or "postgres"
    processes: int
    folder: Path
    servers: list[Server] = field(default_factory=list)
    postgres: PostgresServer | None = None

    @property
    def label(self) -> str:
        kind = "SQLite" if self.database == "sqlite" else "PostgreSQL"
        return f"{kind}, {self.processes} API process{'es' if self.processes > 1 else ''}"

    async def start(self, with_service: bool) -> tuple[Endpoint, Endpoint]:
        """Start everything; return the service's and the bare endpoint (spread over the processes)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        service_url = bare_url = None
        if self.database == "postgres":
            self.postgres = PostgresServer()
            service_url = bare_url = self.postgres.start()
            if with_service:
                migrate(service_url)
        bares: list[Server] = []
        for i in range(self.processes):  # one after another: each creates its table if missing
            bares.append(await self._start(bare_server(self.folder, database_url=bare_url, name=f"bare{i}")))
        services: list[Server] = []
        if with_service:
            for i in range(self.processes):
                services.append(await self._start(service_server(self.folder, service_url, f"service{i}",
                                                                 workers=1 if i == 0 else 0)))
        return (spread(services) if services else spread(bares)), spread(bares)

    async def _start(self, server: Server) -> Server:
        await server.start()
        self.servers.append(server)
        return server

    def died(self) -> list[Server]:
        return [s for s in self.servers if s.proc is not None and s.proc.poll() is not None]

    def stop(self) -> None:
        for server in reversed(self.servers):
            server.stop()
        self.servers.clear()
        if self.postgres is not None:
            self.postgres.stop()
            self.postgres = None
