"""Session runners and data for ``bench.group_sampling``: the managed-mode loop, baselines and Adult.

:func:`run_session` is the loop the service runs in managed mode, built from
the same step functions: ``next_decision`` with ``default_rng([seed, sequence])``,
acquisition of ``batch_size`` training samples plus as many validation samples
(Algorithm 1 draws a pair per sample), ``fit_and_evaluate`` warm-started from
the previous parameters, and ``apply_observation`` with the per-group
validation losses and accuracies.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), "Adaptive Sampling for Minimax Fair
Classification", NeurIPS: Algorithm 1, Figure 1 (the π(u) grid), Section 5.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bench.data import Table, load_adult, standardize
from bench.synthetic_sampling import MixtureModel
from service.algorithms.adaptive_sampling import (
    SamplerConfig,
    SamplerState,
    apply_observation,
    next_decision,
)
from service.algorithms.adaptive_sampling.model import (
    WarmStartLogisticRegression,
    evaluate_groups,
    fit_and_evaluate,
)

__all__ = [
    "ADULT_GROUPS",
    "AdultData",
    "Draw",
    "TestAccuracy",
    "Trajectory",
    "pi_star_grid",
    "run_session",
    "run_uncurated",
]

# Draws (X, y) of n samples of a group: draw(group_index, n, rng).
Draw = Callable[[int, int, np.random.Generator], tuple[np.ndarray, np.ndarray]]
# Per-group test accuracy of a fitted model.
TestAccuracy = Callable[[WarmStartLogisticRegression], np.ndarray]


@dataclass
class Trajectory:
    """One trial: counts after every round and test accuracy at the checkpoints."""

    sample_counts: list[np.ndarray] = field(default_factory=list)  # N_z after each round
    checkpoint_accuracy: dict[int, np.ndarray] = field(default_factory=dict)
    reasons: Counter = field(default_factory=Counter)
    fit_iterations: int = 0

    def mixture_at(self, n: int, group: int = 0) -> float:
        """π_n(group) after the round whose total first reaches ``n`` samples."""
        for counts in self.sample_counts:
            if counts.sum() >= n:
                return float(counts[group] / counts.sum())
        raise ValueError(f"the run never reached {n} samples")


def run_session(
    config: SamplerConfig,
    draw: Draw,
    n_features: int,
    test_accuracy: TestAccuracy,
    checkpoints: list[int],
    seed: int,
    refit_every_round: bool = True,
) -> Trajectory:
    """Run one managed-mode session to the end of its budget with the service's step functions."""
    m, budget = config.n_groups, config.budget
    data_rng = np.random.default_rng([seed, 1_000_003])
    train_X, val_X = np.empty((budget, n_features)), np.empty((budget, n_features))
    train_y, val_y, val_g = np.empty(budget), np.empty(budget), np.empty(budget, dtype=int)
    state, params, out = SamplerState.initial(config), None, Trajectory()
    pending = sorted(checkpoints)
    while state.budget_spent < budget:
        decision = next_decision(config, state, np.random.default_rng([seed, state.round]))
        z, b, n0 = decision.group_index, decision.batch_size, state.budget_spent
        n = n0 + b
        train_X[n0:n], train_y[n0:n] = draw(z, b, data_rng)
        val_X[n0:n], val_y[n0:n] = draw(z, b, data_rng)
        val_g[n0:n] = z
        losses: list[float | None] = [None] * m
        accuracies: list[float | None] = [None] * m
        at_checkpoint = bool(pending) and n >= pending[0]
        if refit_every_round or at_checkpoint:
            fit = fit_and_evaluate(train_X[:n], train_y[:n], val_X[:n], val_y[:n], val_g[:n], m, config.loss, params)
            model, params = fit.model, fit.params
            out.fit_iterations += fit.result.iterations
            if refit_every_round:
                losses, accuracies = fit.evaluation.reported()
        state = apply_observation(config, state, z, b, losses, accuracies)
        out.reasons[decision.reason] += 1
        out.sample_counts.append(np.asarray(state.counts))
        while pending and n >= pending[0]:
            out.checkpoint_accuracy[pending.pop(0)] = test_accuracy(model)
    return out


