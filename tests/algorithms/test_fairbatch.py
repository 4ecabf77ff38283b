"""FairBatch λ controller (Roh et al., ICLR 2021): worked cases and invariants."""

from __future__ import annotations

import json

import numpy as np
import pytest

from service.algorithms.fairbatch import (
    EpochOrderError,
    FairBatchState,
    cell_index,
    epoch_step,
    example_weights,
    init_state,
    largest_remainder,
)
from service.algorithms.metrics import demographic_parity, equal_opportunity, equalized_odds

TOL = 1e-12

# 2 labels x 2 groups, label-major cells: (0,F) (0,M) (1,F) (1,M)
EO_COUNTS = {(0, "F"): 30, (0, "M"): 30, (1, "F"): 20, (1, "M"): 20}


def eo_state(**kwargs) -> FairBatchState:
    return init_state("equal_opportunity", [0, 1], ["F", "M"], EO_COUNTS, batch_size=10, **kwargs)


def as_json(state: FairBatchState) -> str:
    """The stored form: JSON, with the history's numpy columns as lists."""
    data = state.to_dict()
    data["history"] = {k: v.tolist() for k, v in data["history"].items()}
    return json.dumps(data, allow_nan=False)


# --- creation -------------------------------------------------------------------------------


def test_init_starts_at_natural_frequencies():
    state = eo_state()
    # p = m_{y,z} / m = (30, 30, 20, 20) / 100; λ = p(1, F) in the box [0, m_{1,·}/m] = [0, 0.4]
    assert state.probabilities == pytest.approx((0.3, 0.3, 0.2, 0.2), abs=TOL)
    assert state.lambdas == pytest.approx((0.2,), abs=TOL)
    assert state.describe_lambdas() == [{"label": 1, "groups": ["F", "M"], "box": [0.0, 0.4]}]
    low, high = state.box()
    # EO leaves the negative cells at their natural probability.
    assert low == pytest.approx([0.3, 0.3, 0.0, 0.0], abs=TOL)
    assert high == pytest.approx([0.3, 0.3, 0.4, 0.4], abs=TOL)
    assert state.epoch == 0 and len(state.history) == 0
    assert state.initial_lambdas == pytest.approx((0.2,), abs=TOL)


def test_labels_and_groups_are_echoed_exactly_and_indexed_by_position():
    counts = {("yes", 1.5): 3, ("yes", "1"): 4, ("no", 1.5): 5, ("no", "1"): 6}
    state = init_state("equalized_odds", ["no", "yes"], [1.5, "1"], counts, batch_size=4)
    restored = FairBatchState.from_dict(json.loads(as_json(state)))
    assert restored.labels == ("no", "yes") and restored.groups == (1.5, "1")
    assert state.cells == (("no", 1.5), ("no", "1"), ("yes", 1.5), ("yes", "1"))
    assert cell_index(state, "yes", "1") == 3
    assert state.counts == (5, 6, 3, 4)
    # With string labels the positive label defaults to the last one.
    assert state.labels[state.positive] == "yes"


