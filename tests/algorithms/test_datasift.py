"""DataSift: partitions, eq. 1 / eq. 2, Algorithm 1's accept/reject and stopping rules,
the pure session steps, the managed run and the baselines."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from service.algorithms.datasift import (
    BanditConfig,
    BanditFinishedError,
    BanditState,
    Decision,
    StaleDecisionError,
    apply_feedback,
    init_state,
    next_decision,
    reorder_remaining,
    shared_rewards,
    ucb_scores,
)
from service.algorithms.datasift.baselines import binary_entropy, run_baseline, select_batch
from service.algorithms.datasift.influence import fit_logistic
from service.algorithms.datasift.partitions import (
    Partitioning,
    PartitionStats,
    base_rate_difference,
    normalized_distances,
    partition_pool,
)
from service.algorithms.datasift.run import LabeledData, run_acquisition

TOL = 1e-9


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """Tiny matrices: BLAS threads only contend with each other on a shared machine."""
    with threadpool_limits(1):
        yield


# ----------------------------------------------------------------------------- partitions


def test_base_rate_difference_by_hand():
    # a: 3 of 4 positive (0.75), b: 1 of 4 (0.25) -> 0.5
    labels = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    groups = np.array(["a"] * 4 + ["b"] * 4)
    assert base_rate_difference(labels, groups) == pytest.approx(0.5, abs=TOL)
    # three groups: a 1/2, b 1/1, c 0/1 -> largest pairwise gap 1.0
    assert base_rate_difference(np.array([1, 0, 1, 0]), np.array(["a", "a", "b", "c"])) == pytest.approx(1.0)
    # one group present, or no labels: undefined -> 0
    assert base_rate_difference(np.array([1, 0]), np.array(["a", "a"])) == 0.0
    assert base_rate_difference(None, None) == 0.0


def test_normalized_distances_by_hand():
    # centroids on a line: distances 5, 10, 5; divided by the largest (10)
    d = normalized_distances(np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
    np.testing.assert_allclose(d, [[0, 0.5, 1], [0.5, 0, 0.5], [1, 0.5, 0]], atol=TOL)
    np.testing.assert_allclose(normalized_distances(np.zeros((2, 3))), np.zeros((2, 2)))


def test_gmm_with_bic_recovers_three_blobs():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    blob = np.repeat(np.arange(3), 60)
    X = centres[blob] + rng.normal(scale=0.5, size=(180, 2))
    labels = (blob == 0).astype(int)
    groups = np.where(np.arange(180) % 2 == 0, "a", "b")
    result = partition_pool(X, labels, groups, rng=np.random.default_rng(1), max_components=5)
    assert len(result.partitions) == 3
    assert result.bic[3] == min(result.bic.values())
    assert sorted(p.size for p in result.partitions) == [60, 60, 60]
    for j, stats in enumerate(result.partitions):
        rows = result.assignment == j
        assert len(set(blob[rows].tolist())) == 1  # each partition is one blob
        np.testing.assert_allclose(stats.centroid, X[rows].mean(axis=0), atol=TOL)
        assert stats.base_rate_difference == pytest.approx(base_rate_difference(labels[rows], groups[rows]))


def test_column_partitioning_uses_the_columns_values():
    X = np.array([[1.0, 0.0], [2.0, 1.0], [2.0, 3.0], [3.0, 5.0]])
    labels = np.array([1, 1, 0, 0])
    groups = np.array(["a", "a", "b", "b"])
    result = partition_pool(X, labels, groups, rng=np.random.default_rng(0), method="column", column=0)
    assert [p.id for p in result.partitions] == ["1", "2", "3"]
    assert [p.size for p in result.partitions] == [1, 2, 1]
    assert result.assignment.tolist() == [0, 1, 1, 2]
    assert result.partitions[1].centroid == [2.0, 2.0]
    assert result.partitions[1].base_rate_difference == pytest.approx(1.0)  # a: 1/1, b: 0/1
    assert Partitioning.from_dict(json.loads(json.dumps(
        {**result.to_dict(), "assignment": result.assignment.tolist()}))).partitions == result.partitions


@pytest.mark.parametrize("kwargs", [{"method": "kmeans"}, {"method": "column"}, {"max_components": 1}])
def test_partition_pool_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        partition_pool(np.ones((5, 2)), None, None, rng=np.random.default_rng(0), **kwargs)


# ----------------------------------------------------------------------------- eq. 1 and eq. 2


def test_ucb_scores_by_hand():
    # n = 4; R = [0.2/2, 0/1, -0.1/1]; bonus_j = 0.1 * sqrt(2 ln(4 / (n_j + 1)))
    # j=0: ln(4/3) = 0.287682 -> 0.1 * sqrt(0.575364) = 0.075853
    # j=1,2: ln 2 = 0.693147 -> 0.1 * sqrt(1.386294) = 0.117741
    mean, bonus, ucb = ucb_scores([0.2, 0.0, -0.1], [2, 1, 1], [2, 1, 1], alpha=0.1)
    np.testing.assert_allclose(mean, [0.1, 0.0, -0.1], atol=TOL)
    np.testing.assert_allclose(bonus, [0.0758533, 0.1177410, 0.1177410], atol=1e-6)
    np.testing.assert_allclose(ucb, mean + bonus, atol=TOL)
    # scale divides the mean only (reward_scale="running_max")
    np.testing.assert_allclose(ucb_scores([0.2, 0.0, -0.1], [2, 1, 1], [2, 1, 1], 0.1, scale=0.1)[0],
                               [1.0, 0.0, -1.0], atol=TOL)


def test_ucb_bonus_is_zero_when_the_ratio_is_below_one():
    # n = 3, n_0 + 1 = 4: ln(3/4) < 0 is clipped (no NaN); nothing pulled: no bonus at all
    _, bonus, _ = ucb_scores([0.0, 0.0], [0, 0], [3, 0], alpha=0.1)
    assert bonus[0] == 0.0 and bonus[1] == pytest.approx(0.1 * np.sqrt(2 * np.log(3)))
    assert ucb_scores([0.0], [0], [0], alpha=0.1)[1].tolist() == [0.0]


def test_shared_rewards_by_hand():
    # ΔF = 0.02 from partition 0; |ΔBR| = (0.1, 0.3, 0.0); dist from 0 = (0, 0.5, 1)
    br = np.array([0.1, 0.3, 0.0])
    dist = np.array([[0.0, 0.5, 1.0], [0.5, 0.0, 0.5], [1.0, 0.5, 0.0]])
    both, credited = shared_rewards(0.02, 0, br, dist, "base_rate_distance")
    # 0.02 / (1.1 * 1), 0.02 / (1.3 * 1.5), 0.02 / (1.0 * 2)
    np.testing.assert_allclose(both, [0.0181818, 0.0102564, 0.01], atol=1e-7)
    assert credited.all()
    np.testing.assert_allclose(shared_rewards(0.02, 0, br, dist, "distance")[0], [0.02, 0.0133333, 0.01],
                               atol=1e-7)
    np.testing.assert_allclose(shared_rewards(0.02, 0, br, dist, "base_rate")[0], [0.0181818, 0.0153846, 0.02],
                               atol=1e-7)
    only, credited = shared_rewards(-0.02, 0, br, dist, "selected_only")
    assert only.tolist() == [-0.02, 0.0, 0.0] and credited.tolist() == [True, False, False]


# ----------------------------------------------------------------------------- session steps

# a (0,0) |ΔBR| .1; b (3,4) .3; c (0,0) 0 but smaller than a batch; d (6,8) 0.
# Normalised distances from a: b .5, c 0, d 1; from b: a .5, c .5, d .5.
PARTITIONS = [
    PartitionStats("a", 30, [0.0, 0.0], 0.1),
    PartitionStats("b", 20, [3.0, 4.0], -0.3),
    PartitionStats("c", 5, [0.0, 0.0], 0.0),
    PartitionStats("d", 20, [6.0, 8.0], 0.0),
]


def _decision_for(state: BanditState, config: BanditConfig, partition: str, size: int | None = None) -> Decision:
    j = state.partition_ids.index(partition)
    return Decision(state.evaluations + 1, partition, j, "test", size or state.round_batch_size(config),
                    "front", None, {})


def test_initial_state_of_client_made_partitions():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS)
    assert state.items is None and state.best_fairness is None and not state.done
    assert state.base_rate_difference == (0.1, 0.3, 0.0, 0.0)  # absolute values
    np.testing.assert_allclose(state.distance[0], [0.0, 0.5, 0.0, 1.0], atol=TOL)
    scores = next_decision(config, state, np.random.default_rng(0)).scores
    assert [s["eligible"] for s in scores.values()] == [True, True, False, True]
    assert all(s["pulls"] == 0 and s["reward"] == 0.0 for s in scores.values())


def test_feedback_accepts_an_improving_batch_by_hand():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS)
    decision = next_decision(config, state, np.random.default_rng(0))
    assert decision.reason == "untried" and decision.partition in {"a", "b", "d"}
    decision = _decision_for(state, config, "a")
    new, result = apply_feedback(config, state, decision, 0.30, 0.28)
    # ΔF = 0.02; r_j = 0.02 / ((1 + |ΔBR_j|)(1 + dist(a, j)))
    assert result.accepted and result.delta_fairness == pytest.approx(0.02)
    expected = {"a": 0.02 / 1.1, "b": 0.02 / (1.3 * 1.5), "c": 0.02, "d": 0.02 / 2.0}
    assert result.rewards == pytest.approx(expected)
    assert result.best_fairness == 0.28 and result.budget_remaining == 20 and not result.done
    assert new.remaining(0) == 20 and new.pulls == (1, 0, 0, 0) and new.reward_counts == (1, 1, 1, 1)
    assert new.evaluations == 1 and new.accepted_batches == 1 and new.budget_spent == 10


def test_untried_partitions_are_ordered_by_their_shared_reward():
    # After the pull of a above, the untried eligible partitions are b and d:
    # base_rate_distance credited b 0.010256 > d 0.01 -> b; base_rate credited b 0.015385 < d 0.02 -> d.
    for reward, expected in (("base_rate_distance", "b"), ("base_rate", "d")):
        config = BanditConfig(batch_size=10, budget=30, reward=reward)
        state = init_state(config, PARTITIONS)
        state, _ = apply_feedback(config, state, _decision_for(state, config, "a"), 0.30, 0.28)
        decision = next_decision(config, state, np.random.default_rng(0))
        assert (decision.partition, decision.reason) == (expected, "untried")


def test_ucb_exploits_once_every_partition_is_tried():
    parts = [PartitionStats("good", 50, [0.0], 0.0), PartitionStats("bad", 50, [1.0], 0.0)]
    config = BanditConfig(batch_size=5, budget=100, reward="selected_only")
    state = init_state(config, parts, initial_fairness=0.4)
    state, _ = apply_feedback(config, state, _decision_for(state, config, "good"), 0.4, 0.3)
    state, _ = apply_feedback(config, state, _decision_for(state, config, "bad"), 0.3, 0.35)
    # R = (0.1, -0.05); equal pulls -> equal bonus -> argmax R
    decision = next_decision(config, state, np.random.default_rng(0))
    assert (decision.partition, decision.reason) == ("good", "ucb")
    assert decision.scores["good"]["ucb"] > decision.scores["bad"]["ucb"]


def test_rejected_batch_leaves_the_pool_but_not_the_budget():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS)
    state, _ = apply_feedback(config, state, _decision_for(state, config, "a"), 0.30, 0.28)
    new, result = apply_feedback(config, state, _decision_for(state, config, "b"), 0.28, 0.29)
    assert not result.accepted and result.delta_fairness == pytest.approx(-0.01)
    assert result.rewards["b"] == pytest.approx(-0.01 / 1.3)  # a penalty
    assert result.best_fairness == 0.28 and result.budget_remaining == 20
    assert new.remaining(1) == 10 and new.budget_spent == 10 and new.accepted_batches == 1


def test_batch_without_change_is_rejected():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS, initial_fairness=0.3)
    new, result = apply_feedback(config, state, _decision_for(state, config, "a"), 0.3, 0.3)
    assert not result.accepted and all(r == 0.0 for r in result.rewards.values())


def test_signed_fairness_is_compared_in_absolute_value():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS, initial_fairness=0.3)
    new, result = apply_feedback(config, state, _decision_for(state, config, "a"), 0.3, -0.25)
    assert result.accepted and result.delta_fairness == pytest.approx(0.05) and result.best_fairness == -0.25


def test_stops_at_the_fairness_threshold():
    config = BanditConfig(batch_size=10, budget=30, fairness_threshold=0.01)
    state = init_state(config, PARTITIONS, initial_fairness=0.3)
    decision = _decision_for(state, config, "a")
    new, result = apply_feedback(config, state, decision, 0.3, 0.005)
    assert result.done and result.stop_reason == "fairness_threshold"
    with pytest.raises(BanditFinishedError):
        next_decision(config, new, np.random.default_rng(0))
    with pytest.raises(BanditFinishedError):
        apply_feedback(config, new, _decision_for(new, config, "b"), 0.005, 0.001)
    assert init_state(config, PARTITIONS, initial_fairness=0.009).stop_reason == "fairness_threshold"


def test_budget_shrinks_the_last_batch_and_then_stops():
    config = BanditConfig(batch_size=10, budget=25)
    state = init_state(config, PARTITIONS, initial_fairness=0.5)
    for before, after in ((0.5, 0.4), (0.4, 0.3)):
        state, _ = apply_feedback(config, state, _decision_for(state, config, "a"), before, after)
    decision = next_decision(config, state, np.random.default_rng(0))
    assert decision.batch_size == 5
    assert decision.scores["c"]["eligible"]  # 5 items are now a full batch
    state, result = apply_feedback(config, state, decision, 0.3, 0.2)
    assert result.done and result.stop_reason == "budget" and result.budget_remaining == 0


def test_stops_after_max_evaluations():
    config = BanditConfig(batch_size=10, budget=30, max_evaluations=2)
    state = init_state(config, PARTITIONS, initial_fairness=0.3)
    state, first = apply_feedback(config, state, _decision_for(state, config, "a"), 0.3, 0.31)
    state, second = apply_feedback(config, state, _decision_for(state, config, "b"), 0.3, 0.32)
    assert not first.done and second.done and second.stop_reason == "max_evaluations"


def test_stops_when_no_partition_holds_a_full_batch():
    parts = [PartitionStats("x", 12, [0.0], 0.0), PartitionStats("y", 5, [1.0], 0.0)]
    config = BanditConfig(batch_size=10, budget=100)
    state = init_state(config, parts, initial_fairness=0.3)
    state, result = apply_feedback(config, state, _decision_for(state, config, "x"), 0.3, 0.31)
    assert result.done and result.stop_reason == "pool_exhausted"
    assert init_state(config, parts[1:]).stop_reason == "pool_exhausted"


def test_stale_or_foreign_decisions_are_refused():
    config = BanditConfig(batch_size=10, budget=30)
    state = init_state(config, PARTITIONS)
    decision = _decision_for(state, config, "a")
    state2, _ = apply_feedback(config, state, decision, 0.3, 0.2)
    with pytest.raises(StaleDecisionError):
        apply_feedback(config, state2, decision, 0.2, 0.1)
    with pytest.raises(ValueError):
        apply_feedback(config, state, _decision_for(state, config, "c", size=10), 0.3, 0.2)
    with pytest.raises(ValueError):
        apply_feedback(config, state, decision, float("nan"), 0.2)


def test_running_max_divides_rewards_by_the_largest_change():
    config = BanditConfig(batch_size=5, budget=100, reward="selected_only", reward_scale="running_max")
    parts = [PartitionStats("a", 50, [0.0], 0.0), PartitionStats("b", 50, [1.0], 0.0)]
    state = init_state(config, parts, initial_fairness=0.3)
    state, first = apply_feedback(config, state, _decision_for(state, config, "a"), 0.30, 0.28)
    state, second = apply_feedback(config, state, _decision_for(state, config, "b"), 0.28, 0.29)
    # largest |ΔF| = 0.02: a's 0.02 -> 1.0, b's -0.01 -> -0.5
    assert first.rewards == pytest.approx({"a": 1.0}) and second.rewards == pytest.approx({"b": -0.5})
    scores = next_decision(config, state, np.random.default_rng(0)).scores
    assert (scores["a"]["reward"], scores["b"]["reward"]) == pytest.approx((1.0, -0.5))
    unscaled = BanditConfig(batch_size=5, budget=100, reward="selected_only")
    scores = next_decision(unscaled, state, np.random.default_rng(0)).scores
    assert (scores["a"]["reward"], scores["b"]["reward"]) == pytest.approx((0.02, -0.01))


def test_ties_are_broken_by_rng_and_reproducibly():
    parts = [PartitionStats("p", 10, [0.0], 0.0), PartitionStats("q", 10, [0.0], 0.0)]
    config = BanditConfig(batch_size=5, budget=10)
    state = init_state(config, parts)
    picks = {next_decision(config, state, np.random.default_rng(s)).partition for s in range(20)}
    assert picks == {"p", "q"}
    assert (next_decision(config, state, np.random.default_rng(7))
            == next_decision(config, state, np.random.default_rng(7)))


def _pool_bandit(batch_selection: str, initial_fairness: float | None, influence=None):
    # partition 0 holds pool items 0, 1, 2 and partition 1 holds 3, 4, 5
    parts = [PartitionStats("0", 3, [0.0], 0.0), PartitionStats("1", 3, [1.0], 0.0)]
    config = BanditConfig(batch_size=2, budget=4, batch_selection=batch_selection)
    state = init_state(config, parts, assignment=np.array([0, 0, 0, 1, 1, 1]), rng=np.random.default_rng(3),
                       influence=influence, initial_fairness=initial_fairness)
    return config, state


def test_random_batches_are_a_shuffle_within_each_partition():
    config, state = _pool_bandit("random", 0.3)
    assert sorted(state.partition_items(0).tolist()) == [0, 1, 2]
    assert sorted(state.partition_items(1).tolist()) == [3, 4, 5]
    decision = next_decision(config, state, np.random.default_rng(0))
    window = state.partition_items(decision.partition_index)
    assert list(decision.item_indices) == window[:2].tolist()
    new, _ = apply_feedback(config, state, decision, 0.3, 0.4)  # rejected, still leaves the pool
    assert new.partition_items(decision.partition_index).tolist() == window[2:].tolist()
    assert not state.items.flags.writeable


def test_influence_batches_take_the_most_reducing_end():
    influence = np.array([0.3, -0.2, 0.1, -0.5, 0.4, 0.0])
    # ascending within partitions: (1, 2, 0) and (3, 5, 4)
    config, state = _pool_bandit("influence", 0.2, influence)
    assert state.partition_items(0).tolist() == [1, 2, 0] and state.partition_items(1).tolist() == [3, 5, 4]
    decision = next_decision(config, state, np.random.default_rng(0))
    front = {0: (1, 2), 1: (3, 5)}[decision.partition_index]
    assert decision.take == "front" and decision.item_indices == front
    # fairness of the other sign: a positive influence now reduces |F|
    config, state = _pool_bandit("influence", -0.2, influence)
    decision = next_decision(config, state, np.random.default_rng(0))
    back = {0: (2, 0), 1: (5, 4)}[decision.partition_index]
    assert decision.take == "back" and decision.item_indices == back
    new, _ = apply_feedback(config, state, decision, -0.2, -0.1)
    assert new.remaining(decision.partition_index) == 1 and new.start == (0, 0)
    with pytest.raises(ValueError):
        init_state(config, [PartitionStats("x", 3, [0.0], 0.0)])  # influence needs the pool


def test_reorder_remaining_keeps_offered_items_in_place():
    config, state = _pool_bandit("influence", 0.2, np.array([0.3, -0.2, 0.1, -0.5, 0.4, 0.0]))
    decision = _decision_for(state, config, "0")
    state, _ = apply_feedback(config, state, decision, 0.2, 0.1)  # offered items 1, 2
    new = reorder_remaining(state, np.array([0, 0, 0, 9.0, -9.0, 1.0]))
    assert new.items[:3].tolist() == state.items[:3].tolist()
    assert new.partition_items(1).tolist() == [4, 5, 3]


def test_steps_are_pure_and_the_state_round_trips_through_json():
    config, state = _pool_bandit("random", None)
    snapshot = json.dumps({**state.to_dict(), "items": state.items.tolist()})
    decision = next_decision(config, state, np.random.default_rng(0))
    new, result = apply_feedback(config, state, decision, 0.3, 0.2)
    assert json.dumps({**state.to_dict(), "items": state.items.tolist()}) == snapshot  # unchanged
    data = new.to_dict()
    assert isinstance(data["items"], np.ndarray)
    restored = BanditState.from_dict(json.loads(json.dumps({**data, "items": data["items"].tolist()})))
    assert restored == new and restored.offsets == new.offsets
    assert Decision.from_dict(json.loads(json.dumps(decision.to_dict()))) == decision
    assert BanditConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    json.dumps(result.to_dict())
    # the restored state continues exactly like the original
    assert next_decision(config, restored, np.random.default_rng(1)) == next_decision(
        config, new, np.random.default_rng(1))


@pytest.mark.parametrize("bad", [{"reward": "shapley"}, {"reward_scale": "max"}, {"metric": "accuracy"},
                                 {"batch_selection": "greedy"}, {"batch_size": 0}, {"alpha": -1.0},
                                 {"fairness_threshold": float("nan")}, {"max_evaluations": 0}])
def test_config_rejects_bad_values(bad):
    with pytest.raises(ValueError):
        BanditConfig(**{"batch_size": 5, "budget": 10, **bad})


# ----------------------------------------------------------------------------- managed run


def _synthetic(seed: int = 0) -> tuple[LabeledData, LabeledData, LabeledData]:
    """Two groups; group a has higher scores; the training set over-represents a's positives."""
    rng = np.random.default_rng(seed)

    def draw(n):
        groups = rng.choice(np.array(["a", "b"]), n, p=[0.6, 0.4])
        X = rng.normal(size=(n, 3)) + np.where(groups == "a", 0.8, 0.0)[:, None] * np.array([1.0, 0.0, 0.5])
        y = (rng.random(n) < 1 / (1 + np.exp(-(1.5 * X[:, 0] + 0.5 * X[:, 1] - 0.5)))).astype(int)
        return X, y, groups

    X, y, g = draw(800)
    biased = np.flatnonzero((g == "b") | (y == 1))[:60]
    train = LabeledData(X[biased], y[biased], g[biased])
    Xp, yp, gp = draw(600)
    Xt, yt, gt = draw(400)
    return LabeledData(Xp, yp, gp), train, LabeledData(Xt, yt, gt)


