"""Background work of balanced filters: learning the proxy.

The handler reads the configuration and the training data in a short
transaction, fits outside any transaction, and stores the parameters with
``ctx.commit`` (fenced on its attempt). Bad data or hyperparameters the fit
refuses are a :class:`PermanentError`: retrying cannot fix them, and the filter
shows ``failed`` with the message. Randomness is ``default_rng([seed, sequence])``
of the log entry the fit is recorded as, so a fit can be replayed exactly.
"""

from __future__ import annotations

import numpy as np

from service.algorithms.balanced_filtering import make_proxy
from service.balanced_filters import service
from service.balanced_filters.repository import repository
from service.db import transaction
from service.jobs.registry import JobContext, PermanentError, job_handler

__all__ = ["fit_filter"]


@job_handler(service.FIT_JOB)
def fit_filter(ctx: JobContext) -> None:
    with transaction(ctx.sessions) as db:
        repo = repository(db, ctx.tenant_id)
        record = repo.get(ctx.resource_id)  # type: ignore[arg-type]
        config, seed, sequence = record.config, record.seed, record.sequence + 1
        X, groups = service.training_data(db, ctx.tenant_id, repo, record)
    ctx.progress(0.05, force=True)
    hyper = {k: tuple(v) if isinstance(v, list) else v for k, v in config["proxy"].items() if k != "type"}
    try:
        proxy = make_proxy(config["proxy"]["type"], **hyper, target=config["target"])
        proxy.fit(X, groups, group_values=config["encoding"]["values"], rng=np.random.default_rng([seed, sequence]))
    except ValueError as exc:
        raise PermanentError(f"the proxy could not be fitted: {exc}") from None
    params = proxy.to_params()
    ctx.progress(0.95)
    ctx.commit(lambda db, job: service.store_fitted(db, job, params, sequence))
