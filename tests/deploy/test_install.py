"""The package as a user installs it: a wheel in a fresh virtualenv, run from a folder outside the checkout.

Builds the wheel, installs it with its dependencies into a new venv, and from an
empty folder runs the ``fairacq`` console script: ``migrate``, ``create-api-key``,
``serve`` and ``worker`` as separate processes. ``/readyz`` must be 200, ``/docs``
must load its local assets, and a balanced filter's fit must run in the worker.
Slow (about a minute: pip resolves and installs the dependencies from its cache).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.factories import dataset_payload
from tests.live import Client, free_port, spawn, stop_group, wait_for

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TIMEOUT = 600  # s: pip may need to download wheels on a cold cache

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the project's wheel (not an editable install) and its dependencies."""
    base = tmp_path_factory.mktemp("install")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(base / "dist"),
                    str(ROOT)], check=True, timeout=INSTALL_TIMEOUT, cwd=base)
    wheels = list((base / "dist").glob("fairacq-*.whl"))
    assert len(wheels) == 1, wheels
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True, timeout=120)
    subprocess.run([str(base / "venv" / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                    str(wheels[0])], check=True, timeout=INSTALL_TIMEOUT, cwd=base)
    return base / "venv" / "bin"


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAIRACQ_", "PYTHON", "VIRTUAL_ENV"))}
    env.update({"FAIRACQ_DATABASE_URL": f"sqlite:///{folder / 'fairacq.db'}", "FAIRACQ_OPEN_MODE": "false",
                "FAIRACQ_JOB_POLL_SECONDS": "0.1", "FAIRACQ_JOB_HEARTBEAT_SECONDS": "0.5",
                "FAIRACQ_JOB_LEASE_SECONDS": "5", "OMP_NUM_THREADS": "1"})
    return env


def _run(bin_dir: Path, folder: Path, *args: str) -> str:
    done = subprocess.run([str(bin_dir / "fairacq"), *args], cwd=folder, env=_env(folder), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@contextlib.contextmanager
def _process(bin_dir: Path, folder: Path, log: Path, *args: str) -> Iterator[subprocess.Popen]:
    proc = spawn([str(bin_dir / "fairacq"), *args], log, _env(folder), cwd=folder)
    try:
        yield proc
    finally:
        stop_group(proc, signal.SIGTERM)
        print(log.read_text()[-3000:])


def _ready(port: int) -> bool:
    with contextlib.suppress(OSError), Client(port) as client:
        return client.get("/readyz").status == 200
    return False


def test_the_installed_package_migrates_serves_and_runs_jobs_from_any_folder(installed, tmp_path):
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    where = subprocess.run([str(installed / "python"), "-c", "import service; print(service.__file__)"],
                           cwd=folder, env=_env(folder), capture_output=True, text=True, check=True).stdout
    assert "site-packages" in where and str(ROOT) not in where, where

    assert "database is at head" in _run(installed, folder, "migrate")
    key = _run(installed, folder, "create-api-key", "--tenant", "acme").strip()
    assert key.startswith("fa_")

    port = free_port()
    with (_process(installed, folder, tmp_path / "serve.log", "serve", "--port", str(port), "--workers", "0"),
          _process(installed, folder, tmp_path / "worker.log", "worker")):
        wait_for(lambda: _ready(port), 60, "/readyz 200", every=0.2)
        with Client(port, key) as client:
            ready = client.get("/readyz").json()
            assert ready["status"] == "ready" and ready["migration"]
            docs = client.get("/docs")
            assert docs.status == 200 and client.get("/docs-assets/swagger-ui-bundle.js").status == 200

            upload = client.post("/v1/datasets", dataset_payload(n=120, d=2, seed=3))
            assert upload.status == 201, upload.body
            fit = client.post("/v1/balanced-filters", {
                "groups": ["a", "b"], "proxy": {"type": "qp_tree", "max_depth": 2},
                "training_dataset_id": upload.json()["id"], "seed": 1})
            assert fit.status == 202, fit.body
            job_url = f"/v1/jobs/{fit.json()['job_id']}"
            job = wait_for(lambda: (j := client.get(job_url).json())["status"] in ("succeeded", "failed") and j,
                           120, "the fit job", every=0.2)
            assert job["status"] == "succeeded", job
            decisions = client.post(f"/v1/balanced-filters/{fit.json()['id']}/decisions",
                                    {"candidates": [{"id": "c1", "features": [0.1, 0.2]},
                                                    {"id": "c2", "features": [-1.0, 0.5]}]})
            assert decisions.status == 200, decisions.body
            assert [d["id"] for d in decisions.json()["decisions"]] == ["c1", "c2"]
            assert all(0.0 <= d["probability"] <= 1.0 for d in decisions.json()["decisions"])
    assert not list(folder.glob("alembic*")), "nothing but the database is written to the working folder"
