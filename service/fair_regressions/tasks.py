"""Background work of fair regressions: the fit (Algorithm 1, a sweep of it, or Algorithm 2).

The handler reads the config and the training data in a short read-only transaction,
fits outside any transaction, and stores the parameters with ``ctx.commit`` (fenced on
its attempt). The library reports progress through ``ctx.progress`` and polls a
``ctx.cancel_requested`` before every iteration, so a cancelled
fit stops at the next iteration even before the worker kills the process at its next
heartbeat; either way the job ends ``cancelled`` and so does the regression. Input the
fit refuses, or a stored config that cannot be read, is a :class:`PermanentError`.
Randomness is ``default_rng([seed, sequence])`` of the log entry the fit is recorded
as, so a fit can be replayed exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service import jobs
from service.algorithms.fair_regression import fit_bounded_group_loss, fit_statistical_parity, sweep
from service.db import read_only, transaction
from service.fair_regressions import service
from service.fair_regressions.repository import repository
from service.fair_regressions.state import BoundedGroupLoss, Config, load
from service.pages import CorruptState

__all__ = ["FitCancelled", "fit_job", "run_fit"]

# Progress reported once the data is loaded, before the first iteration finishes.
PROGRESS_START = 0.02


class FitCancelled(jobs.PermanentError):
    """The fit stopped because its job was cancelled; the worker records the job ``cancelled``."""


def run_fit(config: Config, X: np.ndarray, y: np.ndarray, groups: np.ndarray, rng: np.random.Generator,
            **hooks: Any) -> tuple[service.FitOutcome, str]:
    """Call the library as the stored config says; the outcome and the library's status."""
    common = {"loss": config.loss, "learner": config.learner.to_dict(), "max_iterations": config.max_iterations,
              "tolerance": config.tolerance, "bound_b": config.bound_b, "rng": rng, **hooks}
    constraint = config.constraint
    if isinstance(constraint, BoundedGroupLoss):
        result = fit_bounded_group_loss(X, y, groups, constraint.zeta, **common)
        return service.FitOutcome([result], [None], None), result.status
    sp = {"grid_size": constraint.grid_size, "oracle": config.oracle, **common}
    slack = constraint.slack
    if isinstance(slack, tuple):
        swept = sweep(list(slack), X, y, groups, **sp)
        fitted: list[float | None] = list(slack[: len(swept.results)])  # a cancelled sweep stops early
        return service.FitOutcome(swept.results, fitted, swept.frontier), swept.status
    result = fit_statistical_parity(X, y, groups, slack, **sp)
    return service.FitOutcome([result], [slack], None), result.status


@jobs.job_handler(service.FIT_JOB)
def fit_job(ctx: jobs.JobContext) -> None:
    with transaction(ctx.sessions) as db:
        repo = repository(read_only(db), ctx.tenant_id)
        record = repo.get(ctx.resource)
        try:
            config, _ = load(record)
        except CorruptState as exc:
            raise jobs.PermanentError(exc.detail) from None
        seed, sequence = record.seed, record.sequence + 1
        X, y, groups = service.training_data(db, ctx.tenant_id, repo, record, config)
    ctx.progress(PROGRESS_START, force=True)

    def progress(fraction: float) -> None:
        ctx.progress(PROGRESS_START + (1.0 - PROGRESS_START) * fraction)

    try:
        outcome, status = run_fit(config, X, y, groups, np.random.default_rng([seed, sequence]),
                                  progress=progress, should_stop=ctx.cancel_requested)
    except ValueError as exc:
        raise jobs.PermanentError(f"the fit failed: {exc}") from None
    if status == "cancelled":
        done = sum(r.iterations for r in outcome.results)
        raise FitCancelled(f"the fit was cancelled after {done} iterations")
    ctx.commit(lambda db, job: service.store_fit(db, job, outcome, sequence))
