"""Clean shutdown and supervision of real ``serve`` and ``worker`` processes.

SIGTERM (or SIGKILL) to the process an operator started leaves no process of
ours behind; a worker child that dies is restarted; ``/readyz`` says when no
worker polls; a worker stopped by SIGTERM gives its job back at once; and
``serve`` refuses to start keyless unless open mode is asked for.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.jobs.models import Job
from tests.live import Client, free_port, running, start, wait_for
from tests.reliability.jobs import enqueue_sleep, job_env, wait_job

LEFTOVER_TIMEOUT = 15.0  # s: the bound for every process of ours to be gone


def _session_pids(sid: int) -> set[int]:
    """Every live process in session ``sid`` (the group a test started with a new session)."""
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:  # state, ppid, pgrp, session
            pids.add(int(entry.name))
    return pids


def _children(sid: int) -> set[int]:
    """The worker processes of the session (not multiprocessing's resource tracker)."""
    found = set()
    for pid in _session_pids(sid) - {sid}:
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
    return found


@contextlib.contextmanager
def _running(args: list[str], database_url: str, log: Path, **extra: str) -> Iterator[subprocess.Popen]:
    with running(args, database_url, log, job_env(**extra)) as proc:
        yield proc
    for pid in _session_pids(proc.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _ready(port: int) -> int:
    with contextlib.suppress(OSError), Client(port) as client:
        return client.get("/readyz").status
    return 0


def _serve(port: int, workers: int) -> list[str]:
    return ["serve", "--port", str(port), "--workers", str(workers), "--log-level", "warning"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_serve_leaves_no_process_behind(database_url, tmp_path, sig):
    port, log = free_port(), tmp_path / "serve.log"
    with _running(_serve(port, 2), database_url, log) as proc:
        wait_for(lambda: len(_children(proc.pid)) >= 2 and _ready(port) == 200, 60, "serve and 2 workers", log=log)
        os.kill(proc.pid, sig)  # the main process only, as a process manager would
        wait_for(lambda: not _session_pids(proc.pid), LEFTOVER_TIMEOUT, "every process to exit", log=log)
        if sig == signal.SIGTERM:
            assert proc.wait(1) == 0, log.read_text()[-2000:]


def test_sigterm_to_worker_processes_stops_every_child(database_url, tmp_path):
    log = tmp_path / "worker.log"
    with _running(["worker", "--processes", "3"], database_url, log) as proc:
        wait_for(lambda: len(_children(proc.pid)) >= 3, 60, "3 worker children", log=log)
        time.sleep(1.0)  # let them reach their loops
        os.kill(proc.pid, signal.SIGTERM)
        wait_for(lambda: not _session_pids(proc.pid), LEFTOVER_TIMEOUT, "every process to exit", log=log)
        assert proc.wait(1) == 0


def test_a_worker_child_that_dies_is_restarted_and_runs_jobs(database_url, tmp_path, sessions):
    port, log = free_port(), tmp_path / "serve.log"
    with _running(_serve(port, 1), database_url, log) as proc:
        first = wait_for(lambda: _children(proc.pid), 60, "a worker child", log=log)
        wait_for(lambda: _ready(port) == 200, 60, "readiness", log=log)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)  # as the OOM killer would
        wait_for(lambda: _children(proc.pid) - {victim}, 10, "a new worker child", log=log)
        wait_for(lambda: "restarted" in log.read_text(), 5, "the restart's log line", log=log)
        assert "exited with code -9; restarting" in log.read_text()
        job = enqueue_sleep(sessions, 0.2)
        done = wait_job(sessions, job.id, lambda j: j.status == "succeeded", timeout=30)
        assert done.attempts == 1


def test_readyz_reports_workers_that_stopped_polling(database_url, tmp_path):
    port, log = free_port(), tmp_path / "serve.log"
    with _running(_serve(port, 1), database_url, log) as proc:
        child = min(wait_for(lambda: _children(proc.pid), 60, "a worker child", log=log))
        wait_for(lambda: _ready(port) == 200, 60, "readiness", log=log)
        os.kill(child, signal.SIGSTOP)  # alive to the supervisor, but no longer polling
        try:
            wait_for(lambda: _ready(port) == 503, 10, "readyz to report the silent worker", log=log)
            with Client(port) as client:
                assert "no worker process has polled" in client.get("/readyz").json()["detail"]
        finally:
            os.kill(child, signal.SIGCONT)
        wait_for(lambda: _ready(port) == 200, 10, "readiness after the worker resumed", log=log)


def test_sigterm_to_a_worker_releases_its_job_at_once(database_url, tmp_path, sessions):
    # A long heartbeat and lease: a release that waited for either would take 10 s or more.
    slow = {"FAIRACQ_JOB_HEARTBEAT_SECONDS": "10", "FAIRACQ_JOB_LEASE_SECONDS": "60"}
    log = tmp_path / "worker.log"
    job = enqueue_sleep(sessions, 30.0)
    with _running(["worker"], database_url, log, **slow) as first:
        wait_job(sessions, job.id, lambda j: j.status == "running" and j.progress > 0, timeout=60)
        stopped = time.monotonic()
        os.kill(first.pid, signal.SIGTERM)
        released = wait_job(sessions, job.id, lambda j: j.status == "queued", timeout=5)
        elapsed = time.monotonic() - stopped
        assert elapsed < 2.0, f"released after {elapsed:.1f} s"
        assert released.lease_expires_at is None and released.attempts == 1
        assert released.max_attempts == 4  # the interrupted attempt is given back
        assert first.wait(LEFTOVER_TIMEOUT) == 0
    wait_for(lambda: not _session_pids(first.pid), LEFTOVER_TIMEOUT, "the job process to exit")
    with sessions() as db:
        db.query(Job).filter(Job.id == job.id).update({"payload": {"seconds": 0.2}})
        db.commit()
    with _running(["worker"], database_url, tmp_path / "second.log"):
        done = wait_job(sessions, job.id, lambda j: j.status == "succeeded", timeout=30)
    assert done.attempts == 2 and done.result["attempt"] == 2


def test_serve_refuses_to_start_keyless_without_open_mode(database_url, tmp_path):
    log = tmp_path / "serve.log"
    proc = start(_serve(free_port(), 0), database_url, log, job_env(FAIRACQ_OPEN_MODE="false"))
    assert proc.wait(60) == 2
    text = log.read_text()
    assert "no API key exists" in text and "FAIRACQ_OPEN_MODE=true" in text and "create-api-key" in text


def _listening(port: int) -> set[str]:
    """Local addresses with a listening TCP socket on ``port`` (IPv4)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(".".join(str(int(address[i:i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


def test_open_mode_binds_the_host_it_is_asked_for(database_url, tmp_path):
    port, log = free_port(), tmp_path / "serve.log"
    args = ["serve", "--host", "0.0.0.0", "--port", str(port), "--workers", "0"]
    with _running(args, database_url, log, FAIRACQ_OPEN_MODE="true"):
        wait_for(lambda: _ready(port) == 200, 60, "readiness", log=log)
        assert _listening(port) == {"0.0.0.0"}
        assert "OPEN MODE" in log.read_text()
