"""A real Label Studio (the PyPI package) on SQLite in a temporary folder, for tests/labelstudio.

``make test-labelstudio`` installs it into its own virtualenv (``.venv-labelstudio``) and runs
these tests there. Elsewhere they skip, saying why, unless ``FAIRACQ_REQUIRE_LABELSTUDIO=1``
(set by .ci/run), where a missing Label Studio is a failure.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.live import free_port

START_TIMEOUT_S = 240.0  # a fresh SQLite database runs every Django migration first (about a minute here)
USER, PASSWORD = "annotator@example.com", "fairacq-labelstudio-test"
# A legacy API token (LABEL_STUDIO_USER_TOKEN; needs LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN=true).
TOKEN = "fairacq-test-token-0123456789abcdef"


def _missing(reason: str) -> None:
    if os.environ.get("FAIRACQ_REQUIRE_LABELSTUDIO") == "1":
        pytest.fail(f"FAIRACQ_REQUIRE_LABELSTUDIO=1 but {reason}", pytrace=False)
    pytest.skip(f"{reason}: run `make test-labelstudio`, which installs it into .venv-labelstudio")


def label_studio_command() -> str:
    """The ``label-studio`` executable beside this Python (its venv), or on PATH."""
    beside = Path(sys.executable).parent / "label-studio"
    found = str(beside) if beside.exists() else shutil.which("label-studio")
    if found is None:
        _missing("the label-studio package is not installed")
    try:
        import label_studio_sdk  # noqa: F401
    except ImportError:
        _missing("label-studio-sdk is not installed")
    return found  # type: ignore[return-value]


@dataclass(frozen=True)
class LabelStudio:
    url: str
    token: str
    log: Path


@contextlib.contextmanager
def running_label_studio(command: str, folder: Path) -> Iterator[LabelStudio]:
    """``label-studio start`` on a free port with its data in ``folder`` until the block ends."""
    port = free_port()
    env = {**os.environ, "LABEL_STUDIO_BASE_DATA_DIR": str(folder / "data"), "DJANGO_DB": "sqlite",
           "LABEL_STUDIO_USERNAME": USER, "LABEL_STUDIO_PASSWORD": PASSWORD, "LABEL_STUDIO_USER_TOKEN": TOKEN,
           "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
           # fairacq runs on this machine: Label Studio refuses local addresses for ML backends and
           # webhooks unless told otherwise (its SSRF protection), as a deployment beside it must do too.
           "ML_BLOCK_LOCAL_IP": "false", "SSRF_PROTECTION_ENABLED": "false",
           # Nothing leaves the machine: no error reports, analytics or version check.
           "SENTRY_DSN": "", "FRONTEND_SENTRY_DSN": "", "COLLECT_ANALYTICS": "false", "LATEST_VERSION_CHECK": "false"}
    log = folder / "label-studio.log"
    with open(log, "ab") as out:
        proc = subprocess.Popen([command, "start", "--no-browser", "--port", str(port), "--internal-host",
                                 "127.0.0.1"], env=env, stdout=out, stderr=out, start_new_session=True,
                                cwd=folder)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, proc, log)
        yield LabelStudio(url, TOKEN, log)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


@pytest.fixture(scope="module")
def label_studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabelStudio]:
    with running_label_studio(label_studio_command(), tmp_path_factory.mktemp("label-studio")) as ls:
        yield ls


def _wait_up(url: str, proc: subprocess.Popen, log: Path) -> None:
    import httpx

    started = time.monotonic()
    while time.monotonic() - started < START_TIMEOUT_S:
        if proc.poll() is not None:
            raise RuntimeError(f"Label Studio exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                print(f"Label Studio up in {time.monotonic() - started:.0f} s")
                return
        time.sleep(1)
    raise RuntimeError(f"Label Studio did not start in {START_TIMEOUT_S:.0f} s:\n{log.read_text()[-3000:]}")
