"""The worker loop: claim a job, run it in a child process, keep its lease, record the outcome.

The parent process holds the lease with a heartbeat every
``job_heartbeat_seconds``; at each beat it learns whether the job was cancelled
and checks the per-kind timeout, killing the child when either applies — so a
cancel or timeout takes effect within one heartbeat. The child writes the
result itself through :meth:`JobContext.commit`, fenced on its attempt number.

SIGTERM wakes the worker at once: a running child is killed and its job is
released back to the queue (``queue.release``) without spending an attempt, so
another worker picks it up immediately rather than after the lease expires.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

import service.models  # noqa: F401  (every table, for foreign keys)
from service import idempotency, tracing
from service.auth import API_KEY_ID
from service.db import (
    TRANSIENT_RETRY_S,
    make_engine,
    make_reader_sessionmaker,
    make_sessionmaker,
    retrying,
    transaction,
)
from service.exports.repository import purge_exports
from service.jobs import queue
from service.jobs.models import Job
from service.jobs.registry import HANDLERS, JobContext, PermanentError
from service.logs import JOB_ID, REQUEST_ID
from service.settings import Settings

__all__ = ["Worker", "die_with_parent"]

log = logging.getLogger("service.worker")
# How often a worker deletes expired idempotency records.
PURGE_INTERVAL_S = 600.0


PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int, sig: int = signal.SIGTERM) -> None:
    """Ask the kernel to send ``sig`` to this process when its parent exits (Linux only)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, sig)
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os.kill(os.getpid(), sig)


def _load_handlers(settings: Settings) -> None:
    """Import every module that registers job handlers."""
    from service.resources import load_tasks

    load_tasks()
    # Job handlers outside the decision types: exports and webhook deliveries.
    import service.exports.tasks
    import service.webhooks.tasks  # noqa: F401

    if settings.enable_diagnostic_jobs:
        from service.jobs import diagnostics  # noqa: F401


