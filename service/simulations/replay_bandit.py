"""One repetition of a partition-bandit simulation: random batches against DataSift on the same pool.

Each group's rows are split into a held-out test set (``test_fraction``, where the curves
are scored), a selection set of the same share (DataSift's "test set": the one its
fairness decisions are made on, kept apart so that a policy is not scored on the rows it
chose by), and the rest, from which ``initial_size`` rows (each group in proportion, at
least two) are the initial training set and the others the pool. The pool is partitioned
once per repetition (GMM with BIC over 2..``max_partitions``, :func:`partition_pool`) and
every DataSift policy bandits over the same partitions. Policies run as the managed run
job does: :func:`run_acquisition` (DataSift and DataSift-Inf, Algorithm 1 and 2 with the
service's logistic model) or :func:`run_baseline` ``"random"``.

At each curve point the client's model is trained on the initial rows plus the first
``n`` points the policy acquired, and scored on the test set: the fairness measure's
largest gap between groups and the accuracy. A DataSift run that stops early (fairness
threshold, evaluations or pool spent) keeps its last set, so its curve stays flat.
"""

from __future__ import annotations

import math

import numpy as np

from service.algorithms.datasift import (
    BanditConfig,
    LabeledData,
    Partitioning,
    partition_pool,
    run_acquisition,
    run_baseline,
)
from service.simulations.common import (
    DECIDE,
    PARTITION,
    Problem,
    Progress,
    Repetition,
    Stop,
    disparity,
    fit_predict,
    rng,
    split,
)

__all__ = ["EVALUATIONS_PER_BATCH", "run_partition_bandit"]

# DataSift evaluates batches it may reject; without a cap given, it evaluates at most this
# many times the batches the budget buys (the bound the work limit counts).
EVALUATIONS_PER_BATCH = 3
# Least initial training rows of each group: the initial model and DataSift's fairness
# orientation need every group present.
MIN_INITIAL_PER_GROUP = 2


def _sets(problem: Problem, repetition: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Row indices of the test, selection, initial training and pool sets."""
    rest, test = split(problem, repetition)
    n_rest = sum(r.size for r in rest)
    selection, initial, pool = [], [], []
    for rows in rest:
        n_sel = max(1, int(round(problem.test_fraction * rows.size)))
        n_init = max(MIN_INITIAL_PER_GROUP, int(round(problem.options["initial_size"] * rows.size / n_rest)))
        selection.append(rows[:n_sel])
        initial.append(rows[n_sel:n_sel + n_init])
        pool.append(rows[n_sel + n_init:])
    sel, init, rows = (np.sort(np.concatenate(part)) for part in (selection, initial, pool))
    return test, sel, init, rows


def _labeled(problem: Problem, rows: np.ndarray) -> LabeledData:
    return LabeledData(problem.X[rows], problem.y[rows].astype(int), problem.group[rows].astype(str))


def _acquire(problem: Problem, k: int, data: tuple[LabeledData, LabeledData, LabeledData],
             partitioning: Partitioning | None, repetition: int, should_stop: Stop) -> np.ndarray:
    """Pool positions the policy acquired, in order."""
    pool, train, selection = data
    spec, metric = problem.policies[k], problem.options["metric"]
    generator = rng(problem, repetition, DECIDE)
    if spec["policy"] == "random":
        result = run_baseline("random", pool, train, selection, budget=problem.budget, batch_size=spec["batch_size"],
                              rng=generator, metric=metric, should_stop=should_stop)
    else:
        batches = math.ceil(problem.budget / spec["batch_size"])
        config = BanditConfig(
            batch_size=spec["batch_size"], budget=problem.budget, metric=metric, reward=spec["reward"],
            reward_scale=spec["reward_scale"], batch_selection=spec["batch_selection"], alpha=spec["alpha"],
            fairness_threshold=spec["fairness_threshold"],
            max_evaluations=spec["max_evaluations"] or EVALUATIONS_PER_BATCH * batches)
        result = run_acquisition(pool, train, selection, config, generator, partitioning=partitioning,
                                 refresh_influence=spec["refresh_influence"], should_stop=should_stop)
    if result.stop_reason == "cancelled":
        raise InterruptedError("the simulation was cancelled")
    return np.asarray(result.acquired, dtype=np.int64)


def run_partition_bandit(problem: Problem, repetition: int, should_stop: Stop, progress: Progress) -> Repetition:
    """Replay every policy on repetition ``repetition``'s split; |disparity| and accuracy per curve point."""
    test, selection, initial, pool_rows = _sets(problem, repetition)
    pool = _labeled(problem, pool_rows)
    data = (pool, _labeled(problem, initial), _labeled(problem, selection))
    needs_partitions = any(p["policy"] == "datasift" for p in problem.policies)
    partitioning = partition_pool(pool.X, pool.y, pool.groups, rng=rng(problem, repetition, PARTITION),
                                  max_components=problem.options["max_partitions"]) if needs_partitions else None
    m, shape = len(problem.policies), (len(problem.policies), len(problem.points))
    fairness, accuracy, acquired = np.empty(shape), np.empty(shape), np.empty(shape)
    y, g = problem.y[test], problem.group[test]
    for k in range(m):
        order = pool_rows[_acquire(problem, k, data, partitioning, repetition, should_stop)]
        for j, n in enumerate(problem.points):
            p = fit_predict(problem, np.concatenate([initial, order[:n]]), test)
            fairness[k, j] = disparity(problem.options["metric"], p, y, g, len(problem.groups))
            accuracy[k, j] = float(((p >= 0.5) == (y >= 0.5)).mean())
            acquired[k, j] = min(n, order.size)
        progress((k + 1) / m)
    return Repetition({"fairness": fairness, "accuracy": accuracy, "acquired": acquired})
