"""Diagnostic job kinds for checking a deployment's workers (enabled by a setting).

``diagnostics.sleep`` sleeps in small steps reporting progress, then records how
many times it completed on its own job row — so a test can prove that a job
killed mid-run is claimed again and completes exactly once.
"""

from __future__ import annotations

import time

from service.jobs.registry import JobContext, PermanentError, job_handler

__all__ = ["sleep_job"]


@job_handler("diagnostics.sleep")
def sleep_job(ctx: JobContext) -> None:
    seconds = float(ctx.payload.get("seconds", 1.0))
    if ctx.payload.get("fail") == "permanent":
        raise PermanentError("asked to fail")
    steps = max(1, int(seconds / 0.05))
    for i in range(steps):
        time.sleep(seconds / steps)
        ctx.progress((i + 1) / steps)
    ctx.commit(lambda db, job: {"slept": seconds, "attempt": ctx.attempt, "worker_pid": _pid()})


def _pid() -> int:
    import os

    return os.getpid()
