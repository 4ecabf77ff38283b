"""The ``workers`` fixture: real worker processes, all killed at the end of the test."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable, Iterator

import pytest

from tests.live import start, stop_group
from tests.reliability.jobs import job_env


@pytest.fixture
def workers(database_url, tmp_path) -> Iterator[Callable[..., subprocess.Popen]]:
    """``workers(**env)`` starts a ``python -m service worker`` with fast job timing (:func:`job_env`);
    every one is SIGKILLed at the end, and their log printed."""
    started: list[subprocess.Popen] = []
    log = tmp_path / "workers.log"

    def start_worker(**extra: str) -> subprocess.Popen:
        proc = start(["worker"], database_url, log, job_env(**extra))
        started.append(proc)
        return proc

    yield start_worker
    for proc in started:
        stop_group(proc, signal.SIGKILL)
    if log.exists():
        print(log.read_text()[-4000:])
