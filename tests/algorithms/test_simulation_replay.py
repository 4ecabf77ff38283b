"""The group-sampler replay's in-place refits are the managed sampler's ``fit_and_evaluate``, bit for bit."""

from __future__ import annotations

import numpy as np

from service.algorithms.adaptive_sampling import SamplerConfig, SamplerState, apply_observation, next_decision
from service.algorithms.adaptive_sampling.model import fit_and_evaluate
from service.simulations.common import DECIDE, Problem, curve_points, rng, split
from service.simulations.replay import _orders, _score
from service.simulations.replays import run_repetition


def managed_mixture_and_accuracy(problem: Problem, k: int, repetition: int) -> tuple[np.ndarray, np.ndarray]:
    """The replay as it was written first: rows gathered anew and ``fit_and_evaluate`` every round."""
    pools, test = split(problem, repetition)
    orders = _orders(problem, pools, repetition)
    m = len(problem.groups)
    config = SamplerConfig(groups=problem.groups, budget=problem.budget, **problem.policies[k])
    state, params, used = SamplerState.initial(config), None, np.zeros(m, dtype=int)
    train, val = np.empty(problem.budget, dtype=int), np.empty(problem.budget, dtype=int)
    accuracy, mixture = [], []
    while state.budget_spent < problem.budget:
        decision = next_decision(config, state, rng(problem, repetition, DECIDE, state.round))
        z, b, n0 = decision.group_index, decision.batch_size, state.budget_spent
        n = n0 + b
        drawn = orders[z][used[z]: used[z] + 2 * b]
        used[z] += 2 * b
        train[n0:n], val[n0:n] = drawn[:b], drawn[b:]
        fit = fit_and_evaluate(problem.X[train[:n]], problem.y[train[:n]], problem.X[val[:n]], problem.y[val[:n]],
                               problem.group[val[:n]], m, config.loss, params)
        params = fit.params
        state = apply_observation(config, state, z, b, *fit.evaluation.reported())
        if n in problem.points:
            accuracy.append(_score(problem, train[:n], test)[0])
            mixture.append(np.asarray(state.counts, dtype=float) / n)
    return np.array(accuracy), np.array(mixture)


def test_replay_equals_the_managed_refit_loop_exactly():
    generator = np.random.default_rng(3)
    X = generator.normal(size=(300, 6))
    group = generator.integers(0, 3, size=300)
    y = ((X[:, 0] + 0.5 * group * X[:, 1] + generator.normal(scale=0.5, size=300)) > 0).astype(float)
    policies = tuple({"strategy": s, "loss": "zero_one"} for s in ("aopt", "greedy", "uniform"))
    problem = Problem(X, y, group, ("a", "b", "c"), policies, 60, curve_points(60, 3), "logistic_regression", 0.3, 9)
    replayed = run_repetition(problem, 1)
    for k in range(len(policies)):
        accuracy, mixture = managed_mixture_and_accuracy(problem, k, 1)
        assert np.array_equal(replayed["accuracy"][k], accuracy)
        assert np.array_equal(replayed["mixture"][k], mixture)
