"""DataSift beyond the paper: the accuracy-aware reward (β) and the acceptance guard (δ), worked by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from service.algorithms.datasift import (
    BanditConfig,
    BanditState,
    Decision,
    apply_feedback,
    init_state,
    next_decision,
    reorder_remaining,
    within_guard,
)
from service.algorithms.datasift.guard import guarded_order, objective_key, offer_key
from service.algorithms.datasift.influence import accuracy_surrogate, fit_logistic
from service.algorithms.datasift.partitions import PartitionStats
from service.algorithms.datasift.run import run_acquisition
from service.algorithms.validation import InputError
from tests.algorithms.test_datasift import PARTITIONS, _synthetic

TOL = 1e-9


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(1):
        yield


def _decision(state: BanditState, config: BanditConfig, partition: str) -> Decision:
    j = state.partition_ids.index(partition)
    return Decision(state.evaluations + 1, partition, j, "test", state.round_batch_size(config), "front", None, {})


# ----------------------------------------------------------------------------- defaults are the paper's


@pytest.mark.parametrize(("batch_selection", "n", "first", "total", "final", "evaluations", "stop"), [
    ("random", 60, [409, 155, 5, 472, 129, 114, 1, 121], 17286, 0.21505236622573354, 29, "pool_exhausted"),
    ("influence", 160, [59, 64, 69, 89, 266, 427, 418, 107], 47593, 0.03786480937654302, 18, "budget"),
])
def test_default_managed_run_is_unchanged(batch_selection, n, first, total, final, evaluations, stop):
    # Golden values printed by the code at commit 49b8dca (before the options existed), same call.
    pool, train, test = _synthetic(3)
    config = BanditConfig(batch_size=20, budget=160, batch_selection=batch_selection, reward_scale="running_max")
    for validation in (None, test):  # a validation split with neither option set changes nothing either
        result = run_acquisition(pool, train, test, config, np.random.default_rng(7), max_components=4,
                                 validation=validation)
        acquired = result.acquired.tolist()
        assert (len(acquired), acquired[:8], sum(acquired)) == (n, first, total)
        assert (result.final_fairness, result.evaluations, result.stop_reason) == (final, evaluations, stop)


def test_default_feedback_ignores_accuracy():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS)
    plain = apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.28)
    with_acc = apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.28,
                              accuracy_before=0.9, accuracy_after=0.1)
    assert plain == with_acc and plain[1].accepted and plain[1].delta_accuracy is None


# ----------------------------------------------------------------------------- the acceptance guard


def test_guard_rejects_a_fairer_batch_that_costs_more_than_delta_below_the_best():
    config = BanditConfig(batch_size=10, budget=30, accuracy_tolerance=0.02)
    state = init_state(config, PARTITIONS, initial_fairness=0.30)
    # |F| 0.30 -> 0.28 (Algorithm 1 keeps it) but accuracy 0.80 -> 0.77 < 0.80 - 0.02 = 0.78: rejected.
    new, result = apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.28,
                                 accuracy_before=0.80, accuracy_after=0.77)
    assert not result.accepted and result.accuracy_guard_rejected
    assert result.delta_accuracy == pytest.approx(-0.03) and result.best_accuracy == 0.80
    assert new.budget_spent == 0 and new.best_fairness == 0.30 and new.best_accuracy == 0.80
    assert new.remaining(0) == 20  # a rejected batch still leaves the pool, as in Algorithm 1
    paper = BanditConfig(batch_size=10, budget=30)
    assert apply_feedback(paper, init_state(paper, PARTITIONS, initial_fairness=0.30), _decision(
        state, paper, "a"), 0.30, 0.28, accuracy_before=0.80, accuracy_after=0.77)[1].accepted


def test_guard_keeps_a_batch_within_delta_and_measures_from_the_best():
    config = BanditConfig(batch_size=10, budget=40, accuracy_tolerance=0.02)
    state = init_state(config, PARTITIONS, initial_fairness=0.30)
    # 0.80 -> 0.79 >= 0.78: kept; the best stays 0.80 (max of 0.80 and 0.79).
    state, result = apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.28,
                                   accuracy_before=0.80, accuracy_after=0.79)
    assert result.accepted and not result.accuracy_guard_rejected and result.best_accuracy == 0.80
    assert state.budget_spent == 10 and state.best_fairness == 0.28
    # From 0.79 to 0.775 is only 0.015 below the current model, but 0.025 below the best 0.80: rejected.
    state, result = apply_feedback(config, state, _decision(state, config, "b"), 0.28, 0.25,
                                   accuracy_before=0.79, accuracy_after=0.775)
    assert not result.accepted and result.accuracy_guard_rejected and state.best_fairness == 0.28
    # A batch that raises accuracy raises the best: 0.79 -> 0.83 kept, best 0.83.
    state, result = apply_feedback(config, state, _decision(state, config, "d"), 0.28, 0.27,
                                   accuracy_before=0.79, accuracy_after=0.83)
    assert result.accepted and state.best_accuracy == 0.83 and result.best_accuracy == 0.83
    # A batch that makes F worse is rejected whatever accuracy does, and not blamed on the guard.
    state, result = apply_feedback(config, state, _decision(state, config, "a"), 0.27, 0.29,
                                   accuracy_before=0.83, accuracy_after=0.90)
    assert not result.accepted and not result.accuracy_guard_rejected


def test_tolerance_zero_keeps_only_batches_at_or_above_the_best():
    config = BanditConfig(batch_size=10, budget=30, accuracy_tolerance=0.0)
    state = init_state(config, PARTITIONS)
    assert apply_feedback(config, state, _decision(state, config, "a"), 0.3, 0.2, accuracy_before=0.8,
                          accuracy_after=0.8)[1].accepted
    assert not apply_feedback(config, state, _decision(state, config, "a"), 0.3, 0.2, accuracy_before=0.8,
                              accuracy_after=0.7999)[1].accepted


@pytest.mark.parametrize(("kwargs", "missing"), [({}, "accuracy_before"), ({"accuracy_before": 0.8}, "accuracy_after"),
                                                 ({"accuracy_before": float("nan"), "accuracy_after": 0.8},
                                                  "accuracy_before")])
def test_accuracy_is_required_when_the_options_use_it(kwargs, missing):
    for config in (BanditConfig(batch_size=10, budget=30, accuracy_weight=0.5),
                   BanditConfig(batch_size=10, budget=30, accuracy_tolerance=0.01)):
        state = init_state(config, PARTITIONS)
        with pytest.raises(InputError, match=missing):
            apply_feedback(config, state, _decision(state, config, "a"), 0.3, 0.2, **kwargs)


@pytest.mark.parametrize("bad", [{"accuracy_weight": -0.1}, {"accuracy_weight": float("inf")},
                                 {"accuracy_tolerance": -0.01}, {"accuracy_tolerance": float("nan")}])
def test_config_rejects_bad_accuracy_options(bad):
    with pytest.raises(InputError):
        BanditConfig(batch_size=5, budget=10, **bad)


# ----------------------------------------------------------------------------- the β reward


def test_accuracy_reward_is_shared_by_eq1_by_hand():
    config = BanditConfig(batch_size=10, budget=30, accuracy_weight=0.5)
    state = init_state(config, PARTITIONS)
    new, result = apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.28,
                                 accuracy_before=0.80, accuracy_after=0.81)
    # ΔF = 0.02, ΔA = 0.01, β = 0.5, no scaling: combined 0.02 + 0.5·0.01 = 0.025, shared as eq. 1:
    # a 0.025/1.1, b 0.025/(1.3·1.5), c 0.025/(1·1), d 0.025/(1·2)
    assert result.rewards == pytest.approx({"a": 0.025 / 1.1, "b": 0.025 / 1.95, "c": 0.025, "d": 0.0125})
    assert result.delta_accuracy == pytest.approx(0.01) and result.accepted
    assert new.accuracy_sums == pytest.approx((0.01 / 1.1, 0.01 / 1.95, 0.01, 0.005))
    assert new.reward_sums == pytest.approx((0.02 / 1.1, 0.02 / 1.95, 0.02, 0.01))  # the fairness part, raw


def test_reward_scale_applies_to_each_part_by_hand():
    config = BanditConfig(batch_size=5, budget=100, reward="selected_only", reward_scale="running_max",
                          accuracy_weight=1.0)
    parts = [PartitionStats("a", 50, [0.0], 0.0), PartitionStats("b", 50, [1.0], 0.0)]
    state = init_state(config, parts, initial_fairness=0.3)
    state, first = apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.28,
                                  accuracy_before=0.80, accuracy_after=0.79)
    # s_F = 0.02, s_A = 0.01: a gets 0.02/0.02 + 1·(−0.01/0.01) = 1 − 1 = 0
    assert first.rewards == pytest.approx({"a": 0.0}, abs=TOL)
    state, second = apply_feedback(config, state, _decision(state, config, "b"), 0.28, 0.29,
                                   accuracy_before=0.79, accuracy_after=0.83)
    # s_F = 0.02, s_A = 0.04: b gets −0.01/0.02 + 0.04/0.04 = −0.5 + 1 = 0.5
    assert second.rewards == pytest.approx({"b": 0.5})
    scores = next_decision(config, state, np.random.default_rng(0)).scores
    # means at the current scales: a 0.02/0.02 − 0.01/0.04 = 0.75; b −0.5 + 1 = 0.5
    assert (scores["a"]["reward"], scores["b"]["reward"]) == pytest.approx((0.75, 0.5))
    # the same weight on ten times larger accuracy changes gives the same rewards: scale-free
    big = init_state(config, parts, initial_fairness=0.3)
    big, again = apply_feedback(config, big, _decision(big, config, "a"), 0.30, 0.28, accuracy_before=8.0,
                                accuracy_after=7.9)
    assert again.rewards == pytest.approx({"a": 0.0}, abs=TOL)


def test_state_with_accuracy_round_trips_through_json():
    config = BanditConfig(batch_size=10, budget=30, accuracy_weight=0.5, accuracy_tolerance=0.01)
    state = init_state(config, PARTITIONS)
    new, _ = apply_feedback(config, state, _decision(state, config, "a"), 0.3, 0.2, accuracy_before=0.8,
                            accuracy_after=0.81)
    restored = BanditState.from_dict(json.loads(json.dumps(new.to_dict())))
    assert restored == new and restored.best_accuracy == 0.81 and restored.max_abs_accuracy_delta == pytest.approx(0.01)
    old = new.to_dict()
    for key in ("accuracy_sums", "best_accuracy", "max_abs_accuracy_delta"):  # a state stored before the options
        old.pop(key)
    legacy = BanditState.from_dict(json.loads(json.dumps(old)))
    assert legacy.accuracy_sums == (0.0,) * 4 and legacy.best_accuracy is None
    assert BanditConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config


# ----------------------------------------------------------------------------- objective acceptance


def _objective_pair(beta: float = 1.0) -> tuple[BanditConfig, BanditConfig, BanditState, BanditState]:
    """(objective config, fairness config) and each one's state after one kept batch: s_F = 0.04, s_A = 0.02."""
    common = {"batch_size": 5, "budget": 100, "reward": "selected_only", "reward_scale": "running_max",
              "accuracy_weight": beta, "accuracy_tolerance": 0.02}
    objective, fairness = BanditConfig(**common, acceptance="objective"), BanditConfig(**common)
    parts = [PartitionStats("a", 50, [0.0], 0.0), PartitionStats("b", 50, [1.0], 0.0)]
    states = []
    for config in (objective, fairness):
        state = init_state(config, parts, initial_fairness=0.24)
        # |F| 0.24 -> 0.20 and accuracy 0.58 -> 0.60: both rules keep it (J = 1 + 1 = 2)
        state, first = apply_feedback(config, state, _decision(state, config, "a"), 0.24, 0.20,
                                      accuracy_before=0.58, accuracy_after=0.60)
        assert first.accepted and state.best_accuracy == 0.60 and state.best_fairness == 0.20
        states.append(state)
    return objective, fairness, states[0], states[1]


