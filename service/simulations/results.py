"""A simulation's results from its repetitions: curves with intervals, comparisons, recommendation."""

from __future__ import annotations

from typing import Any

import numpy as np

from service.simulations import statistics
from service.simulations.common import Repetition
from service.simulations.replays import KINDS

__all__ = ["summarise"]

MEASURES = {"fairness": "{metric} disparity", "disparity": "{metric} disparity", "imbalance": "imbalance"}


def _per_group(values: np.ndarray, groups: list[str], index: np.ndarray) -> dict[str, Any]:
    """``values`` (repetitions, points, groups) as one curve per group."""
    return {g: statistics.curve(values[:, :, j], index) for j, g in enumerate(groups)}


def _stacked(repetitions: list[Repetition], name: str) -> np.ndarray:
    """(policies, repetitions, points[, groups]) of one array."""
    return np.stack([r[name] for r in repetitions], axis=1)


def _group_sampler(repetitions: list[Repetition], names: list[str], config: dict[str, Any],
                   index: np.ndarray) -> tuple[list[dict[str, Any]], np.ndarray, str, bool]:
    """Worst-group curves (minimum group accuracy, or maximum group log loss) and the per-group ones."""
    groups, metric = list(config["groups"]), config["metric"]
    accuracy, log_loss, mixture = (_stacked(repetitions, n) for n in ("accuracy", "log_loss", "mixture"))
    worst = accuracy.min(axis=3) if metric == "accuracy" else log_loss.max(axis=3)  # (policies, reps, points)
    policies = [{"name": name, "curves": {
        "worst_group": statistics.curve(worst[k], index),
        "accuracy": _per_group(accuracy[k], groups, index),
        "log_loss": _per_group(log_loss[k], groups, index),
        "mixture": _per_group(mixture[k], groups, index),
    }} for k, name in enumerate(names)]
    measure = "worst-group accuracy" if metric == "accuracy" else "worst-group log loss"
    return policies, worst[:, :, -1], measure, metric == "accuracy"


def summarise(repetitions: list[Repetition], names: list[str], config: dict[str, Any], seed: int) -> dict[str, Any]:
    """Every policy's curves (mean and 95% bootstrap interval per point) and the end-of-budget verdict.

    Group samplers compare the worst group; the other types their first curve (|disparity|
    or imbalance, lower is better), with every curve's end-of-budget differences besides.
    """
    kind = KINDS[config["decision_type"]]
    points = list(config["points"])
    index = statistics.bootstrap_indices(len(repetitions), seed)
    by_curve: dict[str, list[dict[str, Any]]] = {}
    if config["decision_type"] == "group_sampler":
        policies, final, measure, higher = _group_sampler(repetitions, names, config, index)
        plotted = ["worst_group"]
    else:
        arrays = {name: _stacked(repetitions, name) for name, _ in kind.curves}
        policies = [{"name": name, "curves": {c: statistics.curve(arrays[c][k], index) for c, _ in kind.curves}}
                    for k, name in enumerate(names)]
        by_curve = {c: statistics.compare(arrays[c][:, :, -1], names, index) for c, _ in kind.curves}
        first, higher = kind.curves[0]
        final = arrays[first][:, :, -1]
        measure = MEASURES[first].format(metric=str(config.get("metric", "")).replace("_", " "))
        plotted = [c for c, _ in kind.curves if c != "acquired"]
    out = {
        "decision_type": config["decision_type"], "measure": measure, "x_label": kind.x_label, "plotted": plotted,
        "points": points, "groups": list(config["groups"]), "repetitions": len(repetitions),
        "bootstrap_resamples": statistics.BOOTSTRAP_RESAMPLES, "level": statistics.LEVEL,
        "policies": policies,
        "comparisons": statistics.compare(final, names, index),
        "recommendation": statistics.recommend(final, names, index, measure, higher, points[-1], kind.unit),
    }
    if by_curve:
        out["comparisons_by_curve"] = by_curve
    return out
