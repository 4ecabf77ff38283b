"""Pending decisions in adaptive sampling: several decisions before any report, worked by hand."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from service.algorithms.adaptive_sampling import (
    BudgetExhaustedError,
    SamplerConfig,
    SamplerState,
    apply_observation,
    draws_random,
    next_decision,
    release,
    reserve,
    score_components,
)
from service.algorithms.validation import InputError


def _issue(config: SamplerConfig, state: SamplerState, k: int, seed: int = 0) -> tuple[list[str], SamplerState]:
    groups = []
    for i in range(k):
        decision = next_decision(config, state, np.random.default_rng([seed, i]))
        state = reserve(config, state, decision)
        groups.append(decision.group)
    return groups, state


def test_eight_pending_decisions_of_a_uniform_sampler_take_each_of_four_groups_twice():
    config = SamplerConfig(groups=("a", "b", "c", "d"), budget=100, strategy="uniform")
    groups, state = _issue(config, SamplerState.initial(config), 8)
    # Rounds 1-4 are warm-up (one per group), rounds 5-8 take the fewest N_z + P_z: 1 each, lowest first.
    assert groups == ["a", "b", "c", "d", "a", "b", "c", "d"]
    assert state.pending == (2, 2, 2, 2) and state.pending_decisions == 8 and state.reserved == 8


def test_warm_up_rotates_per_decision_and_a_released_group_comes_back():
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, strategy="aopt")
    groups, state = _issue(config, SamplerState.initial(config), 2)
    assert groups == ["a", "b"]
    state = release(config, state, "a", 1)  # a's decision is let go before any report
    # Round 2 counting b's pending decision; the rotation starts at the first unreported round's slot, a.
    decision = next_decision(config, state, np.random.default_rng(0))
    assert (decision.round, decision.group) == (2, "a")
    state = reserve(config, state, decision)
    assert next_decision(config, state, np.random.default_rng(0)).group == "c"  # a and b are covered


def test_a_settled_decision_counts_its_samples_and_frees_its_reservation():
    config = SamplerConfig(groups=("a", "b"), budget=10, strategy="aopt", batch_size=2)
    _, state = _issue(config, SamplerState.initial(config), 2)  # a and b hold 2 each
    state = apply_observation(config, state, "a", 2, {"a": 0.3}, settles=2)
    assert (state.counts, state.pending, state.pending_decisions, state.budget_spent) == ((2, 0), (0, 2), 1, 2)
    # 10 - 2 spent - 2 reserved = 6 remain; an unplanned observation of 7 does not fit, one of 6 does.
    with pytest.raises(BudgetExhaustedError, match="2 samples are reserved"):
        apply_observation(config, state, "a", 7, {})
    assert apply_observation(config, state, "a", 6, {}).budget_spent == 8


def test_reservations_hold_the_budget_until_released():
    config = SamplerConfig(groups=("a", "b"), budget=3, strategy="uniform")
    _, state = _issue(config, SamplerState.initial(config), 3)
    with pytest.raises(BudgetExhaustedError, match="3 pending decisions"):
        next_decision(config, state, np.random.default_rng(0))
    state = release(config, state, "a", 1)
    assert next_decision(config, state, np.random.default_rng(0)).budget_remaining == 1
    with pytest.raises(InputError):
        release(config, state, "b", 5)  # b holds 1


def test_ucb_bonus_counts_pending_samples_but_losses_only_reported_ones():
    config = SamplerConfig(groups=("a", "b"), budget=1000, strategy="aopt", c0=1.0, warmup_rounds=0, xi=0.0)
    state = SamplerState.initial(config)
    state = apply_observation(config, state, "a", 4, {"a": 0.2, "b": 0.2})
    state = apply_observation(config, state, "b", 4, {"a": 0.2, "b": 0.2})
    # Equal N and losses: the tie goes to a. With a's 5 pending samples, a's bonus is 1/sqrt(9), b's 1/sqrt(4).
    first = next_decision(config, state, np.random.default_rng(0))
    assert first.group == "a" and first.reason == "ucb"
    state = reserve(config, state, first)
    state = reserve(config, state, replace(first, batch_size=4))  # a second decision for a, of 4
    scores = score_components(config, state)
    assert scores.bonus[0] == pytest.approx(1 / math.sqrt(4 + 5)) and scores.bonus[1] == pytest.approx(1 / 2)
    assert scores.loss.tolist() == [0.2, 0.2]  # losses are the reported ones
    assert next_decision(config, state, np.random.default_rng(0)).group == "b"


def test_with_nothing_pending_decisions_are_the_papers():
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, strategy="aopt")
    state = SamplerState.initial(config)
    seen = []
    for _ in range(3):
        decision = next_decision(config, state, np.random.default_rng(0))
        seen.append((decision.round, decision.group))
        state = apply_observation(config, state, decision.group, 1, {decision.group: 0.5})
    assert seen == [(1, "a"), (2, "b"), (3, "c")]
    assert SamplerState.from_dict({k: v for k, v in state.to_dict().items()
                                   if k not in ("pending", "pending_decisions")}).pending == (0, 0, 0)


@pytest.mark.parametrize("strategy", ["aopt", "aopt_plus", "epsilon_greedy", "greedy", "uniform"])
def test_draws_random_says_whether_the_rule_reads_its_generator(strategy):
    # A batch hands a rule that draws nothing one shared stand-in generator (service.sessions.pending):
    # sound only if the rule never reads it, through warm-up, forced exploration and the rule proper.
    config = SamplerConfig(groups=("a", "b", "c"), budget=400, strategy=strategy, epsilon=0.5)
    state = SamplerState.initial(config)
    rng = np.random.default_rng(7)
    before = rng.bit_generator.state
    reasons = set()
    for i in range(120):
        decision = next_decision(config, state, rng)
        reasons.add(decision.reason)
        losses = {g: 0.1 + 0.2 * k + 0.01 * (i % 5) for k, g in enumerate(config.groups)}
        state = apply_observation(config, state, decision.group, 1, losses)
    assert draws_random(config) == (rng.bit_generator.state != before)
    assert "warmup" in reasons and len(reasons) >= 2  # more than the warm-up was exercised
