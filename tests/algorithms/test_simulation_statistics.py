"""Simulation summaries: bootstrap intervals with the corrected variance, the worst group's projection, differences.

Hand-worked cases use R = 4 repetitions, a test share of 0.2 (variance factor 1/4 + 0.2/0.8 = 0.5)
and, instead of random resamples, all 4⁴ = 256 of them (the exact bootstrap distribution). Values
whose deviations from their mean are (−0.1, 0, 0.1, 0) have resampled means mean + 0.025·D, D the
times the third repetition is drawn less the times the first is: P(D = −4) = 1/256, P(D = −3) =
8/256, so the 2.5% percentile (position 0.025 · 255 = 6.4 of the sorted 256) is at D = −3, 0.075
below the mean, and 0.075 above for 97.5%. The stretch is R · sqrt(0.5 / (R − 1)) = 1.6329932: the
half-width is 0.075 · 1.6329932 = 0.1224745.
"""

from __future__ import annotations

import numpy as np
import pytest

from service.simulations import statistics

TOL = 1e-6
HALF = 0.075 * 4 * np.sqrt(0.5 / 3)  # 0.1224745: the half-width of the hand-worked cases
EVERY_RESAMPLE = np.array(np.meshgrid(*[range(4)] * 4, indexing="ij")).reshape(4, -1).T  # (256, 4) indices
FACTOR = statistics.variance_factor(4, 0.2)
SPREAD = statistics.Spread(FACTOR, np.stack([np.bincount(row, minlength=4) for row in EVERY_RESAMPLE]) / 4)


def spread(repetitions: int, test_fraction: float, factor: float | None = None) -> statistics.Spread:
    """Random resamples as the service draws them, with the corrected factor or another one."""
    drawn = statistics.Spread.of(repetitions, test_fraction, seed=0)
    return drawn if factor is None else statistics.Spread(factor, drawn.weights)


def test_the_interval_is_the_bootstrap_percentiles_stretched_to_the_corrected_standard_error():
    assert pytest.approx(0.5) == FACTOR
    assert pytest.approx(0.1224745, abs=TOL) == HALF
    assert SPREAD.weights.shape == (256, 4) and np.allclose(SPREAD.weights.sum(axis=1), 1.0)
    c = statistics.curve(np.array([[0.6], [0.7], [0.8], [0.7]]), SPREAD)
    assert c["mean"] == [pytest.approx(0.7)]
    assert c["low"] == [pytest.approx(0.7 - HALF, abs=TOL)] and c["high"] == [pytest.approx(0.7 + HALF, abs=TOL)]
    # Equal values: no spread, a degenerate interval, exactly.
    assert statistics.curve(np.full((4, 2), 0.1), SPREAD) == {"mean": [0.1, 0.1], "low": [0.1, 0.1],
                                                              "high": [0.1, 0.1]}


def test_a_skewed_curve_gets_a_skewed_interval():
    # Deviations (−0.3, 0.1, 0.1, 0.1): resampled means reach further below the mean than above it.
    c = statistics.curve(np.array([[0.6], [1.0], [1.0], [1.0]]), SPREAD)
    assert c["mean"] == [pytest.approx(0.9)]
    assert c["mean"][0] - c["low"][0] > 2 * (c["high"][0] - c["mean"][0]) > 0


def test_the_same_seed_gives_the_same_resamples_bit_for_bit():
    one, two = statistics.Spread.of(20, 0.3, seed=5), statistics.Spread.of(20, 0.3, seed=5)
    assert np.array_equal(one.weights, two.weights) and one.factor == two.factor
    assert not np.array_equal(one.weights, statistics.Spread.of(20, 0.3, seed=6).weights)
    assert one.weights.shape == (statistics.BOOTSTRAP_RESAMPLES, 20)


def test_more_repetitions_do_not_narrow_the_interval_below_the_pilots_own_error():
    assert statistics.variance_factor(20, 0.3) == pytest.approx(1 / 20 + 0.3 / 0.7)
    assert statistics.variance_factor(10**6, 0.3) == pytest.approx(0.3 / 0.7, rel=1e-5)


def test_intervals_cover_the_population_value_under_pilot_sampling():
    # A fixed model, correct on each population row with probability 0.7. Each of 2,000 pilots holds
    # 100 rows; each of its 20 repetitions scores a random 30% of them. The corrected interval covers
    # 0.7 about 95% of the time (92.6%); an interval of the mean alone (factor 1/R) about half of the
    # time (46.8%); the spread of the repetitions' own values (factor 1) 98.8%, more than the level asks. (With the
    # t interval of the third round: 94%, 50% and 99%; the bootstrap's tails are about 6% narrower.)
    rng = np.random.default_rng(0)
    pilots, n, reps, n_test = 2000, 100, 20, 30
    correct = (rng.random((pilots, n)) < 0.7).astype(float)
    tests = np.argsort(rng.random((pilots, reps, n)), axis=2)[:, :, :n_test]
    values = np.take_along_axis(correct[:, None, :], tests, axis=2).mean(axis=2).T  # (reps, pilots)
    corrected = statistics.curve(values, spread(reps, n_test / n))
    of_the_mean = statistics.curve(values, spread(reps, n_test / n, factor=1 / reps))

    def coverage(c: dict[str, list[float]]) -> float:
        return float(np.mean((np.asarray(c["low"]) <= 0.7) & (np.asarray(c["high"]) >= 0.7)))

    assert 0.90 <= coverage(corrected) <= 0.98
    assert coverage(of_the_mean) < 0.65
    assert coverage(statistics.curve(values, spread(reps, n_test / n, factor=1.0))) > 0.98


