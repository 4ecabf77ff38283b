"""The servers the load benchmark starts: the service, the bare baseline, the raw calibration server.

Each runs in its own process group on 127.0.0.1, with its output in a log file in
the run's temporary folder, so that stopping it also stops the worker processes
``serve`` started, and nothing outlives the benchmark.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.load_client import Endpoint

__all__ = ["HOST", "Server", "bare_server", "service_server"]

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
STARTUP_TIMEOUT = 120.0  # s for a server to answer /healthz (migrations, imports on a busy machine)
STOP_TIMEOUT = 20.0  # s for a graceful stop before the process group is killed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """A server process this script started, in its own process group (so its workers stop with it)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], folder: Path) -> None:
        self.name, self.argv, self.env = name, argv, env
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
        deadline = time.monotonic() + STARTUP_TIMEOUT
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
                raise RuntimeError(f"{self.name} did not answer /healthz in {STARTUP_TIMEOUT:.0f} s:\n"
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


def service_server(folder: Path) -> Server:
    env = {**os.environ, "FAIRACQ_DATABASE_URL": f"sqlite:///{folder / 'service.db'}", "FAIRACQ_WORKERS": "1",
           "FAIRACQ_OPEN_MODE": "true", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    argv = [sys.executable, "-m", "service", "serve", "--host", HOST, "--port", str(free_port()),
            "--workers", "1", "--log-level", "warning"]
    return Server("service", argv, env, folder)


def bare_server(folder: Path, raw: bool = False) -> Server:
    argv = [sys.executable, "-m", "bench.bare_app", "--host", HOST, "--port", str(free_port())]
    argv += ["--raw"] if raw else ["--database", str(folder / "bare.db")]
    return Server("raw" if raw else "bare", argv, dict(os.environ), folder)
