"""Fixtures for the end-to-end tests: a Python client generated from ``openapi/openapi.json``
with openapi-python-client, and a real ``python -m service serve`` process with workers.

The client is generated into a temporary directory at every run (never committed), so a
change to the spec that breaks generated clients fails here.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.live import serve

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
PACKAGE = "fairacq_e2e_client"  # a name nothing installed can shadow
# openapi-python-client's messages start so when it drops or skips part of the spec: none is
# expected (a CSV file goes as a multipart form, which it models).
PROBLEM_PREFIXES = ("WARNING", "Unable to", "Failure to process", "Cannot parse")
EXPECTED_WARNINGS: list[str] = []
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
    # No ruff formatting (offline, fast, not needed to import); a PNG is read as bytes, as files are.
    config.write_text("post_hooks: []\ncontent_type_overrides:\n  image/png: application/octet-stream\n")
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


@pytest.fixture
def live_server(database_url: str, tmp_path: Path) -> Iterator[str]:
    """``python -m service serve`` with two workers on the test database; yields its base URL."""
    log = tmp_path / "server.log"
    try:
        with serve(database_url, log, workers=2, env=JOB_SETTINGS) as server:
            yield server.base_url
    finally:
        print(log.read_text()[-3000:])  # shown by pytest when the test failed
