"""Simulation summaries: corrected resampled t intervals, the worst group's projection, paired differences.

Hand-worked cases use R = 4 repetitions and a test share of 0.2, so that the variance factor is
1/4 + 0.2/0.8 = 0.5, and values whose deviations from their mean are (−0.1, 0, 0.1, 0): s² = 0.02/3,
standard error sqrt(0.5 · 0.02/3) = 0.0577350, t_{3, 0.975} = 3.1824463, half-width 0.1837386.
"""

from __future__ import annotations

import numpy as np
import pytest

from service.simulations import statistics

TOL = 1e-6
HALF = 3.1824463052837078 * np.sqrt(0.5 * 0.02 / 3)  # 0.1837386: the half-width of the hand-worked cases
FACTOR = statistics.variance_factor(4, 0.2)


def test_the_interval_is_the_mean_plus_minus_t_times_the_corrected_standard_error():
    assert pytest.approx(0.5) == FACTOR
    assert pytest.approx(0.1837386, abs=TOL) == HALF
    c = statistics.curve(np.array([[0.6], [0.7], [0.8], [0.7]]), FACTOR)
    assert c["mean"] == [pytest.approx(0.7)]
    assert c["low"] == [pytest.approx(0.7 - HALF, abs=TOL)] and c["high"] == [pytest.approx(0.7 + HALF, abs=TOL)]
    # Equal values: no spread, a degenerate interval, exactly.
    assert statistics.curve(np.full((4, 2), 0.1), FACTOR) == {"mean": [0.1, 0.1], "low": [0.1, 0.1],
                                                              "high": [0.1, 0.1]}


def test_more_repetitions_do_not_narrow_the_interval_below_the_pilots_own_error():
    assert statistics.variance_factor(20, 0.3) == pytest.approx(1 / 20 + 0.3 / 0.7)
    assert statistics.variance_factor(10**6, 0.3) == pytest.approx(0.3 / 0.7, rel=1e-5)


def test_intervals_cover_the_population_value_under_pilot_sampling():
    # A fixed model, correct on each population row with probability 0.7. Each of 2,000 pilots holds
    # 100 rows; each of its 20 repetitions scores a random 30% of them. The corrected interval covers
    # 0.7 about 95% of the time (94%); an interval of the mean alone (factor 1/R) about half of the time;
    # the spread of the repetitions' own values (factor 1) over 99%, more than the level asks.
    rng = np.random.default_rng(0)
    pilots, n, reps, n_test = 2000, 100, 20, 30
    correct = (rng.random((pilots, n)) < 0.7).astype(float)
    tests = np.argsort(rng.random((pilots, reps, n)), axis=2)[:, :, :n_test]
    values = np.take_along_axis(correct[:, None, :], tests, axis=2).mean(axis=2).T  # (reps, pilots)
    corrected = statistics.curve(values, statistics.variance_factor(reps, n_test / n))
    of_the_mean = statistics.curve(values, 1 / reps)

    def coverage(c: dict[str, list[float]]) -> float:
        return float(np.mean((np.asarray(c["low"]) <= 0.7) & (np.asarray(c["high"]) >= 0.7)))

    assert 0.92 <= coverage(corrected) <= 0.98
    assert coverage(of_the_mean) < 0.65
    assert coverage(statistics.curve(values, 1.0)) > 0.99


def test_the_worst_group_of_the_means_is_not_biased_by_test_noise():
    # Two groups with the same true accuracy 0.8, each repetition's estimate off by N(0, 0.1²).
    rng = np.random.default_rng(0)
    values = 0.8 + 0.1 * rng.standard_normal((200, 1, 2))
    worst = statistics.worst_group(values, statistics.variance_factor(200, 0.01), higher_is_better=True)
    per_repetition = values.min(axis=2).mean()  # a per-repetition minimum: E[min] = 0.8 − 0.1/√π ≈ 0.744
    assert per_repetition < 0.76
    assert worst["mean"][0] == pytest.approx(min(values[:, 0, 0].mean(), values[:, 0, 1].mean()), rel=1e-12)
    assert worst["low"][0] <= 0.8 <= worst["high"][0]


