"""One repetition of a group-sampling simulation: every policy replayed on the same resample.

A repetition splits the client's labeled rows, group by group, into an acquisition pool
and a held-out test set (``test_fraction`` of each group). Each policy then runs as a
managed-mode group sampler does in the service: the real step functions of
:mod:`service.algorithms.adaptive_sampling` choose a group (``next_decision``), the
chosen group yields ``batch_size`` training and as many validation rows (Algorithm 1
draws a pair per sample), the warm-started logistic regression is refitted and each
group's validation loss is reported (``fit_and_evaluate``, ``apply_observation``).

At each curve point the client's model (scikit-learn's logistic regression or
gradient boosting) is trained on the rows acquired so far and scored per group on
the test set. Every policy of a repetition draws the same rows in the same order
from each group (common random numbers), so differences between policies are paired.
Randomness: :mod:`service.simulations.common`.
"""

from __future__ import annotations

import numpy as np

from service.algorithms.adaptive_sampling import SamplerConfig, SamplerState, apply_observation, next_decision
from service.algorithms.adaptive_sampling.model import WarmStartLogisticRegression, evaluate_groups
from service.simulations.common import (
    DECIDE,
    ORDER,
    Problem,
    Progress,
    Repetition,
    Stop,
    fit_predict,
    log_loss,
    reshuffled,
    rng,
    split,
)

__all__ = ["run_group_sampler"]


def _orders(problem: Problem, pools: list[np.ndarray], repetition: int) -> list[np.ndarray]:
    """Each group's rows in the order every policy draws them: fresh permutations when a pool runs out."""
    need = 2 * problem.budget  # a training and a validation row per sample
    return [reshuffled(pool, need, rng(problem, repetition, ORDER, z)) for z, pool in enumerate(pools)]


def _score(problem: Problem, rows: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-group test accuracy and log loss of the client's model trained on ``rows``."""
    p = fit_predict(problem, rows, test)
    y, g, m = problem.y[test], problem.group[test], len(problem.groups)
    counts = np.bincount(g, minlength=m)
    accuracy = np.bincount(g, (p >= 0.5) == (y >= 0.5), minlength=m) / counts
    return accuracy, np.bincount(g, log_loss(p, y), minlength=m) / counts


def _run_policy(problem: Problem, k: int, orders: list[np.ndarray], test: np.ndarray, repetition: int,
                should_stop: Stop, progress: Progress,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m, budget = len(problem.groups), problem.budget
    config = SamplerConfig(groups=problem.groups, budget=budget, **problem.policies[k])
    state = SamplerState.initial(config)
    train, val = np.empty(budget, dtype=int), np.empty(budget, dtype=int)
    # The rows acquired so far, kept in place between rounds instead of gathered anew each refit:
    # training rows with the intercept's column of ones (what the refit works on), validation rows.
    d = problem.X.shape[1]
    train_Xa, train_y = np.ones((budget, d + 1)), np.empty(budget)
    val_X, val_y, val_group = np.empty((budget, d)), np.empty(budget), np.empty(budget, dtype=np.int64)
    model: WarmStartLogisticRegression | None = None
    used = np.zeros(m, dtype=int)
    shape = (len(problem.points), m)
    accuracy, log_loss, mixture = np.empty(shape), np.empty(shape), np.empty(shape)
    point = 0
    while state.budget_spent < budget:
        if should_stop():
            raise InterruptedError("the simulation was cancelled")
        decision = next_decision(config, state, rng(problem, repetition, DECIDE, state.round))
        z, b, n0 = decision.group_index, decision.batch_size, state.budget_spent
        n = n0 + b
        drawn = orders[z][used[z]: used[z] + 2 * b]
        used[z] += 2 * b
        train[n0:n], val[n0:n] = drawn[:b], drawn[b:]
        train_Xa[n0:n, :d], train_y[n0:n] = problem.X[drawn[:b]], problem.y[drawn[:b]]
        val_X[n0:n], val_y[n0:n], val_group[n0:n] = problem.X[drawn[b:]], problem.y[drawn[b:]], problem.group[drawn[b:]]
        # fit_and_evaluate's refit and evaluation (warm-started from the last round), on the buffers
        previous = (None, 0.0) if model is None else (model.coef_, model.intercept_)
        model = WarmStartLogisticRegression().fit_augmented(train_Xa[:n], train_y[:n], *previous)
        evaluation = evaluate_groups(model, val_X[:n], val_y[:n], val_group[:n], m, config.loss)
        losses, accuracies = evaluation.reported()
        state = apply_observation(config, state, z, b, losses, accuracies)
        while point < len(problem.points) and n >= problem.points[point]:
            accuracy[point], log_loss[point] = _score(problem, train[:n], test)
            mixture[point] = np.asarray(state.counts, dtype=float) / n
            point += 1
            progress(point / len(problem.points))
    return accuracy, log_loss, mixture


def run_group_sampler(problem: Problem, repetition: int, should_stop: Stop, progress: Progress) -> Repetition:
    """Replay every policy on repetition ``repetition``'s split of the data."""
    pools, test = split(problem, repetition)
    orders = _orders(problem, pools, repetition)
    runs, m = [], len(problem.policies)
    for k in range(m):
        def policy_progress(fraction: float, k: int = k) -> None:
            progress((k + fraction) / m)

        runs.append(_run_policy(problem, k, orders, test, repetition, should_stop, policy_progress))
    names = ("accuracy", "log_loss", "mixture")
    return Repetition({name: np.stack([run[i] for run in runs]) for i, name in enumerate(names)})