def test_objective_keeps_an_accuracy_gain_that_costs_a_little_fairness():
    objective, fairness, state, old_state = _objective_pair()
    # |F| 0.20 -> 0.21, accuracy 0.600 -> 0.615: J = −0.01/0.04 + 1·0.015/0.02 = −0.25 + 0.75 = 0.5 > 0,
    # and 0.615 >= 0.60 − 0.02: kept. Algorithm 1 (and the old guard) rejects it: |F| rose.
    new, result = apply_feedback(objective, state, _decision(state, objective, "b"), 0.20, 0.21,
                                 accuracy_before=0.60, accuracy_after=0.615)
    assert result.accepted and not result.accuracy_guard_rejected
    assert (new.budget_spent, new.best_fairness, new.best_accuracy) == (10, 0.21, 0.615)
    assert result.rewards == pytest.approx({"b": 0.5})  # the reward shares the same objective
    _, old = apply_feedback(fairness, old_state, _decision(old_state, fairness, "b"), 0.20, 0.21,
                            accuracy_before=0.60, accuracy_after=0.615)
    assert not old.accepted and not old.accuracy_guard_rejected


def test_objective_rejects_a_fairness_gain_that_costs_much_accuracy():
    objective, fairness, state, old_state = _objective_pair()
    # |F| 0.20 -> 0.19, accuracy 0.600 -> 0.582: J = 0.01/0.04 − 0.018/0.02 = 0.25 − 0.9 = −0.65: rejected,
    # by the objective, not the guard (0.582 >= 0.58). The old guard keeps it: F fell, accuracy within δ.
    new, result = apply_feedback(objective, state, _decision(state, objective, "b"), 0.20, 0.19,
                                 accuracy_before=0.60, accuracy_after=0.582)
    assert not result.accepted and not result.accuracy_guard_rejected
    assert (new.budget_spent, new.best_fairness, new.best_accuracy) == (5, 0.20, 0.60)
    _, old = apply_feedback(fairness, old_state, _decision(old_state, fairness, "b"), 0.20, 0.19,
                            accuracy_before=0.60, accuracy_after=0.582)
    assert old.accepted