def test_the_worst_groups_interval_is_the_projection_of_the_groups_intervals():
    # Group a: mean 0.7, interval 0.7 ± HALF. Group b: 0.75 every time, interval [0.75, 0.75].
    values = np.array([[0.6, 0.75], [0.7, 0.75], [0.8, 0.75], [0.7, 0.75]])[:, None, :]
    worst = statistics.worst_group(values, FACTOR, higher_is_better=True)
    assert worst["mean"] == [pytest.approx(0.7)]
    assert worst["low"] == [pytest.approx(0.7 - HALF, abs=TOL)]
    assert worst["high"] == [pytest.approx(0.75)]  # b's bound: the worst group is at most 0.75
    highest = statistics.worst_group(values, FACTOR, higher_is_better=False)  # lower is better: the largest
    assert highest["mean"] == [pytest.approx(0.75)]
    assert highest["low"] == [pytest.approx(0.75)] and highest["high"] == [pytest.approx(0.7 + HALF, abs=TOL)]


def ends(b_group_b: list[float]) -> np.ndarray:
    """(2 policies, 4 repetitions, 2 groups): a's worst group is A (0.7), b's is A (0.6)."""
    a = [[0.6, 0.9], [0.7, 0.9], [0.8, 0.9], [0.7, 0.9]]
    b_a = [0.5, 0.7, 0.6, 0.6]  # a's group A minus (0.1, 0, 0.2, 0.1)
    return np.array([a, [[x, y] for x, y in zip(b_a, b_group_b, strict=True)]])


def test_a_difference_of_worst_groups_pairs_each_candidate_group():
    names = ["a", "b"]
    # Only group A can be the worst of either policy: its paired difference, 0.1 ± HALF.
    (only_a,) = statistics.compare(ends([0.9] * 4), names, FACTOR, higher_is_better=True)
    assert only_a["difference"] == pytest.approx({"mean": 0.1, "low": 0.1 - HALF, "high": 0.1 + HALF}, abs=TOL)
    assert only_a["within_noise"]
    # b's group B (mean 0.8, interval 0.8 ± 2·HALF) reaches below b's worst bound 0.6 + HALF, so it could
    # be b's worst group: the upper bound takes its paired difference (0.3, −0.1, 0.1, 0.1), 0.1 + 2·HALF.
    (either,) = statistics.compare(ends([0.6, 1.0, 0.8, 0.8]), names, FACTOR, higher_is_better=True)
    assert either["difference"] == pytest.approx({"mean": 0.1, "low": 0.1 - HALF, "high": 0.1 + 2 * HALF}, abs=TOL)


def test_one_policy_under_two_names_differs_by_exactly_zero():
    rng = np.random.default_rng(4)
    one = rng.random((6, 3))
    (same,) = statistics.compare(np.stack([one, one]), ["p", "q"], FACTOR, higher_is_better=True)
    assert same["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0} and same["within_noise"]


@pytest.mark.parametrize(("policies", "level"), [(2, 0.95), (3, 1 - 0.05 / 3), (5, 0.995), (10, 1 - 0.05 / 45)])
def test_comparison_level_is_bonferroni_over_the_pairs(policies, level):
    assert statistics.comparison_level(policies) == pytest.approx(level)


def test_simultaneous_intervals_are_wider_than_one_pair_alone():
    rng = np.random.default_rng(2)
    values = rng.normal(size=(5, 30, 1))
    factor = statistics.variance_factor(30, 0.3)
    five = statistics.compare(values, [f"p{k}" for k in range(5)], factor, True)[0]["difference"]
    two = statistics.compare(values[:2], ["p0", "p1"], factor, True)[0]["difference"]
    assert five["mean"] == two["mean"]
    assert five["low"] < two["low"] and five["high"] > two["high"]


def test_the_recommendation_says_within_noise_from_the_same_intervals():
    rec = statistics.recommend(ends([0.9] * 4), ["a", "b"], FACTOR, "worst-group accuracy", True, 60)
    assert rec["best"] == "a" and rec["within_noise"] == ["b"] and rec["beats"] == []
    assert "a − b" not in rec["text"] and f"b: 0.1000 (95.0% CI {0.1 - HALF:.4f} to {0.1 + HALF:.4f})" in rec["text"]
    assert f"a has the best worst-group accuracy: 0.7000 (95.0% CI {0.7 - HALF:.4f} to {0.7 + HALF:.4f})" in rec["text"]
