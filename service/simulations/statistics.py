"""Summaries over repetitions: means with 95% intervals for the population, paired differences, a recommendation.

What an interval is about. A repetition replays every policy on a fresh random split of
the client's data (the pilot) into a pool and a test share ``f`` (``test_fraction``), and a
curve reports the mean over the R repetitions. That mean misses what the policy achieves
on the population the pilot was drawn from for two reasons: the replays' own randomness,
which averages out as 1/R, and the pilot's sampling error, which does not (every
repetition tests on rows of the same pilot and trains on rows of the same pool). Its
variance is taken as Nadeau and Bengio's corrected resampled variance,

    Var(mean) ≈ (1/R + n_test/n_train) · s²,    n_test/n_train = f / (1 − f),

with s² the variance between repetitions. The interval is a percentile bootstrap over
repetitions with that variance: ``BOOTSTRAP_RESAMPLES`` resamples of the repetitions
(drawn once from ``default_rng([seed, BOOTSTRAP_STREAM])`` and shared by every curve, so
the same seed gives the same intervals bit for bit), and each bound's distance from the
mean stretched by ``R · sqrt(factor / (R − 1))``, the ratio of the corrected standard error
to the bootstrap's own (whose variance is s² (R − 1)/R²). The bootstrap gives the shape (a
skewed curve, near 0 or 1, gets a skewed interval), the correction the width. The second
term of the factor models the correlation ρ = n_test/n
between two splits' estimates; for a test-set average of a fixed model it is exact (the
mean over all splits is the average over the whole pilot, whose variance is s² · f/(1 − f)
by the finite-population correction). No unbiased estimator of that term exists from the
splits alone (Bengio and Grandvalet 2004), so it is a model, the one the literature uses.

A worst-group curve is the worst of the groups' mean curves (a per-repetition minimum is
biased toward the worst by the test sets' noise). Its interval is the set of values the
worst group can take when every group lies in its own interval: ``[min_g low_g, min_g
high_g]`` (max for lower-is-better measures), the projection of the groups' intervals. A
group whose mean is higher but whose interval reaches lower (a small group) thus widens it.

Differences between two policies are paired (both replay the same splits and rows), and
compare the worst groups through the groups that could be the worst (those whose interval
reaches the worst group's bound, :func:`candidates`): with worst = min, the difference of
two minima lies in ``[min_{g ∈ G_a} (a_g − b_g), max_{h ∈ G_b} (a_h − b_h)]`` whenever each
policy's true worst group is among its candidates, each bound taken from the paired
differences' interval. With one clear worst group this is that group's paired difference;
one policy under two names differs by exactly 0. Comparisons are simultaneous: with P
pairs, each has level ``1 − (1 − LEVEL) / P`` (Bonferroni).

References
----------
Nadeau, Bengio (2003), "Inference for the Generalization Error", Machine Learning 52,
239-281: the corrected resampled variance (1/J + n2/n1) σ̂².
Efron, Tibshirani (1993), "An Introduction to the Bootstrap", ch. 13 (percentile intervals).
Bengio, Grandvalet (2004), "No Unbiased Estimator of the Variance of K-Fold
Cross-Validation", JMLR 5, 1089-1105.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["BOOTSTRAP_RESAMPLES", "LEVEL", "METHOD", "Interval", "Spread", "candidates", "compare",
           "comparison_level", "curve", "recommend", "variance_factor", "worst_group"]

LEVEL = 0.95
# 2,000 resamples put the Monte Carlo error of a 2.5% quantile well below the interval's own width
# for 2 to 200 repetitions; the 0.25% tails of five policies' simultaneous intervals rest on 5 of them.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_STREAM = 7_919
METHOD = ("percentile bootstrap over repetitions with the corrected resampled variance (Nadeau and Bengio 2003): "
          "(1/R + n_test/n_train) × between-repetition variance")


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float

    def covers_zero(self) -> bool:
        return self.low <= 0.0 <= self.high

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


def variance_factor(repetitions: int, test_fraction: float) -> float:
    """``1/R + n_test/n_train``: the variance of a mean over repetitions per unit of their own variance."""
    return 1.0 / repetitions + test_fraction / (1.0 - test_fraction)


@dataclass(frozen=True)
class Spread:
    """How a simulation's intervals are drawn: the variance factor and the bootstrap resamples of its R repetitions."""

    factor: float
    weights: np.ndarray  # (resamples, R): each resample's share of each repetition (its count / R)

    @classmethod
    def of(cls, repetitions: int, test_fraction: float, seed: int) -> Spread:
        rng = np.random.default_rng([seed, BOOTSTRAP_STREAM])
        index = rng.integers(0, repetitions, size=(BOOTSTRAP_RESAMPLES, repetitions))
        counts = np.zeros((BOOTSTRAP_RESAMPLES, repetitions))
        np.add.at(counts, (np.arange(BOOTSTRAP_RESAMPLES)[:, None], index), 1.0)
        return cls(variance_factor(repetitions, test_fraction), counts / repetitions)

    @property
    def stretch(self) -> float:
        """Corrected standard error over the bootstrap's: ``sqrt(factor s² / (s² (R − 1)/R²))``."""
        r = self.weights.shape[1]
        return float(r * np.sqrt(self.factor / (r - 1)))