def test_default_positive_label_is_the_label_one():
    counts = {(1, "a"): 1, (1, "b"): 1, (0, "a"): 1, (0, "b"): 1}
    state = init_state("equal_opportunity", [1, 0], ["a", "b"], counts, batch_size=2)
    assert state.positive == 0
    # numbers match by value: 1.0 names the label 1
    assert cell_index(state, 1.0, "b") == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"metric": "accuracy"}, "unknown metric"),
        ({"labels": [0, 0]}, "distinct"),
        ({"labels": [1, 1.0]}, "distinct"),
        ({"labels": [True, False]}, "strings or finite numbers"),
        ({"groups": ["F"]}, "at least 2 groups"),
        ({"counts": {(2, "F"): 3}}, "unknown label"),
        ({"counts": {(1, "X"): 3}}, "unknown group"),
        ({"counts": {(1, "F"): -1}}, "non-negative integer"),
        ({"counts": {(1, "F"): 2.5}}, "non-negative integer"),
        ({"counts": {(1, "F"): 0}}, "all zero"),
        ({"counts": {(1, "F"): 5, (0, "F"): 5, (0, "M"): 5}}, "at least two groups"),
        ({"batch_size": 0}, "batch_size"),
        ({"step_size": 0.0}, "step_size"),
        ({"threshold": -0.1}, "threshold"),
        ({"positive_label": 7}, "positive_label"),
    ],
)
def test_init_rejects_bad_input(kwargs, message):
    args = {"metric": "equal_opportunity", "labels": [0, 1], "groups": ["F", "M"], "counts": EO_COUNTS,
            "batch_size": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        init_state(args.pop("metric"), args.pop("labels"), args.pop("groups"), args.pop("counts"), **args)


def test_demographic_parity_needs_binary_labels():
    counts = {(y, z): 5 for y in (0, 1, 2) for z in ("a", "b")}
    with pytest.raises(ValueError, match="exactly two labels"):
        init_state("demographic_parity", [0, 1, 2], ["a", "b"], counts, batch_size=10)


# --- worked epoch steps ---------------------------------------------------------------------


def test_equal_opportunity_worked_step():
    state = eo_state()
    new, result = epoch_step(state, [0.1, 0.1, 0.5, 0.3], epoch=1)
    # e = L(1,F) - L(1,M) = 0.5 - 0.3 = 0.2 > 0: (1,F) is behind, λ = p(1,F) += α = 0.205
    assert result.pair_disparities == pytest.approx((0.2,), abs=TOL)
    assert result.lambdas == pytest.approx((0.205,), abs=TOL)
    assert result.sampling_probabilities == pytest.approx((0.3, 0.3, 0.205, 0.195), abs=TOL)
    assert result.moved == 0
    # p·10 = 3, 3, 2.05, 1.95 -> floors 3, 3, 2, 1 (9); the last example goes to the largest
    # remainder, 0.95 of (1,M): 3, 3, 2, 2
    assert result.batch_composition == (3, 3, 2, 2)
    # paper's EO disparity: L(1,·) = (20·0.5 + 20·0.3)/40 = 0.4; max(|0.5-0.4|, |0.3-0.4|) = 0.1
    assert result.disparity == pytest.approx(0.1, abs=TOL)
    assert new.epoch == 1 and tuple(new.history.lambdas[-1]) == result.lambdas
    # the opposite sign moves the other way
    _, back = epoch_step(state, [0.1, 0.1, 0.3, 0.5], epoch=1)
    assert back.lambdas == pytest.approx((0.195,), abs=TOL)


def test_update_is_clipped_to_the_box():
    state = eo_state(step_size=0.3)
    # λ = 0.2 + 0.3 would leave the box [0, 0.4]: only p(1,M) = 0.2 can move
    state, result = epoch_step(state, [0, 0, 0.9, 0.1], epoch=1)
    assert result.lambdas == pytest.approx((0.4,), abs=TOL)
    assert result.sampling_probabilities == pytest.approx((0.3, 0.3, 0.4, 0.0), abs=TOL)
    # at the edge, a further push moves nothing
    state, result = epoch_step(state, [0, 0, 0.9, 0.1], epoch=2)
    assert result.lambdas == pytest.approx((0.4,), abs=TOL) and result.moved is None


def test_equalized_odds_moves_only_the_largest_disparity():
    state = init_state("equalized_odds", [0, 1], ["F", "M"], EO_COUNTS, batch_size=10)
    # d_{y=0} = 0.1 - 0.4 = -0.3 and d_{y=1} = 0.5 - 0.3 = 0.2: |d_{y=0}| is larger, so only
    # λ_1 = p(0,F) moves, toward (0,M): 0.3 - 0.005 (Algorithm 3)
    _, result = epoch_step(state, [0.1, 0.4, 0.5, 0.3], epoch=1)
    assert result.pair_disparities == pytest.approx((-0.3, 0.2), abs=TOL)
    assert result.lambdas == pytest.approx((0.295, 0.2), abs=TOL)
    assert result.moved == 0
    # ED disparity vs overall: y=0 mean 0.25 -> 0.15; y=1 mean 0.4 -> 0.1
    assert result.disparity == pytest.approx(0.15, abs=TOL)


def test_demographic_parity_worked_step_with_unequal_cells():
    counts = {(0, "a"): 40, (0, "b"): 10, (1, "a"): 10, (1, "b"): 40}
    state = init_state("demographic_parity", [0, 1], ["a", "b"], counts, batch_size=20)
    # r_{y,z} = m_{y,z}/m_{·,z}: r(0,a) = 0.8, r(0,b) = 0.2, r(1,a) = 0.2, r(1,b) = 0.8
    # Appendix A.1: e_neg = 0.8·0.1 - 0.2·0.3 - (0.8 - 0.2) = -0.58 and e_pos = 0.2·0.4 - 0.8·0.2 = -0.08
    new, result = epoch_step(state, [0.1, 0.3, 0.4, 0.2], epoch=1)
    assert result.pair_disparities == pytest.approx((-0.58, -0.08), abs=TOL)
    # |e_neg| is larger and negative: probability goes to (0,b), λ_1 = p(0,a) = 0.4 - 0.005
    assert result.lambdas == pytest.approx((0.395, 0.1), abs=TOL)
    # P(ŷ=1|a) = 0.8·0.1 + 0.2·0.6 = 0.2, P(ŷ=1|b) = 0.2·0.3 + 0.8·0.8 = 0.7, overall 0.45
    assert result.disparity == pytest.approx(0.25, abs=TOL)
    # the gap is e_neg - e_pos = -0.5 = P(ŷ=1|a) - P(ŷ=1|b)
    assert result.pair_disparities[0] - result.pair_disparities[1] == pytest.approx(0.2 - 0.7, abs=TOL)
    assert new.box()[1] == pytest.approx([0.5, 0.5, 0.5, 0.5], abs=TOL)


def test_more_than_two_groups_compare_adjacent_pairs():
    counts = {(1, g): 10 for g in "abc"} | {(0, g): 10 for g in "abc"}
    state = init_state("equal_opportunity", [0, 1], list("abc"), counts, batch_size=6)
    # λ_0 = p(1,a), λ_1 = p(1,a) + p(1,b); pairs (a,b) and (b,c)
    assert state.lambdas == pytest.approx((1 / 6, 2 / 6), abs=TOL)
    # |L_b - L_c| = 0.4 > |L_a - L_b| = 0.1; c is behind, so λ_1 drops by α and p(1,a) stays
    _, result = epoch_step(state, [0, 0, 0, 0.2, 0.3, 0.7], epoch=1)
    assert result.pair_disparities == pytest.approx((-0.1, -0.4), abs=TOL)
    assert result.moved == 1
    assert result.sampling_probabilities[3:] == pytest.approx((1 / 6, 1 / 6 - 0.005, 1 / 6 + 0.005), abs=TOL)


def test_multi_class_equalized_odds_and_empty_cells():
    # Appendix B.8: three labels; group b has no examples of label 2 (cell left out)
    counts = {(0, "a"): 10, (0, "b"): 10, (1, "a"): 10, (1, "b"): 10, (2, "a"): 10}
    state = init_state("equalized_odds", [0, 1, 2], ["a", "b"], counts, batch_size=5)
    assert [d["label"] for d in state.describe_lambdas()] == [0, 1]
    losses = {(0, "a"): 0.2, (0, "b"): 0.2, (1, "a"): 0.1, (1, "b"): 0.6, (2, "a"): 0.3}
    _, result = epoch_step(state, losses, epoch=1)
    assert result.pair_disparities == pytest.approx((0.0, -0.5), abs=TOL)
    assert result.sampling_probabilities == pytest.approx((0.2, 0.2, 0.195, 0.205, 0.2, 0.0), abs=TOL)
    assert result.batch_composition[-1] == 0


def test_threshold_and_ties():
    state = eo_state(threshold=0.05)
    # Appendix B.5: |e| = 0.05 is not above T, nothing moves; 0.06 is
    _, still = epoch_step(state, [0, 0, 0.35, 0.3], epoch=1)
    _, moved = epoch_step(state, [0, 0, 0.36, 0.3], epoch=1)
    assert still.moved is None and still.lambdas == pytest.approx((0.2,), abs=TOL)
    assert moved.lambdas == pytest.approx((0.205,), abs=TOL)
    # equal |e| on both ED pairs: the lowest λ index moves
    eq = init_state("equalized_odds", [0, 1], ["F", "M"], EO_COUNTS, batch_size=10)
    _, tie = epoch_step(eq, [0.3, 0.1, 0.1, 0.3], epoch=1)
    assert tie.moved == 0 and tie.lambdas == pytest.approx((0.305, 0.2), abs=TOL)


def test_demographic_parity_threshold_gates_on_the_parity_gap():
    counts = {(0, "a"): 40, (0, "b"): 10, (1, "a"): 10, (1, "b"): 40}
    losses = [0.5, 0.5, 0.5, 0.4]  # (0,a) (0,b) (1,a) (1,b)
    # r(0,a) = 0.8, r(1,a) = 0.2, r(0,b) = 0.2, r(1,b) = 0.8
    # A.1: e_neg = 0.8·0.5 - 0.2·0.5 - (0.8 - 0.2) = -0.3, e_pos = 0.2·0.5 - 0.8·0.4 = -0.22
    # parity: P(ŷ=1|a) = 0.8·0.5 + 0.2·0.5 = 0.5, P(ŷ=1|b) = 0.2·0.5 + 0.8·0.6 = 0.58,
    # gap |0.5 - 0.58| = 0.08 = |e_neg - e_pos|
    def step(threshold):
        state = init_state("demographic_parity", [0, 1], ["a", "b"], counts, batch_size=20, threshold=threshold)
        return epoch_step(state, losses, epoch=1)[1]

    # Appendix B.5 with the gap: 0.08 <= T = 0.1, nothing moves although |e_neg| = 0.3 > T
    still = step(0.1)
    assert still.pair_disparities == pytest.approx((-0.3, -0.22), abs=TOL)
    assert still.moved is None and still.lambdas == pytest.approx((0.4, 0.1), abs=TOL)
    # 0.08 > T = 0.05: Algorithm 4's move, the largest |e| (e_neg < 0) sends α to (0,b)
    moved = step(0.05)
    assert moved.moved == 0 and moved.lambdas == pytest.approx((0.395, 0.1), abs=TOL)


def test_demographic_parity_gate_compares_adjacent_groups():
    counts = {(y, g): 10 for y in (0, 1) for g in "abc"}  # r = 0.5 everywhere, no A.1 shift
    losses = [0.2, 0.4, 0.2, 0.2, 0.2, 0.4]  # negatives a b c, then positives a b c
    # P(ŷ=1|z) = 0.5·L_0z + 0.5·(1 - L_1z): a 0.5, b 0.6, c 0.4; adjacent gaps 0.1 (a,b), 0.2 (b,c)
    # A.1: e = 0.5·ΔL: neg (a,b) -0.1, neg (b,c) 0.1, pos (a,b) 0, pos (b,c) -0.1; the tie goes to
    # λ_0 (neg a,b; e < 0 so p(0,a) = 1/6 gives α to (0,b))
    def step(threshold):
        state = init_state("demographic_parity", [0, 1], list("abc"), counts, batch_size=6, threshold=threshold)
        return epoch_step(state, losses, epoch=1)[1]

    assert step(0.21).moved is None  # the largest adjacent gap, 0.2, is not above T
    # T = 0.15 is above every |e| (0.1) but below the gap (b,c) = 0.2: the gate opens
    moved = step(0.15)
    assert moved.pair_disparities == pytest.approx((-0.1, 0.1, 0.0, -0.1), abs=TOL)
    assert moved.moved == 0
    assert moved.sampling_probabilities[:3] == pytest.approx((1 / 6 - 0.005, 1 / 6 + 0.005, 1 / 6), abs=TOL)


def test_controller_converges_to_within_one_step():
    # Toy inner problem: a cell's loss falls as its share rises, L = k / p. Balance at
    # 0.1 / p_F = 0.3 / p_M with p_F + p_M = 0.4, i.e. λ* = p_F = 0.1. Proposition 1:
    # |λ(t) - λ*| <= max(|λ(0) - λ*| - tα, α) = α once t >= 20.
    state = eo_state(step_size=0.005)
    for epoch in range(1, 41):
        p = np.asarray(state.probabilities)
        state, result = epoch_step(state, [0.1, 0.1, 0.1 / p[2], 0.3 / p[3]], epoch)
        if epoch >= 20:
            assert abs(result.lambdas[0] - 0.1) <= 0.005 + TOL


# --- disparities agree with the shared metrics for the 0/1 loss -------------------------------


@pytest.mark.parametrize("metric", ["equal_opportunity", "equalized_odds", "demographic_parity"])
def test_reported_disparity_matches_metrics_for_zero_one_losses(metric):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    z = rng.integers(0, 3, 400)
    pred = (rng.random(400) < 0.3 + 0.2 * z + 0.2 * y).astype(int)
    counts = {(int(a), int(b)): int(np.sum((y == a) & (z == b))) for a in (0, 1) for b in range(3)}
    state = init_state(metric, [0, 1], [0, 1, 2], counts, batch_size=50)
    cells = y * 3 + z
    losses = np.bincount(cells, weights=(pred != y), minlength=6) / np.bincount(cells, minlength=6)
    _, result = epoch_step(state, losses, epoch=1)
    expected = {
        "equal_opportunity": equal_opportunity(pred, y, z),
        "equalized_odds": equalized_odds(pred, y, z),
        "demographic_parity": demographic_parity(pred, z),
    }[metric]
    assert result.disparity == pytest.approx(expected.disparity_vs_overall, abs=TOL)
    if metric == "demographic_parity":
        # A.1: P(ŷ=1|z_a) - P(ŷ=1|z_b) = e_neg - e_pos for each adjacent pair
        rates = [expected.by_group[str(g)] for g in range(3)]
        e = result.pair_disparities  # (neg a-b, neg b-c, pos a-b, pos b-c)
        assert e[0] - e[2] == pytest.approx(rates[0] - rates[1], abs=TOL)
        assert e[1] - e[3] == pytest.approx(rates[1] - rates[2], abs=TOL)


# --- invariants -------------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["equal_opportunity", "equalized_odds", "demographic_parity"])
def test_probabilities_stay_in_their_box_over_many_epochs(metric):
    rng = np.random.default_rng(11)
    n_labels = 2 if metric == "demographic_parity" else 3
    labels, groups = list(range(n_labels)), ["g0", "g1", "g2", "g3"]
    counts = {(y, g): int(rng.integers(1, 50)) for y in labels for g in groups}
    state = init_state(metric, labels, groups, counts, batch_size=37, step_size=0.02)
    natural = np.asarray(state.probabilities)
    low, high = state.box()
    for epoch in range(1, 301):
        state, result = epoch_step(state, rng.random(len(natural)), epoch)
        p = np.asarray(result.sampling_probabilities)
        assert p.sum() == pytest.approx(1.0, abs=1e-9)
        assert np.all(p >= low - TOL) and np.all(p <= high + TOL)
        assert np.array_equal(p[low == high], natural[low == high])
        lam = np.asarray(result.lambdas)
        for j, d in enumerate(state.describe_lambdas()):
            assert d["box"][0] - TOL <= lam[j] <= d["box"][1] + TOL
        composition = np.asarray(result.batch_composition)
        assert composition.sum() == 37 and np.all(np.abs(composition - 37 * p) < 1)
    assert len(state.history) == 300 and state.history.epoch[-1] == 300


def test_epoch_step_is_pure_and_round_trips_through_json():
    state, _ = epoch_step(eo_state(), [0.1, 0.2, 0.3, 0.4], epoch=1)
    before = as_json(state)
    new, _ = epoch_step(state, [0.3, 0.2, 0.1, 0.4], epoch=2)
    assert as_json(state) == before
    with pytest.raises(ValueError, match="read-only"):
        state.history.lambdas[0, 0] = 1.0
    restored = FairBatchState.from_dict(json.loads(as_json(new)))
    assert restored == new
    assert FairBatchState.from_dict(new.to_dict()) == new  # numpy columns as stored by the service
    # epoch 1: L(1,·) = (0.3 + 0.4)/2, disparity 0.05, e = -0.1 -> λ 0.195;
    # epoch 2: L(1,·) = (0.1 + 0.4)/2, disparity 0.15, e = -0.3 -> λ 0.19
    assert restored.history.entries() == [
        {"epoch": 1, "disparity": pytest.approx(0.05), "max_pair_disparity": pytest.approx(0.1),
         "lambdas": [pytest.approx(0.195)], "moved": 0},
        {"epoch": 2, "disparity": pytest.approx(0.15), "max_pair_disparity": pytest.approx(0.3),
         "lambdas": [pytest.approx(0.19)], "moved": 0},
    ]
    # the restored state steps exactly like the original
    assert epoch_step(restored, [0.5, 0.1, 0.2, 0.3], 3)[1] == epoch_step(new, [0.5, 0.1, 0.2, 0.3], 3)[1]


def test_from_dict_reuses_a_configuration_without_mixing_up_its_values():
    """States are rebuilt from a per-process cache of configurations; 1 and 1.0 stay apart."""
    counts = {(0, "F"): 10, (0, "M"): 30, (1, "F"): 20, (1, "M"): 40}
    ints = init_state("equal_opportunity", [0, 1], ["F", "M"], counts, batch_size=10)
    floats = init_state("equal_opportunity", [0.0, 1.0], ["F", "M"],
                        {(float(y), z): c for (y, z), c in counts.items()}, batch_size=10)
    for state in (ints, floats, ints):
        restored = FairBatchState.from_dict(json.loads(json.dumps(state.to_dict(), default=list)))
        assert restored == state
        assert [type(v) for v in restored.to_dict()["labels"]] == [type(v) for v in state.labels]
    # a different step size is a different configuration
    other = init_state("equal_opportunity", [0, 1], ["F", "M"], counts, batch_size=10, step_size=0.01)
    assert FairBatchState.from_dict(other.to_dict()).step_size == 0.01
    # a malformed configuration is refused, not served from the cache
    data = ints.to_dict()
    data["labels"] = [[0], 1]
    with pytest.raises((TypeError, ValueError)):
        FairBatchState.from_dict(data)
    data = ints.to_dict()
    data["labels"] = [0, 0]
    with pytest.raises(ValueError, match="distinct"):
        FairBatchState.from_dict(data)


def test_derived_values_are_built_once_per_configuration():
    """A new epoch's state and a state read back take over the cell layout instead of rebuilding it."""
    from service.algorithms.fairbatch.state import CONFIG_CACHE_SIZE, _cached_initial_state

    state = eo_state()
    assert "layout" in state.__dict__  # init_state built it
    stepped, _ = epoch_step(state, [0.1, 0.2, 0.3, 0.4], epoch=1)
    assert stepped.layout is state.layout
    first = FairBatchState.from_dict(stepped.to_dict())
    again = FairBatchState.from_dict(stepped.to_dict())
    assert first.layout is again.layout and first == again == stepped
    assert first.cells is again.cells
    assert _cached_initial_state.cache_info().maxsize == CONFIG_CACHE_SIZE


def test_from_dict_rejects_a_corrupted_state():
    data = eo_state().to_dict()
    data["probabilities"] = [[0.3, 0.3], [0.5, -0.1]]
    with pytest.raises(ValueError, match="feasible box"):
        FairBatchState.from_dict(data)
    data = epoch_step(eo_state(), [0.1] * 4, epoch=1)[0].to_dict()
    data["epoch"] = 4
    with pytest.raises(ValueError, match="last epoch"):
        FairBatchState.from_dict(data)


def test_epochs_must_count_up_and_losses_must_be_valid():
    state, _ = epoch_step(eo_state(), [0.1] * 4, epoch=1)
    for epoch in (0, 1, True):
        with pytest.raises(EpochOrderError):
            epoch_step(state, [0.1] * 4, epoch=epoch)
    assert epoch_step(state, [0.1] * 4, epoch=5)[0].epoch == 5  # gaps are allowed
    for losses, message in (([0.1] * 3, "one value per cell"), ([0.1, np.nan, 0.1, 0.1], "finite"),
                            ([0.1, -1, 0.1, 0.1], ">= 0"), ({(1, "X"): 0.1}, "unknown group")):
        with pytest.raises(ValueError, match=message):
            epoch_step(state, losses, epoch=2)


def test_example_weights_spread_each_cell_evenly():
    state, _ = epoch_step(eo_state(), [0.1, 0.1, 0.5, 0.3], epoch=1)
    cells = np.repeat(np.arange(4), [30, 30, 20, 20])
    weights = example_weights(state, cells)
    # (1,F) holds 0.205 over 20 examples
    assert weights[60] == pytest.approx(0.205 / 20, abs=TOL)
    assert weights.sum() == pytest.approx(1.0, abs=TOL)
    with pytest.raises(ValueError, match="examples here"):
        example_weights(state, cells[1:])


def test_largest_remainder():
    # 1.25, 1.25, 3.75, 3.75 -> floors 1, 1, 3, 3 and two more for the 0.75 remainders
    assert largest_remainder(np.array([0.125, 0.125, 0.375, 0.375]), 10).tolist() == [1, 1, 4, 4]
    # 2.5 each: ties go to the lowest cell index
    assert largest_remainder(np.full(4, 0.25), 10).tolist() == [3, 3, 2, 2]
    # 0.1 + 0.2 is 0.30000000000000004: float noise does not beat the lower index
    assert largest_remainder(np.array([0.3, 0.1 + 0.2, 0.4]), 5).tolist() == [2, 1, 2]
