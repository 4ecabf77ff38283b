"""A simulation's results from its repetitions: curves with intervals, comparisons, recommendation."""

from __future__ import annotations

from typing import Any

import numpy as np

from service.simulations import statistics
from service.simulations.common import Repetition
from service.simulations.replays import KINDS

__all__ = ["summarise"]

MEASURES = {"fairness": "{metric} disparity", "disparity": "{metric} disparity", "imbalance": "imbalance"}


def _per_group(values: np.ndarray, groups: list[str], spread: statistics.Spread) -> dict[str, Any]:
    """``values`` (repetitions, points, groups) as one curve per group."""
    return {g: statistics.curve(values[:, :, j], spread) for j, g in enumerate(groups)}


def _stacked(repetitions: list[Repetition], name: str) -> np.ndarray:
    """(policies, repetitions, points[, groups]) of one array."""
    return np.stack([r[name] for r in repetitions], axis=1)


def _reused(mixture: np.ndarray, names: list[str], config: dict[str, Any]) -> list[str]:
    """Where a policy drew more rows from a group than the group's pool holds (rows are then drawn again)."""
    sizes = np.asarray(config.get("group_rows", []), dtype=float)
    if sizes.size == 0:
        return []
    pool = sizes - np.maximum(1, np.round(float(config["test_fraction"]) * sizes))
    drawn = 2 * mixture[:, :, -1, :].mean(axis=1) * config["points"][-1]  # a training and a validation row each
    out = []
    for k, name in enumerate(names):
        over = [f"{g} ({drawn[k, j]:.0f} of {pool[j]:.0f})" for j, g in enumerate(config["groups"])
                if drawn[k, j] > pool[j]]
        if over:
            out.append(f"{name} drew more rows than the pool holds from {', '.join(over)}: those rows were "
                       "acquired again, so its curves past that point are pessimistic for a larger population.")
    return out


def _group_sampler(repetitions: list[Repetition], names: list[str], config: dict[str, Any],
                   spread: statistics.Spread) -> dict[str, Any]:
    """Worst-group curves (the lowest group mean accuracy, or highest group mean log loss) and the per-group ones."""
    groups, higher = list(config["groups"]), config["metric"] == "accuracy"
    accuracy, log_loss, mixture = (_stacked(repetitions, n) for n in ("accuracy", "log_loss", "mixture"))
    compared = accuracy if higher else log_loss
    policies = [{"name": name, "curves": {
        "worst_group": statistics.worst_group(compared[k], spread, higher),
        "accuracy": _per_group(accuracy[k], groups, spread),
        "log_loss": _per_group(log_loss[k], groups, spread),
        "mixture": _per_group(mixture[k], groups, spread),
    }} for k, name in enumerate(names)]
    measure = "worst-group accuracy" if higher else "worst-group log loss"
    return {"policies": policies, "ends": compared[:, :, -1, :], "measure": measure, "higher": higher,
            "plotted": ["worst_group"], "warnings": _reused(mixture, names, config)}


def _other(repetitions: list[Repetition], names: list[str], config: dict[str, Any],
           spread: statistics.Spread) -> dict[str, Any]:
    """Each curve of the type, the first one compared; every curve's end-of-budget differences besides."""
    kind = KINDS[config["decision_type"]]
    arrays = {name: _stacked(repetitions, name) for name, _ in kind.curves}
    policies = [{"name": name, "curves": {c: statistics.curve(arrays[c][k], spread) for c, _ in kind.curves}}
                for k, name in enumerate(names)]
    first, higher = kind.curves[0]
    by_curve = {c: statistics.compare(arrays[c][:, :, -1, None], names, spread, better)
                for c, better in kind.curves}
    return {"policies": policies, "ends": arrays[first][:, :, -1, None], "higher": higher,
            "measure": MEASURES[first].format(metric=str(config.get("metric", "")).replace("_", " ")),
            "plotted": [c for c, _ in kind.curves if c != "acquired"], "warnings": [],
            "comparisons_by_curve": by_curve}


def summarise(repetitions: list[Repetition], names: list[str], config: dict[str, Any], seed: int) -> dict[str, Any]:
    """Every policy's curves (mean and 95% interval per point) and the end-of-budget verdict.

    Group samplers compare the worst group; the other types their first curve (the
    disparity or the imbalance, lower is better), with every curve's differences besides.
    Intervals: :mod:`service.simulations.statistics`.
    """
    kind = KINDS[config["decision_type"]]
    points = list(config["points"])
    spread = statistics.Spread.of(len(repetitions), float(config["test_fraction"]), seed)
    build = _group_sampler if config["decision_type"] == "group_sampler" else _other
    parts = build(repetitions, names, config, spread)
    recommendation = statistics.recommend(parts["ends"], names, spread, parts["measure"], parts["higher"],
                                          points[-1], kind.unit)
    if parts["warnings"]:
        recommendation["text"] += " Note: " + " ".join(parts["warnings"])
    out = {
        "decision_type": config["decision_type"], "measure": parts["measure"], "x_label": kind.x_label,
        "plotted": parts["plotted"], "points": points, "groups": list(config["groups"]),
        "repetitions": len(repetitions), "interval_method": statistics.METHOD, "variance_factor": spread.factor,
        "bootstrap_resamples": statistics.BOOTSTRAP_RESAMPLES,
        "level": statistics.LEVEL, "comparison_level": statistics.comparison_level(len(names)),
        "policies": parts["policies"],
        "comparisons": statistics.compare(parts["ends"], names, spread, parts["higher"]),
        "recommendation": recommendation, "warnings": parts["warnings"],
    }
    if "comparisons_by_curve" in parts:
        out["comparisons_by_curve"] = parts["comparisons_by_curve"]
    return out