def test_objective_stays_under_the_delta_guard():
    objective, _, state, _ = _objective_pair(beta=0.5)
    # |F| 0.20 -> 0.10, accuracy 0.600 -> 0.579: s_F = 0.1, s_A = 0.021, J = 1 − 0.5 = 0.5 > 0,
    # but 0.579 < 0.60 − 0.02 = 0.58: the guard rejects it.
    _, result = apply_feedback(objective, state, _decision(state, objective, "b"), 0.20, 0.10,
                               accuracy_before=0.60, accuracy_after=0.579)
    assert not result.accepted and result.accuracy_guard_rejected
    # the same with accuracy 0.581 is kept: J = 1 + 0.5·(−0.019/0.02) = 0.525
    _, result = apply_feedback(objective, state, _decision(state, objective, "b"), 0.20, 0.10,
                               accuracy_before=0.60, accuracy_after=0.581)
    assert result.accepted


def test_objective_without_scaling_by_hand():
    config = BanditConfig(batch_size=10, budget=30, accuracy_weight=2.0, acceptance="objective")
    state = init_state(config, PARTITIONS, initial_fairness=0.30)
    # raw units: ΔF = −0.01, ΔA = +0.006: J = −0.01 + 2·0.006 = 0.002 > 0 kept; ΔA = +0.004: −0.002, rejected
    assert apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.31, accuracy_before=0.8,
                          accuracy_after=0.806)[1].accepted
    assert not apply_feedback(config, state, _decision(state, config, "a"), 0.30, 0.31, accuracy_before=0.8,
                              accuracy_after=0.804)[1].accepted