@pytest.mark.parametrize("batch_selection", ["random", "influence"])
def test_managed_run_invariants(batch_selection):
    pool, train, test = _synthetic()
    config = BanditConfig(batch_size=20, budget=120, batch_selection=batch_selection, max_evaluations=15)
    fractions: list[float] = []
    result = run_acquisition(pool, train, test, config, np.random.default_rng(0), max_components=4,
                             progress=fractions.append)
    acquired = result.acquired
    assert len(set(acquired.tolist())) == len(acquired) <= config.budget and len(acquired) % 20 == 0
    assert acquired.min() >= 0 and acquired.max() < len(pool)
    assert result.stop_reason in {"fairness_threshold", "budget", "max_evaluations", "pool_exhausted"}
    kept = [abs(t["fairness"]) for t in result.trajectory if t["accepted"]]
    assert kept == sorted(kept, reverse=True) and all(k <= abs(result.initial_fairness) for k in kept)
    assert abs(result.final_fairness) == (kept[-1] if kept else abs(result.initial_fairness))
    assert result.trajectory[-1]["n_acquired"] == len(acquired)
    assert fractions == sorted(fractions) and fractions[0] >= 0 and fractions[-1] == 1.0
    json.dumps(result.to_dict())


def test_managed_run_drives_the_session_steps():
    """run_acquisition equals a hand-written loop over next_decision / apply_feedback."""
    pool, train, test = _synthetic(1)
    config = BanditConfig(batch_size=25, budget=100, max_evaluations=8)
    partitioning = partition_pool(pool.X, pool.y, pool.groups, rng=np.random.default_rng(5), max_components=3)
    result = run_acquisition(pool, train, test, config, np.random.default_rng(9), partitioning=partitioning)

    from service.algorithms.datasift.run import Evaluator

    rng = np.random.default_rng(9)
    model = fit_logistic(train.X, train.y)
    evaluate = Evaluator(test, config.metric, model)
    fairness, _ = evaluate(model)
    state = init_state(config, partitioning.partitions, assignment=partitioning.assignment, rng=rng,
                       initial_fairness=fairness)
    X, y, acquired = train.X, train.y, []
    while not state.done:
        decision = next_decision(config, state, rng)
        batch = list(decision.item_indices)
        after, _ = evaluate(fit_logistic(np.vstack([X, pool.X[batch]]), np.concatenate([y, pool.y[batch]])))
        state, feedback = apply_feedback(config, state, decision, fairness, after)
        if feedback.accepted:
            X, y, fairness = np.vstack([X, pool.X[batch]]), np.concatenate([y, pool.y[batch]]), after
            acquired += batch
    assert result.acquired.tolist() == acquired and result.stop_reason == state.stop_reason


