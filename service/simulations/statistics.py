"""Summaries over repetitions: means with 95% bootstrap intervals, paired differences, a recommendation.

Intervals are percentile bootstrap intervals of the mean over repetitions (Efron and
Tibshirani 1993, ch. 13): ``BOOTSTRAP_RESAMPLES`` resamples of the repetitions, drawn
once from ``default_rng([seed, BOOTSTRAP_STREAM])`` and shared by every curve, so the
same seed gives the same intervals bit for bit. Differences between two policies are
paired (the policies of a repetition see the same split and the same rows), so the
interval of a difference is the bootstrap of the per-repetition differences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Interval", "bootstrap_indices", "compare", "curve", "recommend"]

# 2,000 resamples put the Monte Carlo error of a 2.5% quantile well below the interval's
# own width for 2 to 1,000 repetitions.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_STREAM = 7_919
LEVEL = 0.95


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


def curve(values: np.ndarray, index: np.ndarray) -> dict[str, list[float]]:
    """Mean and 95% interval at each point of ``values`` (repetitions, points)."""
    means = values[index].mean(axis=1)  # (resamples, points)
    tail = (1.0 - LEVEL) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail], axis=0)
    return {"mean": values.mean(axis=0).tolist(), "low": low.tolist(), "high": high.tolist()}


def _interval(values: np.ndarray, index: np.ndarray) -> Interval:
    c = curve(values[:, None], index)
    return Interval(c["mean"][0], c["low"][0], c["high"][0])


def compare(final: np.ndarray, names: list[str], index: np.ndarray) -> list[dict[str, Any]]:
    """Every pair (a, b): the mean of ``final[a] − final[b]`` over repetitions with its interval."""
    out = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            diff = _interval(final[a] - final[b], index)
            out.append({"policy_a": names[a], "policy_b": names[b], "difference": diff.to_dict(),
                        "within_noise": diff.covers_zero()})
    return out


def _fmt(i: Interval) -> str:
    return f"{i.mean:.4f} (95% CI {i.low:.4f} to {i.high:.4f})"


def recommend(final: np.ndarray, names: list[str], index: np.ndarray, measure: str, higher_is_better: bool,
              at: int, unit: str = "samples") -> dict[str, Any]:
    """The best policy at the end of the budget and, for each other one, whether it is within noise.

    ``final`` is (policies, repetitions) of ``measure`` at ``at`` samples.
    """
    means = final.mean(axis=1)
    best = int(np.argmax(means) if higher_is_better else np.argmin(means))
    behind: list[tuple[str, Interval]] = []
    tied: list[tuple[str, Interval]] = []
    for k in range(len(names)):
        if k == best:
            continue
        gap = _interval(final[best] - final[k], index)
        (tied if gap.covers_zero() else behind).append((names[k], gap))
    lead = _interval(final[best], index)
    text = [f"At {at} {unit}, {names[best]} has the best {measure}: {_fmt(lead)}."]
    for name, gap in behind:
        text.append(f"{names[best]} − {name} = {_fmt(gap)}: {names[best]} is better, beyond noise.")
    if tied:
        listed = "; ".join(f"{name}: {_fmt(gap)}" for name, gap in tied)
        text.append(f"Its difference from {listed} is within noise (the 95% interval covers 0): "
                    "choose among these on cost, or run more repetitions.")
    if not behind:
        text.append("No policy is distinguishable from it at this budget.")
    return {"best": names[best], "beats": [n for n, _ in behind], "within_noise": [n for n, _ in tied],
            "text": " ".join(text)}