def test_objective_key_ranks_by_the_estimated_objective_by_hand():
    config = BanditConfig(batch_size=2, budget=4, batch_selection="influence", accuracy_weight=1.0,
                          reward_scale="running_max", acceptance="objective")
    fairness, accuracy = np.array([-0.4, -0.2, 0.1, 0.2]), np.array([-0.2, 0.1, 0.04, 0.2])
    # s_F = 0.4, s_A = 0.2. Front: I_F/0.4 − I_A/0.2 = [−1 + 1, −0.5 − 0.5, 0.25 − 0.2, 0.5 − 1]
    front = objective_key(config, fairness, accuracy)
    assert front == pytest.approx([0.0, -1.0, 0.05, -0.5])
    assert np.argsort(front).tolist() == [1, 3, 0, 2]  # Algorithm 2 (fairness alone) would offer 0, 1, 2, 3
    # Back (F of the other sign): I_F/0.4 + I_A/0.2 = [−2, 0, 0.45, 1.5]: offered from the back, 3 first
    assert objective_key(config, fairness, accuracy, front=False) == pytest.approx([-2.0, 0.0, 0.45, 1.5])
    # Without scaling, raw units: I_F − I_A = [−0.2, −0.3, 0.06, 0.0]
    raw = BanditConfig(batch_size=2, budget=4, accuracy_weight=1.0, acceptance="objective")
    assert objective_key(raw, fairness, accuracy) == pytest.approx([-0.2, -0.3, 0.06, 0.0])
    # offer_key: the objective with its guard flags (n = 10, K = 2, δ = 0.01: I_A >= −0.05 is within)
    guarded = BanditConfig(**{**config.to_dict(), "accuracy_tolerance": 0.01})
    key, within = offer_key(guarded, fairness, accuracy, 10)
    assert key == pytest.approx(front) and within.tolist() == [False, True, True, True]
    paper = BanditConfig(batch_size=2, budget=4, batch_selection="influence")
    assert offer_key(paper, fairness, None, 10)[0].tolist() == fairness.tolist()
    with pytest.raises(InputError, match="accuracy influence"):
        offer_key(config, fairness, None, 10)


