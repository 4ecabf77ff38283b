"""Background work of fair regressions: the fit (Algorithm 1, a sweep of it, or Algorithm 2).

The handler reads the config and the training data in a short read-only transaction,
fits outside any transaction, and stores the parameters with ``ctx.commit`` (fenced on
its attempt). The library reports progress through ``ctx.progress`` and polls
:class:`CancelProbe` before every iteration, so a cancelled fit stops at the next
iteration even before the worker kills the process at its next heartbeat; either way
the job ends ``cancelled`` and so does the regression. Input the fit refuses is a
:class:`PermanentError`. Randomness is ``default_rng([seed, sequence])`` of the log
entry the fit is recorded as, so a fit can be replayed exactly.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from service.algorithms.fair_regression import fit_bounded_group_loss, fit_statistical_parity, sweep
from service.db import read_only, transaction
from service.fair_regressions import service
from service.fair_regressions.repository import repository
from service.jobs.registry import JobContext, PermanentError, job_handler

__all__ = ["CancelProbe", "FitCancelled", "fit_job", "run_fit"]

# The job row is read at most this often for a cancel request: one indexed read per
# half second costs nothing next to an oracle call, and the worker's heartbeat kills
# the process within one beat anyway.
CANCEL_POLL_SECONDS = 0.5
# Progress reported once the data is loaded, before the first iteration finishes.
PROGRESS_START = 0.02


class FitCancelled(PermanentError):
    """The fit stopped because its job was cancelled; the worker records the job ``cancelled``."""


class CancelProbe:
    """``should_stop`` for the library: whether the job's cancel was requested, read through a fresh session."""

    def __init__(self, ctx: JobContext, interval: float = CANCEL_POLL_SECONDS) -> None:
        self.ctx, self.interval = ctx, interval
        self.cancelled = False
        self._last = -float("inf")

    def __call__(self) -> bool:
        now = time.monotonic()
        if self.cancelled or now - self._last < self.interval:
            return self.cancelled
        self._last = now
        with self.ctx.sessions() as db:
            self.cancelled = repository(read_only(db), self.ctx.tenant_id).cancel_requested(self.ctx.job_id)
        return self.cancelled


def run_fit(config: dict[str, Any], X: np.ndarray, y: np.ndarray, groups: np.ndarray, rng: np.random.Generator,
            **hooks: Any) -> tuple[service.FitOutcome, str]:
    """Call the library as the stored config says; the outcome and the library's status."""
    common = {"loss": config["loss"], "learner": config["learner"], "max_iterations": config["max_iterations"],
              "tolerance": config["tolerance"], "bound_b": config["bound_b"], "rng": rng, **hooks}
    constraint = config["constraint"]
    if constraint["type"] == "bounded_group_loss":
        bounds = constraint["bound"] if constraint["bounds"] is None else constraint["bounds"]
        result = fit_bounded_group_loss(X, y, groups, bounds, **common)
        return service.FitOutcome([result], [None], None), result.status
    sp = {"grid_size": constraint["grid_size"], "oracle": config["oracle"], **common}
    slack = constraint["slack"]
    if isinstance(slack, list):
        swept = sweep(slack, X, y, groups, **sp)
        return service.FitOutcome(swept.results, [float(s) for s in slack][: len(swept.results)],
                                  swept.frontier), swept.status
    result = fit_statistical_parity(X, y, groups, slack, **sp)
    return service.FitOutcome([result], [float(slack)], None), result.status


@job_handler(service.FIT_JOB)
def fit_job(ctx: JobContext) -> None:
    with transaction(ctx.sessions) as db:
        repo = repository(read_only(db), ctx.tenant_id)
        record = repo.get(ctx.resource_id)  # type: ignore[arg-type]
        config, seed, sequence = record.config, record.seed, record.sequence + 1
        X, y, groups = service.training_data(db, ctx.tenant_id, repo, record)
    ctx.progress(PROGRESS_START, force=True)

    def progress(fraction: float) -> None:
        ctx.progress(PROGRESS_START + (1.0 - PROGRESS_START) * fraction)

    try:
        outcome, status = run_fit(config, X, y, groups, np.random.default_rng([seed, sequence]),
                                  progress=progress, should_stop=CancelProbe(ctx))
    except ValueError as exc:
        raise PermanentError(f"the fit failed: {exc}") from None
    if status == "cancelled":
        done = sum(r.iterations for r in outcome.results)
        raise FitCancelled(f"the fit was cancelled after {done} iterations")
    ctx.commit(lambda db, job: service.store_fit(db, job, outcome, sequence))
