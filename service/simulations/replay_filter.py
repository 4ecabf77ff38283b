"""One repetition of a balanced-filter simulation: each proxy (and its α) fitted, then filtering a stream.

Each group's rows are split into the candidates (``test_fraction`` of each group) and
the proxy's training rows. Every policy fits its proxy on the training rows as the fit
job does (``make_proxy(...).fit``, the same random generator for all, so one proxy under
two names is the same proxy), then decides on a stream of ``budget`` candidates drawn from
the candidate rows (a fresh shuffle when they run out) with Algorithm 2
(``proxy.decide``, coins fixed by the candidate's position in the stream). The running
counts are the filter session's own steps (:func:`record_decisions`,
:func:`record_outcomes`, :func:`realized_imbalance`), the accepted candidates' groups
being known here. At each curve point: the realised imbalance ‖shares − U‖₂ of the
accepted candidates so far (‖U‖₂ while none is accepted), the acceptance rate so far, and
the proxy's disclosivity (Definition 5) measured on the candidates seen so far.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies", Algorithms 1-2,
Definitions 2 and 5.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from service.algorithms.balanced_filtering import (
    FilterCounts,
    make_proxy,
    realized_imbalance,
    record_decisions,
    record_outcomes,
)
from service.simulations.common import DECIDE, FIT, ORDER, Problem, Progress, Repetition, Stop, reshuffled, rng, split

__all__ = ["proxy_params", "run_balanced_filter"]

# Candidate coins are 62-bit seeds: any non-negative int64 is a valid filter seed.
COIN_SEED_BITS = 62


def proxy_params(spec: dict[str, Any]) -> dict[str, Any]:
    """A stored proxy spec as ``make_proxy`` takes it (without ``type`` and unset fields)."""
    params = {k: v for k, v in spec.items() if k != "type" and v is not None}
    if "margins" in params:
        params["margins"] = tuple(params["margins"])
    return params


def run_balanced_filter(problem: Problem, repetition: int, should_stop: Stop, progress: Progress) -> Repetition:
    """Fit and run every policy's proxy on repetition ``repetition``'s split; imbalance, acceptance, disclosivity."""
    rest, candidates = split(problem, repetition)
    train = np.sort(np.concatenate(rest))
    names = np.asarray(problem.groups)
    stream = reshuffled(candidates, problem.budget, rng(problem, repetition, ORDER))
    ids = np.arange(problem.budget).astype(str)
    coin_seed = int(rng(problem, repetition, DECIDE).integers(0, 2**COIN_SEED_BITS))
    target = problem.options["target"]
    shape = (len(problem.policies), len(problem.points))
    imbalance, acceptance, disclosivity = np.empty(shape), np.empty(shape), np.empty(shape)
    for k, spec in enumerate(problem.policies):
        if should_stop():
            raise InterruptedError("the simulation was cancelled")
        proxy = make_proxy(spec["proxy"]["type"], **proxy_params(spec["proxy"]), target=target)
        proxy.fit(problem.X[train], names[problem.group[train]], group_values=list(problem.groups),
                  rng=rng(problem, repetition, FIT))
        decisions = proxy.decide(problem.X[stream], ids, coin_seed)
        counts, start = FilterCounts.empty(proxy.n_leaves_, len(problem.groups)), 0
        for j, n in enumerate(problem.points):
            accept = decisions.accept[start:n]
            counts = record_decisions(counts, decisions.leaf[start:n], accept)
            counts = record_outcomes(counts, proxy.groups_, names[problem.group[stream[start:n][accept]]])
            realized = realized_imbalance(counts, proxy.groups_, proxy.target_)["imbalance"]
            imbalance[k, j] = float(np.linalg.norm(proxy.target_)) if realized is None else realized
            acceptance[k, j] = counts.accepted / counts.total
            seen = stream[:n]
            disclosivity[k, j] = proxy.evaluate(problem.X[seen], names[problem.group[seen]]).disclosivity
            start = n
        progress((k + 1) / len(problem.policies))
    return Repetition({"imbalance": imbalance, "acceptance_rate": acceptance, "disclosivity": disclosivity})
