"""A simulation's results from its repetitions: curves with intervals, comparisons, recommendation."""

from __future__ import annotations

from typing import Any

import numpy as np

from service.simulations import statistics
from service.simulations.replay import Repetition

__all__ = ["summarise"]


def _per_group(values: np.ndarray, groups: list[str], index: np.ndarray) -> dict[str, Any]:
    """``values`` (repetitions, points, groups) as one curve per group."""
    return {g: statistics.curve(values[:, :, j], index) for j, g in enumerate(groups)}


def summarise(repetitions: list[Repetition], names: list[str], groups: list[str], points: list[int],
              metric: str, seed: int) -> dict[str, Any]:
    """Every policy's curves (mean and 95% bootstrap interval per point) and the end-of-budget verdict.

    The measure compared is the worst group's: the minimum group accuracy, or the maximum
    group log loss, at each curve point.
    """
    accuracy = np.stack([r.accuracy for r in repetitions], axis=1)  # (policies, reps, points, groups)
    log_loss = np.stack([r.log_loss for r in repetitions], axis=1)
    mixture = np.stack([r.mixture for r in repetitions], axis=1)
    worst = accuracy.min(axis=3) if metric == "accuracy" else log_loss.max(axis=3)  # (policies, reps, points)
    index = statistics.bootstrap_indices(len(repetitions), seed)
    policies = []
    for k, name in enumerate(names):
        policies.append({"name": name, "curves": {
            "worst_group": statistics.curve(worst[k], index),
            "accuracy": _per_group(accuracy[k], groups, index),
            "log_loss": _per_group(log_loss[k], groups, index),
            "mixture": _per_group(mixture[k], groups, index),
        }})
    final = worst[:, :, -1]
    measure = "worst-group accuracy" if metric == "accuracy" else "worst-group log loss"
    return {
        "measure": measure, "points": points, "groups": groups, "repetitions": len(repetitions),
        "bootstrap_resamples": statistics.BOOTSTRAP_RESAMPLES, "level": statistics.LEVEL,
        "policies": policies,
        "comparisons": statistics.compare(final, names, index),
        "recommendation": statistics.recommend(final, names, index, measure, metric == "accuracy", points[-1]),
    }
