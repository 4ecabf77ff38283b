"""Conditional matrices, disclosivity, imbalance, bounds, interpolation, groups and running counts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from service.algorithms.balanced_filtering.groups import GroupEncoding, encode_groups, target_vector
from service.algorithms.balanced_filtering.interpolation import interpolate_proxy, tradeoff_curve
from service.algorithms.balanced_filtering.measures import (
    acceptance_rate,
    accepted_distribution,
    conditional_matrix,
    disclosivity,
    imbalance,
    min_imbalance_bound,
)
from service.algorithms.balanced_filtering.session import (
    FilterCounts,
    realized_imbalance,
    record_decisions,
    record_outcomes,
)
from service.algorithms.validation import InputError

TOL = 1e-9


def test_conditional_matrix_from_indices_and_from_weights():
    # Leaf 0 holds groups (a, a, b), leaf 1 holds (b, b), leaf 2 is empty.
    Z = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [0, 1]], dtype=float)
    matrix, rates = conditional_matrix(np.array([0, 0, 0, 1, 1]), Z, n_leaves=3)
    assert matrix == pytest.approx(np.array([[2 / 3, 1 / 3], [0, 1], [0, 0]]))
    assert rates == pytest.approx([0.6, 0.4, 0.0])
    # Soft membership: the third point sits half in each leaf.
    W = np.array([[1, 0], [1, 0], [0.5, 0.5], [0, 1], [0, 1]], dtype=float)
    matrix, rates = conditional_matrix(W, Z)
    assert matrix == pytest.approx(np.array([[0.8, 0.2], [0.0, 1.0]]))
    assert rates == pytest.approx([0.5, 0.5])


def test_disclosivity_ignores_empty_leaves():
    # Base rates (0.6, 0.4); leaf rows (2/3, 1/3) and (0, 1): max shift |0 - 0.6| = 0.6.
    A = np.array([[2 / 3, 1 / 3], [0.0, 1.0], [1.0, 0.0]])
    base = np.array([0.6, 0.4])
    assert disclosivity(A, base, np.array([0.6, 0.4, 0.0])) == pytest.approx(0.6)
    assert disclosivity(A, base) == pytest.approx(0.6)  # the (1, 0) row also shifts by 0.4 < 0.6
    assert disclosivity(np.tile(base, (2, 1)), base) == pytest.approx(0.0)


def test_imbalance_and_acceptance_rate_by_hand():
    # rho = (0.25, 1) on rates (0.8, 0.2) of pure leaves: accepted (0.2, 0.2) / 0.4.
    A, rates, rho = np.eye(2), np.array([0.8, 0.2]), np.array([0.25, 1.0])
    assert accepted_distribution(A, rates, rho) == pytest.approx([0.5, 0.5])
    assert imbalance(A, rates, rho, np.array([0.5, 0.5])) == pytest.approx(0.0)
    assert acceptance_rate(rates, rho) == pytest.approx(0.4)
    # Accept everyone: the population (0.8, 0.2), at sqrt(2) * 0.3 from uniform.
    assert imbalance(A, rates, np.ones(2), np.array([0.5, 0.5])) == pytest.approx(np.sqrt(2) * 0.3)


def test_min_imbalance_bound_by_hand_and_on_adult_rates():
    # r = (0.9, 0.1), alpha = 0.2: every leaf has share >= 0.7 of group 0, best is
    # (0.7, 0.3), at sqrt(0.2^2 + 0.2^2) from (0.5, 0.5). With alpha >= 0.4 U is reachable.
    U = np.array([0.5, 0.5])
    assert min_imbalance_bound(np.array([0.9, 0.1]), 0.2, U) == pytest.approx(np.sqrt(0.08))
    assert min_imbalance_bound(np.array([0.9, 0.1]), 0.4, U) == pytest.approx(0.0, abs=1e-9)
    # Adult's race shares: at alpha = 0.2 no proxy beats ~0.69x of accepting everyone.
    r = np.array([0.0096, 0.0288, 0.0935, 0.0078, 0.8603])
    r = r / r.sum()
    U5 = np.full(5, 0.2)
    ratio = min_imbalance_bound(r, 0.2, U5) / np.linalg.norm(r - U5)
    assert ratio == pytest.approx(0.694, abs=0.002)
    # Intersecting classes add up per block: the second block is already balanced.
    both = min_imbalance_bound(np.array([0.9, 0.1, 0.5, 0.5]), 0.2, np.full(4, 0.5), [slice(0, 2), slice(2, 4)])
    assert both == pytest.approx(np.sqrt(0.08))


def test_interpolation_by_hand():
    # A = I, rates (0.75, 0.25), naive rho = (1/3, 1). With eta = 0.5 and m = 2:
    # r' = (0.625, 0.375); A'_0 = (0.5625, 0.0625) / 0.625 = (0.9, 0.1);
    # A'_1 = (0.1875, 0.1875) / 0.375 = (0.5, 0.5); disclosivity = |0.5 - 0.75| = 0.25;
    # accepted ∝ 0.625/3 (0.9, 0.1) + 0.375 (0.5, 0.5) = (0.375, 0.2083) -> (9/14, 5/14),
    # at sqrt(2) (9/14 - 1/2) = sqrt(2) / 7 from uniform.
    A, rates, rho, U = np.eye(2), np.array([0.75, 0.25]), np.array([1 / 3, 1.0]), np.array([0.5, 0.5])
    point = interpolate_proxy(A, rates, rho, 0.5, U)
    assert point.disclosivity == pytest.approx(0.25)
    assert point.imbalance == pytest.approx(np.sqrt(2) / 7)
    assert point.acceptance_rate == pytest.approx(0.625 / 3 + 0.375)
    curve = tradeoff_curve(A, rates, rho, U)
    assert [p.eta for p in curve] == pytest.approx(np.linspace(0, 1, 11))
    # eta = 0 is the proxy itself (balanced, disclosivity 0.75); eta = 1 ignores the features.
    assert curve[0].disclosivity == pytest.approx(0.75) and curve[0].imbalance == pytest.approx(0.0)
    assert curve[-1].disclosivity == pytest.approx(0.0)
    assert curve[-1].imbalance == pytest.approx(np.sqrt(2) * 0.25)
    assert all(a.disclosivity >= b.disclosivity for a, b in zip(curve, curve[1:], strict=False))


def test_interpolation_keeps_the_training_support_out_of_sample():
    # Leaf 1 is empty in this sample but part of the proxy's range: re-assigned points land there.
    A, rates = np.array([[0.5, 0.5], [0.0, 0.0]]), np.array([1.0, 0.0])
    point = interpolate_proxy(A, rates, np.array([1.0, 1.0]), 0.5, np.array([0.5, 0.5]),
                              support=np.array([True, True]))
    assert point.acceptance_rate == pytest.approx(1.0)
    assert point.disclosivity == pytest.approx(0.0)


def test_groups_are_encoded_in_sorted_or_given_order():
    encoding, Z = encode_groups(["b", "a", "b"])
    assert encoding.values == (("a", "b"),) and Z.tolist() == [[0, 1], [1, 0], [0, 1]]
    encoding, Z = encode_groups(["b", "a"], group_values=["b", "a", "c"])
    assert encoding.names == ["b", "a", "c"] and Z.tolist() == [[1, 0, 0], [0, 1, 0]]
    with pytest.raises(InputError) as info:
        encode_groups(["a", "z"], group_values=["a", "b"])
    assert info.value.errors[0]["loc"] == ["groups", 1]
    with pytest.raises(InputError):
        encode_groups(["a", "a"])  # a single group cannot be balanced


def test_intersecting_groups_and_targets():
    groups = [["w", 0], ["b", 1], ["w", 2]]
    encoding, Z = encode_groups(groups)
    assert encoding.n_groups == 5 and [b.stop for b in encoding.blocks] == [2, 5]
    assert Z.tolist() == [[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [0, 1, 0, 0, 1]]
    assert Z[:, :2].sum(axis=1).tolist() == [1, 1, 1] and Z[:, 2:].sum(axis=1).tolist() == [1, 1, 1]
    assert target_vector(encoding) == pytest.approx([0.5, 0.5, 1 / 3, 1 / 3, 1 / 3])
    # Keys may be the str of an int group (JSON), missing groups get 0.
    single, _ = encode_groups([0, 1, 1])
    assert target_vector(single, {"0": 0.25, 1: 0.75}) == pytest.approx([0.25, 0.75])
    assert target_vector(single, {1: 1.0}) == pytest.approx([0.0, 1.0])
    for bad in ({0: 0.3, 1: 0.3}, {0: -0.5, 1: 1.5}, {"x": 1.0}):
        with pytest.raises(InputError):
            target_vector(single, bad)
    assert GroupEncoding.from_dict(json.loads(json.dumps(encoding.to_dict()))) == encoding


def test_running_counts_are_pure_and_round_trip():
    encoding, _ = encode_groups(["a", "b"])
    state = FilterCounts.empty(n_leaves=3, n_groups=2)
    after = record_decisions(state, np.array([0, 2, 2, 1]), np.array([True, False, True, True]))
    assert state.total == 0 and state.by_leaf == (0, 0, 0)  # the input state is unchanged
    assert (after.total, after.accepted) == (4, 3)
    assert after.by_leaf == (1, 1, 2) and after.accepted_by_leaf == (1, 1, 1)
    after = record_outcomes(after, encoding, ["a", "b", "b"])
    # shares (1/3, 2/3): imbalance sqrt(2) / 6 from (1/2, 1/2).
    realized = realized_imbalance(after, encoding, np.array([0.5, 0.5]))
    assert realized["group_counts"] == {"a": 1, "b": 2}
    assert realized["imbalance"] == pytest.approx(np.sqrt(2) / 6)
    assert FilterCounts.from_dict(json.loads(json.dumps(after.to_dict()))) == after
    assert realized_imbalance(state, encoding, np.array([0.5, 0.5]))["imbalance"] is None
    with pytest.raises(InputError):
        record_outcomes(after, encoding, ["c"])
