"""Summaries over repetitions: means with 95% bootstrap intervals, paired differences, a recommendation.

Intervals are percentile bootstrap intervals of the mean over repetitions (Efron and
Tibshirani 1993, ch. 13): ``BOOTSTRAP_RESAMPLES`` resamples of the repetitions, drawn
once from ``default_rng([seed, BOOTSTRAP_STREAM])`` and shared by every curve, so the
same seed gives the same intervals bit for bit. Differences between two policies are
paired (the policies of a repetition see the same split and the same rows), so each
bootstrap resample takes the same repetitions for both.

A worst-group curve is the worst of the groups' *mean* curves (``worst_group``): taking the
worst group of each repetition first and averaging those would be biased toward the worst
by each repetition's test-set noise (a minimum of noisy accuracies is lower than the
minimum of their means), by an amount that depends on the test set's size; averaging
first uses every repetition's test rows for each group. Each bootstrap resample takes the
worst of its own resampled means, so the interval is of the same statistic.

Comparisons are simultaneous: with P pairs, each pair's interval has level
``1 − (1 − LEVEL) / P`` (Bonferroni), so that the chance that *any* "beyond noise" claim of
a simulation is wrong is at most 5%, not 5% for each of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Interval", "bootstrap_indices", "compare", "comparison_level", "curve", "recommend",
           "resampled_means", "worst_group"]

# 2,000 resamples put the Monte Carlo error of a 2.5% quantile well below the interval's
# own width for 2 to 1,000 repetitions.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_STREAM = 7_919
LEVEL = 0.95
# Resamples gathered at once in worst_group: (chunk, repetitions, groups) floats stay below
# ~50 MB at the request limits (200 repetitions, 64 groups).
CHUNK = 500


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float

    def covers_zero(self) -> bool:
        return self.low <= 0.0 <= self.high

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


def bootstrap_indices(n_repetitions: int, seed: int) -> np.ndarray:
    """(resamples, repetitions) indices drawn with replacement."""
    rng = np.random.default_rng([seed, BOOTSTRAP_STREAM])
    return rng.integers(0, n_repetitions, size=(BOOTSTRAP_RESAMPLES, n_repetitions))


def _bounds(resampled: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(resampled, [tail, 100 - tail], axis=0)
    return low, high


def curve(values: np.ndarray, index: np.ndarray) -> dict[str, list[float]]:
    """Mean and 95% interval at each point of ``values`` (repetitions, points)."""
    low, high = _bounds(values[index].mean(axis=1), LEVEL)  # resampled means: (resamples, points)
    return {"mean": values.mean(axis=0).tolist(), "low": low.tolist(), "high": high.tolist()}


def resampled_means(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """(resamples,) bootstrap means of ``values`` (repetitions,)."""
    return np.asarray(values[index].mean(axis=1))


def worst_group(values: np.ndarray, index: np.ndarray, higher_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """The worst group's mean at each point of ``values`` (repetitions, points, groups), and its resamples.

    Returns ``(worst (points,), resampled (resamples, points))``: the minimum (or, when lower
    is better, maximum) over groups of the mean over repetitions, in the data and in each
    bootstrap resample of the repetitions.
    """
    pick = np.min if higher_is_better else np.max
    worst = pick(values.mean(axis=0), axis=1)
    resampled = np.empty((index.shape[0], values.shape[1]))
    for start in range(0, index.shape[0], CHUNK):
        chunk = index[start:start + CHUNK]
        for j in range(values.shape[1]):
            resampled[start:start + CHUNK, j] = pick(values[:, j, :][chunk].mean(axis=1), axis=1)
    return np.asarray(worst), resampled


def comparison_level(n_policies: int) -> float:
    """Each pair's interval level so that all pairs hold together with probability ``LEVEL`` (Bonferroni)."""
    pairs = max(1, n_policies * (n_policies - 1) // 2)
    return 1.0 - (1.0 - LEVEL) / pairs


def _difference(final: np.ndarray, resampled: np.ndarray, a: int, b: int, level: float) -> Interval:
    low, high = _bounds(resampled[a] - resampled[b], level)
    return Interval(float(final[a] - final[b]), float(low), float(high))


def compare(final: np.ndarray, resampled: np.ndarray, names: list[str]) -> list[dict[str, Any]]:
    """Every pair (a, b): ``final[a] − final[b]`` with its simultaneous interval.

    ``final`` is (policies,) at the end of the budget; ``resampled`` (policies, resamples)
    the same statistic in each bootstrap resample of the repetitions.
    """
    level, out = comparison_level(len(names)), []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            diff = _difference(final, resampled, a, b, level)
            out.append({"policy_a": names[a], "policy_b": names[b], "difference": diff.to_dict(),
                        "within_noise": diff.covers_zero()})
    return out


def _fmt(i: Interval, level: float) -> str:
    return f"{i.mean:.4f} ({level:.1%} CI {i.low:.4f} to {i.high:.4f})"


def recommend(final: np.ndarray, resampled: np.ndarray, names: list[str], measure: str, higher_is_better: bool,
              at: int, unit: str = "samples") -> dict[str, Any]:
    """The best policy at the end of the budget and, for each other one, whether it is within noise.

    ``final`` (policies,) and ``resampled`` (policies, resamples) as :func:`compare` takes them;
    the intervals of the differences are :func:`compare`'s, so both say the same.
    """
    best = int(np.argmax(final) if higher_is_better else np.argmin(final))
    level = comparison_level(len(names))
    behind: list[tuple[str, Interval]] = []
    tied: list[tuple[str, Interval]] = []
    for k in range(len(names)):
        if k == best:
            continue
        gap = _difference(final, resampled, best, k, level)
        (tied if gap.covers_zero() else behind).append((names[k], gap))
    low, high = _bounds(resampled[best], LEVEL)
    lead = Interval(float(final[best]), float(low), float(high))
    text = [f"At {at} {unit}, {names[best]} has the best {measure}: {_fmt(lead, LEVEL)}."]
    for name, gap in behind:
        text.append(f"{names[best]} − {name} = {_fmt(gap, level)}: {names[best]} is better, beyond noise.")
    if tied:
        listed = "; ".join(f"{name}: {_fmt(gap, level)}" for name, gap in tied)
        text.append(f"Its difference from {listed} is within noise (the interval covers 0): "
                    "choose among these on cost, or run more repetitions.")
    if not behind:
        text.append("No policy is distinguishable from it at this budget.")
    if len(names) > 2:
        text.append(f"Differences have {level:.1%} intervals so that all {len(names) * (len(names) - 1) // 2} "
                    "pairwise comparisons hold together at 95%.")
    return {"best": names[best], "beats": [n for n, _ in behind], "within_noise": [n for n, _ in tied],
            "text": " ".join(text)}