def test_managed_run_can_be_cancelled_and_is_deterministic():
    pool, train, test = _synthetic(2)
    config = BanditConfig(batch_size=20, budget=200)
    calls = iter([False, False, True])
    result = run_acquisition(pool, train, test, config, np.random.default_rng(0), max_components=3,
                             should_stop=lambda: next(calls))
    assert result.stop_reason == "cancelled" and result.evaluations == 2 and len(result.trajectory) == 2
    again = [run_acquisition(pool, train, test, BanditConfig(batch_size=20, budget=60),
                             np.random.default_rng(4), max_components=3) for _ in range(2)]
    assert again[0].acquired.tolist() == again[1].acquired.tolist()
    assert again[0].trajectory == again[1].trajectory


def test_progress_reaches_one_even_without_a_round():
    pool, train, test = _synthetic()
    fractions: list[float] = []
    config = BanditConfig(batch_size=10, budget=20, fairness_threshold=10.0)  # fair enough at the start
    result = run_acquisition(pool, train, test, config, np.random.default_rng(0), max_components=2,
                             progress=fractions.append)
    assert result.stop_reason == "fairness_threshold" and result.evaluations == 0 and fractions == [1.0]


def test_managed_run_rejects_unusable_test_sets():
    pool, train, test = _synthetic()
    one_group = LabeledData(test.X, test.y, np.full(len(test), "a"))
    with pytest.raises(ValueError):
        run_acquisition(pool, train, one_group, BanditConfig(batch_size=10, budget=20), np.random.default_rng(0))
    with pytest.raises(ValueError):
        LabeledData(np.array([[np.nan]]), np.array([1]), np.array(["a"]))