def test_the_worst_group_of_the_means_is_not_biased_by_test_noise():
    # Two groups with the same true accuracy 0.8, each repetition's estimate off by N(0, 0.1²).
    rng = np.random.default_rng(0)
    values = 0.8 + 0.1 * rng.standard_normal((200, 1, 2))
    worst = statistics.worst_group(values, spread(200, 0.01), higher_is_better=True)
    per_repetition = values.min(axis=2).mean()  # a per-repetition minimum: E[min] = 0.8 − 0.1/√π ≈ 0.744
    assert per_repetition < 0.76
    assert worst["mean"][0] == pytest.approx(min(values[:, 0, 0].mean(), values[:, 0, 1].mean()), rel=1e-12)
    assert worst["low"][0] <= 0.8 <= worst["high"][0]


def test_the_worst_groups_interval_is_the_projection_of_the_groups_intervals():
    # Group a: mean 0.7, interval 0.7 ± HALF. Group b: 0.75 every time, interval [0.75, 0.75].
    values = np.array([[0.6, 0.75], [0.7, 0.75], [0.8, 0.75], [0.7, 0.75]])[:, None, :]
    worst = statistics.worst_group(values, SPREAD, higher_is_better=True)
    assert worst["mean"] == [pytest.approx(0.7)]
    assert worst["low"] == [pytest.approx(0.7 - HALF, abs=TOL)]
    assert worst["high"] == [pytest.approx(0.75)]  # b's bound: the worst group is at most 0.75
    highest = statistics.worst_group(values, SPREAD, higher_is_better=False)  # lower is better: the largest
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
    (only_a,) = statistics.compare(ends([0.9] * 4), names, SPREAD, higher_is_better=True)
    assert only_a["difference"] == pytest.approx({"mean": 0.1, "low": 0.1 - HALF, "high": 0.1 + HALF}, abs=TOL)
    assert only_a["within_noise"]
    # b's group B (mean 0.8, interval 0.8 ± 2·HALF) reaches below b's worst bound 0.6 + HALF, so it could
    # be b's worst group: the upper bound takes its paired difference (0.3, −0.1, 0.1, 0.1), 0.1 + 2·HALF.
    (either,) = statistics.compare(ends([0.6, 1.0, 0.8, 0.8]), names, SPREAD, higher_is_better=True)
    assert either["difference"] == pytest.approx({"mean": 0.1, "low": 0.1 - HALF, "high": 0.1 + 2 * HALF}, abs=TOL)


def test_one_policy_under_two_names_differs_by_exactly_zero():
    rng = np.random.default_rng(4)
    one = rng.random((6, 3))
    (same,) = statistics.compare(np.stack([one, one]), ["p", "q"], spread(6, 0.2), higher_is_better=True)
    assert same["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0} and same["within_noise"]


@pytest.mark.parametrize(("policies", "level"), [(2, 0.95), (3, 1 - 0.05 / 3), (5, 0.995), (10, 1 - 0.05 / 45)])
def test_comparison_level_is_bonferroni_over_the_pairs(policies, level):
    assert statistics.comparison_level(policies) == pytest.approx(level)


def test_simultaneous_intervals_are_wider_than_one_pair_alone():
    rng = np.random.default_rng(2)
    values = rng.normal(size=(5, 30, 1))
    five = statistics.compare(values, [f"p{k}" for k in range(5)], spread(30, 0.3), True)[0]["difference"]
    two = statistics.compare(values[:2], ["p0", "p1"], spread(30, 0.3), True)[0]["difference"]
    assert five["mean"] == two["mean"]
    assert five["low"] < two["low"] and five["high"] > two["high"]


def test_the_recommendation_says_within_noise_from_the_same_intervals():
    rec = statistics.recommend(ends([0.9] * 4), ["a", "b"], SPREAD, "worst-group accuracy", True, 60)
    assert rec["best"] == "a" and rec["within_noise"] == ["b"] and rec["beats"] == []
    assert "a − b" not in rec["text"] and f"b: 0.1000 (95.0% CI {0.1 - HALF:.4f} to {0.1 + HALF:.4f})" in rec["text"]
    assert f"a has the best worst-group accuracy: 0.7000 (95.0% CI {0.7 - HALF:.4f} to {0.7 + HALF:.4f})" in rec["text"]
