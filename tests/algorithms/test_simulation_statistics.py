"""Simulation summaries: the worst group of the means, simultaneous intervals for comparisons."""

from __future__ import annotations

import numpy as np
import pytest

from service.simulations import statistics


def test_the_worst_group_of_the_means_is_not_biased_by_test_noise():
    # Two groups with the same true accuracy 0.8, each repetition's estimate off by N(0, 0.1²).
    rng = np.random.default_rng(0)
    values = 0.8 + 0.1 * rng.standard_normal((200, 1, 2))
    index = statistics.bootstrap_indices(200, seed=1)
    worst, resampled = statistics.worst_group(values, index, higher_is_better=True)
    per_repetition = values.min(axis=2).mean()  # the old estimate: E[min] = 0.8 − 0.1/√π ≈ 0.744
    assert per_repetition < 0.76
    assert worst[0] == pytest.approx(0.8, abs=0.02)
    low, high = np.percentile(resampled[:, 0], [2.5, 97.5])
    assert low <= 0.8 <= high
    assert worst[0] == pytest.approx(min(values[:, 0, 0].mean(), values[:, 0, 1].mean()), rel=1e-12)


def test_lower_is_better_takes_the_largest_group_mean():
    values = np.array([[[0.2, 0.5]], [[0.4, 0.3]]])  # 2 repetitions, 1 point, 2 groups
    worst, _ = statistics.worst_group(values, statistics.bootstrap_indices(2, 0), higher_is_better=False)
    assert worst.tolist() == [0.4]


@pytest.mark.parametrize(("policies", "level"), [(2, 0.95), (3, 1 - 0.05 / 3), (5, 0.995), (10, 1 - 0.05 / 45)])
def test_comparison_level_is_bonferroni_over_the_pairs(policies, level):
    assert statistics.comparison_level(policies) == pytest.approx(level)


def test_simultaneous_intervals_are_wider_than_one_pair_alone():
    rng = np.random.default_rng(2)
    final_values = rng.normal(size=(5, 30))
    index = statistics.bootstrap_indices(30, seed=3)
    resampled = np.stack([statistics.resampled_means(v, index) for v in final_values])
    five = statistics.compare(final_values.mean(axis=1), resampled, [f"p{k}" for k in range(5)])[0]["difference"]
    two = statistics.compare(final_values[:2].mean(axis=1), resampled[:2], ["p0", "p1"])[0]["difference"]
    assert five["mean"] == two["mean"]
    assert five["low"] < two["low"] and five["high"] > two["high"]
