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
All randomness is ``default_rng([seed, repetition, stream, ...])``: a repetition
gives the same numbers whichever worker runs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

from service.algorithms.adaptive_sampling import SamplerConfig, SamplerState, apply_observation, next_decision
from service.algorithms.adaptive_sampling.model import fit_and_evaluate

__all__ = ["Problem", "Repetition", "curve_points", "run_repetition"]

# Probabilities are clipped this far from 0 and 1 before a log loss: a model sure and wrong
# on one row costs log(1e6) ≈ 13.8, not infinity.
PROB_CLIP = 1e-6
# Random streams of a repetition, so that adding one never shifts the others.
SPLIT, ORDER, DECIDE = 0, 1, 2


@dataclass(frozen=True)
class Problem:
    """The client's table and the simulation's settings, as the replay reads them."""

    X: np.ndarray
    y: np.ndarray
    group: np.ndarray  # index into ``groups``
    groups: tuple[str, ...]
    policies: tuple[dict[str, Any], ...]  # SamplerConfig fields besides groups and budget
    budget: int
    points: tuple[int, ...]  # samples acquired at each curve point
    model: str  # "logistic_regression" or "gradient_boosting"
    test_fraction: float
    seed: int


@dataclass(frozen=True)
class Repetition:
    """Per policy and curve point: each group's test accuracy and log loss, and the mixture π_n."""

    accuracy: np.ndarray  # (policies, points, groups)
    log_loss: np.ndarray  # (policies, points, groups)
    mixture: np.ndarray  # (policies, points, groups)

    def to_dict(self) -> dict[str, Any]:
        return {"accuracy": self.accuracy.tolist(), "log_loss": self.log_loss.tolist(),
                "mixture": self.mixture.tolist()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Repetition:
        return cls(*(np.asarray(data[k], dtype=float) for k in ("accuracy", "log_loss", "mixture")))


def curve_points(budget: int, n_points: int) -> tuple[int, ...]:
    """``n_points`` sample counts evenly spaced up to the budget (fewer when the budget is small)."""
    return tuple(sorted({int(round(budget * (k + 1) / n_points)) for k in range(n_points)} - {0}))


def _split(problem: Problem, rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray]:
    """Each group's pool rows and the test rows (``test_fraction`` of each group, at least one)."""
    pools, tests = [], []
    for z in range(len(problem.groups)):
        rows = rng.permutation(np.flatnonzero(problem.group == z))
        n_test = min(max(1, int(round(problem.test_fraction * rows.size))), rows.size - 1)
        tests.append(rows[:n_test])
        pools.append(rows[n_test:])
    return pools, np.sort(np.concatenate(tests))


def _orders(problem: Problem, pools: list[np.ndarray], repetition: int) -> list[np.ndarray]:
    """Each group's rows in the order every policy draws them: fresh permutations when a pool runs out."""
    need = 2 * problem.budget  # a training and a validation row per sample
    orders = []
    for z, pool in enumerate(pools):
        rng = np.random.default_rng([problem.seed, repetition, ORDER, z])
        cycles = -(-need // pool.size)
        orders.append(np.concatenate([rng.permutation(pool) for _ in range(cycles)])[:need])
    return orders


def _client_model(name: str) -> Any:
    if name == "gradient_boosting":
        return HistGradientBoostingClassifier(random_state=0)
    return LogisticRegression(C=1.0, max_iter=1000)


def _score(problem: Problem, rows: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-group test accuracy and log loss of the client's model trained on ``rows``."""
    y_train = problem.y[rows]
    if np.unique(y_train).size < 2:  # one class so far: the model predicts it
        p = np.full(test.size, float(y_train[0]))
    else:
        p = _client_model(problem.model).fit(problem.X[rows], y_train).predict_proba(problem.X[test])[:, 1]
    y, g, m = problem.y[test], problem.group[test], len(problem.groups)
    q = np.clip(p, PROB_CLIP, 1 - PROB_CLIP)
    counts = np.bincount(g, minlength=m)
    accuracy = np.bincount(g, (p >= 0.5) == (y >= 0.5), minlength=m) / counts
    log_loss = np.bincount(g, -(y * np.log(q) + (1 - y) * np.log(1 - q)), minlength=m) / counts
    return accuracy, log_loss


def _run_policy(problem: Problem, k: int, orders: list[np.ndarray], test: np.ndarray, repetition: int,
                should_stop: Callable[[], bool], progress: Callable[[float], None],
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m, budget = len(problem.groups), problem.budget
    config = SamplerConfig(groups=problem.groups, budget=budget, **problem.policies[k])
    state, params = SamplerState.initial(config), None
    train, val = np.empty(budget, dtype=int), np.empty(budget, dtype=int)
    used = np.zeros(m, dtype=int)
    shape = (len(problem.points), m)
    accuracy, log_loss, mixture = np.empty(shape), np.empty(shape), np.empty(shape)
    point = 0
    while state.budget_spent < budget:
        if should_stop():
            raise InterruptedError("the simulation was cancelled")
        decision = next_decision(config, state, np.random.default_rng([problem.seed, repetition, DECIDE, state.round]))
        z, b, n0 = decision.group_index, decision.batch_size, state.budget_spent
        n = n0 + b
        drawn = orders[z][used[z]: used[z] + 2 * b]
        used[z] += 2 * b
        train[n0:n], val[n0:n] = drawn[:b], drawn[b:]
        fit = fit_and_evaluate(problem.X[train[:n]], problem.y[train[:n]], problem.X[val[:n]], problem.y[val[:n]],
                               problem.group[val[:n]], m, config.loss, params)
        params = fit.params
        losses, accuracies = fit.evaluation.reported()
        state = apply_observation(config, state, z, b, losses, accuracies)
        while point < len(problem.points) and n >= problem.points[point]:
            accuracy[point], log_loss[point] = _score(problem, train[:n], test)
            mixture[point] = np.asarray(state.counts, dtype=float) / n
            point += 1
            progress(point / len(problem.points))
    return accuracy, log_loss, mixture


def run_repetition(problem: Problem, repetition: int, should_stop: Callable[[], bool] = lambda: False,
                   progress: Callable[[float], None] = lambda _: None) -> Repetition:
    """Replay every policy on repetition ``repetition``'s split of the data."""
    pools, test = _split(problem, np.random.default_rng([problem.seed, repetition, SPLIT]))
    orders = _orders(problem, pools, repetition)
    runs, m = [], len(problem.policies)
    for k in range(m):
        def policy_progress(fraction: float, k: int = k) -> None:
            progress((k + fraction) / m)

        runs.append(_run_policy(problem, k, orders, test, repetition, should_stop, policy_progress))
    return Repetition(*(np.stack([run[i] for run in runs]) for i in range(3)))
