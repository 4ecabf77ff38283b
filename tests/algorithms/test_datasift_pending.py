"""DataSift with pending decisions: batches held apart, feedback in any order, releases, worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from service.algorithms.datasift import (
    BanditConfig,
    BanditReservedError,
    apply_feedback,
    init_state,
    next_decision,
    release,
    reserve,
)
from service.algorithms.datasift.partitions import PartitionStats

PARTS = [PartitionStats("a", 6, [0.0, 0.0], 0.1), PartitionStats("b", 6, [3.0, 4.0], 0.3)]


def _pool(config: BanditConfig):
    # partition a holds pool items 0..5, b holds 6..11 (offered in a seeded shuffled order)
    assignment = np.array([0] * 6 + [1] * 6)
    return init_state(config, PARTS, assignment=assignment, rng=np.random.default_rng(0))


def _issue(config, state, k):
    decisions = []
    for i in range(k):
        decision = next_decision(config, state, np.random.default_rng(i))
        state = reserve(config, state, decision)
        decisions.append(decision)
    return decisions, state


def test_pending_decisions_never_share_items_and_count_as_pulls():
    config = BanditConfig(batch_size=2, budget=10)
    decisions, state = _issue(config, _pool(config), 3)
    # Both untried first (one each), then the UCB's choice; every batch is distinct items of its partition.
    assert [d.reason for d in decisions][:2] == ["untried", "untried"]
    assert {d.partition for d in decisions[:2]} == {"a", "b"}
    taken = [i for d in decisions for i in d.item_indices]
    assert len(taken) == len(set(taken)) == 6
    assert [d.round for d in decisions] == [1, 2, 3]
    assert state.reserved == 6 and state.pending_decisions == 3 and state.budget_spent == 0
    assert sum(state.remaining(j) for j in range(2)) == 12 - 6


def test_feedback_in_any_order_settles_its_decision():
    config = BanditConfig(batch_size=2, budget=10)
    (first, second), state = _issue(config, _pool(config), 2)
    state, result = apply_feedback(config, state, second, 0.2, 0.15, reserved=True)  # the later one first
    assert result.accepted and state.evaluations == 1 and state.pulls[second.partition_index] == 1
    assert state.reserved == 2 and state.budget_spent == 2 and state.pending_decisions == 1
    state, result = apply_feedback(config, state, first, 0.15, 0.18, reserved=True)  # worse than the best: kept out
    assert not result.accepted and state.reserved == 0 and state.budget_spent == 2 and state.pending_decisions == 0
    assert result.budget_remaining == 8


def test_a_released_batch_is_offered_again_first():
    config = BanditConfig(batch_size=2, budget=10)
    (first,), state = _issue(config, _pool(config), 1)
    state = release(config, state, first)
    assert state.reserved == 0 and state.pending_decisions == 0
    assert state.returned[first.partition_index] == first.positions
    again = next_decision(config, state, np.random.default_rng(0))
    assert again.partition == first.partition and again.item_indices == first.item_indices  # given-back items first
    with pytest.raises(Exception, match="not pending"):
        release(config, state, first)


def test_reservations_hold_the_budget_and_do_not_stop_the_bandit():
    config = BanditConfig(batch_size=2, budget=4)
    (first, second), state = _issue(config, _pool(config), 2)
    assert not state.done
    with pytest.raises(BanditReservedError, match="2 pending decisions"):
        next_decision(config, state, np.random.default_rng(0))
    state = release(config, state, second)
    assert next_decision(config, state, np.random.default_rng(0)).batch_size == 2
    state, _ = apply_feedback(config, state, first, 0.3, 0.2, reserved=True)
    assert state.budget_spent == 2 and not state.done
