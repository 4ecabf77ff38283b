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

from service import jobs
from service.algorithms.balanced_filtering import make_proxy
from service.balanced_filters import service
from service.balanced_filters.repository import repository
from service.balanced_filters.state import load
from service.db import transaction

__all__ = ["fit_filter"]


@jobs.job_handler(service.FIT_JOB)
def fit_filter(ctx: jobs.JobContext) -> None:
    with transaction(ctx.sessions) as db:
        repo = repository(db, ctx.tenant_id)
        record = repo.get(ctx.resource)
        seed, sequence = record.seed, record.sequence + 1
        config, _ = load(record)
        X, groups = service.training_data(db, ctx.tenant_id, repo, record, config)
    ctx.progress(0.05, force=True)
    try:
        proxy = make_proxy(config.proxy.type, **config.proxy.library_params(), target=list(config.target))
        proxy.fit(X, groups, group_values=config.group_values, rng=np.random.default_rng([seed, sequence]))
    except ValueError as exc:
        raise jobs.PermanentError(f"the proxy could not be fitted: {exc}") from None
    params = proxy.to_params()
    ctx.progress(0.95)
    ctx.commit(lambda db, job: service.store_fitted(db, job, params, sequence))