def run_uncurated(
    natural: np.ndarray,
    draw: Draw,
    n_features: int,
    test_accuracy: TestAccuracy,
    checkpoints: list[int],
    seed: int,
) -> Trajectory:
    """Uncurated baseline: samples arrive in the data's natural group proportions ``natural``."""
    rng = np.random.default_rng([seed, 1_000_003])
    budget = max(checkpoints)
    groups = rng.choice(len(natural), size=budget, p=natural / natural.sum())
    X, y = np.empty((budget, n_features)), np.empty(budget)
    for z in range(len(natural)):
        where = np.flatnonzero(groups == z)
        X[where], y[where] = draw(z, where.size, rng)
    out, params = Trajectory(), None
    for c in sorted(checkpoints):
        model = WarmStartLogisticRegression().fit(
            X[:c], y[:c], *((params["coef"], params["intercept"][0]) if params else (None, 0.0))
        )
        params = model.to_params()
        out.checkpoint_accuracy[c] = test_accuracy(model)
        out.sample_counts.append(np.bincount(groups[:c], minlength=len(natural)))
    return out


def pi_star_grid(model: MixtureModel, n_train: int, replicates: int, seed: int = 7) -> tuple[np.ndarray, ...]:
    """Exact group accuracies of LR trained at each of 1001 values of π(u), averaged over replicates.

    Each replicate draws one pool per group and trains on its first
    ``round(π n)`` / ``n − round(π n)`` points (common random numbers across π,
    so the curve is smooth), as the paper's Figure 1 grid does.
    """
    pis = np.linspace(0.0, 1.0, 1001)
    accuracy = np.zeros((pis.size, 2))
    for r in range(replicates):
        rng = np.random.default_rng([seed, r])
        (Xu, yu), (Xv, yv) = model.sample(0, n_train, rng), model.sample(1, n_train, rng)
        fitted = None
        for i, pi in enumerate(pis):
            nu = int(round(pi * n_train))
            X, y = np.vstack([Xu[:nu], Xv[: n_train - nu]]), np.r_[yu[:nu], yv[: n_train - nu]]
            warm = (fitted.coef_, fitted.intercept_) if fitted is not None else (None, 0.0)
            fitted = WarmStartLogisticRegression().fit(X, y, *warm)
            accuracy[i] += model.accuracy(fitted.coef_, fitted.intercept_)
    accuracy /= replicates
    return pis, accuracy, accuracy.min(axis=1)


ADULT_GROUPS = ("white_men", "nonwhite_men", "white_women", "nonwhite_women")


@dataclass
class AdultData:
    """Adult's training file as the pool to acquire from and its test file for evaluation."""

    X: np.ndarray
    y: np.ndarray
    group: np.ndarray
    test_X: np.ndarray
    test_y: np.ndarray
    test_group: np.ndarray

    @classmethod
    def load(cls) -> AdultData:
        train, test = load_adult("train"), load_adult("test")
        X, test_X = standardize(train.X, test.X)
        return cls(X, train.y.astype(float), _adult_groups(train), test_X, test.y.astype(float), _adult_groups(test))

    def natural(self) -> np.ndarray:
        return np.bincount(self.group, minlength=len(ADULT_GROUPS)).astype(float)

    def pools(self, seed: int) -> Draw:
        """A draw function taking a group's rows in a per-trial random order, without replacement.

        A group whose rows run out (non-white women have 1,887, and every
        training sample comes with a validation sample) starts a fresh permutation.
        """
        rng = np.random.default_rng([seed, 2])
        members = [np.flatnonzero(self.group == z) for z in range(len(ADULT_GROUPS))]
        queue = [np.empty(0, dtype=int) for _ in members]

        def draw(z: int, n: int, _rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
            while queue[z].size < n:
                queue[z] = np.r_[queue[z], rng.permutation(members[z])]
            index, queue[z] = queue[z][:n], queue[z][n:]
            return self.X[index], self.y[index]

        return draw

    def test_accuracy(self, model: WarmStartLogisticRegression) -> np.ndarray:
        m = len(ADULT_GROUPS)
        return evaluate_groups(model, self.test_X, self.test_y, self.test_group, m, "zero_one").accuracies


def _adult_groups(table: Table) -> np.ndarray:
    white = table.sensitive["race"] == "White"
    man = table.sensitive["sex"] == "Male"
    return np.select([white & man, ~white & man, white & ~man], [0, 1, 2], default=3)