# ----------------------------------------------------------------------------- baselines


def test_binary_entropy_by_hand():
    # H(0.25) = -(0.25 log2 0.25 + 0.75 log2 0.75) = 0.5 + 0.311278 = 0.811278
    np.testing.assert_allclose(binary_entropy(np.array([0.5, 0.25, 0.0, 1.0])), [1.0, 0.811278, 0.0, 0.0],
                               atol=1e-6)


def test_select_batch_takes_the_highest_scores_among_the_remaining():
    score = np.array([9.0, 5.0, 1.0, 7.0, 0.0, 7.0])
    remaining = np.array([1, 2, 3, 5])
    assert select_batch("score", remaining, 2, np.random.default_rng(0), score=score).tolist() == [3, 5]
    picked = select_batch("random", remaining, 3, np.random.default_rng(0))
    assert len(set(picked.tolist())) == 3 and set(picked.tolist()) <= set(remaining.tolist())


@pytest.mark.parametrize("strategy", ["random", "entropy", "influence"])
def test_baselines_spend_the_budget(strategy):
    pool, train, test = _synthetic(3)
    result = run_baseline(strategy, pool, train, test, budget=90, batch_size=40, rng=np.random.default_rng(0))
    assert len(result.acquired) == 90 == len(set(result.acquired.tolist()))
    assert [t["n_acquired"] for t in result.trajectory] == [40, 80, 90]
    assert all(t["accepted"] and t["partition"] is None for t in result.trajectory)


def test_entropy_baseline_first_takes_the_most_uncertain_points():
    pool, train, test = _synthetic(4)
    result = run_baseline("entropy", pool, train, test, budget=30, batch_size=30, rng=np.random.default_rng(0))
    entropy = binary_entropy(fit_logistic(train.X, train.y).predict_proba(pool.X))
    assert sorted(result.acquired.tolist()) == sorted(np.argsort(-entropy, kind="stable")[:30].tolist())


# ----------------------------------------------------------------------------- the library stays pure

ALLOWED_ROOTS = {"numpy", "scipy", "sklearn", "cvxpy", "service", "__future__", "collections", "dataclasses",
                 "math", "typing"}


@pytest.mark.parametrize("module", ["__init__", "steps", "state", "rewards", "setup", "partitions", "pool", "run",
                                    "baselines", "influence"])
def test_modules_import_only_the_numerical_stack(module):
    path = Path(__file__).resolve().parents[2] / "service" / "algorithms" / "datasift" / f"{module}.py"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                assert name.split(".")[0] in ALLOWED_ROOTS, f"{module} imports {name}"
                if name.startswith("service."):
                    assert name.startswith("service.algorithms"), f"{module} imports {name}"