def _bounds(values: np.ndarray, spread: Spread, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean over axis 0 of ``values`` (repetitions, ...) and its interval at ``level`` (module docstring)."""
    mean = values.mean(axis=0)
    resampled = spread.weights @ values.reshape(values.shape[0], -1)  # (resamples, every other axis)
    tail = (1.0 - level) / 2 * 100
    low, high = (q.reshape(mean.shape) for q in np.percentile(resampled, [tail, 100 - tail], axis=0))
    low, high = mean - spread.stretch * (mean - low), mean + spread.stretch * (high - mean)
    # Equal values have no spread, whatever rounding the resampled means leave: a degenerate interval.
    flat = np.ptp(values, axis=0) == 0
    return mean, np.where(flat, mean, np.minimum(low, mean)), np.where(flat, mean, np.maximum(high, mean))


def _pick(higher_is_better: bool) -> Any:
    return np.min if higher_is_better else np.max


def worst_group(values: np.ndarray, spread: Spread, higher_is_better: bool,
                level: float = LEVEL) -> dict[str, list[float]]:
    """The worst group's mean at each point of ``values`` (repetitions, points, groups) and its interval.

    The mean is the minimum (or, when lower is better, maximum) over groups of the mean over
    repetitions; the interval is the same over the groups' own bounds.
    """
    pick = _pick(higher_is_better)
    mean, low, high = _bounds(values, spread, level)
    return {"mean": pick(mean, axis=-1).tolist(), "low": pick(low, axis=-1).tolist(),
            "high": pick(high, axis=-1).tolist()}


def curve(values: np.ndarray, spread: Spread) -> dict[str, list[float]]:
    """Mean and 95% interval at each point of ``values`` (repetitions, points)."""
    return worst_group(values[:, :, None], spread, higher_is_better=True)


def candidates(values: np.ndarray, spread: Spread, higher_is_better: bool, level: float) -> np.ndarray:
    """Which groups of ``values`` (repetitions, groups) could be the worst: their interval reaches its bound."""
    _, low, high = _bounds(values, spread, level)
    return low <= high.min() if higher_is_better else high >= low.max()


def comparison_level(n_policies: int) -> float:
    """Each pair's interval level so that all pairs hold together with probability ``LEVEL`` (Bonferroni)."""
    pairs = max(1, n_policies * (n_policies - 1) // 2)
    return 1.0 - (1.0 - LEVEL) / pairs


def final(ends: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """(policies,) worst group of the means of ``ends`` (policies, repetitions, groups)."""
    return np.asarray(_pick(higher_is_better)(ends.mean(axis=1), axis=-1))


def _difference(ends: np.ndarray, a: int, b: int, spread: Spread, higher_is_better: bool, level: float) -> Interval:
    """Worst group of policy a minus that of policy b at the end, from the groups each could have as the worst."""
    _, low, high = _bounds(ends[a] - ends[b], spread, level)  # paired, group by group: (groups,)
    below, above = (a, b) if higher_is_better else (b, a)
    low_set = candidates(ends[below], spread, higher_is_better, level)
    high_set = candidates(ends[above], spread, higher_is_better, level)
    estimate = final(ends[[a, b]], higher_is_better)
    return Interval(float(estimate[0] - estimate[1]), float(low[low_set].min()), float(high[high_set].max()))


def compare(ends: np.ndarray, names: list[str], spread: Spread, higher_is_better: bool) -> list[dict[str, Any]]:
    """Every pair (a, b): the difference of their compared measures at the end, with its simultaneous interval.

    ``ends`` is (policies, repetitions, groups): each repetition's value at the end of the
    budget, per group for a worst-group measure, one column otherwise.
    """
    level, out = comparison_level(len(names)), []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            diff = _difference(ends, a, b, spread, higher_is_better, level)
            out.append({"policy_a": names[a], "policy_b": names[b], "difference": diff.to_dict(),
                        "within_noise": diff.covers_zero()})
    return out


def _fmt(i: Interval, level: float) -> str:
    return f"{i.mean:.4f} ({level:.1%} CI {i.low:.4f} to {i.high:.4f})"


def recommend(ends: np.ndarray, names: list[str], spread: Spread, measure: str, higher_is_better: bool,
              at: int, unit: str = "samples") -> dict[str, Any]:
    """The best policy at the end of the budget and, for each other one, whether it is within noise.

    ``ends`` as :func:`compare` takes it; the intervals of the differences are
    :func:`compare`'s, so both say the same.
    """
    means = final(ends, higher_is_better)
    best = int(np.argmax(means) if higher_is_better else np.argmin(means))
    level = comparison_level(len(names))
    behind: list[tuple[str, Interval]] = []
    tied: list[tuple[str, Interval]] = []
    for k in range(len(names)):
        if k == best:
            continue
        gap = _difference(ends, best, k, spread, higher_is_better, level)
        (tied if gap.covers_zero() else behind).append((names[k], gap))
    at_end = worst_group(ends[best][:, None, :], spread, higher_is_better)  # one point
    lead = Interval(at_end["mean"][0], at_end["low"][0], at_end["high"][0])
    text = [f"At {at} {unit}, {names[best]} has the best {measure}: {_fmt(lead, LEVEL)}."]
    for name, gap in behind:
        text.append(f"{names[best]} − {name} = {_fmt(gap, level)}: {names[best]} is better, beyond noise.")
    if tied:
        listed = "; ".join(f"{name}: {_fmt(gap, level)}" for name, gap in tied)
        text.append(f"Its difference from {listed} is within noise (the interval covers 0): "
                    "choose among these on cost, or collect more data.")
    if not behind:
        text.append("No policy is distinguishable from it at this budget.")
    if len(names) > 2:
        text.append(f"Differences have {level:.1%} intervals so that all {len(names) * (len(names) - 1) // 2} "
                    "pairwise comparisons hold together at 95%.")
    text.append("Intervals are for the population the data was drawn from: they include the data's own "
                "sampling error, which more repetitions do not remove.")
    return {"best": names[best], "beats": [n for n, _ in behind], "within_noise": [n for n, _ in tied],
            "text": " ".join(text)}