def _child_main(conn: Connection, settings: Settings, job_fields: dict[str, Any], parent_pid: int) -> None:
    """Entry point of the child process that runs one attempt."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent_pid, signal.SIGKILL)
    engine = make_engine(settings.database_url, pool_size=2)
    API_KEY_ID.set(job_fields.pop("key_id", None))  # the decision-log entries it writes name the request's key
    ctx = JobContext(sessions=make_sessionmaker(engine), settings=settings, **job_fields)
    try:
        HANDLERS[ctx.kind](ctx)
        conn.send(("ok", None, False))
    except queue.StaleAttempt as exc:
        conn.send(("stale", str(exc), False))
    except PermanentError as exc:
        conn.send(("error", str(exc), False))
    except Exception as exc:  # every failure is reported to the parent
        # The client sees the exception's type and message; the traceback (with the server's
        # paths) goes to the worker's log only.
        log.error("job %s attempt %d failed", ctx.job_id, ctx.attempt, exc_info=True)
        retry = not isinstance(exc, ValueError)
        conn.send(("error", f"{type(exc).__name__}: {exc}", retry))
    finally:
        conn.close()
        engine.dispose()


class Worker:
    """One worker loop. ``alive`` (shared with a supervisor) gets the time of every poll and beat;
    ``parent_pid``, when given, is the supervisor whose death stops this loop."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session] | None = None, *,
                 alive: Any = None, parent_pid: int | None = None) -> None:
        self.settings = settings
        self.sessions = sessions or make_sessionmaker(make_engine(settings.database_url, pool_size=2))
        self.readers = make_reader_sessionmaker(self.sessions.kw["bind"])  # polls that find nothing write nothing
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}"
        self.stopping = False
        self._alive_value = alive
        self._parent_pid = parent_pid
        self._next_purge = 0.0
        # A signal writes a byte here, waking whatever wait the loop is in.
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        _load_handlers(settings)

    def stop(self, *_: Any) -> None:
        self.stopping = True
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"x")

    def run_forever(self) -> None:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        log.info("worker %s polling for jobs", self.worker_id)
        while not self.stopping:
            if self._parent_pid is not None and os.getppid() != self._parent_pid:
                log.warning("worker %s: its parent process is gone; stopping", self.worker_id)
                break
            self._alive()
            self._housekeeping()
            if not self.run_once():
                wait([self._wake_read], self.settings.job_poll_seconds)
        log.info("worker %s stopped", self.worker_id)

    def run_once(self) -> bool:
        """Claim and run one job; return whether there was one."""
        try:
            with self.readers() as db:
                if not queue.any_runnable(db, list(HANDLERS)):
                    return False
            with transaction(self.sessions) as db:
                job = queue.claim(db, self.worker_id, self.settings.job_lease_seconds, list(HANDLERS))
                fields = _fields(job) if job is not None else None
        except Exception:  # a database outage must not kill the worker
            log.warning("could not claim a job; retrying", exc_info=True)
            return False
        if fields is None:
            return False
        self._run_attempt(fields)
        return True

    def _run_attempt(self, fields: dict[str, Any]) -> None:
        context = fields.pop("context")
        request_token, job_token = REQUEST_ID.set(context["request_id"]), JOB_ID.set(str(fields["job_id"]))
        try:
            with tracing.job_span(fields["kind"], str(fields["job_id"]), fields["attempt"], context["traceparent"]):
                self._run_child(fields)
        finally:
            REQUEST_ID.reset(request_token)
            JOB_ID.reset(job_token)

    def _run_child(self, fields: dict[str, Any]) -> None:
        job_id, attempt, kind = fields["job_id"], fields["attempt"], fields["kind"]
        log.info("running job %s (%s) attempt %d", job_id, kind, attempt)
        mp = multiprocessing.get_context("fork")
        receiver, sender = mp.Pipe(duplex=False)
        child = mp.Process(target=_child_main, args=(sender, self.settings, fields, os.getpid()), daemon=True)
        child.start()
        sender.close()
        deadline = time.monotonic() + self.settings.timeout_for(kind)
        outcome: tuple[str, str | None, bool] | None = None
        while True:
            ready = wait([receiver, self._wake_read], self.settings.job_heartbeat_seconds)
            if receiver in ready:
                try:
                    outcome = receiver.recv()
                except EOFError:
                    outcome = None
                child.join(5)
                break
            if not child.is_alive():
                break
            verdict = self._beat(job_id, attempt, deadline)
            if verdict is not None:
                child.kill()
                child.join()
                self._record(job_id, attempt, verdict)
                return
        if child.is_alive():
            child.kill()
            child.join()
        if outcome is None:
            outcome = ("error", f"the job process exited with code {child.exitcode}", True)
        self._record(job_id, attempt, outcome)

    def _housekeeping(self) -> None:
        """Now and then, apply the retention settings: expired idempotency records
        (``FAIRACQ_IDEMPOTENCY_TTL_HOURS``, at least 24 h) and old finished jobs
        (``FAIRACQ_JOB_RETENTION_DAYS``) and exports (``FAIRACQ_EXPORT_RETENTION_DAYS``)."""
        now = time.monotonic()
        if now < self._next_purge:
            return
        self._next_purge = now + PURGE_INTERVAL_S
        try:
            with transaction(self.sessions) as db:
                records = idempotency.purge_expired(db)
                jobs = queue.purge_finished(db, self.settings.job_retention_days)
                exports = purge_exports(db, self.settings.export_retention_days)
            if records or jobs or exports:
                log.info("purged %d expired idempotency records, %d old finished jobs and %d old exports",
                         records, jobs, exports)
        except Exception:  # housekeeping must not stop the worker
            log.warning("could not apply the retention settings", exc_info=True)

    def _alive(self) -> None:
        if self._alive_value is not None:
            self._alive_value.value = time.time()
        if self.settings.worker_alive_file:
            Path(self.settings.worker_alive_file).touch()

    def _beat(self, job_id: Any, attempt: int, deadline: float) -> tuple[str, str | None, bool] | None:
        """Renew the lease; return an outcome when the child must be stopped."""
        self._alive()
        if self.stopping:
            return ("shutdown", "the worker shut down", True)
        if time.monotonic() > deadline:
            return ("error", "the job timed out", False)
        try:
            with transaction(self.sessions) as db:
                cancel = queue.heartbeat(db, job_id, attempt, self.settings.job_lease_seconds)
        except queue.StaleAttempt:
            return ("stale", "superseded by a newer attempt", False)
        except Exception:  # keep the child running through a database blip
            log.warning("heartbeat failed for job %s", job_id, exc_info=True)
            return None
        return ("cancelled", None, False) if cancel else None

    def _record(self, job_id: Any, attempt: int, outcome: tuple[str, str | None, bool]) -> None:
        status, message, retry = outcome
        if status in ("ok", "stale"):
            if status == "stale":
                log.warning("job %s attempt %d was superseded; its result was discarded", job_id, attempt)
            return

        def write() -> None:
            with transaction(self.sessions) as db:
                if status == "cancelled":
                    queue.finish_cancelled(db, job_id, attempt)
                elif status == "shutdown":
                    queue.release(db, job_id, attempt)
                    log.info("job %s attempt %d released: worker %s is shutting down", job_id, attempt,
                             self.worker_id)
                else:
                    queue.finish_failure(db, job_id, attempt, message or status,
                                         backoff_seconds=self.settings.job_backoff_seconds, retry=retry)

        try:
            # A shutting-down worker tries briefly: if it cannot, the lease hands the job on.
            retrying(write, within=5.0 if status == "shutdown" else TRANSIENT_RETRY_S,
                     what=f"the outcome of job {job_id}")
        except queue.StaleAttempt:
            log.warning("job %s attempt %d was superseded before its outcome was recorded", job_id, attempt)
        except (OperationalError, InterfaceError):
            log.error("could not record the outcome of job %s attempt %d; its lease will expire and it runs "
                      "again", job_id, attempt)


def _fields(job: Job) -> dict[str, Any]:
    return {
        "job_id": job.id, "attempt": job.attempts, "kind": job.kind, "tenant_id": job.tenant_id,
        "resource_id": job.resource_id, "payload": dict(job.payload or {}), "key_id": job.key_id,
        "context": {"request_id": job.request_id, "traceparent": job.trace_context},
    }