@pytest.mark.parametrize(("bad", "match"), [({"acceptance": "objective"}, "accuracy_weight > 0"),
                                            ({"acceptance": "pareto", "accuracy_weight": 1.0}, "acceptance")])
def test_config_rejects_bad_acceptance(bad, match):
    with pytest.raises(InputError, match=match):
        BanditConfig(batch_size=5, budget=10, **bad)


# ----------------------------------------------------------------------------- DataSift-Inf within the guard


def test_within_guard_by_hand():
    # n = 100 training points, batches of K = 10, δ = 0.002: a batch of ten like d changes accuracy by
    # 10·I_A(d)/100, within the guard when ≥ −0.002, i.e. I_A(d) ≥ −0.02.
    flags = within_guard(np.array([-0.5, -0.02, -0.0201, 0.0, 0.3]), 100, 10, 0.002)
    assert flags.tolist() == [False, True, False, True, True]
    with pytest.raises(InputError):
        within_guard(np.zeros(2), 0, 10, 0.01)


def test_influence_order_ranks_within_the_guard_first():
    # Partition 0 holds items 0..4, partition 1 holds 5..7.
    fairness = np.array([-0.9, -0.5, -0.1, 0.2, 0.6, -0.3, 0.4, -0.8])
    within = np.array([False, True, True, True, False, True, True, False])
    # Tiers: within & <0 -> 0, outside -> 1, within & >=0 -> 2; sort by (tier, influence) per partition.
    assert guarded_order(fairness, within).tolist() == [1, 0, 0, 2, 1, 0, 2, 1]
    parts = [PartitionStats("0", 5, [0.0], 0.0), PartitionStats("1", 3, [1.0], 0.0)]
    config = BanditConfig(batch_size=2, budget=4, batch_selection="influence", accuracy_tolerance=0.01)
    assignment = np.array([0, 0, 0, 0, 0, 1, 1, 1])
    state = init_state(config, parts, assignment=assignment, influence=fairness, initial_fairness=0.2,
                       within_guard=within)
    # 0: tier 0 (1: −0.5, 2: −0.1), tier 1 (0: −0.9, 4: 0.6), tier 2 (3: 0.2); 1: tier 0 (5), tier 1 (7), tier 2 (6)
    assert state.partition_items(0).tolist() == [1, 2, 0, 4, 3]
    assert state.partition_items(1).tolist() == [5, 7, 6]
    # the paper's order (no guard) would offer item 0 (−0.9) first in partition 0, item 7 (−0.8) in partition 1
    paper = init_state(config, parts, assignment=assignment, influence=fairness, initial_fairness=0.2)
    assert paper.partition_items(0).tolist() == [0, 1, 2, 3, 4] and paper.partition_items(1).tolist() == [7, 5, 6]
    decision = next_decision(config, state, np.random.default_rng(0))
    assert decision.take == "front" and decision.item_indices == {0: (1, 2), 1: (5, 7)}[decision.partition_index]
    # F of the other sign takes from the back: the guarded item with the largest influence first
    flipped = init_state(config, parts, assignment=assignment, influence=fairness, initial_fairness=-0.2,
                         within_guard=within)
    back = next_decision(config, flipped, np.random.default_rng(0))
    assert back.take == "back" and back.item_indices == {0: (4, 3), 1: (7, 6)}[back.partition_index]
    # re-sorting keeps the guard's tiers
    resorted = reorder_remaining(state, -fairness, within)
    assert resorted.partition_items(0).tolist() == [3, 4, 0, 2, 1]  # tiers 0: 3; 1: 4, 0; 2: 2, 1


