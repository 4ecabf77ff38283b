"""Fixtures for the end-to-end tests: a Python client generated from ``openapi/openapi.json``
with openapi-python-client, and a real ``python -m service serve`` process with workers.

The client is generated into a temporary directory at every run (never committed), so a
change to the spec that breaks generated clients fails here.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pkgutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
PACKAGE = "fairacq_e2e_client"  # a name nothing installed can shadow
# openapi-python-client's messages start so when it drops or skips part of the spec. The
# one expected is the CSV alternative of POST /v1/datasets, which it cannot model; the JSON
# body is still generated (a dropped operation would say "Endpoint will not be generated").
PROBLEM_PREFIXES = ("WARNING", "Unable to", "Failure to process", "Cannot parse")
EXPECTED_WARNINGS = ["WARNING parsing POST /v1/datasets within datasets."]
READY_TIMEOUT = 60.0  # s; a loaded shared machine can take a while to import the service
JOB_SETTINGS = {  # fast job turnaround, as in tests/conftest.py's fast_settings
    "FAIRACQ_JOB_POLL_SECONDS": "0.05",
    "FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.5",
    "FAIRACQ_JOB_LEASE_SECONDS": "10",
    "OMP_NUM_THREADS": "1",  # small matrices on a shared 2-core machine: BLAS threads only contend
}


@pytest.fixture(scope="session")
def generated_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated client package, imported with every module loaded."""
    root = tmp_path_factory.mktemp("generated")
    config = root / "config.yaml"
    config.write_text("post_hooks: []\n")  # no ruff formatting: offline, fast, and not needed to import
    command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(SPEC_PATH),
               "--output-path", str(root / PACKAGE), "--meta", "none", "--config", str(config)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, NO_COLOR="1", TERM="dumb"))
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    warnings = [line.strip() for line in output.splitlines() if line.strip().startswith(PROBLEM_PREFIXES)]
    assert warnings == EXPECTED_WARNINGS, f"openapi-python-client could not use all of the spec:\n{output}"
    sys.path.insert(0, str(root))
    try:
        package = importlib.import_module(PACKAGE)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{PACKAGE}."):
            importlib.import_module(module.name)  # makes api.<tag>.<operation> attributes; checks they import
        yield package
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(base: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        time.sleep(0.2)
    raise AssertionError(f"the server did not become ready:\n{log.read_text()[-3000:]}")


@pytest.fixture
def live_server(database_url: str, tmp_path: Path) -> Iterator[str]:
    """``python -m service serve`` with two workers on the test database; yields its base URL."""
    port = _free_port()
    log = tmp_path / "server.log"
    env = dict(os.environ, FAIRACQ_DATABASE_URL=database_url, **JOB_SETTINGS)
    command = [sys.executable, "-m", "service", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--workers", "2", "--log-level", "warning"]
    with open(log, "ab") as out:
        proc = subprocess.Popen(command, env=env, stdout=out, stderr=out, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_ready(base, proc, log)
            yield base
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
            print(log.read_text()[-3000:])  # shown by pytest when the test failed
