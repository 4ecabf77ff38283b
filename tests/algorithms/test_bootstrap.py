"""Bootstrap intervals of the fairness metrics: hand-worked cases, reproducibility, coverage."""

from __future__ import annotations

import numpy as np
import pytest

from service.algorithms import bootstrap as b
from service.algorithms import metrics as m
from service.algorithms.validation import InputError

TOL = 1e-12


def _dp_intervals(predictions, codes, names, resamples, level, seed):
    predictions, codes = np.asarray(predictions, float), np.asarray(codes)
    draw = b.resample_indices(codes, len(names), resamples, np.random.default_rng(seed))
    point = m.demographic_parity(predictions, codes, names)
    metric = {"dp": lambda rows: m.demographic_parity(predictions[rows], codes[rows], names)}
    return b.bootstrap(metric, {"dp": point}, draw, resamples, level)["dp"]


def test_resamples_stay_within_their_group():
    codes = np.array([1, 0, 1, 2, 0, 1])
    draw = b.resample_indices(codes, 3, 50, np.random.default_rng(0))
    for _ in range(50):
        rows = draw()
        # Stratified: each group keeps its size, and every drawn row is one of its own.
        assert np.bincount(codes[rows], minlength=3).tolist() == [2, 3, 1]
        assert set(rows[codes[rows] == 2].tolist()) == {3}


def test_a_constant_group_has_a_degenerate_interval():
    # Group a predicts 1 throughout: every resample's rate is 1, so its interval is [1, 1].
    ci = _dp_intervals([1, 1, 1, 0, 1, 0], [0, 0, 0, 1, 1, 1], ["a", "b"], 200, 0.95, 3)
    assert (ci.by_group["a"].lower, ci.by_group["a"].upper) == (1.0, 1.0)
    assert 0.0 <= ci.by_group["b"].lower <= 1 / 3 <= ci.by_group["b"].upper <= 1.0


def test_two_row_group_by_hand():
    # Group a holds predictions 0 and 1: a resample's rate is 0, 1/2 or 1 with probabilities
    # 1/4, 1/2, 1/4. The 30% and 70% quantiles of 10,000 resamples both fall on 1/2 (the
    # empirical share of 0 stays within 0.25 ± 0.02 but for a chance below 1e-5).
    ci = _dp_intervals([0, 1, 1, 1], [0, 0, 1, 1], ["a", "b"], 10_000, 0.4, 11)
    assert (ci.by_group["a"].lower, ci.by_group["a"].upper) == (0.5, 0.5)
    # Group b is constant at 1, so the disparity 1 - rate(a) is 1/2 at both quantiles too.
    assert (ci.disparity.lower, ci.disparity.upper) == (0.5, 0.5)
    # At 95% the ends are the extreme outcomes 0 and 1 (each has probability 1/4 > 2.5%).
    wide = _dp_intervals([0, 1, 1, 1], [0, 0, 1, 1], ["a", "b"], 10_000, 0.95, 11)
    assert (wide.by_group["a"].lower, wide.by_group["a"].upper) == (0.0, 1.0)


def test_same_seed_same_bits_other_seed_other_draws():
    rng = np.random.default_rng(5)
    predictions, codes = rng.random(300), rng.integers(0, 3, 300)
    first = _dp_intervals(predictions, codes, ["a", "b", "c"], 300, 0.9, 42)
    again = _dp_intervals(predictions, codes, ["a", "b", "c"], 300, 0.9, 42)
    other = _dp_intervals(predictions, codes, ["a", "b", "c"], 300, 0.9, 43)
    assert first == again
    assert first != other


def test_undefined_values_are_left_out_and_all_undefined_is_nan():
    # Group b has no positive label: its true positive rate is undefined in every resample.
    predictions = np.array([1.0, 0.0, 1.0, 1.0])
    labels = np.array([1.0, 1.0, 0.0, 0.0])
    codes = np.array([0, 0, 1, 1])
    names = ["a", "b"]
    draw = b.resample_indices(codes, 2, 100, np.random.default_rng(1))
    point = m.equal_opportunity(predictions, labels, codes, names)
    metric = {"eo": lambda rows: m.equal_opportunity(predictions[rows], labels[rows], codes[rows], names)}
    ci = b.bootstrap(metric, {"eo": point}, draw, 100, 0.95)["eo"]
    assert np.isnan(ci.by_group["b"].lower) and np.isnan(ci.by_group["b"].upper)
    assert ci.by_group["a"].lower == 0.0 and ci.by_group["a"].upper == 1.0


def test_work_and_bad_options():
    assert b.work(1_000, 200, [1, 1, 8]) == 1_000 * 200 * 11
    with pytest.raises(InputError):
        b.resample_indices(np.array([0, 1]), 2, 0, np.random.default_rng(0))
    with pytest.raises(InputError):
        b.bootstrap({}, {}, lambda: np.array([0]), 1, 1.0)


def test_intervals_cover_the_true_values_at_their_level():
    # Two groups of 200 with true positive rates 0.3 and 0.6 (disparity 0.3): over 200 simulated
    # data sets, the 90% intervals of 400 resamples should hold the true value about 90% of the
    # time. The percentile bootstrap of a binomial mean at n = 200 is close to nominal; with 200
    # data sets the coverage's standard error is ~2.1 points, so [0.82, 0.97] is ±3.5 s.e. wide.
    truth = {"a": 0.3, "b": 0.6}
    rng = np.random.default_rng(2024)
    codes = np.repeat([0, 1], 200)
    names = ["a", "b"]
    hits = {"a": 0, "b": 0, "disparity": 0}
    simulations = 200
    for k in range(simulations):
        predictions = (rng.random(400) < np.where(codes == 0, truth["a"], truth["b"])).astype(float)
        ci = _dp_intervals(predictions, codes, names, 400, 0.9, k)
        for g in names:
            hits[g] += ci.by_group[g].lower <= truth[g] <= ci.by_group[g].upper
        hits["disparity"] += ci.disparity.lower <= 0.3 <= ci.disparity.upper
    coverage = {key: count / simulations for key, count in hits.items()}
    print(f"\ncoverage of 90% intervals over {simulations} data sets: {coverage}")
    for value in coverage.values():
        assert 0.82 <= value <= 0.97