def test_one_sided_order_offers_every_guarded_item_first_by_hand():
    # The case above, laid out for one end (a managed run's objective order): within the guard, then outside.
    fairness = np.array([-0.9, -0.5, -0.1, 0.2, 0.6, -0.3, 0.4, -0.8])
    within = np.array([False, True, True, True, False, True, True, False])
    assert guarded_order(fairness, within, "front").tolist() == [1, 0, 0, 0, 1, 0, 0, 1]
    assert guarded_order(fairness, within, "back").tolist() == [0, 1, 1, 1, 0, 1, 1, 0]
    assert guarded_order(fairness, None, "front").tolist() == [0] * 8  # no guard: Algorithm 2's order
    with pytest.raises(InputError, match="side"):
        guarded_order(fairness, within, "middle")
    parts = [PartitionStats("0", 5, [0.0], 0.0), PartitionStats("1", 3, [1.0], 0.0)]
    config = BanditConfig(batch_size=2, budget=4, batch_selection="influence", accuracy_tolerance=0.01,
                          accuracy_weight=1.0, acceptance="objective")
    assignment = np.array([0, 0, 0, 0, 0, 1, 1, 1])
    state = init_state(config, parts, assignment=assignment, influence=fairness, initial_fairness=0.2,
                       within_guard=within, guard_side="front")
    # 0: within 1 (−0.5), 2 (−0.1), 3 (0.2), then outside 0 (−0.9), 4 (0.6); the two-sided order is [1, 2, 0, 4, 3]
    assert state.partition_items(0).tolist() == [1, 2, 3, 0, 4]
    assert state.partition_items(1).tolist() == [5, 6, 7]  # two-sided: [5, 7, 6]
    # Re-sorted for the back (F changed sign) with the back's key: outside 4 (−0.6), 0 (0.9), then within
    # 3 (−0.2), 2 (0.1), 1 (0.5); the back end offers the guarded items with the largest key first.
    back = reorder_remaining(state, -fairness, within, "back")
    assert back.partition_items(0).tolist() == [4, 0, 3, 2, 1]
    assert reorder_remaining(state, -fairness, within).partition_items(0).tolist() == [3, 4, 0, 2, 1]  # two-sided
    flipped = init_state(config, parts, assignment=assignment, influence=-fairness, initial_fairness=-0.2,
                         within_guard=within, guard_side="back")
    decision = next_decision(config, flipped, np.random.default_rng(0))
    assert decision.take == "back" and decision.item_indices == {0: (2, 1), 1: (6, 5)}[decision.partition_index]


def test_objective_managed_run_offers_no_item_outside_the_guard_while_one_within_is_left(monkeypatch):
    from service.algorithms.datasift import run as run_module
    flags: dict[str, np.ndarray] = {}
    outside_batches, violations = [0], [0]
    real_offer, real_next = run_module.offer_key, run_module.next_decision

    def recording_offer(*args, **kwargs):
        key, within = real_offer(*args, **kwargs)
        flags["within"] = within
        return key, within

    def checking_next(config, state, rng):
        decision = real_next(config, state, rng)
        batch = np.asarray(decision.item_indices)
        left = np.setdiff1d(state.partition_items(decision.partition_index), batch)
        if not flags["within"][batch].all():
            outside_batches[0] += 1
            violations[0] += int(flags["within"][left].any())
        return decision

    monkeypatch.setattr(run_module, "offer_key", recording_offer)
    monkeypatch.setattr(run_module, "next_decision", checking_next)
    pool, train, test = _synthetic(3)
    config = BanditConfig(batch_size=20, budget=160, batch_selection="influence", accuracy_tolerance=0.01,
                          accuracy_weight=0.5, acceptance="objective", reward_scale="running_max")
    result = run_acquisition(pool, train, test, config, np.random.default_rng(7), max_components=4,
                             validation=_synthetic(4)[2])
    # The run reaches items outside the guard (the pool runs out), and only once their partition has no
    # guarded item left; the two-sided order offered 9 such batches here while guarded items were left.
    assert result.stop_reason == "pool_exhausted" and outside_batches[0] > 0 and violations[0] == 0


