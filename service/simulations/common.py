"""What every decision type's replay shares: the problem, a repetition's arrays, splits and scoring.

All randomness of repetition ``r`` is ``default_rng([seed, r, stream, ...])`` with the
streams below, so a repetition gives the same numbers whichever worker runs it, and every
policy of a repetition sees the same split, the same rows in the same order and the same
random numbers (common random numbers): differences between policies are paired, and one
policy under two names differs by exactly 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

from service.algorithms import metrics

__all__ = ["Problem", "Progress", "Repetition", "Stop", "client_model", "curve_points", "disparity",
           "fit_predict", "log_loss", "reshuffled", "rng", "split"]

# Probabilities are clipped this far from 0 and 1 before a log loss: a model sure and wrong
# on one row costs log(1e6) ≈ 13.8, not infinity.
PROB_CLIP = 1e-6
# Random streams of a repetition, so that adding one never shifts the others.
SPLIT, ORDER, DECIDE, PARTITION, INIT, FIT = 0, 1, 2, 3, 4, 5

Stop = Callable[[], bool]
Progress = Callable[[float], None]


@dataclass(frozen=True)
class Problem:
    """The client's table and the simulation's settings, as the replay reads them."""

    X: np.ndarray
    y: np.ndarray
    group: np.ndarray  # index into ``groups``
    groups: tuple[str, ...]
    policies: tuple[dict[str, Any], ...]  # each policy's parameters, as its replay reads them
    budget: int
    points: tuple[int, ...]  # budget spent at each curve point (samples, points, epochs or candidates)
    model: str  # "logistic_regression" or "gradient_boosting"
    test_fraction: float
    seed: int
    decision_type: str = "group_sampler"
    options: Mapping[str, Any] = field(default_factory=dict)  # the type's own settings (metric, batch_size, ...)


@dataclass(frozen=True)
class Repetition:
    """Named arrays of one repetition, each (policies, points) or (policies, points, groups)."""

    arrays: dict[str, np.ndarray]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def to_dict(self) -> dict[str, Any]:
        return {k: v.tolist() for k, v in self.arrays.items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Repetition:
        return cls({k: np.asarray(v, dtype=float) for k, v in data.items()})


def rng(problem: Problem, repetition: int, *stream: int) -> np.random.Generator:
    return np.random.default_rng([problem.seed, repetition, *stream])


def curve_points(budget: int, n_points: int) -> tuple[int, ...]:
    """``n_points`` counts evenly spaced up to the budget (fewer when the budget is small)."""
    return tuple(sorted({int(round(budget * (k + 1) / n_points)) for k in range(n_points)} - {0}))


def split(problem: Problem, repetition: int) -> tuple[list[np.ndarray], np.ndarray]:
    """Each group's remaining rows (shuffled) and the test rows (``test_fraction`` of each group, at least one)."""
    generator = rng(problem, repetition, SPLIT)
    rest, tests = [], []
    for z in range(len(problem.groups)):
        rows = generator.permutation(np.flatnonzero(problem.group == z))
        n_test = min(max(1, int(round(problem.test_fraction * rows.size))), rows.size - 1)
        tests.append(rows[:n_test])
        rest.append(rows[n_test:])
    return rest, np.sort(np.concatenate(tests))


def reshuffled(rows: np.ndarray, need: int, generator: np.random.Generator) -> np.ndarray:
    """``need`` of ``rows`` in a random order, reshuffled each time they are spent."""
    cycles = -(-need // rows.size)
    return np.concatenate([generator.permutation(rows) for _ in range(cycles)])[:need]


def client_model(name: str) -> Any:
    if name == "gradient_boosting":
        return HistGradientBoostingClassifier(random_state=0)
    return LogisticRegression(C=1.0, max_iter=1000)


def fit_predict(problem: Problem, rows: np.ndarray, test: np.ndarray) -> np.ndarray:
    """P(y = 1) on the test rows of the client's model trained on ``rows`` (one class so far: that class)."""
    y_train = problem.y[rows]
    if np.unique(y_train).size < 2:
        return np.full(test.size, float(y_train[0]))
    return np.asarray(client_model(problem.model).fit(problem.X[rows], y_train).predict_proba(problem.X[test])[:, 1])


def log_loss(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each row's log loss of P(y = 1) = ``p`` against its label ``y``, ``p`` clipped by ``PROB_CLIP`` first
    (the library's own clip, for the metrics endpoint, is far closer to 0 and 1)."""
    return metrics.loss_values(np.clip(p, PROB_CLIP, 1 - PROB_CLIP), y, "log")


def disparity(measure: str, p: np.ndarray, y: np.ndarray, group: np.ndarray, n_groups: int) -> float:
    """The largest gap between two groups of ``measure`` for predictions ``p`` (0 when undefined)."""
    names = [str(z) for z in range(n_groups)]
    if measure == "demographic_parity":
        result = metrics.demographic_parity(p, group, names)
    elif measure == "equal_opportunity":
        result = metrics.equal_opportunity(p, y, group, names)
    else:
        result = metrics.equalized_odds(p, y, group, names)
    value = float(result.disparity)
    return value if np.isfinite(value) else 0.0