def test_fairness_acceptance_guarded_run_keeps_the_two_sided_order():
    # Golden values printed by the code at commit 2f0a257 (before one-sided orders), same call: Algorithm 1's
    # rule serves both ends from one order, so its guarded run is unchanged.
    pool, train, test = _synthetic(3)
    config = BanditConfig(batch_size=20, budget=160, batch_selection="influence", accuracy_tolerance=0.01,
                          accuracy_weight=0.5, reward_scale="running_max")
    result = run_acquisition(pool, train, test, config, np.random.default_rng(7), max_components=4,
                             validation=_synthetic(4)[2])
    acquired = result.acquired.tolist()
    assert (len(acquired), acquired[:8], sum(acquired)) == (40, [59, 64, 69, 89, 266, 427, 418, 107], 10064)
    assert (result.final_fairness, result.evaluations, result.stop_reason) == (0.1838665245978326, 29,
                                                                               "pool_exhausted")


def test_accuracy_surrogate_gradient_matches_finite_differences():
    pool, train, test = _synthetic(0)
    model = fit_logistic(train.X, train.y)
    value, gradient = accuracy_surrogate(model, test.X, test.y)
    p = model.predict_proba(test.X)
    assert value == pytest.approx(np.mean(np.where(test.y == 1, p, 1 - p)))
    step = 1e-6
    for k in range(len(model.coef)):
        coef = model.coef.copy()
        coef[k] += step
        shifted = type(model)(coef, model.intercept, model.C)
        assert (accuracy_surrogate(shifted, test.X, test.y)[0] - value) / step == pytest.approx(gradient[k],
                                                                                              rel=1e-3, abs=1e-7)


def test_guarded_managed_run_never_keeps_accuracy_below_the_guard():
    pool, train, test = _synthetic(3)
    valid = _synthetic(4)[2]
    for selection, acceptance in (("random", "fairness"), ("influence", "fairness"), ("random", "objective"),
                                  ("influence", "objective")):
        config = BanditConfig(batch_size=20, budget=160, batch_selection=selection, accuracy_tolerance=0.01,
                              accuracy_weight=0.5, acceptance=acceptance)
        result = run_acquisition(pool, train, test, config, np.random.default_rng(7), max_components=4,
                                 validation=valid)
        best = result.details["initial_validation_accuracy"]
        for step in result.trajectory:
            if step["accepted"]:
                assert step["validation_accuracy"] >= best - 0.01 - TOL
                best = max(best, step["validation_accuracy"])
        assert result.details["final_validation_accuracy"] >= result.details["initial_validation_accuracy"] - 0.01
        with pytest.raises(InputError, match="validation"):
            run_acquisition(pool, train, test, config, np.random.default_rng(7), max_components=4)


def test_objective_influence_run_re_sorts_when_f_changes_sign(monkeypatch):
    # With threshold 0 the run goes on after F changes sign (seed 0, β = 0.25 crosses zero at its second kept
    # batch): the one-sided objective order is rebuilt for the back then, and again if F comes back.
    from service.algorithms.datasift import run as run_module
    calls: list[bool] = []
    real = run_module.offer_key

    def recording(config, fairness, accuracy, n_train, front=True):
        calls.append(front)
        return real(config, fairness, accuracy, n_train, front)

    monkeypatch.setattr(run_module, "offer_key", recording)
    pool, train, test = _synthetic(0)
    config = BanditConfig(batch_size=20, budget=160, batch_selection="influence", accuracy_weight=0.25,
                          reward_scale="running_max", acceptance="objective", fairness_threshold=0.0)
    result = run_acquisition(pool, train, test, config, np.random.default_rng(7), max_components=4,
                             validation=_synthetic(1)[2])
    kept = [step["fairness"] >= 0 for step in result.trajectory if step["accepted"]]
    # kept F: positive, negative, positive. The order is built for the front at the start, for the back after
    # the second kept batch and for the front again after the third (the run then runs out of full batches).
    assert (kept, result.stop_reason) == ([True, False, True], "pool_exhausted")
    assert calls == [True, False, True]
    paper_rule = BanditConfig(**{**config.to_dict(), "acceptance": "fairness", "accuracy_tolerance": 0.01})
    calls.clear()
    run_acquisition(pool, train, test, paper_rule, np.random.default_rng(7), max_components=4,
                    validation=_synthetic(1)[2])
    assert calls == [True]  # fairness influence is two-sided: never re-sorted on a flip
